#!/usr/bin/env bash
# The main job: install what is missing, configure and build (release), then run the
# default demo in the simulator. Extra arguments go to the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release --target kun-sim
exec ./build/release/bin/kun-sim demo "$@"
