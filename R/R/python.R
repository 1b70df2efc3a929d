## Finding Python, importing pybcv lazily, and calling it.

.pybcv <- new.env(parent = emptyenv())

## The directory the package was installed from.  R CMD INSTALL evaluates
## this file with the package source as working directory, so this is the
## source path at install time (a temporary directory for tarballs).  It is
## only one of the places searched for a .venv.
.install_source <- tryCatch(normalizePath(getwd(), mustWork = FALSE), error = function(e) "")

setup_hint <- paste0(
  "Point the package at a Python that can import pybcv with ",
  "pybcv::use_pybcv_python(\"/path/to/python\") (or Sys.setenv(PYBCV_PYTHON = ...)) ",
  "before the first call; or create one with pybcv::install_pybcv(\"/path/to/pybcv\") ",
  "(a checkout or a wheel); or run `bash scripts/setup.sh` in the pybcv repository ",
  "(it creates <repo>/.venv) and start R inside it.")

## reticulate's convention: a package's own virtual environment is "r-<package>".
pybcv_envname <- "r-pybcv"

## TRUE when `python` can import pybcv (a quick subprocess; Python not bound).
imports_pybcv <- function(python) {
  if (!nzchar(python) || !file.exists(python)) return(FALSE)
  out <- suppressWarnings(tryCatch(
    system2(python, c("-c", shQuote("import pybcv.stats")), stdout = FALSE, stderr = FALSE),
    error = function(e) 1L))
  identical(as.integer(out), 0L)
}

## The modules of `need` that `python` cannot import (one quick subprocess each).
missing_modules <- function(python, need) {
  need[vapply(need, function(m) !identical(as.integer(suppressWarnings(tryCatch(
    system2(python, c("-c", shQuote(paste("import", m))), stdout = FALSE, stderr = FALSE),
    error = function(e) 1L))), 0L), logical(1))]
}

## The Python of reticulate's virtual environment "r-pybcv", or NULL.
envname_python <- function() {
  if (!requireNamespace("reticulate", quietly = TRUE)) return(NULL)
  py <- tryCatch(if (reticulate::virtualenv_exists(pybcv_envname))
    reticulate::virtualenv_python(pybcv_envname), error = function(e) NULL)
  if (is.null(py) || !file.exists(py)) NULL else py
}

venv_python <- function(dir) {
  for (p in file.path(dir, ".venv", c("bin", "Scripts"), c("python", "python.exe")))
    if (file.exists(p)) return(p)
  NULL
}

## Search dir and its parents for a .venv; prefer a directory that is a
## pybcv checkout (holds pybcv/__init__.py).
search_upward <- function(dir) {
  if (is.null(dir) || !nzchar(dir) || !dir.exists(dir)) return(NULL)
  dir <- normalizePath(dir, mustWork = FALSE)
  repeat {
    py <- venv_python(dir)
    if (!is.null(py) && file.exists(file.path(dir, "pybcv", "__init__.py")))
      return(list(python = py, root = dir))
    parent <- dirname(dir)
    if (identical(parent, dir)) return(NULL)
    dir <- parent
  }
}

## A repository root that holds pybcv/__init__.py above an interpreter's path
## (<root>/.venv/bin/python), used when pybcv is not installed in that Python.
root_of_python <- function(python) {
  # not normalizePath(python): a venv's python is a symlink to the system one
  d <- normalizePath(dirname(dirname(dirname(path.expand(python)))), mustWork = FALSE)
  if (file.exists(file.path(d, "pybcv", "__init__.py"))) d else NULL
}

