## pybcv_test_predictions(loss = ): numeric predictions of a numeric truth
## (docs/guide/losses.md).

test_that("own numeric predictions under squared loss: the 10-fold t on mean loss differences", {
  need_python()
  truth <- seq(0, 3, length.out = 40)
  folds <- unname(split(seq_len(40), rep(1:10, 4)))
  pa <- lapply(folds, function(i) truth[i] + 0.1 * i / 40)
  pb <- lapply(folds, function(i) truth[i] + 0.5 * sin(i))
  r <- pybcv_test_predictions(pa, pb, truth, folds = folds, design = "cv10", tests = "kfold_t",
                              loss = "squared")
  d <- vapply(seq_along(folds), function(f)
    mean((pa[[f]] - truth[folds[[f]]])^2) - mean((pb[[f]] - truth[folds[[f]]])^2), 1)
  expect_equal(unname(r$htests$kfold_t$statistic), mean(d) / (sd(d) / sqrt(10)), tolerance = 1e-10)
  expect_identical(r$loss, "squared")
  expect_error(pybcv_test_predictions(pa, pb, truth, folds = folds, design = "cv10",
                                      tests = "mcnemar_kfold_naive", loss = "squared"),
               "mcnemar_kfold_naive need 0/1 outcomes")
  expect_warning(pybcv_test_predictions(pa, pb, truth, folds = folds, design = "cv10",
                                        loss = "absolute"), "not run under loss 'absolute'")
})

## compare_learners() / compare_many() (loss = ): the predictions go to
## Python, whose per-fold loss sums and tests give the same statistics as
## Python's compare(loss = ) on the same seed.

py_compare <- function(X, y, a, b, ...) {
  comp <- reticulate::import("pybcv.comparison")
  comp$compare(X, y, a, b, seed = 0L, backend = "python", ...)
}

test_that("compare_learners(loss = 'squared' / 'absolute'): R regressors, Python's statistics", {
  need_python()
  set.seed(1)
  d <- data.frame(x1 = rnorm(60), x2 = rnorm(60))
  d$y <- 1 + 2 * d$x1 - d$x2 + rnorm(60, sd = 0.5)
  f_lm <- function(train, test) predict(lm(y ~ ., train), test)
  f_mean <- function(train, test) rep(mean(train$y), nrow(test))
  expect_warning(r <- compare_learners(f_lm, f_mean, d, "y", loss = "squared"),
                 "not run under loss 'squared': mcnemar_5x2bcv")
  lm_ <- reticulate::import("sklearn.linear_model")
  dm <- reticulate::import("sklearn.dummy")
  X <- as.matrix(d[c("x1", "x2")])
  p <- py_compare(X, d$y, lm_$LinearRegression(), dm$DummyRegressor(), loss = "squared")
  expect_identical(r$results$test, "calibrated_f_5x2bcv")
  expect_equal(unname(r$htests$calibrated_f_5x2bcv$statistic),
               p$results$calibrated_f_5x2bcv$statistic, tolerance = 1e-8)
  expect_identical(r$loss, "squared")
  expect_identical(colnames(r$tables$bcv5x2)[1:4], c("n", "sum_a", "sum_b", "sum_sq_diff"))
  keys <- c("calibrated_f_5x2bcv", "kfold_t")
  r2 <- compare_learners(f_lm, f_mean, d, "y", loss = "absolute", tests = keys)
  p2 <- py_compare(X, d$y, lm_$LinearRegression(), dm$DummyRegressor(), loss = "absolute",
                   tests = as.list(keys))
  for (k in keys)
    expect_equal(unname(r2$htests[[k]]$statistic), p2$results[[k]]$statistic, tolerance = 1e-8)
  expect_error(compare_learners(f_lm, f_mean, d, "y", loss = "squared", tests = "mcnemar_5x2bcv"),
               "mcnemar_5x2bcv need 0/1 outcomes")
  expect_error(compare_learners(f_lm, f_mean, d, "y", loss = "squared", stratify = TRUE),
               "leave stratify FALSE")
  bad <- function(train, test) rep("a", nrow(test))
  expect_error(suppressWarnings(compare_learners(f_lm, bad, d, "y", loss = "squared")),
               "learner bad returned \"a\" .*finite numbers")
})

test_that("compare_learners / compare_many with an R cost matrix agree with Python", {
  need_python()
  f_nc <- function(train, test) {          # nearest class mean, as sklearn's NearestCentroid
    m <- sapply(split(train[names(train) != "Species"], train$Species), colMeans)
    dist <- apply(m, 2, function(mu) rowSums(sweep(as.matrix(test), 2, mu)^2))
    colnames(m)[max.col(-dist, ties.method = "first")]
  }
  f_vir <- function(train, test) rep("virginica", nrow(test))
  C <- matrix(c(0, 1, 4, 2, 0, 1, 1, 3, 0), 3, byrow = TRUE)
  expect_warning(r <- compare_learners(f_nc, f_vir, iris, "Species", loss = C), "cost_matrix")
  sk <- reticulate::import("sklearn.neighbors")
  dm <- reticulate::import("sklearn.dummy")
  p <- py_compare(as.matrix(iris[1:4]), as.character(iris$Species), sk$NearestCentroid(),
                  dm$DummyClassifier(strategy = "constant", constant = "virginica"),
                  loss = reticulate::np_array(C))
  expect_equal(unname(r$htests$calibrated_f_5x2bcv$statistic),
               p$results$calibrated_f_5x2bcv$statistic, tolerance = 1e-8)
  m <- compare_many(list(nc = f_nc, vir = f_vir), iris, "Species", loss = C,
                    tests = "calibrated_f_5x2bcv")
  expect_equal(m$results$statistic, p$results$calibrated_f_5x2bcv$statistic, tolerance = 1e-8)
  expect_equal(unname(m$errors), c(p$error_a, p$error_b), tolerance = 1e-12)
  expect_error(compare_learners(f_nc, f_vir, iris, "Species", loss = diag(2)), "must be 3 x 3")
  expect_error(compare_learners(f_nc, f_vir, iris, "Species", loss = function(a, b) a),
               "an R function is not taken")
})
