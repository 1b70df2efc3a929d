## The tests, each returning an htest object.  Every function hands its
## inputs and options to ONE caller, run_registry_test(), which runs Python's
## `TESTS[key].function` (the test's public function) and converts the
## result; the options and their defaults are Python's (a testthat test checks
## every wrapper's formals against the registry), choices go through
## match.arg.

run_registry_test <- function(key, inputs, options = list(), data.name, warn = TRUE,
                              conf.level = 0.95) {
  call <- sys.call(-1L)
  pybcv_helper()   # first: reticulate must not start a Python of its own choosing
  names(inputs) <- NULL
  options <- options[!vapply(options, is.null, TRUE)]
  kwargs <- if (length(options)) do.call(reticulate::dict, options) else reticulate::dict()
  if (!is.numeric(conf.level) || length(conf.level) != 1L || !(conf.level > 0 && conf.level < 1))
    stop("conf.level must be a number in (0, 1)", call. = FALSE)
  v <- py_call("run_test", key, inputs, kwargs, conf.level, call = call)
  make_htest(v, data.name, NULL, warn)
}

dname <- function(expr) paste(deparse(expr, width.cutoff = 500L), collapse = " ")

## ------------------------------------------------------------------ McNemar family
#' Block-regularized 5x2 cross-validated McNemar test
#'
#' The paper's test (Yang, Wang, Song and Li): the ten 2x2 tables of a 5x2
#' block-regularized cross-validation are averaged, the averaged table is
#' scaled by \eqn{t = 10 / (1 + \rho_1 + 8 \rho_2)} to the effective table,
#' and McNemar's statistic
#' \deqn{M = t (|\bar n_{01} - \bar n_{10}| - 1/t)^2 / (\bar n_{01} + \bar n_{10})}
#' is referred to \eqn{\chi^2_1}.  With \eqn{\rho_1 = \rho_2 = 1/2},
#' \eqn{t = 20/11}.  For an m x 2 BCV (2m tables),
#' \eqn{t = 2m / (1 + \rho_1 + 2(m-1)\rho_2)}.
#'
#' **Orientation.** A fold table is `[[n00, n01], [n10, n11]]`: rows are
#' learner A (incorrect, correct), columns learner B (incorrect, correct), so
#' `n01` counts the records A gets wrong and B right, and the estimate is
#' error(A) - error(B).  A 2 x 2 x 2m array or a list of tables with named
#' dimnames is read by its level names ("correct"/"incorrect",
#' "right"/"wrong", TRUE/FALSE with TRUE = correct); dimnames that cannot be
#' read are an error asking for `correct =`; a matrix of counts is read in the
#' convention.  `data.name` says how the input was read.
#'
#' @param x The fold tables in fold order (j=1,k=1), (j=1,k=2), ...,
#'   (j=5,k=2), where k = 1 trains on \eqn{S_j} and k = 2 on \eqn{T_j}: a
#'   10 x 4 matrix or data frame with columns n00, n01, n10, n11 (named
#'   columns are matched by name), a 2 x 2 x 10 array, or a list of ten 2x2
#'   tables; 2m rows for an m x 2 BCV.  Or, with `y`, a list of per-fold
#'   predictions of learner A (logical: `TRUE` = correct, when `truth` is
#'   `NULL`).
#' @param rho1,rho2 The correlations of the BCV estimator (paper: 1/2).
#' @param t The factor of the effective table; `NULL` (the default) derives
#'   it from `rho1` and `rho2` (20/11 for the paper's choice).
#' @param alternative `"two.sided"` (the paper's test), `"less"` or
#'   `"greater"` (H1 on error(A) - error(B)): the one-sided test on the
#'   effective table, whose size awaits the validity battery's verdict.
#' @param clamp_correction If `TRUE`, use
#'   \eqn{\max(|\bar n_{01} - \bar n_{10}| - 1/t, 0)}, so that a difference
#'   below the continuity correction gives M = 0; the default keeps the
#'   literal formula (and warns).
#' @param y A list of per-fold predictions of learner B (same folds as `x`).
#' @param truth The true labels: a list of per-fold vectors, or one vector for
#'   all records with `folds`.
#' @param folds A list of each fold's validation indices (1-based), e.g.
#'   `bcv_partitions(n)$validation`.
#' @param correct The dimnames level that means "correct", for tables whose
#'   dimnames pybcv cannot read.
#' @param conf.level Level of the confidence interval (`conf.int`, present
#'   where the Python result has one).
#' @return An object of class `c("bcv_htest", "htest")`: `statistic`
#'   (McNemar's chi-squared), `parameter` (df = 1), `p.value`, `estimate`
#'   (error(A) - error(B)), `conf.int` (where Python gives one),
#'   `null.value`, `alternative`, `method`, `data.name`, `averaged_table`,
#'   `effective_table` (2 x 2 matrices, rows A, columns B, each (incorrect,
#'   correct)), `t`, `n_e` (effective validation size), `test`,
#'   `null.distribution`, `warnings`, `rho1`, `rho2`, `m` and
#'   `clamp_correction` (Python's result fields, each once).  Python's warnings (no
#'   discordant record; an over-correcting continuity correction) are R
#'   warnings.
#' @seealso [bcv_partitions()], [compare_learners()], [mcnemar_ho_test()],
#'   [pybcv_test_predictions()]
#' @rdname bcv_mcnemar_test
#' @export
#' @examples
#' if (pybcv_available()) {
#'   tab <- cbind(n00 = 3, n01 = c(12, 10, 14, 9, 11, 13, 10, 12, 15, 11),
#'                n10 = c(7, 8, 6, 9, 5, 8, 7, 6, 9, 6), n11 = 40)
#'   res <- bcv_mcnemar_test(tab)
#'   res
#'   res$effective_table
#' }
mcnemar_5x2bcv_test <- function(x, rho1 = 0.5, rho2 = 0.5, clamp_correction = FALSE, t = NULL,
                                alternative = c("two.sided", "less", "greater"), y = NULL, truth = NULL, folds = NULL,
                                correct = NULL, conf.level = 0.95) {
  dn <- dname(substitute(x))
  if (!is.null(y)) dn <- paste(dn, "and", dname(substitute(y)))
  inp <- fold_tables_input(x, y, truth, folds, correct, "x")
  chk_number(rho1, "rho1"); chk_number(rho2, "rho2"); chk_flag(clamp_correction, "clamp_correction")
  if (!is.null(t)) chk_number(t, "t")
  run_registry_test("mcnemar_5x2bcv", list(np_float(inp$tables, "tables")),
                    list(rho1 = rho1, rho2 = rho2, clamp_correction = clamp_correction, t = t,
                         alternative = alt_to_py(alternative)),
                    paste0(dn, " (", inp$read, ")"), conf.level = conf.level)
}