#' The Python behind the package
#'
#' The package reaches Python through \pkg{reticulate} and imports it on the
#' first call (never when the package is loaded).  The interpreter is, in
#' this order: the option `pybcv.python`; the environment variable
#' `PYBCV_PYTHON`; the `.venv/bin/python` of a pybcv checkout (a directory
#' holding `pybcv/__init__.py` and `.venv`) found by searching upward from the
#' working directory; reticulate's virtual environment `"r-pybcv"` (made by
#' [install_pybcv()]); the directory the package was installed from; a
#' `python3` on the `PATH` that imports pybcv.  If reticulate is already bound to a Python in this session, that
#' Python is used.  When pybcv is not installed in the chosen Python but the
#' interpreter lies in `<checkout>/.venv`, the checkout is put on Python's
#' path.  When nothing is found the error says how to set up:
#' [use_pybcv_python()], [install_pybcv()], or `bash scripts/setup.sh` in
#' the repository.
#'
#' @return `pybcv_python`: a list (pybcv version and file, the Python
#'   executable and version, and how it was found); it starts Python.
#'   `pybcv_find_python`: the candidate (a list with `python`, `root`,
#'   `source`) or `NULL`, without starting Python.  `pybcv_available`: `TRUE`
#'   when Python and pybcv can be used.
#' @export
#' @examples
#' pybcv_find_python()
#' if (pybcv_available()) pybcv_python()
pybcv_find_python <- function() {
  given <- list("option pybcv.python" = getOption("pybcv.python"),
                PYBCV_PYTHON = Sys.getenv("PYBCV_PYTHON"))
  for (source in names(given)) {
    py <- given[[source]]
    if (is.null(py) || !nzchar(py)) next
    if (!file.exists(py))
      stop(source, " is \"", py, "\", which does not exist. ", setup_hint, call. = FALSE)
    return(list(python = py, root = root_of_python(py), source = source))
  }
  hit <- search_upward(getwd())
  if (!is.null(hit)) return(c(hit, source = ".venv above the working directory"))
  py <- envname_python()
  if (!is.null(py))
    return(list(python = py, root = NULL, source = paste0("virtualenv ", pybcv_envname)))
  hit <- search_upward(.install_source)
  if (!is.null(hit)) return(c(hit, source = ".venv above the install source"))
  py <- unname(Sys.which("python3"))
  if (imports_pybcv(py)) return(list(python = py, root = NULL, source = "python3 on the PATH"))
  NULL
}

#' Point the package at a Python, or set one up
#'
#' `use_pybcv_python(python)` makes `python` (an interpreter that can import
#' the Python package pybcv) the one the package uses in this session, as
#' `reticulate::use_python()` does for reticulate; call it before the first
#' test.  `persist = TRUE` also writes `PYBCV_PYTHON` to `~/.Renviron`, so
#' later sessions find it by themselves.
#'
#' `install_pybcv(from)` creates reticulate's virtual environment `"r-pybcv"`
#' (with the system's site packages, where numpy, scipy and pandas are) and
#' installs pybcv into it from `from`: a pybcv checkout, an sdist or a wheel
#' (built by `bash scripts/build.sh` in the repository), offline
#' (`--no-index --no-deps`).  The package finds that environment by itself
#' afterwards ([pybcv_find_python()]).
#'
#' @param python Path of a Python interpreter.
#' @param persist Write `PYBCV_PYTHON=<python>` to `~/.Renviron` as well.
#' @param from A pybcv checkout (folder), wheel or sdist.
#' @param envname The virtual environment's name (reticulate's convention:
#'   `"r-pybcv"`, which [pybcv_find_python()] looks for).
#' @param python_for_env The Python the environment is created from (a path,
#'   or a name looked up on the PATH). The environment sees its packages
#'   (numpy, scipy, pandas, tqdm must be there, and setuptools and wheel to
#'   install a checkout or an sdist) and nothing is fetched from PyPI.
#' @return `use_pybcv_python`: the interpreter's path, invisibly.
#'   `install_pybcv`: the environment's Python, invisibly.
#' @export
#' @examples
#' py <- Sys.getenv("PYBCV_PYTHON")
#' if (nzchar(py) && !reticulate::py_available()) use_pybcv_python(py)
#' \dontrun{
#' install_pybcv("~/src/pybcv")            # a clone of the repository
#' install_pybcv("pybcv-0.1.0-py3-none-any.whl")
#' }
use_pybcv_python <- function(python, persist = FALSE) {
  if (!is.character(python) || length(python) != 1L || is.na(python) || !nzchar(python))
    stop("python must be the path of a Python interpreter (one string)", call. = FALSE)
  python <- path.expand(python)
  if (!file.exists(python))
    stop("use_pybcv_python: \"", python, "\" does not exist", call. = FALSE)
  if (!imports_pybcv(python))
    stop("use_pybcv_python: ", python, " cannot import pybcv; install it there ",
         "(pip install /path/to/pybcv) or use install_pybcv()", call. = FALSE)
  bound <- reticulate::py_available(initialize = FALSE)
  if (bound && !identical(normalizePath(reticulate::py_config()$python, mustWork = FALSE),
                          normalizePath(python, mustWork = FALSE)))
    stop("use_pybcv_python: reticulate is already bound to ", reticulate::py_config()$python,
         " in this R session; restart R and call use_pybcv_python() first", call. = FALSE)
  options(pybcv.python = python)
  .pybcv$helper <- NULL
  if (isTRUE(persist)) {
    renv <- file.path(Sys.getenv("HOME"), ".Renviron")
    old <- if (file.exists(renv)) readLines(renv, warn = FALSE) else character()
    writeLines(c(grep("^PYBCV_PYTHON=", old, value = TRUE, invert = TRUE),
                 paste0("PYBCV_PYTHON=", python)), renv)
    message("pybcv: PYBCV_PYTHON=", python, " written to ", renv)
  }
  invisible(python)
}

