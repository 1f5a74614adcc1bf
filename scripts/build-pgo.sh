#!/usr/bin/env bash
# The fastest build of the simulator: a release build optimised with GCC's profile-guided
# optimisation, in build/pgo (kun-sim and bench_harness). Three stages, about twice the
# time of a release build:
#   1. build instrumented (-fprofile-generate);
#   2. train: kun-sim property runs and the default scenario, on seeds the benchmarks do
#      not use, so the benchmark measures code trained on other runs;
#   3. rebuild the same objects with -fprofile-use.
# The profile is made afresh each time (a profile from other sources is an error to GCC),
# so run the whole script after any change. The operator binary is not built here: its
# real-cluster work is not what the training runs.
# Usage: scripts/build-pgo.sh [--help]
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
if [ $# -ne 0 ]; then
  echo "build-pgo.sh: unexpected argument '$1' (the script takes none; see --help)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
dir=build/pgo
targets=(--target kun-sim bench_harness)
jobs=$(nproc)

echo "build-pgo: 1/3 instrumented build in $dir" >&2
cmake --preset release -B "$dir" \
  -DCMAKE_CXX_FLAGS="-fprofile-generate -fprofile-update=single" \
  -DCMAKE_EXE_LINKER_FLAGS="-fprofile-generate" >/dev/null
find "$dir" -name '*.gcda' -delete
cmake --build "$dir" -j "$jobs" "${targets[@]}"

echo "build-pgo: 2/3 training runs" >&2
train=$(mktemp -d)
trap 'rm -rf "$train"' EXIT
"$dir/bin/kun-sim" prop --runs 200 --seed 2000 --max-faults 10 --out "$train" -q
"$dir/bin/kun-sim" run scenarios/default.yaml -q >/dev/null

echo "build-pgo: 3/3 optimised build" >&2
# -fprofile-partial-training: code the training never ran is optimised as in a plain
# release build, not for size.
cmake -B "$dir" \
  -DCMAKE_CXX_FLAGS="-fprofile-use -fprofile-partial-training -Wno-missing-profile" \
  -DCMAKE_EXE_LINKER_FLAGS="" >/dev/null
cmake --build "$dir" -j "$jobs" "${targets[@]}"
echo "build-pgo: done: $dir/bin/kun-sim, $dir/bin/bench_harness" >&2
