#!/usr/bin/env bash
# pybcv: one idempotent set-up script.
#  - Debian: R, Java, the python3-* libraries, the R packages Debian carries
#  - CRAN: RWeka (+RWekajars), kknn, tree (only those Debian lacks)
#  - .venv at the repo root (system site packages) with pybcv installed editable
# A second run only checks. Set PYBCV_SKIP_R=1 to skip everything R-related.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
log() { printf '[setup] %s\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

DEB_PY=(python3 python3-venv python3-pip python3-setuptools python3-wheel
        python3-numpy python3-scipy python3-pandas python3-sklearn
        python3-matplotlib python3-pytest python3-hypothesis python3-joblib
        python3-distributed python3-tqdm python3-torch
        python3-build twine
        python3-sphinx python3-numpydoc python3-sphinx-gallery furo python3-myst-parser)
DEB_R=(r-base-core r-base-dev default-jdk-headless python3-rpy2
       r-cran-rjava r-cran-igraph r-cran-mlbench r-cran-reticulate
       r-cran-testthat r-cran-roxygen2 r-cran-knitr r-cran-rmarkdown pandoc qpdf)
CRAN_PKGS=(RWekajars RWeka kknn tree)

want=("${DEB_PY[@]}")
if [ "${PYBCV_SKIP_R:-0}" != 1 ]; then want+=("${DEB_R[@]}"); fi

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing from Debian: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian packages: all present"
fi

if [ "${PYBCV_SKIP_R:-0}" != 1 ]; then
  # CRAN packages Debian lacks, into R's site library.
  need=$(Rscript -e 'p <- commandArgs(TRUE); cat(p[!vapply(p, requireNamespace, TRUE, quietly = TRUE)])' "${CRAN_PKGS[@]}" 2>/dev/null || true)
  if [ -n "$need" ]; then
    log "configuring R for Java"
    $SUDO R CMD javareconf >/dev/null 2>&1 || true
    log "installing from CRAN: $need"
    $SUDO Rscript -e 'p <- commandArgs(TRUE); install.packages(p, repos = "https://cloud.r-project.org", Ncpus = 2, quiet = TRUE); bad <- p[!vapply(p, requireNamespace, TRUE, quietly = TRUE)]; if (length(bad)) stop("CRAN install failed: ", paste(bad, collapse = ", "))' $need
  else
    log "CRAN packages: all present"
  fi
fi

# --- java/ (Weka learners inside the JVM): R/inst/java/pybcv-weka.jar, the one
# copy the R package, the bridge and the wheel load (scripts/build_java.sh;
# rebuilt only when java/src or weka.jar changed).
if [ "${PYBCV_SKIP_R:-0}" != 1 ] && [ -d java/src ]; then
  bash scripts/build_java.sh \
    || log "java: no jar; the Weka learners use RWeka's interface (3-5x slower per fit)"
fi

# The virtual environment (Debian's interpreter, its site packages visible).
if [ ! -x .venv/bin/python ]; then
  log "creating .venv"
  /usr/bin/python3 -m venv --system-site-packages .venv
fi
# The check runs in a scratch folder that holds an empty folder named pybcv
# (as the parent of a clone named pybcv does): the install must win over a
# namespace package in the working directory.  editable_mode=compat puts the
# checkout on sys.path through a .pth file, which a regular package found
# there beats; the default import-hook editable install loses to it.
probe=$(mktemp -d)
mkdir "$probe/pybcv"
if ! (cd "$probe" && "$here/.venv/bin/python" -c 'import sys, pybcv, r_bridge; from pybcv import compare; sys.exit(0 if pybcv.__file__.startswith(sys.argv[1]) else 1)' "$here" 2>/dev/null) \
   || [ ! -x .venv/bin/pybcv ]; then
  log "installing pybcv into .venv (editable)"
  .venv/bin/python -m pip install -q --no-build-isolation --no-deps --no-index \
    --config-settings editable_mode=compat -e . >/dev/null
else
  log ".venv: pybcv installed"
fi
rm -rf "$probe"
log "ok"
