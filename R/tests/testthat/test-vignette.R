## The vignette, R's "whole session", shows the workflows beyond two
## classifiers in evaluated code (walk28 item 58): regression models under
## loss = "squared", a grouped and a stratified comparison, a one-sided
## test and pybcv_folds() for own predictions.

vignette_source <- function() {
  paths <- c(system.file("doc", "pybcv.Rmd", package = "pybcv"),   # installed (R CMD check)
             testthat::test_path("..", "..", "vignettes", "pybcv.Rmd"))  # the source tree
  paths <- paths[nzchar(paths) & file.exists(paths)]
  if (!length(paths)) testthat::skip("the vignette's source is not installed")
  paths[1L]
}

## Every call of the code evaluated where Python and the learners' packages
## are there (`ok`, `weka` of the set-up chunk; knitr::purl comments out the
## chunks with eval = FALSE), as language objects.
vignette_calls <- function(path) {
  out <- tempfile(fileext = ".R")
  knitr::purl(path, output = out, quiet = TRUE, documentation = 0L,
              envir = list2env(list(ok = TRUE, weka = TRUE)))
  calls <- list()
  walk <- function(e) {
    if (is.call(e)) {
      calls[[length(calls) + 1L]] <<- e
      for (a in as.list(e)[-1L]) if (!missing(a)) walk(a)
    }
  }
  for (e in parse(out, keep.source = FALSE)) walk(e)
  calls
}

test_that("the vignette runs regressors, groups, strata, alternative = 'less' and pybcv_folds()", {
  need_r_packages("knitr")
  calls <- vignette_calls(vignette_source())
  fun <- function(cl) if (is.name(cl[[1L]])) as.character(cl[[1L]]) else ""
  cmp <- Filter(function(cl) fun(cl) %in% c("compare_learners", "compare_many"), calls)
  arg <- function(cl, name) as.list(match.call(compare_learners, cl))[[name]]
  has <- function(name, value = NULL)
    any(vapply(cmp, function(cl) {
      v <- if (fun(cl) == "compare_learners") arg(cl, name) else as.list(cl)[[name]]
      !is.null(v) && (is.null(value) || identical(v, value))
    }, TRUE))
  regression <- Filter(function(cl) fun(cl) == "compare_learners" &&
                         identical(arg(cl, "loss"), "squared"), cmp)
  expect_true(length(regression) >= 1L)
  learners <- unlist(lapply(regression, function(cl) c(deparse(arg(cl, "a")), deparse(arg(cl, "b")))))
  expect_true(all(c("lm", "rpart::rpart") %in% learners))
  expect_true(has("groups"))
  expect_true(has("stratify", TRUE))
  expect_true(has("alternative", "less"))
  expect_true(any(vapply(calls, fun, "") == "pybcv_folds"))
})
