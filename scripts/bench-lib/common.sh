# shellcheck shell=bash disable=SC2034  # rmap, seconds, cpu_seconds and rss_kb are for the sourcing scripts
# Helpers shared by scripts/bench and its --scale and --scale-out modes (scripts/bench-scale,
# scripts/bench-scaleout); sourced, not run. The caller sets repo (the repository), work (the
# folder for stores, data and timings, .build/bench) and runs (how many runs `measure` makes).

# bench_build: the Debian packages the benchmarks use and the release rmap, in $rmap.
bench_build() {
  "$repo/scripts/ensure-packages" libyaml-dev libsqlite3-dev libpq-dev libsimdjson-dev libcurl4-openssl-dev libjemalloc-dev pkg-config time python3-venv sqlite3
  swift build --package-path "$repo" -c release --product rmap 1>&2
  rmap="$repo/.build/release/rmap"
}

# flat_data N: the flat files (people, projects, tasks) of N people, generated under
# $work/data-N when absent (streamed to disk, so any N fits in a few MiB); prints the folder.
flat_data() {
  local dir="$work/data-$1"
  if [ ! -f "$dir/people.json" ] || [ ! -f "$dir/projects.json" ] || [ ! -f "$dir/tasks.json" ]; then
    echo "generating the flat files for N=$1 ..." >&2
    python3 "$repo/scripts/bench-lib/generate.py" "$1" "$dir" --flat
  fi
  echo "$dir"
}

# measure LABEL FRESH COMMAND...: runs the command $runs times under /usr/bin/time, deleting the
# file FRESH first each time ("-": none); sets seconds to the fastest run, cpu_seconds to that
# run's processor time (user and system, the command's own) and rss_kb to the largest peak. Each
# run starts after the disk has written out what the previous one left. The command's stdout and
# stderr are in $work/out-LABEL.txt and $work/err-LABEL.txt.
measure() {
  local label="$1" fresh="$2"
  shift 2
  local stats="$work/time-$label.txt" best="" cpu="" peak=0 run_seconds run_rss run_user run_system
  for _ in $(seq "$runs"); do
    [ "$fresh" = "-" ] || rm -f "$fresh"
    sync
    /usr/bin/time -f "%e %M %U %S" -o "$stats" "$@" >"$work/out-$label.txt" 2>"$work/err-$label.txt" || {
      echo "$label failed:" >&2
      tail -n 20 "$work/err-$label.txt" >&2
      exit 1
    }
    read -r run_seconds run_rss run_user run_system <"$stats"
    if [ -z "$best" ] || python3 -c "import sys; sys.exit($run_seconds >= $best)"; then
      best=$run_seconds cpu="$(python3 -c "print(f'{$run_user + $run_system:.2f}')")"
    fi
    if [ "$run_rss" -gt "$peak" ]; then peak=$run_rss; fi
  done
  seconds=$best cpu_seconds=$cpu rss_kb=$peak
}

rate() { python3 -c "print(f'{$1 / max($2, 0.001):,.0f}')"; }
ratio() { python3 -c "print(f'{($1 / max($2, 0.001)) / ($3 / max($4, 0.001)):.2f}')"; }

# at_exit COMMAND: runs COMMAND when the script exits, after those given before it.
exit_commands=""
at_exit() {
  exit_commands+="$1; "
  # shellcheck disable=SC2064  # the commands are fixed now, their variables read at exit
  trap "$exit_commands" EXIT
}

# postgres_start: a throwaway PostgreSQL server (scripts/postgres-server), stopped when the
# script exits; sets postgres_url to its rmap_test database (postgres, no password).
postgres_start() {
  postgres_url="$("$repo/scripts/postgres-server" start | grep '^POSTGRES_URL=' | cut -d= -f2-)"
  at_exit '"$repo/scripts/postgres-server" stop >/dev/null 2>&1 || true'
}

# postgres_fresh NAME: the database NAME on that server, dropped first if it was there; prints its URL.
postgres_fresh() {
  psql -X -q -v ON_ERROR_STOP=1 "$postgres_url" -c "SET client_min_messages TO warning" -c "DROP DATABASE IF EXISTS $1" \
    -c "CREATE DATABASE $1" >/dev/null
  echo "${postgres_url%/*}/$1"
}

# postgres_drop NAME: drops the database NAME.
postgres_drop() {
  psql -X -q -v ON_ERROR_STOP=1 "$postgres_url" -c "DROP DATABASE IF EXISTS $1" >/dev/null
}