#' @rdname use_pybcv_python
#' @export
install_pybcv <- function(from, envname = pybcv_envname,
                          python_for_env = Sys.which("python3")) {
  if (!is.character(from) || length(from) != 1L || !file.exists(from))
    stop("install_pybcv: `from` must be a pybcv checkout, wheel or sdist that exists", call. = FALSE)
  from <- normalizePath(from)
  if (dir.exists(from) && !file.exists(file.path(from, "pyproject.toml")))
    stop("install_pybcv: ", from, " holds no pyproject.toml; give the pybcv repository, ",
         "a wheel or an sdist", call. = FALSE)
  python_for_env <- unname(python_for_env)
  if (is.character(python_for_env) && length(python_for_env) == 1L && !is.na(python_for_env) &&
      nzchar(python_for_env) && !grepl("/", python_for_env, fixed = TRUE))
    python_for_env <- unname(Sys.which(python_for_env))  # a bare name: the one on the PATH
  if (!is.character(python_for_env) || length(python_for_env) != 1L || is.na(python_for_env) ||
      !nzchar(python_for_env) || !file.exists(path.expand(python_for_env)))
    stop("install_pybcv: python_for_env must be the path of a Python 3 interpreter that ",
         "exists (got \"", python_for_env, "\")", call. = FALSE)
  python_for_env <- path.expand(python_for_env)
  if (length(missing_modules(python_for_env, "sys")))
    stop("install_pybcv: ", python_for_env, " is not a Python interpreter (it cannot run ",
         "`import sys`)", call. = FALSE)
  # numpy, scipy, pandas and tqdm come from python_for_env's own packages
  # (system_site_packages); packages = FALSE: nothing is fetched from PyPI
  need <- c("numpy", "scipy", "pandas", "tqdm",
            if (!grepl("\\.whl$", from)) c("setuptools", "wheel"))   # building a checkout
  lack <- missing_modules(python_for_env, need)
  if (length(lack))
    stop("install_pybcv: ", python_for_env, " lacks ", paste(lack, collapse = ", "),
         " (the environment takes its packages and fetches none). Give python_for_env a ",
         "Python that has them (Debian: /usr/bin/python3 with python3-numpy, python3-scipy, ",
         "python3-pandas, python3-tqdm, python3-setuptools, python3-wheel)", call. = FALSE)
  reticulate::virtualenv_create(envname, python = python_for_env,
                                system_site_packages = TRUE, packages = FALSE)
  py <- reticulate::virtualenv_python(envname)
  lack <- missing_modules(py, need)
  if (length(lack))
    stop("install_pybcv: the existing virtual environment ", envname, " (", py, ") lacks ",
         paste(lack, collapse = ", "), "; it was made from another Python. Remove it ",
         "(reticulate::virtualenv_remove(\"", envname, "\")) and call install_pybcv() again",
         call. = FALSE)
  st <- system2(py, c("-m", "pip", "install", "--no-deps", "--no-index", "--no-build-isolation",
                      shQuote(from)))
  if (!identical(as.integer(st), 0L))
    stop("install_pybcv: pip could not install ", from, " into ", envname, call. = FALSE)
  if (!imports_pybcv(py))
    stop("install_pybcv: pybcv is installed in ", envname, " but ", py, " cannot import it",
         call. = FALSE)
  message("pybcv: installed into the virtual environment ", envname, " (", py, ")")
  invisible(py)
}

