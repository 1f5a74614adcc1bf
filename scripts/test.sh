#!/usr/bin/env bash
# The test job: install what is missing, configure and build the dev preset (Debug with
# ASan+UBSan), then run the default test labels (unit, property, scenario).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
cmake --preset dev >/dev/null
cmake --build --preset dev
ctest --preset dev "$@"
