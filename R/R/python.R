## Finding Python, importing pybcv lazily, and calling it.

.pybcv <- new.env(parent = emptyenv())

## The directory the package was installed from.  R CMD INSTALL evaluates
## this file with the package source as working directory, so this is the
## source path at install time (a temporary directory for tarballs).  It is
## only one of the places searched for a .venv.
.install_source <- tryCatch(normalizePath(getwd(), mustWork = FALSE),
                            error = function(e) "")

setup_hint <- paste0(
  "Set up Python with `bash scripts/setup.sh` in the pybcv repository (it creates ",
  "<repo>/.venv), then start R inside the repository, or point the package at a ",
  "Python that can import pybcv: Sys.setenv(PYBCV_PYTHON = \"/path/to/python\") or ",
  "options(pybcv.python = \"/path/to/python\") before the first call.")

venv_python <- function(dir) {
  for (p in c(file.path(dir, ".venv", "bin", "python"),
              file.path(dir, ".venv", "Scripts", "python.exe")))
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
  d <- dirname(dirname(dirname(path.expand(python))))
  d <- normalizePath(d, mustWork = FALSE)
  if (file.exists(file.path(d, "pybcv", "__init__.py"))) d else NULL
}

#' The Python behind the package
#'
#' The package reaches Python through \pkg{reticulate} and imports it on the
#' first call (never when the package is loaded).  The interpreter is, in
#' this order: the option `pybcv.python`; the environment variable
#' `PYBCV_PYTHON`; the `.venv/bin/python` of a pybcv checkout (a directory
#' holding `pybcv/__init__.py` and `.venv`) found by searching upward from the
#' working directory, then from the directory the package was installed
#' from.  If reticulate is already bound to a Python in this session, that
#' Python is used.  When pybcv is not installed in the chosen Python but the
#' interpreter lies in `<checkout>/.venv`, the checkout is put on Python's
#' path.  When nothing is found the error says how to set up: run
#' `bash scripts/setup.sh` in the repository, or set `PYBCV_PYTHON`.
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
  opt <- getOption("pybcv.python")
  if (!is.null(opt) && nzchar(opt)) {
    if (!file.exists(opt))
      stop("option pybcv.python is \"", opt, "\", which does not exist. ", setup_hint, call. = FALSE)
    return(list(python = opt, root = root_of_python(opt), source = "option pybcv.python"))
  }
  env <- Sys.getenv("PYBCV_PYTHON")
  if (nzchar(env)) {
    if (!file.exists(env))
      stop("PYBCV_PYTHON is \"", env, "\", which does not exist. ", setup_hint, call. = FALSE)
    return(list(python = env, root = root_of_python(env), source = "PYBCV_PYTHON"))
  }
  for (s in list(list(getwd(), "working directory"),
                 list(.install_source, "install source"))) {
    hit <- search_upward(s[[1]])
    if (!is.null(hit)) return(c(hit, source = paste0(".venv above the ", s[[2]])))
  }
  NULL
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
           "no PYBCV_PYTHON, and no .venv above the working directory (", getwd(), "). ",
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
  root <- if (!is.null(found)) found$root else NULL
  st <- helper$setup(root)
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
pybcv_available <- function() {
  isTRUE(tryCatch({ pybcv_helper(); TRUE }, error = function(e) FALSE))
}

## Call a helper entry point; a Python exception becomes an R error with the
## exception's message only (no traceback).
py_call <- function(fun, ..., call = NULL) {
  h <- pybcv_helper()
  out <- h[[fun]](...)
  if (!isTRUE(out$ok)) {
    msg <- out$message
    if (!identical(out$type, "ValueError")) msg <- paste0(out$type, ": ", msg)
    cond <- structure(class = c("pybcv_error", "error", "condition"),
                      list(message = msg, call = call))
    stop(cond)
  }
  out$value
}
