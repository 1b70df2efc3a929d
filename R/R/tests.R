## The 17 tests, each returning an htest object.  Every function passes its
## inputs to pybcv.stats (Python) and converts the TestResult.

run_stats <- function(fname, key, args, kwargs = list(), data.name, method = NULL, warn = TRUE,
                      conf.level = 0.95) {
  call <- sys.call(-1L)
  pybcv_helper()   # first: reticulate must not start a Python of its own choosing
  names(args) <- NULL
  if (!length(kwargs)) kwargs <- reticulate::dict() else kwargs <- do.call(reticulate::dict, kwargs)
  if (!is.numeric(conf.level) || length(conf.level) != 1L || !(conf.level > 0 && conf.level < 1))
    stop("conf.level must be a number in (0, 1)", call. = FALSE)
  v <- py_call("run_test", fname, args, kwargs, key, conf.level, call = call)
  make_htest(v, data.name, method, warn)
}

registry_name <- function(key) {
  switch(key, rho_t = "RHO paired t-test", kfold_t = "K-fold CV paired t-test", NULL)
}

dname <- function(expr) paste(deparse(expr, width.cutoff = 500L), collapse = " ")

## ------------------------------------------------------------------ McNemar family
bcv_mcnemar_test <- function(x, rho1 = 0.5, rho2 = 0.5, clamp_correction = FALSE, y = NULL,
                             truth = NULL, folds = NULL, correct = NULL, conf.level = 0.95) {
  dn <- dname(substitute(x))
  if (!is.null(y)) dn <- paste(dn, "and", dname(substitute(y)))
  inp <- fold_tables_input(x, y, truth, folds, correct, "x")
  chk_number(rho1, "rho1"); chk_number(rho2, "rho2"); chk_flag(clamp_correction, "clamp_correction")
  run_stats("bcv_mcnemar", "mcnemar_5x2bcv", list(np_float(inp$tables, "tables")),
            list(rho1 = rho1, rho2 = rho2, clamp_correction = clamp_correction),
            paste0(dn, " (", inp$read, ")"), conf.level = conf.level)
}

mcnemar_5x2bcv_test <- bcv_mcnemar_test

mcnemar_ho_test <- function(x, y = NULL, truth = NULL, correction = TRUE, exact = FALSE,
                            correct = NULL, conf.level = 0.95) {
  dn <- dname(substitute(x))
  if (!is.null(y)) dn <- paste(dn, "and", dname(substitute(y)))
  chk_flag(correction, "correction"); chk_flag(exact, "exact")
  inp <- one_table_input(x, y, truth, correct, "x")
  run_stats("mcnemar", "mcnemar_ho", list(np_float(inp$counts, "table")),
            list(correction = correction, exact = exact), paste0(dn, " (", inp$read, ")"),
            conf.level = conf.level)
}

mcnemar_kfold_naive_test <- function(tables, empty_fold = c("zero", "drop"), correction = TRUE) {
  dn <- dname(substitute(tables))
  empty_fold <- choice(empty_fold, c("zero", "drop"), "empty_fold")
  chk_flag(correction, "correction")
  run_stats("naive_kfold_mcnemar", "mcnemar_kfold_naive",
            list(np_float(as_fold_tables(tables, "tables"), "tables")),
            list(empty_fold = empty_fold, correction = correction), dn)
}

## ------------------------------------------------------------------ t family
rho_t_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_stats("paired_t", "rho_t", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)),
            registry_name("rho_t"))
}

kfold_t_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_stats("paired_t", "kfold_t", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)),
            registry_name("kfold_t"))
}

