#!/usr/bin/env bash
# Set up (idempotent) and run the main job on its embedded default:
# `pybcv compare` -- J48-unpruned against FNN (weighted) on an EXP6 data set
# of 300 records, with the two 5x2 BCV tests.  Extra arguments go to
# `pybcv compare` (`bash scripts/run.sh --tests all`: every test).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
bash scripts/setup.sh
exec .venv/bin/pybcv compare "$@"
