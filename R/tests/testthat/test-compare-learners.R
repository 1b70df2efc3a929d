## compare_learners(): R learners over Python-made partitions, Python statistics.

test_that("J48 against kknn on iris, every test", {
  need_python()
  need_r_packages("RWeka", "kknn")
  res <- compare_learners("J48", "kknn", iris, "Species", tests = "all", seed = 1)
  expect_s3_class(res, "pybcv_comparison")
  r <- res$results
  expect_identical(nrow(r), 17L)
  expect_identical(r$test, pybcv:::paper_first(pybcv_tests()$key))    # the paper's test first
  expect_true(all(c("test", "statistic", "df", "p.value", "reject") %in% names(r)))
  expect_true(all(r$p.value >= 0 & r$p.value <= 1))
  expect_identical(r$reject, r$p.value < 0.05)
  expect_true(all(vapply(res$htests, inherits, TRUE, "htest")))
  expect_s3_class(res$htests$mcnemar_5x2bcv, "bcv_htest")
  expect_identical(res$results$df[res$results$test == "calibrated_f_5x2bcv"], 7)
  # the BCV test of the comparison equals bcv_mcnemar_test on its fold tables
  tab <- res$tables$bcv5x2
  expect_identical(nrow(tab), 10L)
  expect_identical(sum(tab[, "n_test"]), 5 * 150)
  expect_true(all(abs(tab[, "n_test"] - 75) <= 1))
  h <- suppressWarnings(bcv_mcnemar_test(tab[, 1:4]))
  expect_identical(h$statistic, res$htests$mcnemar_5x2bcv$statistic)
  expect_identical(h$p.value, res$htests$mcnemar_5x2bcv$p.value)
  # each design's partition depends on (seed, design) only
  sub <- compare_learners("J48", "kknn", iris, "Species", tests = c("mcnemar_5x2bcv", "kfold_t"), seed = 1)
  expect_identical(sub$tables$bcv5x2, res$tables$bcv5x2)
  expect_identical(sub$results$p.value, r$p.value[match(c("mcnemar_5x2bcv", "kfold_t"), r$test)])
  out <- capture.output(print(res))
  expect_true(any(grepl("J48 (A) vs kknn (B) on iris", out, fixed = TRUE)))
})

