#' Is classifier A really better than classifier B? The block-regularized 5x2 CV McNemar test and its rivals
#'
#' An R interface to the Python library pybcv.  Every test returns an object
#' of class `"htest"` (printed like [stats::t.test()] or
#' [stats::mcnemar.test()]); the paper's test, [bcv_mcnemar_test()], also
#' carries and prints the averaged and effective contingency tables.
#'
#' * the tests: one function `<key>_test` per test of Python's registry,
#'   with the Python function's options (the list: [pybcv_tests()]), e.g.
#'   [bcv_mcnemar_test()] (= [mcnemar_5x2bcv_test()]), [mcnemar_ho_test()],
#'   [t_5x2cv_test()], [cvci_z_test()];
#' * partitions: [bcv_partitions()];
#' * learners on a data set: [compare_learners()], [compare_many()],
#'   [pybcv_learners()]; your own predictions: [pybcv_test_predictions()];
#'   any test from fold tables: [pybcv_test()], [pybcv_tests()];
#' * set-up: [pybcv_python()].
#'
#' Conventions (`docs/conventions.md` in the pybcv repository): a contingency
#' table is `[[n00, n01], [n10, n11]]`, rows A (incorrect, correct) and
#' columns B (incorrect, correct), so `n01` counts the records A gets wrong
#' and B right.  A difference is error(A) - error(B) on one validation fold.
#' The default seed is 0, as in Python and the command line.
#'
#' The learners run in R from the package's copy of pybcv's
#' `R/inst/batch.R` (the same R code the Python side runs through rpy2);
#' partitions and statistics come from Python, found and imported on the
#' first call, not when the package is loaded (see [pybcv_python()]).
#'
#' @references Yang, J., Wang, R., Song, Y. and Li, J.  Block-regularized 5x2
#'   cross-validated McNemar's test for comparing two classification
#'   algorithms.
#' @keywords internal
"_PACKAGE"
