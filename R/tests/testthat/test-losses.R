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

## A small regression data set and two R regressors on it (a linear model,
## the training mean).
regression_pair <- function(seed) {
  set.seed(seed)
  d <- data.frame(x1 = rnorm(60), x2 = rnorm(60))
  d$y <- 1 + 2 * d$x1 - d$x2 + rnorm(60, sd = 0.5)
  list(d = d, f_lm = function(train, test) predict(lm(y ~ ., train), test),
       f_mean = function(train, test) rep(mean(train$y), nrow(test)))
}

test_that("compare_learners(loss = 'squared' / 'absolute'): R regressors, Python's statistics", {
  need_python()
  rp <- regression_pair(1)
  d <- rp$d; f_lm <- rp$f_lm; f_mean <- rp$f_mean
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

## Nearest class mean on iris, as sklearn's NearestCentroid.
nearest_centroid <- function(train, test) {
  m <- sapply(split(train[names(train) != "Species"], train$Species), colMeans)
  dist <- apply(m, 2, function(mu) rowSums(sweep(as.matrix(test), 2, mu)^2))
  colnames(m)[max.col(-dist, ties.method = "first")]
}

test_that("compare_learners / compare_many with an R cost matrix agree with Python", {
  need_python()
  f_nc <- nearest_centroid
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
  # the same cost as an R function loss(truth, pred): the same statistics
  cost <- function(truth, pred) {
    lev <- sort(levels(iris$Species))
    C[cbind(match(as.character(truth), lev), match(as.character(pred), lev))]
  }
  rf <- compare_learners(f_nc, f_vir, iris, "Species", loss = cost, tests = "calibrated_f_5x2bcv")
  expect_identical(rf$loss, "cost")
  expect_equal(unname(rf$htests$calibrated_f_5x2bcv$statistic),
               p$results$calibrated_f_5x2bcv$statistic, tolerance = 1e-8)
  mf <- compare_many(list(nc = f_nc, vir = f_vir), iris, "Species", loss = cost,
                     tests = "calibrated_f_5x2bcv")
  expect_equal(unname(mf$errors), c(p$error_a, p$error_b), tolerance = 1e-12)
})

test_that("an R function loss: checked per fold, naming the learner and the fold", {
  need_python()
  f_vir <- function(train, test) rep("virginica", nrow(test))
  f_set <- function(train, test) rep("setosa", nrow(test))
  run <- function(loss) compare_learners(f_vir, f_set, iris, "Species", loss = loss, tests = "kfold_t")
  expect_error(run(function(truth, pred) 1),
               "returned 1 value\\(s\\) for the 15 records of learner f_vir, fold 1 of 10 \\(design cv10\\)")
  expect_error(run(function(truth, pred) ifelse(truth == pred, NA, 1)),
               "returned NA for record .* losses must be finite numbers")
  expect_error(run(function(truth, pred) suppressWarnings(log(as.numeric(truth == pred) - 0.5))),
               "returned NaN for record")
  expect_error(run(function(truth, pred) as.character(pred)), "returned character .* one number per record")
  expect_error(run(function(truth, pred) stop("boom")), "loss \\(an R function\\) failed on learner f_vir.*boom")
  expect_error(run(function(truth) 1), "takes two arguments, function\\(truth, pred\\)")
  dn <- data.frame(x1 = rnorm(40), y = rnorm(40))
  expect_error(compare_learners(function(train, test) rep(0, nrow(test)),
                                function(train, test) rep(1, nrow(test)), dn, "y",
                                loss = function(truth, pred) abs(truth - pred), stratify = TRUE),
               "under an R function loss a numeric target is read as numbers")
  # truth keeps the target's type (a factor); pred is a factor of the same levels
  seen <- NULL
  r <- run(function(truth, pred) { seen <<- list(truth, pred); as.numeric(truth != pred) })
  expect_true(is.factor(seen[[1]]) && identical(levels(seen[[2]]), levels(iris$Species)))
  expect_identical(r$loss, "loss")                 # the name it was given under
  expect_warning(run2 <- compare_learners(f_vir, f_set, iris, "Species",
                                          loss = function(truth, pred) as.numeric(truth != pred)),
                 "not run under loss 'R function': mcnemar_5x2bcv")
})

test_that("loss = 'log': probabilities from R learners, clipped at 1e-15, as an R function loss", {
  need_python()
  set.seed(3)
  d <- data.frame(x1 = rnorm(60), x2 = rnorm(60))
  d$y <- factor(ifelse(d$x1 + rnorm(60) > 0, "pos", "neg"))
  # constant probabilities: A says pos with 0.7, B says neg with probability 1 (pos 0: clipped)
  pA <- function(train, test) cbind(pos = rep(0.7, nrow(test)), neg = 0.3)
  pB <- function(train, test) matrix(c(1, 0), nrow(test), 2, byrow = TRUE)   # unnamed: neg, pos
  r <- compare_learners(pA, pB, d, "y", loss = "log", tests = c("kfold_t", "calibrated_f_5x2bcv"))
  expect_identical(r$loss, "log")
  # the same per-record losses as an R function loss on labels
  lA <- function(truth, pred) ifelse(pred == "pos", ifelse(truth == "pos", -log(0.7), -log(0.3)),
                                     ifelse(truth == "neg", 0, -log(1e-15)))
  r2 <- compare_learners(function(train, test) rep("pos", nrow(test)),
                         function(train, test) rep("neg", nrow(test)), d, "y", loss = lA,
                         tests = c("kfold_t", "calibrated_f_5x2bcv"))
  for (k in c("kfold_t", "calibrated_f_5x2bcv"))
    expect_equal(unname(r$htests[[k]]$statistic), unname(r2$htests[[k]]$statistic), tolerance = 1e-10)
  expect_equal(r$tables$cv10[, "sum_b"], r2$tables$cv10[, "sum_b"], tolerance = 1e-12)
  # model-fitting functions: predict(type = "prob") / $posterior
  r3 <- compare_learners(rpart::rpart, MASS::lda, d, "y", loss = "log", tests = "kfold_t")
  expect_true(is.finite(r3$htests$kfold_t$statistic))
  # a numeric target: the fit function fits a regression; said so
  d2 <- transform(d, y = as.integer(y))
  expect_error(compare_learners(rpart::rpart, MASS::lda, d2, "y", loss = "log", tests = "kfold_t"),
               "the target \"y\" is numeric, so the model is fitted as a regression; make the target a factor")
  # what cannot give probabilities is named
  expect_error(compare_learners("glm", MASS::lda, d, "y", loss = "log", tests = "kfold_t"),
               "learner glm is one of pybcv's named learners, which predict labels only")
  expect_error(compare_learners(function(train, test) rep("pos", nrow(test)), MASS::lda, d, "y",
                                loss = "log", tests = "kfold_t"),
               "gave .* character predictions for .* validation records; loss = \"log\" needs a matrix")
  expect_error(compare_learners(function(train, test) cbind(pos = rep(0.7, nrow(test)), neg = 0.7),
                                MASS::lda, d, "y", loss = "log", tests = "kfold_t"),
               "learner 'function.*summing to 1")
  expect_error(compare_learners(function(train, test) cbind(yes = rep(1, nrow(test))), MASS::lda,
                                d, "y", loss = "log", tests = "kfold_t"),
               "probabilities of class \"yes\", which is not a class of the target")
})

test_that("pybcv_test_predictions() refuses the log loss and an R function loss in words", {
  need_python()
  truth <- rep(c("a", "b"), 20)
  folds <- unname(split(seq_len(40), rep(1:10, 4)))
  pa <- lapply(folds, function(i) truth[i])
  expect_error(pybcv_test_predictions(pa, pa, truth, folds = folds, design = "cv10", loss = "log"),
               "loss = \"log\" reads class probabilities")
  expect_error(pybcv_test_predictions(pa, pa, truth, folds = folds, design = "cv10",
                                      loss = function(truth, pred) truth != pred),
               "for an R function loss, give the learners to compare_learners")
})

test_that("the R examples of docs/guide/losses.md run", {
  need_python()
  path <- file.path("..", "..", "..", "docs", "guide", "losses.md")   # a checkout only
  testthat::skip_if_not(file.exists(path), "docs/guide/losses.md is not beside this package")
  need_r_packages("RWeka", "kknn", "rpart", "MASS")
  lines <- readLines(path)
  starts <- which(lines == "```r")
  expect_gt(length(starts), 1L)
  for (s in starts) {
    e <- min(which(lines == "```" & seq_along(lines) > s))
    env <- new.env()
    out <- suppressWarnings(eval(parse(text = lines[(s + 1L):(e - 1L)]), envir = env))
    expect_true(inherits(out, c("pybcv_comparison", "pybcv_comparisons")))
  }
})

test_that("a regression given as classification, a cost matrix or log loss: short, pointed errors", {
  need_python()
  set.seed(1)
  d <- data.frame(x1 = rnorm(60), x2 = rnorm(60))
  d$y <- 1 + 2 * d$x1 + rnorm(60)
  f_lm <- function(train, test) predict(lm(y ~ ., train), test)
  f_mean <- function(train, test) rep(mean(train$y), nrow(test))
  ## refused before any fit (the command line's check): regressors under the 0/1 loss
  e <- tryCatch(compare_learners(f_lm, f_mean, d, "y"), error = conditionMessage)
  expect_match(e, "the target column \"y\" looks like a regression target .* give loss = \"squared\" or \"absolute\"")
  expect_lt(nchar(e), 400L)
  e <- tryCatch(compare_learners(f_lm, f_mean, d, "y", loss = matrix(c(0, 1, 5, 0), 2)),
                error = conditionMessage)
  expect_match(e, "a cost matrix is for classes: use loss='squared'")
  expect_lt(nchar(e), 500L)                   # the 60 values are not all listed
  e <- tryCatch(compare_learners(f_lm, f_mean, d, "y", loss = "log", tests = "kfold_t"),
                error = conditionMessage)
  expect_match(e, "looks like a regression target \\(60 distinct numbers in 60 records\\)")
  expect_lt(nchar(e), 400L)
  ## a function(train, test) giving numbers under the 0/1 loss on a target of few values
  d$y <- rep(1:12, 5)            # 12 values in 60 records: classes to the check
  e <- tryCatch(compare_learners(f_lm, f_mean, d, "y"), error = conditionMessage)
  expect_match(e, "a regression\\? give loss = \"squared\" or \"absolute\"")
})

test_that("loss = 'log' with two-class models whose predict() gives one probability", {
  need_python()
  need_r_packages("nnet")
  set.seed(3)
  d <- data.frame(x1 = rnorm(60), x2 = rnorm(60))
  d$y <- factor(ifelse(d$x1 + rnorm(60) > 0, "pos", "neg"))
  glm_fit <- function(formula, data) glm(formula, binomial, data)
  utils::capture.output(r1 <- suppressWarnings(
    compare_learners(nnet::multinom, MASS::lda, d, "y", loss = "log", tests = "kfold_t")))
  r2 <- compare_learners(glm_fit, MASS::lda, d, "y", loss = "log", tests = "kfold_t")
  # the same logistic model twice: P(pos) from type = "probs" and type = "response"
  expect_equal(r1$tables$cv10[, "sum_a"], r2$tables$cv10[, "sum_a"], tolerance = 1e-4)
  # the columns the right way round: x1 predicts y, so the mean log loss is
  # below log(2) (swapped probabilities would put it above)
  s <- colSums(r2$tables$cv10)
  expect_lt(s[["sum_a"]] / s[["n"]], log(2))
})

test_that("squared loss on named learners (classifiers) warns that labels are read as numbers", {
  need_python()
  d <- data.frame(x1 = c(1:30, 1:30), y = rep(1:3, 20))
  expect_warning(compare_learners("majority", "mean", d, "y", loss = "squared", tests = "kfold_t"),
                 "reads the labels of the target as numbers")
})

test_that("loss = 'log': the time limit of a fit holds for probabilities too", {
  need_python()
  d <- data.frame(x1 = rnorm(40), y = factor(rep(c("a", "b"), 20)))
  slow <- function(train, test) {          # busy, so that R checks the limit
    t0 <- proc.time()[["elapsed"]]
    while (proc.time()[["elapsed"]] - t0 < 2) NULL
    cbind(a = rep(0.5, nrow(test)), b = 0.5)
  }
  expect_error(compare_learners(slow, MASS::lda, d, "y", loss = "log", tests = "kfold_t",
                                timeout = 0.3),
               "learner slow failed on fold [0-9]+ of 10 \\(design cv10\\): the fit took longer than the time limit")
})

test_that("print() says which loss a comparison used", {
  need_python()
  f_vir <- function(train, test) rep("virginica", nrow(test))
  f_set <- function(train, test) rep("setosa", nrow(test))
  cost <- function(truth, pred) as.numeric(truth != pred) * 2
  r <- compare_learners(f_vir, f_set, iris, "Species", loss = cost, tests = "kfold_t")
  expect_output(print(r), "loss: cost \\(estimate = mean loss\\(A\\) - mean loss\\(B\\)")
  m <- compare_many(list(v = f_vir, s = f_set), iris, "Species", loss = cost, tests = "kfold_t")
  expect_output(print(m), "loss: cost; mean losses: v 1.333, s 1.333")
  expect_false(any(grepl("loss:", capture.output(print(
    compare_learners(f_vir, f_set, iris, "Species", tests = "kfold_t"))))))
})

test_that("a function returning probabilities under the 0/1 loss is told about loss = 'log'", {
  need_python()
  probs <- function(train, test) cbind(setosa = rep(1, nrow(test)), versicolor = 0, virginica = 0)
  expect_error(compare_learners(probs, MASS::lda, iris, "Species", tests = "kfold_t"),
               "learner probs returned a 15 x 3 matrix \\(fold 1 of 10 \\(design cv10\\)\\), not one label per validation record; class probabilities are read under loss = \"log\"")
  r <- compare_learners(probs, MASS::lda, iris, "Species", tests = "kfold_t", loss = "log")
  expect_equal(sum(r$tables$cv10[, "sum_a"]) / 150, 2 / 3 * -log(1e-15), tolerance = 1e-12)
})

## A test the validity battery found liberal under real-valued losses says so
## (its registry row's liberal_on_losses; docs/validity/warnings.csv) in its
## htest's warnings, the results' warnings column and the printed result, as
## the tests' other warnings; a test not flagged stays quiet.
test_that("a test liberal under real-valued losses warns in R (loss = 'squared')", {
  need_python()
  rp <- regression_pair(2)
  d <- rp$d; f_lm <- rp$f_lm; f_mean <- rp$f_mean
  r <- compare_learners(f_lm, f_mean, d, "y", loss = "squared", tests = c("t_5x2cv", "kfold_t"))
  w <- "the validity battery found the 5x2 CV t liberal under real-valued losses"
  expect_match(r$htests$t_5x2cv$warnings, w)
  expect_match(r$results$warnings[r$results$test == "t_5x2cv"], "docs/validity")
  expect_identical(r$results$warnings[r$results$test == "kfold_t"], "")
  expect_output(print(r), paste("t_5x2cv:", w))
  z <- compare_learners(function(train, test) rep("a", nrow(test)),
                        function(train, test) ifelse(test$x1 > 0, "a", "b"),
                        transform(d, y = ifelse(y > 1, "a", "b")), "y", tests = "t_5x2cv")
  expect_identical(z$results$warnings, "")          # 0/1 loss: no such warning
})

## The battery's liberal-test warning where the registry gives it for the
## loss (TestSpec.loss_warning_under): R's results carry the warnings of
## Python's compare(loss = ) on the same learners, loss by loss.
test_that("R's warnings under absolute, squared and cost-matrix losses equal Python's", {
  need_python()
  keys <- c("calibrated_f_5x2bcv", "t_5x2cv", "combined_t_5x2cv", "kfold_t")
  same_warnings <- function(r, p) {
    for (k in keys) {
      rw <- r$htests[[k]]$warnings
      pw <- as.character(unlist(p$results[[k]]$warnings))
      expect_identical(sort(rw), sort(pw), info = paste(r$loss, k))
    }
  }
  rp <- regression_pair(49)
  lm_ <- reticulate::import("sklearn.linear_model")
  dm <- reticulate::import("sklearn.dummy")
  X <- as.matrix(rp$d[c("x1", "x2")])
  for (loss in c("absolute", "squared")) {
    r <- compare_learners(rp$f_lm, rp$f_mean, rp$d, "y", loss = loss, tests = keys)
    p <- py_compare(X, rp$d$y, lm_$LinearRegression(), dm$DummyRegressor(), loss = loss,
                    tests = as.list(keys))
    same_warnings(r, p)
  }
  # the calibrated F warns under squared loss only (the battery's finding)
  expect_match(r$htests$calibrated_f_5x2bcv$warnings, "liberal under real-valued losses", all = FALSE)
  f_nc <- nearest_centroid
  f_vir <- function(train, test) rep("virginica", nrow(test))
  C <- matrix(c(0, 1, 4, 2, 0, 1, 1, 3, 0), 3, byrow = TRUE)
  r <- compare_learners(f_nc, f_vir, iris, "Species", loss = C, tests = keys)
  sk <- reticulate::import("sklearn.neighbors")
  p <- py_compare(as.matrix(iris[1:4]), as.character(iris$Species), sk$NearestCentroid(),
                  dm$DummyClassifier(strategy = "constant", constant = "virginica"),
                  loss = reticulate::np_array(C), tests = as.list(keys))
  same_warnings(r, p)
  expect_false(any(grepl("liberal", r$htests$calibrated_f_5x2bcv$warnings)))
})