test_that("R functions as learners; the pipeline equals Python's for the same seed", {
  need_python()
  st <- py_stats()
  pp <- reticulate::import("pybcv.partitions", convert = FALSE)
  hp <- py_helper()
  outc <- reticulate::import("pybcv.outcomes")
  n <- 120
  truth <- factor(rep(c("a", "b", "c"), length.out = n))
  i <- seq_len(n) - 1L
  lA <- as.integer(i %% 5 == 0 | i %% 7 == 3)
  lB <- as.integer(i %% 6 == 1)
  other <- function(y) factor(c(a = "b", b = "c", c = "a")[as.character(y)], levels = levels(truth))
  ## learners with fixed per-record losses: they read the record from the row name
  fixed <- function(loss) function(train, test) {
    idx <- as.integer(rownames(test))
    ifelse(loss[idx] == 1, as.character(other(truth[idx])), as.character(truth[idx]))
  }
  A <- fixed(lA); B <- fixed(lB)
  dat <- data.frame(x = seq_len(n), y = truth)
  keys <- c("mcnemar_5x2bcv", "calibrated_f_5x2bcv", "t_5x2cv", "kfold_t", "cvci_z",
            "mcnemar_kfold_naive", "corrected_10x10cv_t", "proportion_z", "rho_t")
  res <- compare_learners(A, B, dat, "y", tests = keys, seed = 11)
  for (k in keys) {
    spec <- st$TESTS[[k]]
    d <- spec$design
    design <- reticulate::py_get_item(pp$DESIGNS, d)
    splits <- design$splits(as.integer(n), hp$design_seed(11L, d))
    tabs <- outc$tables_from_losses(np()$array(lA), np()$array(lB), splits)
    sizes <- design$sizes(as.integer(n))
    py <- spec$from_tables(tabs, reticulate::py_get_item(sizes, 0L), reticulate::py_get_item(sizes, 1L))
    expect_same_result(res$htests[[k]], py)
    expect_identical(unname(res$tables[[d]][, 1:4, drop = FALSE]),
                     unname(cbind(tabs[, 1, 1], tabs[, 1, 2], tabs[, 2, 1], tabs[, 2, 2]) + 0))
  }
  # the same battery from Python's engine (learner-free, fixed losses), same seed
  eng <- tryCatch(reticulate::import("pybcv.comparison", convert = FALSE), error = function(e) NULL)
  if (!is.null(eng)) {
    cmp <- eng$compare_losses(np()$array(lA), np()$array(lB), tests = as.list(keys), seed = 11L)
    for (k in keys) {
      py <- reticulate::py_to_r(reticulate::py_get_item(cmp$results, k))
      expect_same_result(res$htests[[k]], py)
    }
    for (d in names(res$tables)) {
      tabs <- reticulate::py_to_r(reticulate::py_get_item(cmp$tables, d))
      expect_identical(unname(res$tables[[d]][, 1:4, drop = FALSE]),
                       unname(cbind(tabs[, 1, 1], tabs[, 1, 2], tabs[, 2, 1], tabs[, 2, 2]) + 0))
    }
    # the design streams are the engine's
    for (d in c("bcv5x2", "cv10", "holdout")) {
      g1 <- hp$design_seed(7L, d); g2 <- hp$design_seed_fallback(7L, d)
      expect_identical(g1$integers(0L, 1000000L, 5L), g2$integers(0L, 1000000L, 5L))
    }
  }
  # named learner = the same learner written as an R function
  j48 <- function(train, test) predict(RWeka::J48(Species ~ ., data = train), newdata = test)
  need_r_packages("RWeka")
  r1 <- compare_learners("J48", "majority", iris, "Species", tests = "mcnemar_5x2bcv", seed = 3)
  r2 <- compare_learners(j48, "majority", iris, "Species", tests = "mcnemar_5x2bcv", seed = 3)
  expect_identical(r1$tables, r2$tables)
  expect_identical(r2$learners[["a"]], "j48")
  # learner parameters in the engine's syntax
  need_r_packages("kknn")
  k7 <- function(train, test) fitted(kknn::kknn(Species ~ ., train, test, k = 7, kernel = "rectangular"))
  r3 <- compare_learners("kknn:k=7,kernel=rectangular", "majority", iris, "Species", tests = "kfold_t", seed = 3)
  r4 <- compare_learners(k7, "majority", iris, "Species", tests = "kfold_t", seed = 3)
  expect_identical(r3$tables, r4$tables)
  r5 <- compare_learners("J48:options=-M 20", "J48", iris, "Species", tests = "kfold_t", seed = 3)
  r6 <- compare_learners(function(train, test) predict(RWeka::J48(Species ~ ., train, control = c("-M", "20")), test),
                         "J48", iris, "Species", tests = "kfold_t", seed = 3)
  expect_identical(r5$tables, r6$tables)
})

test_that("profile and options reach the tests", {
  need_python()
  ## the paper profile's one-sided CV-CI z is for the paper's tables, not a comparison
  rule <- function(train, test) rep("setosa", nrow(test))
  expect_error(compare_learners("majority", rule, iris, "Species",
                                tests = c("cvci_z", "mcnemar_kfold_naive"), seed = 2, profile = "paper"),
               "profile 'paper' sets cvci_z")
  res <- compare_learners("majority", rule, iris, "Species", tests = "mcnemar_kfold_naive",
                          seed = 2, profile = "paper")
  expect_identical(res$htests$mcnemar_kfold_naive$empty_fold, "drop")
  expect_error(compare_learners("majority", rule, iris, "Species", tests = "cvci_z", seed = 2,
                                options = list(cvci_z = list(alternative = "greater"))),
               "withdrawn")
  one <- compare_learners("majority", rule, iris, "Species", tests = "cvci_z", seed = 2,
                          alternative = "greater")
  expect_identical(one$htests$cvci_z$alternative, "two.sided")
})

