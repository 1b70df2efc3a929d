## R values -> numpy / Python scalars, and Python results -> htest objects.

as_numeric_data <- function(x, name) {
  if (is.null(x)) stop(name, " is missing (NULL)", call. = FALSE)
  if (is.data.frame(x)) {
    ok <- vapply(x, function(col) is.numeric(col) || is.logical(col), TRUE)
    if (!all(ok)) stop(name, " must be numeric; column(s) ", paste(names(x)[!ok], collapse = ", "),
                       " are not", call. = FALSE)
    x <- as.matrix(x)
  }
  if (inherits(x, "table")) x <- unclass(x)
  if (is.list(x)) stop(name, " must be a numeric vector or matrix, not a list", call. = FALSE)
  if (is.logical(x) && length(x) && !all(is.na(x)))       # as Python refuses booleans
    stop(name, " must be numeric, got logical (TRUE/FALSE) values", call. = FALSE)
  if (!is.numeric(x) && !(is.logical(x) && all(is.na(x))))
    stop(name, " must be numeric, got ", class(x)[1], call. = FALSE)
  if (!length(x)) stop(name, " is empty", call. = FALSE)
  d <- dim(x)
  attributes(x) <- NULL
  storage.mode(x) <- "double"            # NA -> NaN in numpy; Python rejects it by name
  if (!is.null(d)) dim(x) <- d
  x
}

## Text marked UTF-8: the strings of a character vector, the levels of a
## factor, and a data frame's column names and columns.  read.csv() of a
## UTF-8 file leaves its strings unmarked (Encoding "unknown"), which R's
## order(method = "radix") refuses once the first is not ASCII; marked, they
## sort by code point as Python sorts them, and reach Python as the same text.
utf8_strings <- function(x) {
  if (is.data.frame(x)) {
    names(x) <- enc2utf8(names(x))
    x[] <- lapply(x, utf8_strings)
  } else if (is.factor(x)) levels(x) <- enc2utf8(levels(x))
  else if (is.character(x)) x[] <- enc2utf8(x)
  x
}

## A numeric array for numpy, float64, keeping the R shape (a vector is 1-d).
np_float <- function(x, name) {
  x <- as_numeric_data(x, name)
  pybcv_helper()   # bind reticulate to pybcv's Python before any conversion
  reticulate::np_array(x, dtype = "float64")
}

## A whole number as a Python int (an R double 5 would arrive as 5.0);
## anything else is passed on as it is, for Python to judge.
py_int <- function(x, name) {
  if (is.null(x)) return(NULL)
  if (is.numeric(x) && length(x) == 1L && is.finite(x) && x == round(x)) {
    if (abs(x) <= .Machine$integer.max) return(as.integer(x))
    pybcv_helper()
    return(reticulate::import_builtins(convert = FALSE)$int(reticulate::r_to_py(format(x, scientific = FALSE))))
  }
  if (!is.numeric(x) || length(x) != 1L)
    stop(name, " must be a single whole number", call. = FALSE)
  x
}

## A number or one number per fold (sizes): scalar -> Python number, vector -> array.
py_sizes <- function(x, name) {
  if (is.null(x)) return(NULL)
  x <- as_numeric_data(x, name)
  if (length(x) == 1L) return(x[[1L]])
  np_float(x, name)
}

## Fold tables in any of the usual R shapes -> a K x 4 numeric matrix with
## columns n00, n01, n10, n11 (rows in fold order):
##  * a K x 4 matrix or data frame (columns named n00..n11 are reordered);
##  * a 2 x 2 x K array (one 2x2 table [A row, B column] per fold);
##  * a list of 2x2 tables or 4-vectors.
as_fold_tables <- function(x, name = "tables") {
  cols <- c("n00", "n01", "n10", "n11")
  if (is.list(x) && !is.data.frame(x)) {
    if (!length(x)) stop(name, " is an empty list", call. = FALSE)
    return(do.call(rbind, lapply(seq_along(x), function(i) {
      t <- as_numeric_data(x[[i]], sprintf("%s[[%d]]", name, i))
      if (length(t) != 4L)
        stop(sprintf("%s[[%d]] must be a 2x2 table or 4 counts (n00, n01, n10, n11)", name, i),
             call. = FALSE)
      if (is.matrix(t)) c(t[1, 1], t[1, 2], t[2, 1], t[2, 2]) else t
    })))
  }
  if (length(dim(x)) == 3L && all(dim(x)[1:2] == 2L))
    return(t(apply(as_numeric_data(x, name), 3L, function(t) c(t[1, 1], t[1, 2], t[2, 1], t[2, 2]))))
  nm <- colnames(x)
  x <- as_numeric_data(x, name)
  if (is.matrix(x) && ncol(x) == 4L && !is.null(nm) && all(cols %in% nm))
    x <- x[, match(cols, nm), drop = FALSE]
  x
}

