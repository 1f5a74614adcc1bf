#!/usr/bin/env bash
# The main job: install what is missing, configure and build (release), then run the
# default scenario in the simulator (scenarios/default.yaml): create a cluster, write,
# kill the master, change a parameter, delete a pod, verdict. Extra arguments go to
# `kun-sim run` (e.g. --seed 7 --json report.json --timeline run.svg).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release --target kun-sim
exec ./build/release/bin/kun-sim run scenarios/default.yaml "$@"