#' @rdname bcv_mcnemar_test
#' @export
bcv_mcnemar_test <- mcnemar_5x2bcv_test

#' Hold-out and naive K-fold McNemar tests
#'
#' `mcnemar_ho_test`: the conventional McNemar test on one hold-out table,
#' \eqn{M = (|n_{01} - n_{10}| - 1)^2 / (n_{01} + n_{10})} against
#' \eqn{\chi^2_1} (Edwards' continuity correction).
#' `mcnemar_kfold_naive_test`: the sum of the K fold statistics against
#' \eqn{\chi^2_K} (the paper's strawman).
#'
#' **Orientation.** Rows are learner A (incorrect, correct), columns learner
#' B (incorrect, correct): `n01` = A wrong, B right; the estimate is
#' error(A) - error(B).  `mcnemar_ho_test` reads
#' * four counts `c(n00, n01, n10, n11)` or a matrix without dimnames in
#'   that convention;
#' * a `table` (or matrix) with named dimnames by its level names:
#'   "correct"/"incorrect", "right"/"wrong", or TRUE/FALSE meaning correct
#'   (as from `table(a == truth, b == truth)`); dimnames named `B, A` are
#'   transposed; dimnames it cannot read are an error asking for `correct =`;
#' * two prediction vectors `x`, `y` and the `truth`;
#' * two logical vectors `x`, `y` (`TRUE` = correct).
#'
#' `data.name` says which of these it read, e.g.
#' `tab (rows "right" = correct, columns "right" = correct)`.
#'
#' @param x The table (see Orientation), or the predictions of learner A.
#' @param y The predictions of learner B (with `truth`), or B's correctness.
#' @param truth The true labels, for prediction vectors.
#' @param tables K fold tables: a K x 4 matrix (n00, n01, n10, n11), a
#'   2 x 2 x K array or a list of 2x2 tables.
#' @param correction Apply the continuity correction.
#' @param exact Use the two-sided binomial p-value; the statistic is then
#'   \eqn{\min(n_{01}, n_{10})}.
#' @param correct The dimnames level that means "correct", for a table whose
#'   dimnames pybcv cannot read.
#' @param conf.level Level of the confidence interval (`conf.int`, present
#'   where the Python result has one).
#' @param empty_fold A fold without discordant records adds 0 and df stays K
#'   (`"zero"`), or is dropped from the sum and from df (`"drop"`).
#' @return An object of class `"htest"` (see [bcv_mcnemar_test()]).  No
#'   discordant record gives M = 0, p = 1 and a warning.
#' @export
#' @examples
#' if (pybcv_available()) {
#'   mcnemar_ho_test(c(10, 14, 5, 71))
#'   mcnemar_ho_test(matrix(c(10, 5, 14, 71), 2))   # the same table
#'   a_right <- rep(c(FALSE, TRUE), c(24, 76))
#'   b_right <- rep(c(FALSE, TRUE, FALSE, TRUE), c(10, 14, 5, 71))
#'   mcnemar_ho_test(table(A = a_right, B = b_right))   # TRUE = correct
#'   mcnemar_ho_test(a_right, b_right)
#' }
mcnemar_ho_test <- function(x, y = NULL, truth = NULL, correction = TRUE, exact = FALSE,
                            correct = NULL, conf.level = 0.95) {
  dn <- dname(substitute(x))
  if (!is.null(y)) dn <- paste(dn, "and", dname(substitute(y)))
  chk_flag(correction, "correction"); chk_flag(exact, "exact")
  inp <- one_table_input(x, y, truth, correct, "x")
  run_registry_test("mcnemar_ho", list(np_float(inp$counts, "table")),
                    list(correction = correction, exact = exact), paste0(dn, " (", inp$read, ")"),
                    conf.level = conf.level)
}

