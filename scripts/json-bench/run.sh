#!/bin/sh
# Measures JSON parsers producing JSONValue trees: MB/s and peak RSS.
# Usage: scripts/json-bench/run.sh   (needs libyajl-dev for the yajl candidate)
set -e
cd "$(dirname "$0")"
[ -f records.json ] || python3 generate.py
swift build -c release
for mode in foundation yajl-noop yajl simd stream; do
    /usr/bin/time -f "  peak RSS %M KB" .build/release/bench "$mode" records.json
done
/usr/bin/time -f "  peak RSS %M KB" .build/release/bench stream records.jsonl
