# shellcheck shell=bash disable=SC2034  # REPO_ROOT and STATE_ROOT are for the sourcing scripts
# Helpers shared by scripts/rails-server and scripts/fault-server (sourced, not run).
# The caller sets PROG (its name for messages) before sourcing.

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STATE_ROOT="${RMAP_STATE_DIR:-$REPO_ROOT/.build/test-servers}"

die() {
  echo "$PROG: $*" >&2
  exit 1
}

# Installs the named Debian packages that dpkg does not list as installed.
# Runs `apt-get update` only when the first install attempt fails.
ensure_debian_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0

  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300)
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "need root to install: ${missing[*]}"
    apt=(sudo "${apt[@]}")
  fi
  echo "$PROG: installing ${missing[*]}" >&2
  "${apt[@]}" install -y "${missing[@]}" >&2 && return 0
  echo "$PROG: install failed; running apt-get update and retrying" >&2
  if ! { "${apt[@]}" update >&2 && "${apt[@]}" install -y "${missing[@]}" >&2; }; then
    die "could not install: ${missing[*]}"
  fi
}

# Holds an exclusive lock on $1 for the rest of the calling script (fd 9).
take_lock() {
  mkdir -p "$(dirname "$1")"
  exec 9>"$1"
  flock -w 120 9 || die "timed out waiting for lock $1"
}

# True when pid $1 runs (a zombie waiting for its adopter to reap it counts as gone).
pid_alive() {
  [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null || return 1
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

# Prints the pid stored in file $1 (nothing if missing).
read_pid() {
  [ -f "$1" ] && tr -dc '0-9' <"$1"
}

# Prints the HTTP status code of `GET $2` on 127.0.0.1:$1 (no curl needed).
http_status() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$2" "$1" >&3
    IFS=' ' read -r -t 5 _ code _ <&3 || exit 1
    echo "$code"
  ) 2>/dev/null
}

# Sends TERM to pid $1, waits up to 10 s, then KILL.
stop_pid() {
  local pid=$1 i
  pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    pid_alive "$pid" || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  sleep 0.1
}

# Waits until $2 (a log file) shows "Listening on http://127.0.0.1:PORT" or the
# server (pid $1) exits; prints PORT. $3 is the regex that captures the port.
wait_for_port() {
  local pid=$1 log=$2 pattern=$3 i port
  for ((i = 0; i < 300; i++)); do
    port=$(sed -nE "s#.*${pattern}.*#\\1#p" "$log" 2>/dev/null | head -n1)
    [ -n "$port" ] && { echo "$port"; return 0; }
    pid_alive "$pid" || return 1
    sleep 0.1
  done
  return 1
}

# Waits until GET $3 on port $2 answers 200 while pid $1 lives (30 s at most).
wait_for_http() {
  local pid=$1 port=$2 path=$3 i
  for ((i = 0; i < 300; i++)); do
    [ "$(http_status "$port" "$path")" = 200 ] && return 0
    pid_alive "$pid" || return 1
    sleep 0.1
  done
  return 1
}