test_that("compare_learners uses seed 0 by default, as Python does", {
  need_python()
  py <- reticulate::import("pybcv.experiments")$COMPARE_DEFAULTS
  for (f in list(compare_learners, compare_many)) {
    expect_identical(formals(f)$seed, as.numeric(py$seed))
    expect_identical(formals(f)$tests, py$tests)
    expect_identical(formals(f)$alpha, py$alpha)
  }
  expect_identical(formals(compare_learners)$seed, 0)
  f <- function(train, test) rep("setosa", nrow(test))
  r0 <- compare_learners("majority", f, iris, "Species", tests = "kfold_t")
  r0b <- compare_learners("majority", f, iris, "Species", tests = "kfold_t", seed = 0)
  expect_identical(r0$tables, r0b$tables)
  expect_false(identical(r0$tables, compare_learners("majority", f, iris, "Species", tests = "kfold_t",
                                                     seed = 1)$tables))
})

test_that("as.data.frame() and compare_many()", {
  need_python()
  need_r_packages("RWeka", "kknn")
  keys <- c("mcnemar_5x2bcv", "combined_t_5x2cv", "kfold_t")
  res <- compare_learners("J48", "kknn", iris, "Species", tests = keys)
  df <- as.data.frame(res)
  expect_identical(df, res$results)
  expect_true(all(c("test", "p.value", "estimate", "conf.low", "conf.high") %in% names(df)))
  many <- compare_many(c("J48", "kknn", "majority"), iris, "Species", tests = keys)
  expect_s3_class(many, "pybcv_comparisons")
  expect_identical(names(many$comparisons), c("J48 vs kknn", "J48 vs majority", "kknn vs majority"))
  # the pair J48 vs kknn is the two-learner comparison (same folds, same tables)
  expect_identical(many$comparisons[["J48 vs kknn"]]$tables, res$tables)
  expect_identical(many$comparisons[["J48 vs kknn"]]$results$p.value, res$results$p.value)
  d <- as.data.frame(many)
  expect_identical(nrow(d), 9L)
  expect_identical(unique(d$a), c("J48", "kknn"))
  expect_output(print(many), "3 learners")
  expect_error(compare_many("J48", iris, "Species"), "at least two")
})

test_that("pybcv_experiments() reads Python's records", {
  need_python()
  ex <- pybcv_experiments()
  py <- reticulate::import("pybcv.experiments")$EXPERIMENTS
  expect_identical(sort(names(ex)), sort(names(py)))
  expect_identical(ex$letter$n, py$letter$n)
})

test_that("the paper's test comes first, as in Python's comparisons", {
  need_python()
  f <- function(train, test) rep("setosa", nrow(test))
  r <- compare_learners("majority", f, iris, "Species")
  expect_identical(r$results$test, c("mcnemar_5x2bcv", "calibrated_f_5x2bcv"))
  py <- reticulate::import("pybcv.comparison")
  expect_identical(r$results$test[1], py$PAPER_TEST)
})

test_that("the profiles R offers are Python's; the withdrawn 'calibrated' is refused", {
  need_python()
  py <- reticulate::import("pybcv.stats")$PROFILES
  expect_identical(pybcv:::profile_choices, names(py))
  for (f in list(compare_learners, compare_many, pybcv_test_predictions))
    expect_identical(eval(formals(f)$profile), names(py))
  rule <- function(train, test) ifelse(test$Petal.Length < 2.5, "setosa",
                                       ifelse(test$Petal.Width < 1.7, "versicolor", "virginica"))
  expect_error(compare_learners("majority", rule, iris, "Species", profile = "calibrated"),
               "profile must be one of")
})

