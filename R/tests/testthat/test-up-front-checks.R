## The checks of the command line, before any fit (issue 21: a numeric
## target with many values, one class, too few records), from Python's
## pybcv.datasets.check_records and pybcv.comparison.check_class_target.

## A learner that says whether it was ever fitted.
spy_learner <- function() {
  e <- new.env()
  e$fitted <- FALSE
  e$fun <- function(train, test) {
    e$fitted <- TRUE
    rep(as.character(train[[ncol(train)]][1]), nrow(test))
  }
  e
}

test_that("classifiers on a regression target are refused, naming the column and the way out", {
  need_python()
  set.seed(21)
  reg <- data.frame(x1 = rnorm(60), x2 = rnorm(60))
  reg$price <- 3 * reg$x1 + rnorm(60)
  msg <- paste0("the target column \"price\" looks like a regression target \\(60 distinct ",
                "numbers in 60 records\\), but majority, mean are classifiers.*loss = \"squared\"",
                ".*make the target a factor")
  expect_error(compare_learners("majority", "mean", reg, "price"), msg)
  expect_error(compare_learners("majority", "mean", reg, "price", stratify = TRUE), msg)
  expect_error(compare_many(c("majority", "mean", "glm"), reg, "price"), "looks like a regression")
  ## R functions and models predict labels under the 0/1 loss: classifiers too
  spy <- spy_learner()
  expect_error(compare_learners(spy$fun, stats::lm, reg, "price"),
               "but spy\\$fun, stats::lm are compared as classifiers under the default loss")
  expect_false(spy$fitted)
  ## under a loss on numbers they are regressors; the named learners stay classifiers
  expect_error(suppressWarnings(compare_learners("mean", spy$fun, reg, "price", loss = "squared")),
               "but mean is a classifier, which treats every value")
  ## a factor target holds classes, and a numeric one with few values is one
  reg$cls <- factor(reg$price > 0)
  reg$price <- NULL
  ok <- compare_learners("majority", "mean", reg, "cls", tests = "mcnemar_5x2bcv")
  expect_true(is.finite(ok$results$p.value))
  reg$cls <- as.integer(reg$cls)
  ok2 <- compare_learners("majority", "mean", reg, "cls", tests = "mcnemar_5x2bcv")
  expect_identical(ok2$tables, ok$tables)
})

test_that("one class or too few records are refused before any fit, as on the command line", {
  need_python()
  d <- iris[c(1:50, 51:100), ]
  d$Species <- "setosa"
  spy <- spy_learner()
  expect_error(compare_learners(spy$fun, "majority", d, "Species"),
               "data: the target column 'Species' has a single class")
  expect_error(compare_many(list(spy$fun, "majority", "mean"), d, "Species"), "has a single class")
  small <- iris[c(1:5, 51:55), ]
  expect_error(compare_learners(spy$fun, "majority", small, "Species"),
               "data: too few records \\(10\\); need at least 20")
  expect_false(spy$fitted)
  ## the same text as the command line's (pybcv.datasets.check_records)
  ds <- reticulate::import("pybcv.datasets")
  expect_identical(ds$MIN_RECORDS, 20L)
  ok <- compare_learners(spy$fun, "majority", iris[c(1:10, 51:60), ], "Species",
                         tests = "mcnemar_5x2bcv")
  expect_true(spy$fitted)
})

test_that("R models on a numeric target are told to give a loss, not called classifiers (walk 28)", {
  need_python()
  set.seed(3)
  reg <- data.frame(x1 = rnorm(120), x2 = rnorm(120))
  reg$price <- reg$x1 * 2 + rnorm(120)
  e <- tryCatch(compare_learners(lm, rpart::rpart, reg, "price"), error = conditionMessage)
  expect_match(e, "lm, rpart::rpart are compared as classifiers under the default loss", fixed = TRUE)
  expect_match(e, "to compare them as regression models give loss = \"squared\"", fixed = TRUE)
  expect_no_match(e, "are classifiers, which", fixed = TRUE)
  e2 <- tryCatch(compare_learners("J48", "kknn", reg, "price"), error = conditionMessage)
  expect_match(e2, "J48, kknn are classifiers, which treat", fixed = TRUE)
})
