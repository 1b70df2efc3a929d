## Columns are data, never code: hostile column names, level names and
## learner parameter strings reach no formula and no R source.

test_that("hostile column names, level names and class labels are data", {
  need_python()
  need_r_packages("RWeka", "kknn", "tree")
  marker <- file.path(tempdir(), "pybcv_hostile_marker")
  unlink(marker)
  cmd <- sprintf("system(\"touch %s\")", marker)
  set.seed(7)
  n <- 90
  plain <- data.frame(p1 = iris$Sepal.Length[seq(1, 150, length.out = n)],
                      p2 = iris$Petal.Width[seq(1, 150, length.out = n)],
                      p3 = factor(sample(c("lo", "mid", "hi"), n, TRUE), levels = c("lo", "mid", "hi")),
                      p4 = sample(c("a", "b"), n, TRUE),
                      cls = as.character(iris$Species[seq(1, 150, length.out = n)]),
                      stringsAsFactors = FALSE)
  hostile_names <- c(paste0("x`); ", cmd, "; (`"), paste0("\"'", cmd, "'\""), "two\nlines\ttab",
                     "\u00e9t\u00e9 \u4e2d\u6587 \u2603", paste0("`", cmd, "` ~ ."))
  hostile <- plain
  names(hostile) <- hostile_names
  # factor levels: same order as plain's, hostile text
  levels(hostile[[3]]) <- c(paste0("`", cmd, "`"), "a\"b'c", "\n")
  # character predictor and class: the sorted order (by code point) is kept
  hostile[[4]] <- ifelse(plain$p4 == "a", paste0("1`", cmd, "`"), paste0("2", cmd))
  hostile[[5]] <- c(setosa = paste0("1); ", cmd), versicolor = "2\"`\n", virginica = "3\u2603'")[plain$cls]
  for (l in c("J48", "J48-unpruned", "kknn", "tree", "SMO")) {
    r_plain <- compare_learners(l, "majority", plain, "cls", tests = c("mcnemar_5x2bcv", "kfold_t"))
    r_host <- compare_learners(l, "majority", hostile, hostile_names[5],
                               tests = c("mcnemar_5x2bcv", "kfold_t"))
    expect_identical(r_host$tables, r_plain$tables, info = l)
    expect_identical(r_host$results$p.value, r_plain$results$p.value, info = l)
  }
  out <- capture.output(print(r_host))
  expect_true(any(grepl("target ", out, fixed = TRUE)))
  expect_false(file.exists(marker))
})

test_that("hostile learner parameter strings and names are errors, not code", {
  need_python()
  need_r_packages("RWeka", "kknn")
  marker <- file.path(tempdir(), "pybcv_hostile_marker2")
  unlink(marker)
  cmd <- sprintf("system('touch %s')", marker)
  specs <- c(paste0("kknn:kernel=", cmd),
             paste0("kknn:kernel=triangular\");", cmd, ";(\""),
             paste0("kknn:k=5); ", cmd),
             paste0("J48:options=-M 2 `", cmd, "`"),
             paste0("J48:options=-M ", cmd),
             cmd,
             paste0("majority:", cmd, "=1"))
  for (s in specs) {
    e <- tryCatch(compare_learners(s, "majority", iris, "Species", tests = "mcnemar_ho"),
                  error = function(e) e)
    expect_s3_class(e, "error")
    expect_false(file.exists(marker), info = s)
  }
  expect_false(file.exists(marker))
})
