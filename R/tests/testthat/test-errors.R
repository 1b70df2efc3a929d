## Bad input: an R error with the plain message, naming the argument, and
## never a Python traceback.

expect_clean_error <- function(expr, pattern) {
  e <- tryCatch({ force(expr); NULL }, error = function(e) e)
  expect_false(is.null(e), info = paste("no error; expected", pattern))
  if (is.null(e)) return(invisible())
  msg <- conditionMessage(e)
  expect_match(msg, pattern)
  expect_false(grepl("Traceback|File \"|py_last_error", msg), info = msg)
}

test_that("tables of the wrong shape or with bad counts", {
  need_python()
  tab <- fold_tables(E3_N01, E3_N10)
  expect_clean_error(bcv_mcnemar_test(matrix(1:9, 3)), "^tables must")
  expect_clean_error(bcv_mcnemar_test(tab[1:9, ]), "tables must")
  neg <- tab; neg[3, 2] <- -1
  expect_clean_error(bcv_mcnemar_test(neg), "tables must be non-negative")
  frac <- tab; frac[2, 2] <- 2.5
  expect_clean_error(bcv_mcnemar_test(frac), "whole-number")
  na <- tab; na[1, 1] <- NA
  expect_clean_error(bcv_mcnemar_test(na), "tables must be finite")
  expect_clean_error(bcv_mcnemar_test(matrix("a", 10, 4)), "tables must be numeric")
  expect_clean_error(bcv_mcnemar_test(tab, rho1 = "x"), "rho1 must be")
  expect_clean_error(bcv_mcnemar_test(tab, rho1 = -1, rho2 = -1), "rho1, rho2 must give")
  expect_clean_error(mcnemar_ho_test(c(1, 2, 3)), "^table must")
  expect_clean_error(mcnemar_ho_test(c(0, 0, 0, 0)), "table is empty")
  expect_clean_error(mcnemar_kfold_naive_test(tab, empty_fold = "skip"), "empty_fold must be one of")
  expect_clean_error(mcnemar_ho_test(c(1, 2, 3, 4), exact = NA), "exact must be TRUE or FALSE")
  expect_clean_error(bcv_mcnemar_test(tab, conf.level = NA), "^conf.level must be a number in")
  expect_clean_error(bcv_mcnemar_test(tab, conf.level = 1.5), "^conf.level must be a number in")
})

test_that("differences of the wrong shape or range", {
  need_python()
  expect_clean_error(rho_t_test(0.1), "at least 2 differences")
  expect_clean_error(rho_t_test(c(0.1, 2)), "must lie in \\[-1, 1\\]")
  expect_clean_error(rho_t_test(c(0.1, 0.2), alternative = "bigger"), "alternative must be one of")
  expect_clean_error(t_5x2cv_test(matrix(0.1, 4, 3)), "diffs must have shape")
  expect_clean_error(calibrated_f_5x2bcv_test(matrix(0.1, 4, 2)), "diffs must have shape \\(5, 2\\)")
  expect_clean_error(corrected_rho_t_test(c(0.1, 0.2), n_train = 0, n_test = 1), "n_train must be positive")
  expect_clean_error(proportion_z_test(1.5, 0.1, 100), "err_a must be one error rate")
  expect_clean_error(proportion_z_test(0.2, 0.1, 10.5), "n_test must be")
  expect_clean_error(corrected_pseudo_bootstrap_test(0.01, rep(0.01, 5), 9, 1, J = 0), "J must be a positive integer")
  expect_clean_error(cvci_z_test(list(1, 2)), "loss_diff must be a numeric vector or matrix")
  expect_clean_error(pybcv_test("no_such_test", matrix(1, 10, 4)), "unknown test key")
})

