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
