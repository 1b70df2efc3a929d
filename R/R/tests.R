## The tests, each returning an htest object.  Every <key>_test is made by
## registry_wrapper() from the formals that scripts/gen_r_tests.py writes from
## Python's registry into tests_generated.R (the docs into man/); each hands its
## inputs and options to ONE caller, run_registry_test(), which runs Python's
## `TESTS[key].function` (the test's public function) and converts the result.

run_registry_test <- function(key, inputs, options = list(), data.name, warn = TRUE,
                              conf.level = 0.95) {
  call <- sys.call(-1L)
  pybcv_helper()   # first: reticulate must not start a Python of its own choosing
  names(inputs) <- NULL
  chk_no_na(options)
  kwargs <- py_dict(options[!vapply(options, is.null, TRUE)])
  chk_level(conf.level, "conf.level")
  make_htest(py_call("run_test", key, inputs, kwargs, conf.level, call = call), data.name, NULL, warn)
}

#' The tests of Python's registry: common argument and value
#'
#' Every test of [pybcv_tests()] has its R function `<key>_test`, generated
#' from Python's registry (`scripts/gen_r_tests.py` writes
#' `R/tests_generated.R` and the pages in `man/`): the Python function's
#' inputs and options under the same names and defaults (choices by
#' `match.arg`, R spelling `"two.sided"`).
#'
#' @param conf.level Level of the confidence interval (`conf.int`, present
#'   where the Python result has one).
#' @return An object of class `"htest"`: `statistic`, `parameter` (df),
#'   `p.value`, `estimate` (error(A) - error(B)), `conf.int` where Python
#'   gives one, `null.value`, `alternative`, `method`, `data.name`, and the
#'   Python result's own fields (each once; the 5x2 BCV McNemar test's is of
#'   class `"bcv_htest"` and prints its averaged and effective tables).
#'   Python's warnings are R warnings.
#' @name registry_tests
#' @keywords internal
NULL

dname <- function(expr) paste(deparse(expr, width.cutoff = 500L), collapse = " ")

## A data.name from the expressions of the data arguments (NULLs left out).
data_name <- function(...) paste(vapply(Filter(Negate(is.null), list(...)), dname, ""),
                                 collapse = " and ")

## A choice argument, its choices the caller's formal default (R spelling, "."
## for Python's "-"), matched by match.arg -> Python's spelling.
py_choice <- function(arg, name, choices = NULL) {
  if (is.null(choices)) choices <- eval(formals(sys.function(sys.parent()))[[name]])
  if (is.character(arg) && length(arg) == 1L) arg <- chartr("-", ".", arg)
  chartr(".", "-", choice(arg, choices, name))
}

## Test `key`'s R function: `args` its formals (the Python function's), then
## conf.level.  `inputs` names the converter of each Python input (np_float,
## scalar_number: data, named in data.name; py_sizes, py_int: sizes); `form`
## "table" or "tables" reads the McNemar tables from x (y, truth, folds,
## correct; R/R/orientation.R).  The other arguments are Python's options:
## a character default is a choice (match.arg), a logical one a flag.
registry_wrapper <- function(key, args, inputs = character(), form = NULL) {
  f <- function() NULL
  formals(f) <- c(args, alist(conf.level = 0.95))
  body(f) <- bquote({
    a <- registry_arguments(.(key), .(inputs), .(form), environment(), match.call())
    run_registry_test(.(key), a$inputs, a$options, a$data.name, conf.level = conf.level)
  })
  f
}

FORM_ARGUMENTS <- c("x", "y", "truth", "folds", "correct", "conf.level")

registry_arguments <- function(key, inputs, form, env, call) {
  fml <- formals(sys.function(sys.parent()))
  arg <- function(n) get(n, envir = env)
  expr <- function(n) call[[n]]
  if (is.null(form)) {
    data <- names(inputs)[inputs %in% c("np_float", "scalar_number")]
    dn <- paste(vapply(data, function(n) dname(expr(n)), ""), collapse = " and ")
    ins <- lapply(names(inputs), function(n) get(inputs[[n]], mode = "function")(arg(n), n))
    opts <- setdiff(names(fml), c(names(inputs), "conf.level"))
  } else {
    x <- arg("x"); y <- arg("y")
    inp <- if (form == "table") one_table_input(x, y, arg("truth"), arg("correct"), "x") else
      fold_tables_input(x, y, arg("truth"), arg("folds"), arg("correct"), "x")
    dn <- paste0(data_name(expr("x"), if (!is.null(y)) expr("y")), " (", inp$read, ")")
    ins <- list(np_float(if (form == "table") inp$counts else inp$tables, form))
    opts <- setdiff(names(fml), FORM_ARGUMENTS)
  }
  options <- lapply(stats::setNames(opts, opts), function(n) {
    default <- eval(fml[[n]])
    if (is.character(default) && length(default) > 1L) py_choice(arg(n), n, default)
    else if (is.logical(default)) chk_flag(arg(n), n) else arg(n)
  })
  list(inputs = ins, options = options, data.name = dn)
}