t_5x2cv_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_stats("t_5x2cv", "t_5x2cv", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

combined_t_5x2cv_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_stats("combined_t_5x2cv", "combined_t_5x2cv", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

blocked_t_3x2bcv_test <- function(diffs, alternative = c("two.sided", "less", "greater")) {
  run_stats("blocked_t_3x2bcv", "blocked_t_3x2bcv", list(np_float(diffs, "diffs")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

corrected_rho_t_test <- function(diffs, n_train, n_test,
                                 alternative = c("two.sided", "less", "greater")) {
  run_stats("corrected_resampled_t", "corrected_rho_t",
            list(np_float(diffs, "diffs"), py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

corrected_10x10cv_t_test <- function(diffs, n_train, n_test,
                                     alternative = c("two.sided", "less", "greater")) {
  run_stats("corrected_repeated_cv_t", "corrected_10x10cv_t",
            list(np_float(diffs, "diffs"), py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test")),
            list(alternative = alt_to_py(alternative)), dname(substitute(diffs)))
}

pseudo_bootstrap_test <- function(mu_hat, replicates,
                                  alternative = c("two.sided", "less", "greater")) {
  run_stats("pseudo_bootstrap_t", "pseudo_bootstrap",
            list(scalar_number(mu_hat, "mu_hat"), np_float(replicates, "replicates")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(mu_hat)), "and", dname(substitute(replicates))))
}

corrected_pseudo_bootstrap_test <- function(mu_hat, replicates, n_train, n_test, J = 15,
                                            alternative = c("two.sided", "less", "greater")) {
  run_stats("corrected_pseudo_bootstrap_t", "corrected_pseudo_bootstrap",
            list(scalar_number(mu_hat, "mu_hat"), np_float(replicates, "replicates"),
                 py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test"), py_int(J, "J")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(mu_hat)), "and", dname(substitute(replicates))))
}

## ------------------------------------------------------------------ F family
combined_f_5x2cv_test <- function(diffs) {
  run_stats("combined_f_5x2cv", "combined_f_5x2cv", list(np_float(diffs, "diffs")), list(),
            dname(substitute(diffs)))
}

calibrated_f_5x2bcv_test <- function(diffs) {
  run_stats("calibrated_f_5x2bcv", "calibrated_f_5x2bcv", list(np_float(diffs, "diffs")), list(),
            dname(substitute(diffs)))
}

## ------------------------------------------------------------------ z family
proportion_z_test <- function(err_a, err_b, n_test, alternative = c("two.sided", "less", "greater")) {
  run_stats("proportion_z", "proportion_z",
            list(scalar_number(err_a, "err_a"), scalar_number(err_b, "err_b"), py_int(n_test, "n_test")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(err_a)), "and", dname(substitute(err_b))))
}

conservative_z_test <- function(mu_hat, half_means, alternative = c("two.sided", "less", "greater")) {
  run_stats("conservative_z", "conservative_z",
            list(scalar_number(mu_hat, "mu_hat"), np_float(half_means, "half_means")),
            list(alternative = alt_to_py(alternative)),
            paste(dname(substitute(mu_hat)), "and", dname(substitute(half_means))))
}

cvci_z_test <- function(loss_diff, alternative = c("two.sided", "less", "greater")) {
  run_stats("cvci_z", "cvci_z", list(np_float(loss_diff, "loss_diff")),
            list(alternative = alt_to_py(alternative)), dname(substitute(loss_diff)))
}

## ------------------------------------------------------------------ any test from fold tables
pybcv_test <- function(key, tables, n_train = NULL, n_test = NULL, ..., warn = TRUE) {
  dn <- dname(substitute(tables))
  if (!is.character(key) || length(key) != 1L) stop("key must be one test key (a string)", call. = FALSE)
  pybcv_helper()
  opts <- list(...)
  if (!is.null(opts$alternative)) opts$alternative <- alt_to_py(opts$alternative)
  tab <- as_fold_tables(tables, "tables")
  v <- py_call("run_from_tables", key, np_float(tab, "tables"),
               py_sizes(n_train, "n_train"), py_sizes(n_test, "n_test"),
               if (length(opts)) do.call(reticulate::dict, opts) else reticulate::dict(),
               call = sys.call())
  make_htest(v, dn, NULL, warn)
}

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

choice <- function(x, choices, name) {
  if (identical(x, choices)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || !(x %in% choices))
    stop(name, " must be one of ", paste0("\"", choices, "\"", collapse = ", "), call. = FALSE)
  x
}
