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
## a data frame with .pred_class, type = "prob" one with .pred_<class>
## columns and type = "numeric" one with .pred; a specification without a
## mode is refused at fit, as parsnip does), wrapping MASS::lda (stats::lm in
## mode "regression"); a model_spec then gives what MASS::lda gives
## as a model-fitting function, for labels and for the log loss.
with_parsnip_stand_in <- function(code) {
  fit <- function(spec, formula, data) {
    stopifnot(inherits(spec, "model_spec"), inherits(formula, "formula"))
    if (identical(spec$mode, "unknown"))         # as parsnip::fit
      stop("Please set the mode in the model specification.")
    if (identical(spec$mode, "regression"))
      return(structure(list(model = stats::lm(formula, data = data)), class = c("stand_in_fit", "model_fit")))
    structure(list(model = MASS::lda(formula, data = data)), class = c("stand_in_fit", "model_fit"))
  }
  predict_fit <- function(object, new_data, type = "class", ...) {
    p <- stats::predict(object$model, newdata = new_data)
    if (identical(type, "numeric")) return(data.frame(.pred = unname(p)))
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

## Regressors under a loss on numbers (issue 21 B2): a model-fitting
## function's plain predict() and a parsnip specification's type = "numeric"
## give numbers, the same as a hand-written function(train, test).
regression_data <- function() {
  set.seed(27)
  d <- data.frame(x1 = rnorm(80), x2 = rnorm(80))
  d$price <- 2 + d$x1 - 0.5 * d$x2 + rnorm(80, sd = 0.3)
  d
}

test_that("a model-fitting function is a regressor under loss = 'squared' / 'absolute'", {
  need_python()
  d <- regression_data()
  keys <- c("calibrated_f_5x2bcv", "kfold_t")
  f_mean <- function(train, test) rep(mean(train$price), nrow(test))
  r <- compare_learners(stats::lm, f_mean, d, "price", loss = "squared", tests = keys)
  hand <- function(train, test) predict(stats::lm(price ~ ., data = train), test)
  h <- compare_learners(hand, f_mean, d, "price", loss = "squared", tests = keys)
  expect_identical(r$tables, h$tables)
  expect_lt(r$results$estimate[1], 0)               # lm beats the mean
  a <- compare_learners(stats::lm, f_mean, d, "price", loss = "absolute", tests = keys)
  expect_identical(a$loss, "absolute")
  need_r_packages("rpart")
  t <- compare_learners(rpart::rpart, stats::lm, d, "price", loss = "squared", tests = keys)
  expect_true(all(is.finite(t$results$statistic)))
  ## a model whose predict() gives no numbers says so
  lab <- function(formula, data) structure(list(), class = "labels_only")
  registerS3method("predict", "labels_only", function(object, newdata, ...)
    factor(rep("a", nrow(newdata))), envir = asNamespace("stats"))
  expect_error(compare_learners(lab, f_mean, d, "price", loss = "squared", tests = keys),
               "learner lab failed on fold 1 of 10 \\(design bcv5x2\\): predict\\(\\) of the fitted labels_only model returns factor, not numbers")
})

test_that("warnings of a learner's fits reach the user once, naming learner, fits and design", {
  need_python()
  warn_learner <- function(train, test) {
    warning("my model did not converge")
    rep(as.character(train$Species[1]), nrow(test))
  }
  got <- character()
  res <- withCallingHandlers(
    compare_learners(warn_learner, "majority", iris, "Species", tests = c("mcnemar_5x2bcv", "kfold_t")),
    warning = function(w) { got <<- c(got, conditionMessage(w)); invokeRestart("muffleWarning") })
  mine <- grep("my model", got, value = TRUE)
  expect_identical(mine, paste("learner warn_learner, 10 of 10 fits of bcv5x2 (first on fold 1);",
                               "10 of 10 fits of cv10 (first on fold 1): my model did not converge"))
  ## a warning on some fits only says on how many
  some <- function(train, test) {
    if (nrow(train) < 75) warning("small training half")
    rep(as.character(train$Species[1]), nrow(test))
  }
  d <- iris[-1, ]                  # 149 records: halves of 74 and 75
  got <- character()
  withCallingHandlers(compare_learners(some, "majority", d, "Species", tests = "mcnemar_5x2bcv"),
                      warning = function(w) { got <<- c(got, conditionMessage(w)); invokeRestart("muffleWarning") })
  expect_length(grep("small training half", got), 1L)
  expect_match(grep("small training half", got, value = TRUE),
               "^learner some, [1-9] of 10 fits of bcv5x2 \\(first on fold [0-9]+\\): small training half$")
})

test_that("a named learner's R warnings (glm on separable data) reach the user once each", {
  need_python()
  set.seed(1)
  d <- data.frame(x1 = rnorm(200), x2 = rnorm(200))
  d$class <- ifelse(d$x1 > 0, "a", "b")
  got <- character()
  withCallingHandlers(compare_learners("glm", "majority", d, "class", tests = "mcnemar_5x2bcv"),
                      warning = function(w) { got <<- c(got, conditionMessage(w)); invokeRestart("muffleWarning") })
  expect_identical(grep("fitted probabilities", got, value = TRUE),
                   paste("learner glm, 10 of 10 fits of bcv5x2 (first on fold 1): glm.fit:",
                         "fitted probabilities numerically 0 or 1 occurred"))
})

test_that("what a model-fitting function prints on each fit is not shown", {
  need_python()
  need_r_packages("MASS")
  noisy <- function(formula, data) {
    cat("iter  10 value 42.0\nconverged\n")
    MASS::lda(formula, data = data)
  }
  out <- capture.output(r <- compare_learners(noisy, "majority", iris, "Species",
                                              tests = "mcnemar_5x2bcv"))
  expect_identical(out, character())
  expect_identical(r$tables, compare_learners(MASS::lda, "majority", iris, "Species",
                                              tests = "mcnemar_5x2bcv")$tables)
})

test_that("a parsnip-style specification: the mode from the loss, numbers for regression", {
  need_python()
  need_r_packages("MASS")
  with_parsnip_stand_in({
    ## no mode (decision_tree()): classification for labels, set before any fit
    nomode <- structure(list(mode = "unknown"), class = c("stand_in_spec", "model_spec"))
    l <- compare_learners(nomode, "majority", iris, "Species", tests = "mcnemar_5x2bcv")
    ml <- compare_learners(MASS::lda, "majority", iris, "Species", tests = "mcnemar_5x2bcv")
    expect_identical(l$tables, ml$tables)
    ## regression: type = "numeric" (the stand-in: lm), as stats::lm
    d <- regression_data()
    keys <- c("calibrated_f_5x2bcv", "kfold_t")
    f_mean <- function(train, test) rep(mean(train$price), nrow(test))
    r <- compare_learners(nomode, f_mean, d, "price", loss = "squared", tests = keys)
    m <- compare_learners(stats::lm, f_mean, d, "price", loss = "squared", tests = keys)
    expect_identical(r$tables, m$tables)
    ## a mode that does not fit the loss is refused up front, naming set_mode()
    reg <- structure(list(mode = "regression"), class = c("stand_in_spec", "model_spec"))
    expect_error(compare_learners(reg, "majority", iris, "Species"),
                 "learner reg is a parsnip specification in mode \"regression\", but loss = \"zero_one\" compares class labels.*set_mode\\(\"classification\"\\)")
    cl <- structure(list(mode = "classification"), class = c("stand_in_spec", "model_spec"))
    expect_error(compare_learners(cl, f_mean, d, "price", loss = "squared", tests = keys),
                 "in mode \"classification\", but loss = \"squared\" compares numbers.*set_mode\\(\"regression\"\\)")
  })
  ## a fitted parsnip model (class c("_lda", "model_fit")) gets the fitted-model hint
  registerS3method("predict", "model_fit", function(object, ...) NULL, envir = asNamespace("stats"))
  fitted <- structure(list(), class = c("_lda", "model_fit"))
  expect_error(compare_learners(fitted, "majority", iris, "Species"),
               "model_fit is a fitted model: give the function that fits it")
})
