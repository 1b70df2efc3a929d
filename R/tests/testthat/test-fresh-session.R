## A fresh R process: loading the package starts no Python, and the very
## first call (a test, not a set-up call) binds the right Python.

run_fresh <- function(code) {
  rscript <- file.path(R.home("bin"), "Rscript")
  lib <- dirname(find.package("pybcv"))
  env <- c(paste0("R_LIBS=", paste(c(lib, .libPaths()), collapse = .Platform$path.sep)))
  info <- pybcv_python()
  if (!nzchar(Sys.getenv("PYBCV_PYTHON"))) env <- c(env, paste0("PYBCV_PYTHON=", info$python))
  out <- suppressWarnings(system2(rscript, c("-e", shQuote(code)), stdout = TRUE, stderr = TRUE,
                                  env = env))
  list(out = out, status = attr(out, "status"))
}

test_that("library(pybcv) does not start Python; the first call does", {
  need_python()
  r <- run_fresh(paste(
    "library(pybcv);",
    "cat('before', reticulate::py_available(initialize = FALSE), '\\n');",
    "tab <- cbind(3, c(12,10,14,9,11,13,10,12,15,11), c(7,8,6,9,5,8,7,6,9,6), 40);",
    "r <- bcv_mcnemar_test(tab);",
    "cat('after', reticulate::py_available(initialize = FALSE), '\\n');",
    "cat(sprintf('M=%.9f', r$statistic), '\\n')"))
  expect_null(r$status)
  expect_true(any(grepl("before FALSE", r$out)), info = paste(r$out, collapse = "\n"))
  expect_true(any(grepl("after TRUE", r$out)), info = paste(r$out, collapse = "\n"))
  expect_true(any(grepl("M=1.586315280", r$out, fixed = TRUE)), info = paste(r$out, collapse = "\n"))
})

test_that("the first call may also be bcv_partitions or compare_learners", {
  need_python()
  r <- run_fresh("library(pybcv); p <- bcv_partitions(40, seed = 1); cat('n', length(p$train), '\\n')")
  expect_true(any(grepl("n 10", r$out)), info = paste(r$out, collapse = "\n"))
  r <- run_fresh(paste("library(pybcv); x <- compare_learners('majority', 'majority', iris, 'Species',",
                       "tests = 'mcnemar_ho'); cat('p', x$results$p.value, '\\n')"))
  expect_true(any(grepl("p 1", r$out)), info = paste(r$out, collapse = "\n"))
})
