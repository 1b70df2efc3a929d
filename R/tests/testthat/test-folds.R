## pybcv_folds(): any design's folds as Python draws them; the notes of the
## stratified and grouped designs reach R; own predictions on 0-based folds
## or on another design's tests are refused with the way out (walk 28).

test_that("pybcv_folds gives Python's folds of any design, 1-based", {
  need_python()
  pc <- reticulate::import("pybcv.comparison", convert = FALSE)
  pp <- reticulate::import("pybcv.partitions", convert = FALSE)
  for (d in c("cv10", "bcv5x2", "holdout")) {
    f <- pybcv_folds(120, design = d, seed = 3)
    py <- reticulate::py_to_r(pp$get_design(d)$splits(120L, pc$design_generator(3L, d)))
    expect_identical(f$validation, lapply(py, function(s) as.integer(s[[2]]) + 1L))
    expect_identical(f$train, lapply(py, function(s) as.integer(s[[1]]) + 1L))
  }
  y <- rep(c("b", "a", "c"), length.out = 150)
  f <- pybcv_folds(150, seed = 4, y = y)
  sp <- pybcv:::design_batch("bcv5x2", 150, 4, match(y, c("a", "b", "c")), NULL, TRUE)
  expect_identical(unlist(f$validation), pybcv:::test_rows(sp))
  expect_error(pybcv_folds(100, design = "cv11"), "design must be one of")
  expect_error(pybcv_folds(100, y = 1:3), "one value per record")
  expect_error(pybcv_folds(100, seed = -1), "seed must be")
})

test_that("rare classes and a dominant group are warned, as in Python", {
  need_python()
  set.seed(1)
  y <- c(rep("rare", 3), sample(c("a", "b"), 237, TRUE))
  expect_warning(pybcv_folds(240, y = y), "'rare' \\(3\\) hold fewer records than the 8 blocks")
  d <- data.frame(x1 = rnorm(240), x2 = rnorm(240), class = y,
                  big = c(rep("0", 200), as.character(1:40)))
  expect_warning(compare_learners("majority", "majority", d[-4], "class", stratify = TRUE,
                                  tests = "mcnemar_5x2bcv"), "'rare' \\(3\\)")
  expect_warning(compare_learners("majority", "majority", d, "class", groups = "big",
                                  tests = "mcnemar_5x2bcv"), "group '0' alone has 200 records")
})

test_that("own predictions: 0-based folds and tests of another design are refused", {
  need_python()
  set.seed(2)
  cl <- sample(c("a", "b"), 200, TRUE)
  p <- bcv_partitions(200)
  pa <- lapply(p$validation, function(i) cl[i])
  expect_error(pybcv_test_predictions(pa, pa, cl, lapply(p$validation, function(v) v - 1L)),
               "holds index 0: R's folds are 1-based")
  expect_error(pybcv_test_predictions(pa, pa, cl, p$validation, tests = "kfold_t"),
               'pybcv_folds\\(n, design = "cv10", seed = 0\\) and give design = "cv10"')
  f <- pybcv_folds(200, design = "cv10")
  qa <- lapply(f$validation, function(i) cl[i])
  qb <- lapply(f$validation, function(i) ifelse(i %% 5 == 0, "a", cl[i]))
  r <- pybcv_test_predictions(qa, qb, cl, f$validation, design = "cv10", tests = "kfold_t")
  expect_identical(r$results$test, "kfold_t")
})
