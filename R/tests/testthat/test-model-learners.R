## Learners given as model-fitting functions (formula, data) with a predict() method.

test_that("a formula/data fitting function is a learner, refitted per fold", {
  need_python()
  need_r_packages("rpart", "MASS")
  r1 <- compare_learners(rpart::rpart, "majority", iris, "Species", tests = "mcnemar_5x2bcv", seed = 3)
  hand <- function(train, test)
    as.character(predict(rpart::rpart(Species ~ ., data = train), newdata = test, type = "class"))
  r2 <- compare_learners(hand, "majority", iris, "Species", tests = "mcnemar_5x2bcv", seed = 3)
  expect_identical(r1$tables, r2$tables)
  r3 <- compare_learners(MASS::lda, rpart::rpart, iris, "Species", tests = "mcnemar_5x2bcv", seed = 3)
  expect_true(sum(r3$tables$bcv5x2[, "n11"]) > 600)    # lda and rpart both mostly right on iris
  expect_identical(unname(r3$learners[["a"]]), "MASS::lda")
})

test_that("learners that cannot be run give clear errors", {
  need_python()
  need_r_packages("rpart")
  fitted_model <- rpart::rpart(Species ~ ., data = iris)
  expect_error(compare_learners(fitted_model, "majority", iris, "Species"),
               "rpart is a fitted model: give the function that fits it")
  expect_error(compare_learners(42, "majority", iris, "Species"),
               "a learner must be a name")
  ## a model whose predict() gives numbers, not labels
  lm_fit <- function(formula, data) stats::lm(as.numeric(Species) ~ Sepal.Length, data = data)
  expect_error(compare_learners(lm_fit, "majority", iris, "Species", tests = "mcnemar_5x2bcv"),
               "returns numbers \\(probabilities or scores\\?\\), not class labels")
  ## a fit that fails names the learner, the fold and the design
  bad <- function(formula, data) stop("cannot fit this")
  expect_error(compare_learners(bad, "majority", iris, "Species", tests = "mcnemar_5x2bcv"),
               "learner bad failed on fold 1 of 10 \\(design bcv5x2\\): cannot fit this")
})

test_that("R learners take R's own options (checked as R runs them, not as Python's stand-in)", {
  need_python()
  need_r_packages("RWeka", "kknn")
  for (spec in c("J48:options=-C 0.1", "J48:options=-R", "JRip:options=-F 4", "kknn:kernel=gaussian")) {
    res <- compare_learners(spec, "majority", iris, "Species", tests = "mcnemar_5x2bcv", seed = 1)
    expect_identical(nrow(res$tables$bcv5x2), 10L)
  }
  ## options that change the fit do reach R
  g <- compare_learners("kknn:kernel=gaussian", "kknn", iris, "Species", tests = "mcnemar_5x2bcv", seed = 1)
  expect_true(is.finite(g$results$p.value))
  expect_error(compare_learners("kknn:kernel=nosuch", "majority", iris, "Species"), "kernel")
})

test_that("timeout: a fit that takes longer fails naming learner, fold and design", {
  need_python()
  slow <- function(train, test) {          # 5 s of computation
    t <- proc.time()[["elapsed"]]
    while (proc.time()[["elapsed"]] - t < 5) x <- sum(stats::runif(1e4))
    rep(as.character(train$Species[1]), nrow(test))
  }
  expect_error(compare_learners(slow, "majority", iris, "Species", tests = "mcnemar_5x2bcv", timeout = 0.5),
               "learner slow failed on fold 1 of 10 \\(design bcv5x2\\): the fit took longer than the time limit of 0.5 s")
  expect_null(getOption("pybcv.timeout"))            # the option is restored
  need_r_packages("kknn")
  big <- data.frame(x1 = rnorm(6000), x2 = rnorm(6000), x3 = rnorm(6000))
  big$y <- factor(big$x1 > 0)
  expect_error(compare_learners("kknn", "majority", big, "y", tests = "mcnemar_5x2bcv", timeout = 0.01),
               "the fit took longer than the time limit of 0.01 s")
  ok <- compare_learners("majority", "majority", iris, "Species", tests = "mcnemar_5x2bcv", timeout = 60)
  expect_identical(nrow(ok$tables$bcv5x2), 10L)
  expect_error(compare_learners("majority", "majority", iris, "Species", timeout = -1),
               "timeout must be a positive number")
})

test_that("a parsnip specification without parsnip installed: said so (labels and log loss)", {
  need_python()
  pkg <- "parsnip"              # by name: an optional integration, not a declared dependency
  testthat::skip_if(requireNamespace(pkg, quietly = TRUE), "parsnip is installed")
  spec <- structure(list(), class = "model_spec")
  expect_error(compare_learners(spec, "majority", iris, "Species"),
               "needs the R package parsnip, which is not installed")
  expect_error(compare_learners(spec, MASS::lda, iris, "Species", loss = "log"),
               "needs the R package parsnip, which is not installed")
})
