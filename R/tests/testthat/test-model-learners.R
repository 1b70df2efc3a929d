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

## With parsnip installed, a real specification runs (labels and the log
## loss); without it, a model_spec is refused saying so.  One of the two runs
## on every machine (parsnip is not a declared dependency; no skip).
test_that("a parsnip specification: the real path with parsnip, said so without it", {
  need_python()
  pkg <- "parsnip"              # by name: an optional integration, not a declared dependency
  unif <- function(train, test)
    matrix(1 / 3, nrow(test), 3, dimnames = list(NULL, levels(train$Species)))
  if (requireNamespace(pkg, quietly = TRUE) && requireNamespace("rpart", quietly = TRUE)) {
    ps <- asNamespace(pkg)
    spec <- ps$set_engine(ps$decision_tree(mode = "classification"), "rpart")
    p <- compare_learners(spec, "majority", iris, "Species", tests = "mcnemar_5x2bcv")
    expect_true(is.finite(p$results$p.value))
    q <- compare_learners(spec, unif, iris, "Species", loss = "log", tests = "kfold_t")
    expect_identical(q$loss, "log")
    expect_true(is.finite(q$results$statistic))
    expect_lt(q$results$estimate, 0)          # a tree beats uniform probabilities
    return(invisible())
  }
  spec <- structure(list(), class = "model_spec")
  expect_error(compare_learners(spec, "majority", iris, "Species"),
               "needs the R package parsnip, which is not installed")
  expect_error(compare_learners(spec, MASS::lda, iris, "Species", loss = "log"),
               "needs the R package parsnip, which is not installed")
})

## The parsnip path without parsnip: a stand-in for parsnip::fit with its
## contract (a fitted model whose predict(new_data = , type = "class") gives
## a data frame with .pred_class and type = "prob" one with .pred_<class>
## columns), wrapping MASS::lda; a model_spec then gives what MASS::lda gives
## as a model-fitting function, for labels and for the log loss.
with_parsnip_stand_in <- function(code) {
  fit <- function(spec, formula, data) {
    stopifnot(inherits(spec, "model_spec"), inherits(formula, "formula"))
    structure(list(model = MASS::lda(formula, data = data)), class = c("stand_in_fit", "model_fit"))
  }
  predict_fit <- function(object, new_data, type = "class", ...) {
    p <- stats::predict(object$model, newdata = new_data)
    if (identical(type, "prob")) {
      out <- as.data.frame(p$posterior)
      names(out) <- paste0(".pred_", names(out))
      return(out)
    }
    data.frame(.pred_class = p$class)
  }
  registerS3method("predict", "stand_in_fit", predict_fit, envir = asNamespace("stats"))
  ns <- asNamespace("pybcv")
  old <- get("parsnip_fit", envir = ns)
  unlockBinding("parsnip_fit", ns)
  assign("parsnip_fit", function() fit, envir = ns)
  on.exit({
    assign("parsnip_fit", old, envir = ns)
    lockBinding("parsnip_fit", ns)
  })
  force(code)
}

test_that("a parsnip-style specification (stand-in fit): labels and log loss as the model", {
  need_python()
  need_r_packages("MASS")
  spec <- structure(list(mode = "classification"), class = c("stand_in_spec", "model_spec"))
  with_parsnip_stand_in({
    unif <- function(train, test)
      matrix(1 / 3, nrow(test), 3, dimnames = list(NULL, levels(train$Species)))
    p <- compare_learners(spec, unif, iris, "Species", loss = "log", tests = c("kfold_t", "t_5x2cv"))
    m <- compare_learners(MASS::lda, unif, iris, "Species", loss = "log",
                          tests = c("kfold_t", "t_5x2cv"))
    expect_identical(p$loss, "log")
    expect_equal(p$tables, m$tables, tolerance = 1e-12)
    expect_equal(p$results$statistic, m$results$statistic, tolerance = 1e-10)
    expect_true(all(is.finite(p$results$statistic)))
    l <- compare_learners(spec, "majority", iris, "Species", tests = "mcnemar_5x2bcv")
    ml <- compare_learners(MASS::lda, "majority", iris, "Species", tests = "mcnemar_5x2bcv")
    expect_identical(l$tables, ml$tables)
    expect_identical(unname(l$learners[["a"]]), "spec")
  })
})
