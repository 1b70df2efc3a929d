#!/usr/bin/env bash
# Set up (idempotent) and run the whole test suite: Python tests, the R
# bridge tests and the R package's testthat suite (through pytest).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh --runslow`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
bash scripts/setup.sh
export PYTHONDONTWRITEBYTECODE=1
exec .venv/bin/python -m pytest -ra -p no:cacheprovider "$@"
