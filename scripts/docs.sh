#!/usr/bin/env bash
# Build the documentation site with warnings as errors:
#   bash scripts/docs.sh            -> docs/_build/html/index.html
# (Sphinx with MyST, numpydoc, sphinx-gallery and furo from Debian, installed
# by scripts/setup.sh; the gallery's examples run during the build.)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
py="$here/.venv/bin/python"
[ -x "$py" ] || py=/usr/bin/python3
export MPLBACKEND=Agg PYTHONDONTWRITEBYTECODE=1
# generated pages (API stubs, the gallery) are rebuilt from scratch, so a
# renamed function leaves no stale page behind
rm -rf docs/api/generated docs/auto_examples
exec "$py" -m sphinx -E -W --keep-going -b html -q -j 1 docs "${1:-docs/_build/html}"
