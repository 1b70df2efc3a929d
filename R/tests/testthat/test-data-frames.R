## Ordinary data frames: every predictor type, every learner that can take it.

mixed_frame <- function(n = 80, seed = 3) {
  set.seed(seed)
  d <- data.frame(num = rnorm(n), int = sample(1:5, n, TRUE), lgl = sample(c(TRUE, FALSE), n, TRUE),
                  fac = factor(sample(c("u", "v", "w"), n, TRUE)), chr = sample(c("s", "r"), n, TRUE),
                  stringsAsFactors = FALSE)
  d$cls <- ifelse(d$num + (d$fac == "u") + rnorm(n, sd = 0.5) > 0.5, "yes", "no")
  d
}

test_that("numeric, integer, logical, factor and character predictors with every learner", {
  need_python()
  need_r_packages("RWeka", "kknn", "tree")
  d <- mixed_frame()
  for (l in c("J48", "J48-unpruned", "JRip", "SMO", "Logistic", "kknn", "tree", "glm", "majority")) {
    r <- compare_learners(l, "majority", d, "cls", tests = c("kfold_t", "mcnemar_5x2bcv"))
    expect_true(all(is.finite(r$results$p.value)), info = l)
    expect_identical(sum(r$tables$cv10[, 1:4]), 80, info = l)
  }
  # a character column is the factor of its sorted values; a logical one is 0/1
  d2 <- d
  d2$chr <- factor(d2$chr, levels = c("r", "s"))
  d2$lgl <- as.numeric(d2$lgl)
  for (l in c("J48", "kknn")) {
    expect_identical(compare_learners(l, "majority", d, "cls", tests = "kfold_t")$tables,
                     compare_learners(l, "majority", d2, "cls", tests = "kfold_t")$tables, info = l)
  }
})

test_that("kknn takes factor predictors without library(kknn), and equals kknn::kknn", {
  need_python()
  need_r_packages("kknn")
  expect_false("package:kknn" %in% search())
  d <- mixed_frame()[c("num", "int", "fac", "cls")]
  r <- compare_learners("kknn:kernel=rectangular", "majority", d, "cls", tests = "kfold_t", seed = 4)
  expect_false("package:kknn" %in% search())
  # the same learner written as a script would (kknn attached, contrasts by name)
  suppressPackageStartupMessages(library(kknn))
  on.exit(detach("package:kknn"), add = TRUE)
  k5 <- function(train, test) fitted(kknn::kknn(cls ~ ., train, test, k = 5, kernel = "rectangular"))
  expect_identical(r$tables, compare_learners(k5, "majority", d, "cls", tests = "kfold_t", seed = 4)$tables)
  # kernel= is not read as k= (exact parameter matching)
  r7 <- compare_learners("kknn:k=7,kernel=rectangular", "majority", d, "cls", tests = "kfold_t", seed = 4)
  k7 <- function(train, test) fitted(kknn::kknn(cls ~ ., train, test, k = 7, kernel = "rectangular"))
  expect_identical(r7$tables, compare_learners(k7, "majority", d, "cls", tests = "kfold_t", seed = 4)$tables)
})

test_that("J48-unpruned is J48 with Weka's -U", {
  need_python()
  need_r_packages("RWeka")
  d <- mixed_frame(120, 1)
  unpruned <- function(train, test) predict(RWeka::J48(cls ~ ., train, control = "-U"), test)
  pruned <- function(train, test) predict(RWeka::J48(cls ~ ., train), test)
  r1 <- compare_learners("J48-unpruned", "J48", d, "cls", tests = "kfold_t")
  r2 <- compare_learners(unpruned, pruned, d, "cls", tests = "kfold_t")
  expect_identical(r1$tables, r2$tables)
  expect_gt(sum(r1$tables$cv10[, c("n01", "n10")]), 0)      # pruning matters on these data
  # batch.R's own name table: "J48-unpruned" runs J48 with -U
  b <- pybcv:::batch_env()
  ld <- pybcv:::learner_data(d, "cls")
  b$register_dataset("t", ld$cols, ld$is_factor, ld$levels, ld$y, ld$ylevels)
  on.exit(b$clear_datasets())
  idx <- c(1:60, 61:120); ntr <- 60L; nte <- 60L
  u1 <- b$run_batch("J48-unpruned", "t", idx, ntr, nte, list())
  u2 <- b$run_batch("J48", "t", idx, ntr, nte, list(options = "-U"))
  p <- b$run_batch("J48", "t", idx, ntr, nte, list())
  expect_true(u1$ok)
  expect_identical(u1$codes, u2$codes)
  expect_false(identical(u1$codes, p$codes))
})

test_that("missing values and unusable columns are errors naming the column", {
  need_python()
  d <- mixed_frame()
  d$num[7] <- NA
  expect_error(compare_learners("majority", "majority", d, "cls"),
               "column \"num\" has 1 missing value\\(s\\) \\(NA\\), first in row 7")
  d <- mixed_frame()
  d$cls[3] <- NA
  expect_error(compare_learners("majority", "majority", d, "cls"),
               "the target column \"cls\" has 1 missing value\\(s\\) \\(NA\\), first in row 3")
  d <- mixed_frame()
  d$when <- as.Date("2020-01-01") + seq_len(nrow(d))
  expect_error(compare_learners("majority", "majority", d, "cls"), "column \"when\" has type Date")
  d <- mixed_frame()
  d$num[2] <- Inf
  expect_error(compare_learners("majority", "majority", d, "cls"), "column \"num\" has infinite")
  # a learner that needs numbers names the factor columns
  expect_error(compare_learners("mean", "majority", mixed_frame(), "cls", tests = "kfold_t"),
               "mean needs numeric predictors.*\"fac\", \"chr\"")
  ok <- compare_learners("mean", "majority", mixed_frame()[c("num", "int", "lgl", "cls")], "cls",
                         tests = "kfold_t")
  expect_true(is.finite(ok$results$p.value))
})
