## Non-ASCII text read the ordinary way: read.csv() of a UTF-8 file gives
## strings of Encoding "unknown" (also in a UTF-8 locale), which R's
## order(method = "radix") refuses when the first one is not ASCII.  The
## package marks every string it sorts or sends to Python as UTF-8 first, so
## such data give what the command line gives on the same file.

## A UTF-8 file written byte for byte, read back with plain read.csv(); the
## first record's label and predictor value are non-ASCII (radix sort looks
## at the first string), and so are the column names.
unicode_csv <- function(path, n = 60) {
  set.seed(55)
  x1 <- round(rnorm(n), 3)
  x2 <- round(rnorm(n), 3)
  lab <- ifelse(x1 + rnorm(n) > 0, "j\u00e4", "nein")
  lab[1] <- "j\u00e4"
  col <- sample(c("gr\u00fcn", "wei\u00df", "rot"), n, TRUE)
  col[1] <- "gr\u00fcn"
  lines <- enc2utf8(c(paste("x1", "x2", "farbe", "\u30af\u30e9\u30b9", sep = ","),
                      paste(x1, x2, col, lab, sep = ",")))
  writeLines(lines, path, useBytes = TRUE)
  path
}

read_unknown <- function(path) {
  u <- utils::read.csv(path, encoding = "unknown")
  u
}

TARGET_JA <- "\u30af\u30e9\u30b9"

## The first number of a field of a JSON text (no JSON package needed).
json_number <- function(txt, field) {
  m <- regmatches(txt, regexpr(paste0("\"", field, "\": *[-0-9.eE+]+"), txt))
  as.numeric(sub(".*: *", "", m))
}


test_that("read.csv data with non-ASCII labels, values and names: compare_learners runs, equals the CLI", {
  need_python()
  if (!isTRUE(l10n_info()[["UTF-8"]])) skip("not a UTF-8 locale")
  f <- unicode_csv(tempfile(fileext = ".csv"))
  u <- read_unknown(f)
  # the walk's case: strings unmarked ("unknown"), the first ones non-ASCII
  expect_identical(Encoding(u[[4]][1]), "unknown")
  expect_identical(Encoding(u$farbe[1]), "unknown")
  expect_identical(Encoding(names(u)[4]), "unknown")
  r <- compare_learners("J48", "kknn", u, TARGET_JA, tests = "mcnemar_5x2bcv")
  expect_true(is.finite(r$htests$mcnemar_5x2bcv$statistic))
  # the same comparison on the same records with ASCII labels (same code order)
  a <- u
  names(a)[4] <- "klasse"
  a$klasse <- ifelse(a[[4]] == "nein", "nein", "ja")
  a$farbe <- ifelse(a$farbe == "rot", "rot", ifelse(startsWith(a$farbe, "gr"), "gruen", "weiss"))
  ra <- compare_learners("J48", "kknn", a, "klasse", tests = "mcnemar_5x2bcv")
  expect_identical(r$tables, ra$tables)
  # the command line on the same file
  py <- pybcv_python()$python
  out <- system2(py, c("-m", "pybcv", "compare", "--csv", shQuote(f), "--target", shQuote(TARGET_JA),
                       "--tests", "mcnemar_5x2bcv", "--json"), stdout = TRUE, stderr = FALSE)
  j <- json_number(paste(out, collapse = "\n"), "statistic")
  expect_equal(unname(r$htests$mcnemar_5x2bcv$statistic), j, tolerance = 1e-10)
  # compare_many too
  m <- compare_many(c("J48", "kknn", "majority"), u, TARGET_JA, tests = "mcnemar_5x2bcv")
  expect_equal(nrow(m$results), 3L)
})

test_that("R functions see the non-ASCII strings as factors; groups and pybcv_folds take them", {
  need_python()
  if (!isTRUE(l10n_info()[["UTF-8"]])) skip("not a UTF-8 locale")
  u <- read_unknown(unicode_csv(tempfile(fileext = ".csv")))
  seen <- NULL
  f <- function(train, test) {
    seen <<- levels(train$farbe)
    rep(levels(train[[4]])[1], nrow(test))
  }
  r <- compare_learners(f, "majority", u, TARGET_JA, tests = "mcnemar_5x2bcv")
  expect_identical(seen, enc2utf8(c("gr\u00fcn", "rot", "wei\u00df")))
  g <- u
  g$site <- rep(c("\u00e9", letters[2:20]), 3)
  g$site <- utils::read.csv(text = paste(c("s", g$site), collapse = "\n"), encoding = "unknown")$s
  expect_no_error(compare_learners("majority", "kknn", g, TARGET_JA, groups = "site",
                                   tests = "mcnemar_5x2bcv"))
})

test_that("pybcv_folds(y = ) and pybcv_test_predictions take non-ASCII labels of Encoding 'unknown'", {
  need_python()
  if (!isTRUE(l10n_info()[["UTF-8"]])) skip("not a UTF-8 locale")
  u <- read_unknown(unicode_csv(tempfile(fileext = ".csv")))
  truth <- u[[4]]
  expect_identical(Encoding(truth[1]), "unknown")
  ascii <- function(v) ifelse(v == "nein", "nein", "ja")
  p <- pybcv_folds(length(truth), y = truth)
  expect_identical(p$validation, pybcv_folds(length(truth), y = ascii(truth))$validation)
  pa <- lapply(p$validation, function(i) ifelse(i %% 5 == 0, "nein", truth[i]))
  pb <- lapply(p$validation, function(i) ifelse(i %% 7 == 0, enc2utf8("j\u00e4"), truth[i]))
  r <- suppressWarnings(pybcv_test_predictions(pa, pb, truth, p$validation))
  ra <- suppressWarnings(pybcv_test_predictions(lapply(pa, ascii), lapply(pb, ascii), ascii(truth),
                                                p$validation))
  expect_identical(r$results, ra$results)
  expect_identical(r$tables, ra$tables)
})