test_that("partitions and compare_learners reject bad arguments", {
  need_python()
  expect_clean_error(bcv_partitions(5), "too few records")
  expect_clean_error(bcv_partitions(100, m = 16), "m must be an integer in \\[1, 15\\]")
  expect_clean_error(bcv_partitions(100, seed = -1), "seed must be")
  expect_clean_error(bcv_partitions(100.5), "n must be a")
  expect_clean_error(compare_learners("J48", "nosuch", iris, "Species"), "unknown learner .nosuch.; known learners: J48")
  expect_clean_error(compare_learners("cnn", "majority", iris, "Species"),
                     "learner .cnn.*no R implementation")
  expect_clean_error(compare_learners("majority", "majority", iris, "Kind"), "target must name exactly one column of data; columns: \"Sepal.Length\"")
  expect_clean_error(compare_learners("majority", "majority", as.list(iris), "Species"), "data must be a data frame")
  expect_clean_error(compare_learners("majority", "majority", iris, "Species", alpha = NA),
                     "^alpha must be a number in \\(0, 1\\)")
  expect_clean_error(compare_learners("majority", "majority", iris, "Species", tests = "nope"),
                     "unknown test key 'nope'")
  expect_clean_error(compare_learners("kknn:q=3", "majority", iris, "Species"),
                     "learner .kknn. has no parameter\\(s\\) \\[.q.\\]; its parameters: \\[.k., .kernel.\\]")
  expect_clean_error(compare_learners("majority:k=3", "majority", iris, "Species"),
                     "learner .majority. has no parameter\\(s\\) \\[.k.\\]; its parameters: none")
  short <- function(train, test) rep("setosa", 3)
  expect_clean_error(compare_learners(short, "majority", iris, "Species", tests = "mcnemar_ho"),
                     "learner short returned 3 predictions for 50 validation records")
  boom <- function(train, test) stop("no model today")
  expect_clean_error(compare_learners("majority", boom, iris, "Species", tests = "mcnemar_ho"),
                     "learner boom failed on fold 1 of 1 \\(design holdout\\): no model today")
  # numbers with decimal commas read as text (read.csv without dec = ","): refused, not 300 levels
  euro <- data.frame(a = sub(".", ",", format(seq(0.01, 0.6, by = 0.01)), fixed = TRUE),
                     b = seq_len(60), class = rep(c("x", "y"), 30))
  expect_clean_error(compare_learners("majority", "majority", euro, "class"),
                     "^data: column 'a' holds numbers written with a comma \\(e.g. '0,01'\\).*read.csv2")
  # pybcv's input errors read as R's, in R's words (no Python class name, no "callable")
  expect_clean_error(compare_learners("majority", "majority", iris, "Species", loss = "sqaured"),
                     "^[^:]*unknown loss 'sqaured'.*R function\\(truth, pred\\)")
})

test_that("NA options, logical data, levels and sizes are refused in R's words (an outside audit)", {
  need_python()
  tab <- fold_tables(E3_N01, E3_N10)
  # reticulate handed a logical NA to Python as True: exact = NA ran the exact test
  expect_clean_error(pybcv_test("mcnemar_5x2bcv", tab, exact = NA), "^exact is NA; give a value")
  expect_clean_error(bcv_mcnemar_test(tab, rho1 = NA, rho2 = 0.5), "^rho1 is NA; give a value")
  expect_clean_error(compare_learners("majority", "majority", iris, "Species",
                                      options = list(mcnemar_5x2bcv = list(exact = NA))),
                     "^options\\$mcnemar_5x2bcv\\$exact is NA; give a value")
  expect_clean_error(pybcv_test("mcnemar_5x2bcv", tab, conf.level = 2), "^conf.level must be a number")
  # R matched the option t partially to `tables` (an outside review)
  at15 <- pybcv_test("mcnemar_5x2bcv", tab, t = 1.5)
  expect_equal(at15$statistic, pybcv_test("mcnemar_5x2bcv", tables = tab, t = 1.5)$statistic)
  expect_false(isTRUE(all.equal(at15$statistic, pybcv_test("mcnemar_5x2bcv", tab)$statistic)))
  expect_identical(at15$data.name, "tab")
  expect_clean_error(pybcv_test("mcnemar_5x2bcv", tab, 10, 10, 5), "^pybcv_test takes key, tables")
  expect_clean_error(rho_t_test(c(TRUE, FALSE, TRUE, TRUE)), "^diffs must be numeric, got logical")
  expect_clean_error(pybcv_folds(150.9), "^n must be a single whole number of records")
  expect_clean_error(proportion_z_test(0.2, 0.1, c(100, 200)), "^n_test must be one number, got 2 values")
  f <- pybcv_folds(150)$validation
  tr <- as.character(iris$Species)
  own <- lapply(f, function(i) tr[i])
  setosa <- lapply(f, function(i) rep("setosa", length(i)))
  # alpha was never checked: "0.05" (a string) kept H0 at p = 4e-21
  expect_clean_error(pybcv_test_predictions(own, setosa, tr, folds = f, alpha = "0.05"),
                     "^alpha must be a number in \\(0, 1\\)")
  expect_clean_error(pybcv_test_predictions(own, setosa, tr, folds = f, conf.level = 2),
                     "^conf.level must be a number in \\(0, 1\\)")
  expect_clean_error(pybcv_test_predictions(own, setosa, tr, folds = f, n_train = c(75, 10)),
                     "^n_train must be a number or one size per fold \\(10 values\\), got 2 values")
  cm <- matrix(c(0, 1, 1, 1, 0, 1, 1, 1, NA), 3)
  expect_clean_error(compare_learners("majority", "majority", iris, "Species", loss = cm),
                     "^loss: the cost matrix has NA at \\[3, 3\\]")
})

