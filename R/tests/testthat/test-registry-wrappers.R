## Every test of Python's registry has its R function <key>_test, with every
## option of the Python function under the same name and the same default
## (choices: the first choice is Python's default), so the wrappers cannot
## drift from the registry.

test_that("each registry test has an R wrapper with Python's options and defaults", {
  need_python()
  rows <- py_helper()$registry_table()$value
  ns <- asNamespace("pybcv")
  for (row in rows) {
    fname <- paste0(row$key, "_test")
    expect_true(exists(fname, envir = ns, inherits = FALSE), info = fname)
    f <- formals(get(fname, envir = ns))
    for (arg in names(row$arguments)) {
      py_default <- row$arguments[[arg]]
      if (is.null(py_default) && !(arg %in% c("t"))) next      # an input, not an option
      expect_true(arg %in% names(f), info = paste(fname, "lacks", arg))
      r_default <- eval(f[[arg]])
      if (arg == "alternative") {
        expect_identical(r_default[1L], "two.sided", info = fname)
      } else if (is.null(py_default)) {
        expect_null(r_default, info = paste(fname, arg))
      } else {
        expect_identical(r_default[1L], py_default, info = paste(fname, arg))
      }
    }
  }
})

test_that("the BCV McNemar test takes t and alternative; t= is not read as truth", {
  need_python()
  tab <- fold_tables(E3_N01, E3_N10,
                     size = 150)
  st <- py_stats()
  npx <- function(x) reticulate::np_array(x, dtype = "float64")
  r <- mcnemar_5x2bcv_test(tab, t = 1.5)
  expect_identical(r$t, 1.5)
  expect_same_result(r, st$mcnemar_5x2bcv(npx(tab), t = 1.5))
  g <- mcnemar_5x2bcv_test(tab, alternative = "greater")
  expect_identical(g$alternative, "greater")
  expect_same_result(g, st$mcnemar_5x2bcv(npx(tab), alternative = "greater"))
  expect_lt(g$p.value, mcnemar_5x2bcv_test(tab)$p.value)
  expect_error(mcnemar_5x2bcv_test(tab, alternative = "bigger"), "alternative")
})

test_that("an option the validity battery found liberal where the default holds is refused", {
  need_python()
  d <- c(1, 0, 2, -1, 1, 1, 3, 0, 1, 2) / 30
  expect_error(kfold_t_test(d, alternative = "greater"),
               "alternative='greater' is withdrawn .*validity battery")
  expect_no_warning(kfold_t_test(d))
  tab <- fold_tables(E3_N01, E3_N10, size = 150)
  expect_error(mcnemar_5x2bcv_test(tab, t = 2), "t=2 is withdrawn")
  expect_error(mcnemar_ho_test(matrix(c(10, 12, 5, 20), 2), correction = FALSE),
               "correction=False is withdrawn")
  expect_no_warning(mcnemar_5x2bcv_test(tab, t = 1.5))
})