#' @rdname mcnemar_ho_test
#' @export
mcnemar_kfold_naive_test <- function(tables, empty_fold = c("zero", "drop"), correction = TRUE) {
  dn <- dname(substitute(tables))
  empty_fold <- choice(empty_fold, c("zero", "drop"), "empty_fold")
  chk_flag(correction, "correction")
  run_registry_test("mcnemar_kfold_naive", list(np_float(as_fold_tables(tables, "tables"), "tables")),
                    list(empty_fold = empty_fold, correction = correction), dn)
}

## ------------------------------------------------------------------ t family
#' t tests on per-fold differences of error rates
#'
#' The t-test family, each on the differences error(A) - error(B) of its
#' design's validation folds: `rho_t_test` (repeated hold-out paired t,
#' J = 15, Dietterich 1998), `kfold_t_test` (K-fold CV paired t),
#' `t_5x2cv_test` (Dietterich's 5x2 CV t, t(5)), `combined_t_5x2cv_test`
#' (Yildiz 2013), `blocked_t_3x2bcv_test` (Wang et al. 2014, t(5)),
#' `corrected_rho_t_test` (Nadeau and Bengio's corrected resampled t),
#' `corrected_10x10cv_t_test` (Bouckaert and Frank 2004),
#' `pseudo_bootstrap_test` and `corrected_pseudo_bootstrap_test` (Nadeau and
#' Bengio 2003).  The formulas and the rule for a zero variance are in
#' `docs/conventions.md`.
#'
#' @param diffs Per-fold differences in \[-1, 1\]: a vector (J or K values)
#'   for `rho_t_test`, `kfold_t_test` and `corrected_rho_t_test`; a 5 x 2
#'   matrix (rows replications, columns folds) for the 5x2 tests; 3 x 2 for
#'   `blocked_t_3x2bcv_test`; r x K (10 x 10) for `corrected_10x10cv_t_test`.
#' @param n_train,n_test Training and validation sizes: one number each, or
#'   one per fold (the ratio of the totals is used).
#' @param mu_hat The mean of the first J hold-out differences.
#' @param replicates The R replicate means.
#' @param J Hold-outs per replicate.
#' @param alternative `"two.sided"` (also `"two-sided"`), `"less"` or
#'   `"greater"`: H1 on error(A) - error(B).
#' @return An object of class `"htest"` with statistic `t`, `parameter`
#'   (df), `p.value`, `estimate` (mean difference), `conf.int` where the
#'   Python result has one, `alternative`, `method` and `data.name`.  A zero
#'   variance gives t = 0, p = 1 or t = +-Inf, p = 0, with a warning.
#' @name t_tests
#' @examples
#' if (pybcv_available()) {
#'   P <- matrix(c(.04, .02, .01, .03, .05, .00, .02, .04, .03, .01), 5, 2, byrow = TRUE)
#'   t_5x2cv_test(P)
#'   combined_t_5x2cv_test(P, alternative = "greater")
#'   kfold_t_test(c(1, 0, 2, -1, 1, 1, 3, 0, 1, 2) / 30)
#' }
NULL