## ------------------------------------------------------------------ any test from fold tables
#' Any test from the fold tables of its design; the list of tests
#'
#' `pybcv_test` runs test `key` on the 2x2 fold tables of its partition
#' design (Python's `TESTS[key].from_tables`): the differences, loss
#' differences or averaged tables the test needs are made from the tables
#' (rows A, columns B, each (incorrect, correct)).  `pybcv_tests` lists the
#' tests as Python's registry (`pybcv.stats.TESTS`) has them: key, the
#' paper's name, family, design, number of folds, options and the R function.
#'
#' @param key A test key, e.g. `"mcnemar_5x2bcv"`; see `pybcv_tests()`.
#' @param ... The design's fold tables, then `n_train` and `n_test`, unnamed
#'   (or by those names), and the test's options by name, e.g. `alternative`,
#'   `empty_fold`, `rho1`, `t` (named after `...`, the arguments below never
#'   take an option's name by partial matching: `t = 2` is the option).
#' @param tables The design's fold tables (F x 4: n00, n01, n10, n11).
#' @param n_train,n_test Fold sizes (needed by the corrected tests).
#' @param warn Give Python's warnings as R warnings.
#' @param conf.level Level of the confidence interval (`conf.int`).
#' @return `pybcv_test`: an `"htest"` object.  `pybcv_tests`: a data frame.
#' @export
#' @examples
#' if (pybcv_available()) {
#'   pybcv_tests()[, c("key", "family", "design")]
#' }
pybcv_test <- function(key, ..., tables = NULL, n_train = NULL, n_test = NULL, warn = TRUE,
                       conf.level = 0.95) {
  # `...` before tables: an option such as `t = 2` would otherwise match
  # `tables` partially; unnamed arguments are tables, n_train, n_test in turn
  dots <- list(...)
  exprs <- match.call(expand.dots = FALSE)$...
  named <- if (is.null(names(dots))) rep(FALSE, length(dots)) else nzchar(names(dots))
  unnamed <- which(!named)
  dn <- dname(substitute(tables))
  for (arg in c("tables", "n_train", "n_test")) {
    if (!length(unnamed)) break
    if (is.null(get(arg))) {
      assign(arg, dots[[unnamed[1L]]])
      if (arg == "tables") dn <- dname(exprs[[unnamed[1L]]])
      unnamed <- unnamed[-1L]
    }
  }
  if (length(unnamed)) stop("pybcv_test takes key, tables, n_train and n_test unnamed, and the ",
                            "test's options by name", call. = FALSE)
  if (is.null(tables)) stop("tables is missing: give the design's fold tables", call. = FALSE)
  if (!is.character(key) || length(key) != 1L) stop("key must be one test key (a string)", call. = FALSE)
  pybcv_helper()
  opts <- chk_no_na(dots[named])
  chk_level(conf.level, "conf.level")
  if (!is.null(opts$alternative)) opts$alternative <- alt_to_py(opts$alternative)
  v <- py_call("run_from_tables", key, np_float(as_fold_tables(tables, "tables"), "tables"),
               py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test"),
               py_dict(opts), conf.level, call = sys.call())
  make_htest(v, dn, NULL, warn)
}

#' @rdname pybcv_test
#' @export
pybcv_tests <- function() {
  rows <- py_call("registry_table")
  col <- function(k, type = "") vapply(rows, `[[`, type, k)
  n_folds <- as.integer(col("n_folds", 1))
  data.frame(key = col("key"), name = col("name"), family = col("family"), design = col("design"),
             n_folds = replace(n_folds, n_folds < 0L, NA), options = col("options"),
             in_table5 = col("in_table5", TRUE), r_function = paste0(col("key"), "_test"),
             stringsAsFactors = FALSE)
}

## ------------------------------------------------------------------ argument checks
## A flag: TRUE or FALSE, returned as it is.
chk_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1L || is.na(x))
    stop(name, " must be TRUE or FALSE", call. = FALSE)
  x
}

## A seed: one non-negative whole number (`what` says what else is taken).
chk_seed <- function(seed, what = "a single non-negative whole number")
  if (!is.numeric(seed) || length(seed) != 1L || !is.finite(seed) || seed != round(seed) ||
      seed < 0)
    stop("seed must be ", what, call. = FALSE)

## A level (alpha, conf.level): one number in (0, 1).
chk_level <- function(x, name)
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !(x > 0 && x < 1))
    stop(name, " must be a number in (0, 1)", call. = FALSE)

## A named R list as a Python dict (an empty dict for an empty list).
py_dict <- function(x) if (length(x)) do.call(reticulate::dict, x) else reticulate::dict()

## Options with NA refused, naming the option (`where`: what holds them, e.g.
## "options$mcnemar_5x2bcv$"): reticulate hands a logical NA to Python as
## True and an integer NA as -2147483648, which would be used as values.
chk_no_na <- function(x, where = "") {
  for (nm in names(x)) {
    v <- x[[nm]]
    if (is.list(v)) chk_no_na(v, paste0(where, nm, "$"))
    else if (is.atomic(v) && anyNA(v)) stop(where, nm, " is NA; give a value", call. = FALSE)
  }
  invisible(x)
}

scalar_number <- function(x, name) {
  if (!is.numeric(x) || length(x) != 1L)
    stop(name, " must be a single number", call. = FALSE)
  as.numeric(x)
}

## The option profiles of pybcv.stats.PROFILES (the `profile` argument's
## choices; testthat checks them, and the functions' defaults, against Python).
profile_choices <- c("default", "paper")

## match.arg, with an error naming the argument.
choice <- function(x, choices, name) {
  if (!identical(x, choices) && (!is.character(x) || length(x) != 1L || is.na(x)))
    x <- NA_character_
  tryCatch(match.arg(x, choices), error = function(e)
    stop(name, " must be one of ", paste0("\"", choices, "\"", collapse = ", "), call. = FALSE))
}