test_that("an R user's walk: notes, record numbers and selections read as in Python", {
  need_python()
  skip_if_not_installed("kknn")
  expect_clean_error(compare_learners("majority", "majority", iris["Species"], "Species"),
                     "^data has no predictor columns \\(only the target \"Species\"\\); the named learner\\(s\\) majority, majority need at least one")
  # an R function may predict from the target alone (as in Python)
  y_only <- data.frame(y = stats::rnorm(60))
  r0 <- compare_learners(function(tr, te) rep(mean(tr$y), nrow(te)),
                         function(tr, te) rep(stats::median(tr$y), nrow(te)), y_only, "y", loss = "squared")
  expect_true(is.finite(r0$results$p.value[1]))
  p <- bcv_partitions(150, seed = 0)
  tr <- as.character(iris$Species)
  own <- lapply(p$validation, function(i) tr[i])
  miss <- tr
  miss[40] <- NA
  expect_clean_error(pybcv_test_predictions(own, own, miss, folds = p$validation),
                     "^truth has missing labels \\(NA\\), first at record 40$")
  expect_clean_error(compare_learners("majority", "majority", iris, "Species", tests = c("bcv5x2", "nope")),
                     "^unknown test key 'nope'")
  r <- compare_learners("majority", "mean", iris, "Species", alternative = "greater",
                        tests = c("kfold_t", "bcv5x2"))
  expect_setequal(r$results$test, c("kfold_t", "mcnemar_5x2bcv", "calibrated_f_5x2bcv"))
  w <- stats::setNames(r$results$warnings, r$results$test)
  expect_match(w[["kfold_t"]], "alternative 'greater' does not apply to kfold_t")
  expect_match(w[["calibrated_f_5x2bcv"]], "does not apply to calibrated_f_5x2bcv: it is two-sided only")
  expect_false(grepl("does not apply", w[["mcnemar_5x2bcv"]]))
})

test_that("labels that differ only in case are named (one rule with Python's)", {
  need_python()
  d <- data.frame(x = seq_len(40), class = rep(c("yes", "no"), 20))
  d$class[3] <- "Yes"
  expect_warning(compare_learners("majority", "majority", d, "class", tests = "mcnemar_ho"),
                 "^data: the target column 'class' has labels that differ only in case or spaces: 'Yes' \\(1 record\\), 'yes' \\(19 records\\)")
})

test_that("a per-fold prediction of the wrong length names its fold and the truth it meets", {
  need_python()
  truth <- rep(list(c("a", "b", "b")), 10)
  short <- truth; short[[2]] <- c("a", "b")
  expect_clean_error(bcv_mcnemar_test(x = truth, y = short, truth = truth),
                     "^y\\[\\[2\\]\\] \\(fold 2\\) has 2 predictions but truth\\[\\[2\\]\\] has 3 labels")
})

test_that("a missing Python gives a clear set-up message", {
  need_python()
  # the search itself (without binding): a bad PYBCV_PYTHON is reported as such
  old <- Sys.getenv("PYBCV_PYTHON", unset = NA)
  on.exit(if (is.na(old)) Sys.unsetenv("PYBCV_PYTHON") else Sys.setenv(PYBCV_PYTHON = old))
  Sys.setenv(PYBCV_PYTHON = "/no/such/python")
  expect_clean_error(pybcv_find_python(), "PYBCV_PYTHON is \"/no/such/python\", which does not exist")
  expect_clean_error(pybcv_find_python(), "bash scripts/setup.sh")
})