## reticulate, bound to the right Python, with pybcv imported; the helper
## module (inst/python/_pybcv_r.py) is cached.
pybcv_helper <- function() {
  if (!is.null(.pybcv$helper)) return(.pybcv$helper)
  # reticulate warns about Poetry when the working directory holds a
  # pyproject.toml (the pybcv repository does); the Python is chosen here.
  withCallingHandlers(init_python(), warning = function(w) {
    if (grepl("Poetry|poetry", conditionMessage(w))) invokeRestart("muffleWarning")
  })
}

init_python <- function() {
  if (!requireNamespace("reticulate", quietly = TRUE))
    stop("pybcv needs the R package reticulate, which is not installed. ",
         "Install it (Debian: apt-get install r-cran-reticulate, done by `bash scripts/setup.sh`; ",
         "or install.packages(\"reticulate\")).", call. = FALSE)
  found <- pybcv_find_python()
  bound <- reticulate::py_available(initialize = FALSE)
  if (!bound) {
    if (is.null(found))
      stop("pybcv could not find a Python with the pybcv package: no option pybcv.python, ",
           "no PYBCV_PYTHON, no .venv above the working directory (", getwd(), "), ",
           "no virtualenv r-pybcv and no python3 on the PATH that imports pybcv. ",
           setup_hint, call. = FALSE)
    ok <- tryCatch({ reticulate::use_python(found$python, required = TRUE); TRUE },
                   error = function(e) conditionMessage(e))
    if (!isTRUE(ok))
      stop("pybcv could not start Python ", found$python, " (", found$source, "): ", ok, ". ",
           setup_hint, call. = FALSE)
  }
  where <- system.file("python", package = "pybcv")
  helper <- tryCatch(reticulate::import_from_path("_pybcv_r", path = where, convert = TRUE),
                     error = function(e) e)
  if (inherits(helper, "error"))
    stop("pybcv could not start Python",
         if (!is.null(found)) paste0(" ", found$python), ": ", conditionMessage(helper), ". ",
         setup_hint, call. = FALSE)
  st <- helper$setup(found$root)
  if (!isTRUE(st$ok)) {
    py <- tryCatch(reticulate::py_config()$python, error = function(e) "?")
    stop("pybcv: the Python package pybcv cannot be imported by ", py, " (",
         st$type, ": ", st$message, "). ",
         if (bound) "reticulate was already bound to that Python in this R session; restart R. " else "",
         setup_hint, call. = FALSE)
  }
  .pybcv$info <- st$value
  .pybcv$found <- found
  .pybcv$helper <- helper
  helper
}

#' @rdname pybcv_find_python
#' @export
pybcv_python <- function() {
  pybcv_helper()
  info <- .pybcv$info
  info$source <- if (is.null(.pybcv$found)) "reticulate's Python (already bound)" else .pybcv$found$source
  info
}

#' @rdname pybcv_find_python
#' @export
pybcv_available <- function() !is.null(tryCatch(pybcv_helper(), error = function(e) NULL))

## Call a helper entry point; a Python exception becomes an R error with the
## exception's message only (no traceback).
py_call <- function(fun, ..., call = NULL) {
  out <- pybcv_helper()[[fun]](...)
  if (!isTRUE(out$ok)) {
    msg <- out$message
    if (!identical(out$type, "ValueError")) msg <- paste0(out$type, ": ", msg)
    stop(errorCondition(msg, class = "pybcv_error", call = call))
  }
  out$value
}
