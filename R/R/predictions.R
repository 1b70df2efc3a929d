## Tests from a user's own per-fold predictions (the R side of
## `pybcv test --predictions`).

#' Tests from your own per-fold predictions
#'
#' For predictions you made yourself on the folds of a design (e.g. the 10
#' folds of [bcv_partitions()] for the 5x2 BCV McNemar test): counts each
#' fold's 2x2 table (rows A, columns B, each (incorrect, correct); `n01` =
#' A wrong, B right) and runs every test of that design, as
#' [compare_learners()] does for learners it runs itself.  When `folds` is
#' given and pybcv has `pybcv.partitions.check_design`, the folds are checked
#' against the design (an error when they cannot be that design, warnings
#' for deviations).
#'
#' @param x,y Lists of per-fold predictions of learners A and B (fold order of
#'   the design), or lists of per-fold logical vectors (`TRUE` = correct)
#'   when `truth` is `NULL`.
#' @param truth The true labels: one vector for all records (with `folds`),
#'   or a list of per-fold vectors; `NULL` when `x`, `y` are logical.
#' @param folds A list of each fold's validation record indices (1-based),
#'   needed with a `truth` for all records.
#' @param design The partition design the folds follow (see
#'   [pybcv_tests()]'s `design` column), `"bcv5x2"` by default.
#' @param tests Test keys of that design; `NULL` = all of them.
#' @param n_train Training-set size of each fold (or one number); by default
#'   the records outside the fold, `length(truth) - fold size`, when `truth`
#'   covers all records.
#' @param loss `"zero_one"` (the default: labels, every test), or
#'   `"squared"` / `"absolute"` for numeric predictions of a numeric `truth`
#'   (a regression; needs `truth` for all records and `folds`): the t, F and
#'   z tests then read the per-fold mean loss differences and the tests that
#'   need 0/1 outcomes (the McNemar family, the proportion z) are dropped
#'   with a warning, or refused when named in `tests` (docs/guide/losses.md).
#' @inheritParams compare_learners
#' @return A `"pybcv_comparison"` (print, `as.data.frame()`, `$htests`,
#'   `$tables`; under another loss `$tables` holds the per-fold loss sums and
#'   `$loss` names the loss).
#' @export
#' @examples
#' if (pybcv_available()) {
#'   truth <- rep(c("a", "b"), 20)
#'   p <- bcv_partitions(40, seed = 0)
#'   pa <- lapply(p$validation, function(i) ifelse(i %% 5 == 0, "b", truth[i]))
#'   pb <- lapply(p$validation, function(i) ifelse(i %% 7 == 0, "b", truth[i]))
#'   pybcv_test_predictions(pa, pb, truth, folds = p$validation)
#' }
pybcv_test_predictions <- function(x, y, truth = NULL, folds = NULL, design = "bcv5x2", tests = NULL,
                                   n_train = NULL, profile = c("default", "paper"), options = list(),
                                   alternative = NULL, alpha = 0.05, conf.level = 0.95,
                                   loss = "zero_one") {
  dn <- paste(dname(substitute(x)), "and", dname(substitute(y)))
  la <- list(name = dname(substitute(x)))
  lb <- list(name = dname(substitute(y)))
  profile <- choice(profile, profile_choices, "profile")
  chk_level(alpha, "alpha")
  chk_level(conf.level, "conf.level")
  if (!is.character(design) || length(design) != 1L || is.na(design))
    stop("design must be one design name", call. = FALSE)
  if (is.function(loss))
    stop("loss: pybcv_test_predictions() takes \"zero_one\", \"squared\" or \"absolute\"; for ",
         "an R function loss, give the learners to compare_learners(loss = ) (or compute the ",
         "per-record losses yourself and compare them with the t, F and z tests)", call. = FALSE)
  if (!is.character(loss) || length(loss) != 1L || is.na(loss))
    stop("loss must be one of \"zero_one\", \"squared\", \"absolute\"", call. = FALSE)
  if (loss %in% c("log", "log_loss"))
    stop("loss = \"log\" reads class probabilities, and pybcv_test_predictions() takes one ",
         "prediction per record; use compare_learners(loss = \"log\") with learners that give ",
         "probabilities, or Python's compare_predictions(loss = \"log\")", call. = FALSE)
  pybcv_helper()
  if (is.list(folds)) check_fold_indices(folds, if (is.list(truth)) NA else length(truth))
  reg <- pybcv_tests()
  of_design <- reg$key[reg$design == design]
  if (!length(of_design))
    stop("design must be one of ", paste(unique(reg$design), collapse = ", "), "; got ",
         show_name(design), call. = FALSE)
  bad <- setdiff(tests, of_design)
  if (length(bad)) {
    need <- unique(reg$design[reg$key %in% bad])
    stop("test(s) ", paste(bad, collapse = ", "), " run on design ",
         paste0("\"", need, "\"", collapse = " / "), ", not \"", design, "\": predict on the folds of ",
         "pybcv_folds(n, design = \"", need[1L], "\", seed = 0) and give design = \"", need[1L],
         "\" (tests of ", design, ": ", paste(of_design, collapse = ", "), ")", call. = FALSE)
  }
  if (!identical(loss, "zero_one"))
    return(loss_predictions(x, y, truth, folds, design, tests, profile, options, alternative,
                            alpha, conf.level, loss, dn, la, lb))
  inp <- fold_tables_input(x, y, truth, folds, NULL, "x")
  n_test <- rowSums(inp$tables)
  n_all <- if (!is.null(truth) && !is.list(truth)) length(truth) else NA_integer_
  if (!is.null(folds) && !is.na(n_all))
    for (w in as.character(unlist(py_call("check_folds", unname(lapply(folds, as.integer)),
                                          py_int(n_all, "n"), design))))
      warning("folds: ", w, call. = FALSE)
  if (is.null(n_train) && !is.na(n_all)) n_train <- n_all - n_test
  if (!is.null(n_train)) {
    if (!is.numeric(n_train) || !(length(n_train) %in% c(1L, nrow(inp$tables))))
      stop("n_train must be a number or one size per fold (", nrow(inp$tables), " values), got ",
           if (is.numeric(n_train)) paste(length(n_train), "values") else class(n_train)[1L],
           call. = FALSE)
    n_train <- rep_len(as.numeric(n_train), nrow(inp$tables))
  }
  if (is.null(tests)) tests <- of_design
  sel <- resolve_tests(as.list(tests), profile, options, alternative)
  keys <- sel$keys
  one <- function(x) stats::setNames(list(x), design)     # {design: x}, as run_battery takes
  tab <- cbind(inp$tables, n_train = if (is.null(n_train)) NA_real_ else n_train, n_test = n_test)
  v <- with_key_notes(py_call("run_battery", as.list(keys), one(np_float(inp$tables, "tables")),
                              one(if (is.null(n_train)) NULL else np_float(n_train, "n_train")),
                              one(np_float(n_test, "n_test")), lapply(sel$options, py_dict),
                              conf.level), sel$key_notes)
  htests <- lapply(stats::setNames(keys, keys), function(k)
    make_htest(v[[k]], paste0(dn, " (", inp$read, ")"), warn = FALSE, design = design))
  structure(list(results = results_frame(htests, alpha), htests = htests, tables = one(tab),
                 learners = c(a = la$name, b = lb$name), data.name = dn, n = n_all,
                 target = "(own predictions)", seed = NA, alpha = alpha, profile = profile,
                 conf.level = conf.level),
            class = "pybcv_comparison")
}