test_that("use_pybcv_python checks the interpreter before using it", {
  need_python()
  expect_clean_error(use_pybcv_python("/no/such/python"), "\"/no/such/python\" does not exist")
  expect_clean_error(use_pybcv_python(c("a", "b")), "python must be the path of a Python interpreter")
  expect_clean_error(use_pybcv_python(unname(Sys.which("false"))), "cannot import pybcv")
  # the Python already bound is accepted again; any other one is refused with how to fix it
  bound <- reticulate::py_config()$python
  expect_identical(use_pybcv_python(bound), bound)
  expect_identical(getOption("pybcv.python"), bound)
  expect_true(pybcv_available())
})

test_that("install_pybcv refuses what is not pybcv", {
  expect_clean_error(install_pybcv("/no/such/folder"), "must be a pybcv checkout, wheel or sdist")
  expect_clean_error(install_pybcv(tempdir()), "holds no pyproject.toml")
})

test_that("install_pybcv names a Python that cannot make the environment, before making it", {
  src <- file.path(tempdir(), "a_checkout")
  dir.create(src, showWarnings = FALSE)
  file.create(file.path(src, "pyproject.toml"))
  expect_clean_error(install_pybcv(src, envname = "r-pybcv-test-never", python_for_env = "/no/python"),
                     "python_for_env must be the path of a Python 3 interpreter that exists")
  expect_clean_error(install_pybcv(src, envname = "r-pybcv-test-never", python_for_env = "/bin/false"),
                     "/bin/false is not a Python interpreter")
  # a Python without numpy: one that cannot import anything of the site's
  nosite <- file.path(tempdir(), "nosite-python")
  writeLines(c("#!/bin/sh", "case \"$2\" in *sys*) exit 0;; esac; exit 1"), nosite)
  Sys.chmod(nosite, "755")
  expect_clean_error(install_pybcv(src, envname = "r-pybcv-test-never", python_for_env = nosite),
                     "nosite-python lacks numpy, scipy, pandas, tqdm, setuptools, wheel")
  expect_false(reticulate::virtualenv_exists("r-pybcv-test-never"))
})

test_that("the Weka learners run inside the JVM from the installed package (inst/java)", {
  need_python()
  need_r_packages("RWeka")
  jar <- system.file("java", "pybcv-weka.jar", package = "pybcv")
  expect_true(nzchar(jar), info = "the package has no inst/java/pybcv-weka.jar (bash scripts/build_java.sh)")
  res <- compare_learners("J48", "majority", iris, "Species", tests = "mcnemar_5x2bcv")
  env <- pybcv:::batch_env()
  expect_true(env$weka_jvm$jvm_state$runs[["J48"]] >= 1L)
})

## A learner that cannot be fitted on one class, on a training part that
## holds one class only (the rare class all in the validation part): the
## error says so plainly, naming the learner, the fold, the design and the
## replication, with R's own message after it (issue 21).
test_that("a learner failing on a one-class training part says so", {
  need_python()
  skip_if_not_installed("rpart")
  set.seed(1)
  d <- data.frame(x1 = rnorm(40), x2 = rnorm(40))
  d$y <- factor(c(rep("a", 38), "b", "b"))
  err <- tryCatch(compare_learners(rpart::rpart, "majority", d, "y"), error = conditionMessage)
  expect_match(err, paste0("^learner rpart::rpart failed on fold [0-9]+ of 10 \\(design bcv5x2\\): ",
                           "the training part of this fold \\(replication [1-5] of the design\\) ",
                           "holds only one class of the target \\(\"a\", 20 records; \"b\" only in ",
                           "the validation part\\)"))
  expect_match(err, "stratify = TRUE")
  expect_match(err, "R's message: ")
  # a failure with both classes in the training part keeps R's message as it is
  boom <- function(train, test) stop("no convergence")
  err2 <- tryCatch(compare_learners(boom, "majority", d, "y", stratify = TRUE),
                   error = conditionMessage)
  expect_match(err2, "^learner boom failed on fold 1 of 10 \\(design bcv5x2\\): no convergence$")
})