## One 2x2 table: a 2x2 matrix [A row, B column] or 4 counts (n00, n01, n10, n11).
as_one_table <- function(x, name = "table") {
  if (is.data.frame(x) && ncol(x) == 4L && nrow(x) == 1L) x <- as_fold_tables(x, name)
  x <- as_numeric_data(x, name)
  if (is.matrix(x) && nrow(x) == 1L && ncol(x) == 4L) x <- x[1, ]
  x
}

## ------------------------------------------------------------------ results
alt_to_py <- function(alternative)
  py_choice(alternative, "alternative", c("two.sided", "less", "greater"))

alt_to_r <- function(a) if (identical(a, "two-sided")) "two.sided" else a

ESTIMATE_NAME <- "error(A) - error(B)"

## The statistic's name from the start of the null distribution's name.
statistic_name <- function(null_distribution) {
  stat <- c("t(" = "t", F = "F", "N(" = "z", chi2 = "McNemar's chi-squared",
            Binomial = "min(n01, n10)")
  c(stat[startsWith(null_distribution, names(stat))], "statistic")[[1L]]
}

## A 2x2 table from Python (a matrix, or a list in row order) as the convention's.
as_2x2 <- function(m)
  matrix(as.numeric(m), 2L, 2L, byrow = is.list(m),
         dimnames = list(A = c("incorrect", "correct"), B = c("incorrect", "correct")))

## A result of the helper (see inst/python/_pybcv_r.py) -> an htest object;
## the test's own fields (Python's typed result fields: averaged_table, t,
## terms, sigma2_out, ...) become elements of it, each once.  Python's
## warnings become R warnings (unless warn = FALSE).  `design`: the design
## it ran on, the last element (compare_learners() and own predictions).
make_htest <- function(v, data.name, method = NULL, warn = TRUE, design = NULL) {
  stat <- v$statistic
  names(stat) <- statistic_name(v$null_distribution)
  df <- as.numeric(v$df)
  parameter <- switch(as.character(length(df)), "0" = NULL,
                      "1" = c(df = df), c(df1 = df[1L], df2 = df[2L]))
  est <- if (!is.null(v$estimate)) stats::setNames(v$estimate, ESTIMATE_NAME)
  ci <- if (!is.null(v$conf_int))
    structure(as.numeric(unlist(v$conf_int)), conf.level = v$conf_level)
  obj <- list(statistic = stat, parameter = parameter, p.value = v$pvalue,
              conf.int = ci, estimate = est, null.value = stats::setNames(0, ESTIMATE_NAME),
              alternative = alt_to_r(v$alternative),
              method = if (is.null(method) || !nzchar(method)) v$method else method,
              data.name = data.name, test = v$test, null.distribution = v$null_distribution,
              warnings = as.character(unlist(v$warnings)))
  obj <- obj[!vapply(obj, is.null, TRUE)]
  extra <- v$extra
  for (k in c("averaged_table", "effective_table", "table"))
    if (!is.null(extra[[k]])) extra[[k]] <- as_2x2(extra[[k]])
  if (!is.null(extra$terms)) extra$terms <- as.numeric(unlist(extra$terms))
  for (k in names(extra)) obj[[k]] <- extra[[k]]
  class(obj) <- if (!is.null(extra$averaged_table)) c("bcv_htest", "htest") else "htest"
  if (warn) for (w in obj$warnings) warning(obj$method, ": ", w, call. = FALSE)
  obj$design <- design
  obj
}

#' Print a 5x2 BCV McNemar test
#'
#' The `htest` print, then the averaged and the effective contingency tables
#' of a [mcnemar_5x2bcv_test()] result (class `"bcv_htest"`).
#'
#' @param x A result of class `"bcv_htest"`.
#' @param digits Number of significant digits to print.
#' @param ... Passed to `print`.
#' @return `x`, invisibly.
#' @export
print.bcv_htest <- function(x, digits = getOption("digits"), ...) {
  NextMethod()
  fmt <- function(m) {
    m <- round(m, max(1L, digits - 3L))
    names(dimnames(m)) <- c("A", "B")
    m
  }
  cat("averaged contingency table (mean of the ", 2 * x$m, " fold tables):\n", sep = "")
  print(fmt(x$averaged_table), ...)
  cat("\neffective contingency table (t = ", format(x$t, digits = digits),
      " times the averaged table, n_e = ", format(x$n_e, digits = digits), "):\n", sep = "")
  print(fmt(x$effective_table), ...)
  cat("\n")
  invisible(x)
}