## pybcv_test_predictions() under a real-valued loss: Python's
## compare_predictions(loss = ) on the numeric predictions (one home of the
## loss arithmetic).
loss_predictions <- function(x, y, truth, folds, design, tests, profile, options, alternative,
                             alpha, conf.level, loss, dn, la, lb) {
  if (is.null(truth) || is.list(truth) || is.null(folds))
    stop("loss = \"", loss, "\" needs truth for all records and folds (a list of each fold's ",
         "record indices)", call. = FALSE)
  if (!is.numeric(truth)) stop("loss = \"", loss, "\" needs a numeric truth", call. = FALSE)
  if (!is.list(x) || !is.list(y) || length(x) != length(y) || length(x) != length(folds))
    stop("x, y and folds must be lists with one entry per fold", call. = FALSE)
  num <- function(v, what) {
    if (!is.numeric(v) || anyNA(v) || any(!is.finite(v)))
      stop(what, ": predictions must be finite numbers under loss = \"", loss, "\"", call. = FALSE)
    np_float(v, what)
  }
  pa <- lapply(seq_along(x), function(f) num(x[[f]], sprintf("x[[%d]]", f)))
  pb <- lapply(seq_along(y), function(f) num(y[[f]], sprintf("y[[%d]]", f)))
  ts <- unname(lapply(folds, function(i) as.integer(i) - 1L))   # a list, not a dict
  if (!is.null(alternative)) alternative <- alt_to_py(alternative)
  v <- py_call("run_own_predictions_loss", np_float(truth, "truth"), pa, pb, ts, design,
               if (is.null(tests)) NULL else as.list(tests), profile,
               if (length(options)) options else NULL, alternative, loss, conf.level)
  for (w in as.character(unlist(v$notes))) warning(w, call. = FALSE)
  htests <- lapply(stats::setNames(nm = names(v$results)), function(k)
    make_htest(v$results[[k]], paste0(dn, " (", loss, " loss)"), warn = FALSE, design = design))
  structure(list(results = results_frame(htests, alpha), htests = htests,
                 tables = stats::setNames(list(loss_sums(v$loss_sums)), design), loss = loss,
                 learners = c(a = la$name, b = lb$name), data.name = dn, n = length(truth),
                 target = "(own predictions)", seed = NA, alpha = alpha, profile = profile,
                 conf.level = conf.level),
            class = "pybcv_comparison")
}

## Folds given to pybcv_test_predictions(): 1-based record indices within
## truth.  Index 0 is the usual slip of 0-based rows (pybcv folds, Python),
## which R's truth[i] would silently drop.
check_fold_indices <- function(folds, n) {
  for (f in seq_along(folds)) {
    i <- folds[[f]]
    if (!is.numeric(i) || anyNA(i) || any(i != round(i)))
      stop("folds[[", f, "]] must hold whole record numbers (1-based)", call. = FALSE)
    if (any(i < 1))
      stop("folds[[", f, "]] holds index ", min(i), ": R's folds are 1-based (pybcv folds and ",
           "Python write 0-based rows: add 1, e.g. lapply(folds, function(i) i + 1L))",
           call. = FALSE)
    if (!is.na(n) && any(i > n))
      stop("folds[[", f, "]] holds index ", max(i), ", but truth has ", n, " records",
           call. = FALSE)
  }
  invisible(TRUE)
}