#' @rdname t_tests
#' @export
rho_t_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("rho_t", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

#' @rdname t_tests
#' @export
kfold_t_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("kfold_t", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

#' @rdname t_tests
#' @export
t_5x2cv_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("t_5x2cv", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

#' @rdname t_tests
#' @export
combined_t_5x2cv_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("combined_t_5x2cv", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

#' @rdname t_tests
#' @export
blocked_t_3x2bcv_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("blocked_t_3x2bcv", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

#' @rdname t_tests
#' @export
corrected_rho_t_test <- function(diffs, n_train, n_test,
                                 alternative = c("two.sided", "less", "greater")) {
  run_registry_test("corrected_rho_t",
            list(np_float(diffs, "diffs"), py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

#' @rdname t_tests
#' @export
corrected_10x10cv_t_test <- function(diffs, n_train, n_test,
                                     alternative = c("two.sided", "less", "greater")) {
  run_registry_test("corrected_10x10cv_t",
            list(np_float(diffs, "diffs"), py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

#' @rdname t_tests
#' @export
pseudo_bootstrap_test <- function(mu_hat, replicates,
                                  alternative = c("two.sided", "less", "greater")) {
  run_registry_test("pseudo_bootstrap",
            list(scalar_number(mu_hat, "mu_hat"), np_float(replicates, "replicates")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(mu_hat)), "and", dname(substitute(replicates))))
}

#' @rdname t_tests
#' @export
corrected_pseudo_bootstrap_test <- function(mu_hat, replicates, n_train, n_test, J = 15,
                                            alternative = c("two.sided", "less", "greater")) {
  run_registry_test("corrected_pseudo_bootstrap",
            list(scalar_number(mu_hat, "mu_hat"), np_float(replicates, "replicates"),
                 py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test"), py_int(J, "J")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(mu_hat)), "and", dname(substitute(replicates))))
}

## ------------------------------------------------------------------ F family
#' F tests of 5x2 cross-validation
#'
#' `combined_f_5x2cv_test`: Alpaydin's combined 5x2 CV F test,
#' \eqn{f = \sum p^2 / (2 \sum s_i^2)} against F(10, 5).
#' `calibrated_f_5x2bcv_test`: the calibrated 5x2 BCV F test (Wang, Li and
#' Li 2017), the same statistic on the differences of a 5x2 BCV against
#' F(7, 5).
#'
#' @param diffs A 5 x 2 matrix of per-fold differences (rows replications j,
#'   columns folds k).
#' @return An object of class `"htest"`; `parameter` is `c(df1, df2)`.
#' @name f_tests
#' @examples
#' if (pybcv_available()) {
#'   P <- matrix(c(.04, .02, .01, .03, .05, .00, .02, .04, .03, .01), 5, 2, byrow = TRUE)
#'   combined_f_5x2cv_test(P)
#'   calibrated_f_5x2bcv_test(P)
#' }
NULL

#' @rdname f_tests
#' @export
combined_f_5x2cv_test <- function(diffs) {
  run_registry_test("combined_f_5x2cv", list(np_float(diffs, "diffs")), list(),
            dname(substitute(diffs)))
}

#' @rdname f_tests
#' @export
calibrated_f_5x2bcv_test <- function(diffs) {
  run_registry_test("calibrated_f_5x2bcv", list(np_float(diffs, "diffs")), list(),
            dname(substitute(diffs)))
}

## ------------------------------------------------------------------ z family
#' z tests: proportions, conservative Z, K-fold CV-CI
#'
#' `proportion_z_test`: Dietterich's pooled test of two proportions on one
#' hold-out set.  `conservative_z_test`: Nadeau and Bengio's conservative Z
#' test from M half-splits.  `cvci_z_test`: the K-fold CV-CI z test of
#' Bayle, Bayle, Janson and Mackey (2020) with the "out" variance, from
#' per-record loss differences.
#'
#' @param err_a,err_b The two error rates on the validation set.
#' @param n_test The number of validation records (a whole number).
#' @param mu_hat The mean of J hold-out differences on all data.
#' @param half_means An M x 2 matrix: the same mean on the two halves of each
#'   half-split.
#' @param loss_diff Per-record loss differences \eqn{l_A - l_B}, each from
#'   the model trained without the record's fold.
#' @param alternative `"two.sided"`, `"less"` or `"greater"`.
#' @return An object of class `"htest"` with statistic `z` and no
#'   `parameter`.
#' @name z_tests
#' @examples
#' if (pybcv_available()) {
#'   proportion_z_test(0.15, 0.09, 100)
#'   cvci_z_test(c(rep(1, 30), rep(-1, 15), rep(0, 255)), alternative = "less")
#' }
NULL

#' @rdname z_tests
#' @export
proportion_z_test <- function(err_a, err_b, n_test, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("proportion_z",
            list(scalar_number(err_a, "err_a"), scalar_number(err_b, "err_b"), py_int(n_test, "n_test")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(err_a)), "and", dname(substitute(err_b))))
}

#' @rdname z_tests
#' @export
conservative_z_test <- function(mu_hat, half_means, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("conservative_z",
            list(scalar_number(mu_hat, "mu_hat"), np_float(half_means, "half_means")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(mu_hat)), "and", dname(substitute(half_means))))
}

#' @rdname z_tests
#' @export
cvci_z_test <- function(loss_diff, alternative = c("two.sided", "less", "greater")) {
  run_registry_test("cvci_z", list(np_float(loss_diff, "loss_diff")),
            list(alternative = alt_to_py(alternative)), dname(substitute(loss_diff)))
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
#' @param tables The design's fold tables (F x 4: n00, n01, n10, n11).
#' @param n_train,n_test Fold sizes (needed by the corrected tests).
#' @param ... The test's options, e.g. `alternative`, `empty_fold`, `rho1`.
#' @param warn Give Python's warnings as R warnings.
#' @param conf.level Level of the confidence interval (`conf.int`).
#' @return `pybcv_test`: an `"htest"` object.  `pybcv_tests`: a data frame.
#' @export
#' @examples
#' if (pybcv_available()) {
#'   pybcv_tests()[, c("key", "family", "design")]
#' }
pybcv_test <- function(key, tables, n_train = NULL, n_test = NULL, ..., warn = TRUE, conf.level = 0.95) {
  dn <- dname(substitute(tables))
  if (!is.character(key) || length(key) != 1L) stop("key must be one test key (a string)", call. = FALSE)
  pybcv_helper()
  opts <- list(...)
  if (!is.null(opts$alternative)) opts$alternative <- alt_to_py(opts$alternative)
  tab <- as_fold_tables(tables, "tables")
  v <- py_call("run_from_tables", key, np_float(tab, "tables"),
               py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test"),
               if (length(opts)) do.call(reticulate::dict, opts) else reticulate::dict(),
               conf.level, call = sys.call())
  make_htest(v, dn, NULL, warn)
}

#' @rdname pybcv_test
#' @export
pybcv_tests <- function() {
  rows <- py_call("registry_table")
  data.frame(key = vapply(rows, `[[`, "", "key"),
             name = vapply(rows, `[[`, "", "name"),
             family = vapply(rows, `[[`, "", "family"),
             design = vapply(rows, `[[`, "", "design"),
             n_folds = vapply(rows, function(r) if (r$n_folds < 0) NA_integer_ else as.integer(r$n_folds), 1L),
             options = vapply(rows, `[[`, "", "options"),
             in_table5 = vapply(rows, `[[`, TRUE, "in_table5"),
             r_function = paste0(vapply(rows, `[[`, "", "key"), "_test"),
             stringsAsFactors = FALSE)
}

## ------------------------------------------------------------------ argument checks
chk_flag <- function(x, name) {
  if (!is.logical(x) || length(x) != 1L || is.na(x))
    stop(name, " must be TRUE or FALSE", call. = FALSE)
}

chk_number <- function(x, name) {
  if (!is.numeric(x) || length(x) != 1L || !is.finite(x))
    stop(name, " must be a single finite number", call. = FALSE)
}

scalar_number <- function(x, name) {
  if (!is.numeric(x) || length(x) != 1L)
    stop(name, " must be a single number", call. = FALSE)
  as.numeric(x)
}

## The option profiles of pybcv.stats.PROFILES (the `profile` argument's
## choices; testthat checks them, and the functions' defaults, against Python).
profile_choices <- c("default", "paper")

choice <- function(x, choices, name) {
  if (identical(x, choices)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || !(x %in% choices))
    stop(name, " must be one of ", paste0("\"", choices, "\"", collapse = ", "), call. = FALSE)
  x
}