test_that("compare_many adjusts over the pairs (Holm by default, as the CLI) and plots", {
  need_python()
  rule <- function(train, test) ifelse(test$Petal.Length < 2.5, "setosa",
                                       ifelse(test$Petal.Width < 1.7, "versicolor", "virginica"))
  half <- function(train, test) ifelse(test$Petal.Length < 2.5, "setosa", "versicolor")
  many <- compare_many(list(majority = "majority", rule = rule, half = half), iris, "Species",
                           tests = "mcnemar_5x2bcv")
  expect_identical(many$adjust, "holm")
  expect_identical(pybcv:::adjustments, unlist(reticulate::import("pybcv.comparison")$ADJUSTMENTS))
  r <- many$results
  py <- reticulate::import("pybcv.comparison")
  expect_equal(r$p.holm, as.numeric(py$holm(r$p.value)), tolerance = 0)
  expect_equal(r$p.shaffer, as.numeric(py$shaffer(r$p.value, 3L)), tolerance = 0)
  expect_identical(r$reject, r$p.holm < 0.05)
  expect_true(all(r$p.holm >= r$p.value))
  s <- compare_many(list(majority = "majority", rule = rule, half = half), iris, "Species",
                        tests = "mcnemar_5x2bcv", adjust = "shaffer")
  expect_identical(s$results$reject, s$results$p.shaffer < 0.05)
  expect_error(compare_many(c("majority", "mean"), iris, "Species", adjust = "bonferroni"),
               "adjust must be one of")
  expect_identical(names(sort(many$errors))[1L], "rule")
  f <- tempfile(fileext = ".png")
  grDevices::png(f)
  expect_silent(plot(many))
  grDevices::dev.off()
  expect_gt(file.size(f), 1000)
  expect_error(plot(many, test = "kfold_t"), "did not run")
})

test_that("predictions that are not labels are refused, from a learner and from own predictions", {
  need_python()
  prob <- function(train, test) runif(nrow(test))
  codes <- function(train, test) as.integer(factor(rep("setosa", nrow(test)), levels = levels(iris$Species)))
  expect_error(compare_learners("majority", prob, iris, "Species"), "is not a label of truth.*probabilities")
  expect_error(compare_learners("majority", codes, iris, "Species"), "prediction \"1\".*not a label")
  truth <- rep(c("a", "b"), 20)
  p <- bcv_partitions(40, seed = 0)
  ok <- lapply(p$validation, function(i) truth[i])
  probs <- lapply(p$validation, function(i) runif(length(i)))
  expect_error(pybcv_test_predictions(probs, ok, truth, folds = p$validation),
               "x\\[\\[1\\]\\] \\(fold 1\\): prediction .* is not a label of truth")
  int <- lapply(p$validation, function(i) as.integer(factor(truth[i])))
  expect_error(pybcv_test_predictions(ok, int, truth, folds = p$validation), "y\\[\\[1\\]\\].*not a label")
  expect_error(mcnemar_ho_test(c(0.2, 0.9), c("a", "b"), truth = c("a", "b")), "not a label")
})

test_that("alternative and options reach the tests; a bad option names the test", {
  need_python()
  rule <- function(train, test) ifelse(test$Petal.Length < 2.5, "setosa",
                                       ifelse(test$Petal.Width < 1.7, "versicolor", "virginica"))
  g <- compare_learners("majority", rule, iris, "Species", alternative = "greater",
               options = list(mcnemar_5x2bcv = list(t = 1.5)))
  h <- g$htests$mcnemar_5x2bcv
  expect_identical(h$alternative, "greater")
  expect_identical(h$t, 1.5)
  expect_identical(g$htests$calibrated_f_5x2bcv$alternative, "two.sided")
  expect_error(compare_learners("majority", rule, iris, "Species", options = list(mcnemar_5x2bcv = list(tt = 1))),
               "takes no option")
  expect_error(compare_learners("majority", rule, iris, "Species", options = list(kfold_t = list(alternative = "less"))),
               "not selected")
})
