## Which index means "incorrect": tables with dimnames, predictions + truth.

test_that("a table with right/wrong, correct/incorrect or TRUE/FALSE dimnames is read by its names", {
  need_python()
  ref <- mcnemar_ho_test(c(10, 14, 5, 71))        # n00, n01, n10, n11; n01 = A wrong, B right
  expect_equal(unname(ref$estimate), 0.09)
  ea <- rep(c("wrong", "right"), c(24, 76))
  eb <- rep(c("wrong", "right", "wrong", "right"), c(10, 14, 5, 71))
  tab <- table(A = ea, B = eb)                     # levels sorted: "right" first
  expect_identical(rownames(tab), c("right", "wrong"))
  h <- mcnemar_ho_test(tab)
  expect_identical(h$statistic, ref$statistic)
  expect_identical(h$estimate, ref$estimate)       # not reversed
  expect_match(h$data.name, "rows \"right\" = correct, columns \"right\" = correct", fixed = TRUE)
  ca <- ea == "right"; cb <- eb == "right"
  expect_identical(mcnemar_ho_test(table(ca, cb))$estimate, ref$estimate)
  ci <- ifelse(ca, "correct", "incorrect"); cj <- ifelse(cb, "correct", "incorrect")
  expect_identical(mcnemar_ho_test(table(A = ci, B = cj))$estimate, ref$estimate)
  # dimnames named B, A are transposed
  expect_identical(mcnemar_ho_test(table(B = eb, A = ea))$estimate, ref$estimate)
  # two logical vectors (TRUE = correct), or predictions and the truth
  expect_identical(mcnemar_ho_test(ca, cb)$estimate, ref$estimate)
  truth <- factor(rep("k", 100), levels = c("k", "m", "z"))    # the classes: the levels
  pa <- ifelse(ca, "k", "m"); pb <- ifelse(cb, "k", "z")
  h2 <- mcnemar_ho_test(pa, pb, truth)
  expect_identical(h2$statistic, ref$statistic)
  expect_identical(h2$estimate, ref$estimate)
  expect_match(h2$data.name, "against truth")
  # a plain matrix is read in the convention, and says so
  expect_match(mcnemar_ho_test(matrix(c(10, 5, 14, 71), 2))$data.name, "no dimnames: rows A, columns B")
})

test_that("ambiguous dimnames are an error asking for the orientation", {
  need_python()
  amb <- table(A = rep(c("x", "y"), 50), B = rep(c("x", "y"), each = 50))
  expect_error(mcnemar_ho_test(amb), "cannot tell which level of x means correct.*give correct =")
  expect_identical(mcnemar_ho_test(amb, correct = "y")$statistic,
                   mcnemar_ho_test(unname(unclass(amb)))$statistic)
  loss <- table(error_A = c(TRUE, FALSE, FALSE, TRUE), error_B = c(FALSE, FALSE, TRUE, TRUE))
  expect_error(mcnemar_ho_test(loss), "sounds like an error indicator")
  z <- table(A = c(0, 1, 1, 0), B = c(1, 1, 0, 0))
  expect_error(mcnemar_ho_test(z), "cannot tell which level")
  expect_error(mcnemar_ho_test(c("a", "b"), c("a", "a")), "must be logical \\(TRUE = correct\\)")
  expect_error(mcnemar_ho_test(c("a", "b"), c("a"), c("a", "b")), "y has 1 predictions but truth has 2")
})

test_that("bcv_mcnemar_test reads 2x2xK tables with dimnames and per-fold predictions", {
  need_python()
  tab <- fold_tables(E3_N01, E3_N10)
  ref <- bcv_mcnemar_test(tab)
  arr <- array(0, c(2, 2, 10), dimnames = list(A = c("right", "wrong"), B = c("right", "wrong"), NULL))
  for (k in 1:10) arr[, , k] <- matrix(tab[k, c(4, 3, 2, 1)], 2, byrow = TRUE)
  h <- bcv_mcnemar_test(arr)
  expect_identical(h$statistic, ref$statistic)
  expect_identical(h$estimate, ref$estimate)
  expect_match(h$data.name, "\"right\" = correct")
  # per-fold predictions against the truth, equal to the fold tables they give
  truth <- factor(rep(c("a", "b"), 30), levels = c("a", "b", "z"))
  p <- bcv_partitions(60, seed = 0)
  pa <- lapply(p$validation, function(i) ifelse(i %% 4 == 0, "z", as.character(truth[i])))
  pb <- lapply(p$validation, function(i) ifelse(i %% 9 == 0, "z", as.character(truth[i])))
  tabs <- t(vapply(p$validation, function(i) {
    a <- i %% 4 != 0; b <- i %% 9 != 0
    c(sum(!a & !b), sum(!a & b), sum(a & !b), sum(a & b))
  }, numeric(4)))
  h <- suppressWarnings(bcv_mcnemar_test(pa, y = pb, truth = truth, folds = p$validation))
  expect_identical(h$statistic, suppressWarnings(bcv_mcnemar_test(tabs))$statistic)
  r <- suppressWarnings(pybcv_test_predictions(pa, pb, truth, folds = p$validation))
  expect_identical(r$htests$mcnemar_5x2bcv$statistic, h$statistic)
  expect_identical(sort(r$results$test), sort(pybcv_tests()$key[pybcv_tests()$design == "bcv5x2"]))
  expect_identical(unname(r$tables$bcv5x2[, "n_train"]), rep(30, 10))
  expect_error(pybcv_test_predictions(pa, pb, truth, folds = p$validation, tests = "kfold_t"),
               "kfold_t run on design \"cv10\", not \"bcv5x2\"")
})

test_that("htests carry conf.int with conf.level where Python gives an interval", {
  need_python()
  h <- mcnemar_ho_test(c(10, 14, 5, 71))
  st <- py_stats()
  res <- st$mcnemar_ho(reticulate::np_array(c(10, 14, 5, 71), dtype = "float64"))
  ci <- unlist(res$confidence_interval(0.9))
  h90 <- mcnemar_ho_test(c(10, 14, 5, 71), conf.level = 0.9)
  expect_identical(as.numeric(h90$conf.int), as.numeric(ci))
  expect_identical(attr(h90$conf.int, "conf.level"), 0.9)
})
