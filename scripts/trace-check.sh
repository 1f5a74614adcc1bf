#!/usr/bin/env bash
# Prints what a change must not move when it only makes the simulation cheaper: the trace
# hash of every scenarios/*.yaml at seeds 1 and 5, then the per-run lines of
# `kun-sim prop --runs 300 --seed 1`. Run it for the binary before and after a change and
# diff the two files: equal output = the same runs, event for event.
set -euo pipefail
if [[ $# -ne 2 || $1 == -h || $1 == --help ]]; then
  echo "usage: scripts/trace-check.sh KUN_SIM_BINARY OUTFILE   (run from the repository root)" >&2
  exit 2
fi
bin=$(realpath "$1")
out=$(realpath -m "$2")
: > "$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
cd "$(dirname "$0")/.."
for f in scenarios/*.yaml; do
  for seed in 1 5; do
    "$bin" run "$f" --seed "$seed" -q --json "$tmp" >/dev/null 2>&1 || true
    echo "$f $seed $(grep -o '"trace_hash"[^,}]*' "$tmp" | head -1)" >> "$out"
  done
done
"$bin" prop --runs 300 --seed 1 2>&1 | grep -v -i 'second\|wall\|/s\|elapsed' >> "$out" || true
