## Shared helpers of the testthat suite.

in_ci <- function() tolower(Sys.getenv("CI")) %in% c("1", "true", "yes")

## Skip when no Python with pybcv is found -- except in CI (or with
## PYBCV_REQUIRE_PYTHON=true), where that is a failure.
need_python <- function() {
  if (pybcv::pybcv_available()) return(invisible(TRUE))
  why <- tryCatch({ pybcv::pybcv_python(); "?" }, error = function(e) conditionMessage(e))
  if (in_ci() || tolower(Sys.getenv("PYBCV_REQUIRE_PYTHON")) %in% c("1", "true", "yes"))
    stop("Python with pybcv is required here: ", why)
  testthat::skip(paste("no Python with pybcv:", why))
}

need_r_packages <- function(...) {
  for (p in c(...)) {
    if (requireNamespace(p, quietly = TRUE)) next
    if (in_ci()) stop("R package ", p, " is required in CI (bash scripts/setup.sh)")
    testthat::skip(paste("R package", p, "missing (bash scripts/setup.sh)"))
  }
}

## The Python modules, imported in the Python the package bound itself to.
py_stats <- function() { need_python(); reticulate::import("pybcv.stats", convert = TRUE) }
py_partitions <- function() { need_python(); reticulate::import("pybcv.partitions", convert = TRUE) }
py_helper <- function() {
  need_python()
  reticulate::import_from_path("_pybcv_r", system.file("python", package = "pybcv"))
}
np <- function() reticulate::import("numpy", convert = FALSE)

## Fold tables (K x 4: n00, n01, n10, n11) from discordant counts; n00 and n11
## are filled so every fold has `size` records.
fold_tables <- function(n01, n10, size = 60, n00 = 3) {
  cbind(n00 = n00, n01 = n01, n10 = n10, n11 = size - n00 - n01 - n10)
}

## Worked example E3's discordant counts per fold (the docstring of pybcv.stats.mcnemar_5x2bcv).
E3_N01 <- c(12, 10, 14, 9, 11, 13, 10, 12, 15, 11)
E3_N10 <- c(7, 8, 6, 9, 5, 8, 7, 6, 9, 6)

## The same quantity in R and in Python, compared exactly.
expect_same_result <- function(h, py) {
  expect_identical(unname(h$statistic), py$statistic)
  expect_identical(h$p.value, py$pvalue)
  if (is.null(py$df)) expect_null(h$parameter)
  else expect_identical(unname(h$parameter), as.numeric(unlist(py$df)))
  if (!is.null(py$estimate)) expect_identical(unname(h$estimate), py$estimate)
}
