## The R functions give exactly what Python gives for the same inputs/seed.

set.seed(20261122)
rdiff <- function(n) round(runif(n, -0.2, 0.3), 4)

test_that("every test function equals its Python function", {
  st <- py_stats()
  npx <- function(x) reticulate::np_array(x, dtype = "float64")
  for (alt in c("two.sided", "less", "greater")) {
    pa <- if (alt == "two.sided") "two-sided" else alt
    ## one-sided, five of these tests are withdrawn (the validity battery; test-registry-wrappers.R)
    sw <- function(x) if (alt == "two.sided") x else expect_error(x, "is withdrawn")
    same <- function(r, py) { force(r); if (alt == "two.sided") expect_same_result(r, py) }
    d <- rdiff(15)
    expect_same_result(rho_t_test(d, alternative = alt), st$rho_t(npx(d), alternative = pa))
    same(sw(kfold_t_test(d[1:10], alt)), st$rho_t(npx(d[1:10]), alternative = pa))
    same(sw(corrected_rho_t_test(d, 135, 15, alt)),
         st$corrected_rho_t(npx(d), 135L, 15L, alternative = "two-sided"))
    P <- matrix(rdiff(10), 5, 2)
    expect_same_result(t_5x2cv_test(P, alt), st$t_5x2cv(npx(P), alternative = pa))
    expect_same_result(combined_t_5x2cv_test(P, alt), st$combined_t_5x2cv(npx(P), alternative = pa))
    expect_same_result(blocked_t_3x2bcv_test(P[1:3, ], alt),
                       st$blocked_t_3x2bcv(npx(P[1:3, ]), alternative = pa))
    X <- matrix(rdiff(100), 10, 10)
    same(sw(corrected_10x10cv_t_test(X, 90, 10, alt)),
         st$corrected_10x10cv_t(npx(X), 90L, 10L, alternative = "two-sided"))
    reps <- rdiff(15)
    expect_same_result(pseudo_bootstrap_test(0.03, reps, alt),
                       st$pseudo_bootstrap(0.03, npx(reps), alternative = pa))
    expect_same_result(corrected_pseudo_bootstrap_test(0.03, reps, 270, 30, 15, alt),
                       st$corrected_pseudo_bootstrap(0.03, npx(reps), 270L, 30L, 15L, alternative = pa))
    same(sw(proportion_z_test(0.21, 0.13, 101, alt)),
         st$proportion_z(0.21, 0.13, 101L, alternative = "two-sided"))
    H <- matrix(rdiff(20), 10, 2)
    expect_same_result(conservative_z_test(0.01, H, alt), st$conservative_z(0.01, npx(H), alternative = pa))
    h <- sample(c(-1, 0, 0, 0, 1), 200, replace = TRUE)
    same(sw(cvci_z_test(h, alt)), st$cvci_z(npx(h), alternative = "two-sided"))
  }
  P <- matrix(rdiff(10), 5, 2)
  expect_same_result(combined_f_5x2cv_test(P), st$combined_f_5x2cv(npx(P)))
  expect_same_result(calibrated_f_5x2bcv_test(P), st$calibrated_f_5x2bcv(npx(P)))
})

test_that("McNemar family equals Python, including options", {
  st <- py_stats()
  npx <- function(x) reticulate::np_array(x, dtype = "float64")
  for (rep in 1:5) {
    tab <- fold_tables(rpois(10, 8), rpois(10, 5), size = 75)
    for (rho in list(c(0.5, 0.5), c(0.6, 0.7))) {       # t at most the paper's
      for (clamp in c(FALSE, TRUE)) {
        r <- suppressWarnings(bcv_mcnemar_test(tab, rho[1], rho[2], clamp_correction = clamp))
        py <- st$mcnemar_5x2bcv(npx(tab), rho1 = rho[1], rho2 = rho[2], clamp_correction = clamp)
        expect_same_result(r, py)
        expect_equal(unname(r$averaged_table), py$averaged_table,
                     tolerance = 0)
        expect_equal(unname(r$effective_table), py$effective_table,
                     tolerance = 0)
        expect_identical(r$n_e, py$n_e)
      }
    }
    for (ef in c("zero", "drop"))
      expect_same_result(suppressWarnings(mcnemar_kfold_naive_test(tab, empty_fold = ef)),
                         st$mcnemar_kfold_naive(npx(tab), empty_fold = ef))
    expect_error(mcnemar_kfold_naive_test(tab, correction = FALSE), "correction=False is withdrawn")
    t1 <- tab[1, ]
    for (cc in c(TRUE, FALSE)) for (ex in c(FALSE, TRUE)) {
      if (!cc && !ex) {
        expect_error(mcnemar_ho_test(t1, correction = cc, exact = ex), "correction=False is withdrawn")
        next
      }
      expect_same_result(suppressWarnings(mcnemar_ho_test(t1, correction = cc, exact = ex)),
                         st$mcnemar_ho(npx(t1), correction = cc, exact = ex))
    }
  }
  # an m x 2 BCV (m = 3): 6 rows
  tab <- fold_tables(c(5, 7, 6, 4, 8, 5), c(2, 3, 1, 4, 2, 3))
  r <- bcv_mcnemar_test(tab)
  expect_same_result(r, st$mcnemar_5x2bcv(npx(tab)))
  expect_identical(r$method, "3x2 BCV McNemar's test")
})

test_that("bcv_partitions equals Python's BlockRegularizedMx2CV (+1) for the same seed", {
  pp <- py_partitions()
  for (case in list(c(100, 5, 1), c(301, 5, 42), c(150, 3, 7), c(97, 7, 2026), c(16, 1, 0))) {
    n <- case[1]; m <- case[2]; seed <- case[3]
    r <- bcv_partitions(n, m = m, seed = seed)
    py <- pp$BlockRegularizedMx2CV(m = as.integer(m), random_state = as.integer(seed))$splits(as.integer(n))
    expect_length(r$train, 2 * m)
    for (f in seq_along(py)) {
      expect_identical(unname(r$train[[f]]), as.integer(py[[f]][[1]]) + 1L)
      expect_identical(unname(r$validation[[f]]), as.integer(py[[f]][[2]]) + 1L)
    }
  }
  # one seed, one partition: the folds of compare(seed = 4) and pybcv folds --seed 4
  folds <- pp$design_folds(150L, "bcv5x2", seed = 4L)
  expect_identical(unname(bcv_partitions(150, seed = 4)$validation),
                   lapply(folds, function(f) as.integer(f) + 1L))
  expect_identical(bcv_partitions(200, seed = 5), bcv_partitions(200, seed = 5))
  expect_false(identical(bcv_partitions(200, seed = 5)$train, bcv_partitions(200, seed = 6)$train))
  out <- capture.output(print(bcv_partitions(300, seed = 1)))
  expect_true(any(grepl("5x2 block-regularized CV of n = 300", out)))
})

test_that("pybcv_tests() lists the registry's tests with their R functions", {
  need_python()
  tt <- pybcv_tests()
  expect_identical(tt$key, names(reticulate::import("pybcv.stats")$TESTS))
  expect_true(all(vapply(tt$r_function, exists, TRUE, envir = asNamespace("pybcv"))))
  expect_true(all(tt$r_function %in% getNamespaceExports("pybcv")))
})

test_that("the package finds the project's Python", {
  need_python()
  info <- pybcv_python()
  expect_true(file.exists(info$python))
  expect_true(nzchar(info$version))
  expect_true(nzchar(info$source))
})
