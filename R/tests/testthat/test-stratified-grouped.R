## Stratified and grouped 5x2 BCV from R: the folds are Python's
## (pybcv.partitions.design_splitter, the same seed streams as compare()).

test_that("stratify = TRUE draws Python's stratified folds", {
  need_python()
  pp <- reticulate::import("pybcv.partitions", convert = FALSE)
  hp <- py_helper()
  ld <- pybcv:::learner_data(iris, "Species")
  sp <- pybcv:::design_batch("bcv5x2", ld$n, 4, ld$y, NULL, TRUE)
  py <- pp$design_splitter("bcv5x2", stratify = TRUE)$splits(150L, hp$design_seed(4L, "bcv5x2"),
                                                              y = np()$array(as.integer(ld$y)))
  py <- reticulate::py_to_r(py)
  idx <- unlist(lapply(py, function(s) c(s[[1]], s[[2]]) + 1L))
  expect_identical(sp$idx, as.integer(idx))
  # every block holds 6 or 7 records of each species (50 = 6 x 8 + 2), so a
  # half holds 4 x 6 to 4 x 6 + 2 of each
  te <- pybcv:::test_rows(sp)
  ends <- cumsum(sp$nte)
  for (f in seq_along(sp$nte)) {
    k <- as.vector(table(ld$y[te[(ends[f] - sp$nte[f] + 1):ends[f]]]))
    expect_true(all(k >= 24 & k <= 26))
  }
  res <- compare_learners("majority", "majority", iris, "Species", tests = "mcnemar_5x2bcv",
                          seed = 4, stratify = TRUE)
  expect_identical(nrow(res$tables$bcv5x2), 10L)
  plain <- compare_learners("majority", "majority", iris, "Species", tests = "mcnemar_5x2bcv", seed = 4)
  expect_false(identical(res$tables, plain$tables))
})

test_that("groups: a column (not a predictor) or a vector; no group on both sides", {
  need_python()
  d <- iris
  d$site <- rep(sprintf("s%02d", 1:15), each = 10)
  res <- compare_learners("majority", "majority", d, "Species", tests = "mcnemar_5x2bcv",
                          seed = 2, groups = "site")
  res2 <- compare_learners("majority", "majority", iris, "Species", tests = "mcnemar_5x2bcv",
                           seed = 2, groups = d$site)
  expect_identical(res$tables, res2$tables)
  ld <- pybcv:::learner_data(iris, "Species")
  sp <- pybcv:::design_batch("bcv5x2", 150, 2, NULL, d$site, FALSE)
  start <- c(0, cumsum(sp$ntr + sp$nte))
  for (f in seq_along(sp$ntr)) {
    tr <- sp$idx[start[f] + seq_len(sp$ntr[f])]
    te <- sp$idx[start[f] + sp$ntr[f] + seq_len(sp$nte[f])]
    expect_length(intersect(d$site[tr], d$site[te]), 0L)
  }
  expect_error(compare_learners("majority", "majority", d, "Species", groups = "nosuch"),
               "groups names no column")
  expect_error(compare_learners("majority", "majority", d, "Species", groups = "Species"),
               "groups names the target column")
  expect_error(compare_learners("majority", "majority", d, "Species", groups = 1:3),
               "one value per row")
  expect_error(compare_learners("majority", "majority", d, "Species", groups = "site", stratify = TRUE),
               "cannot be combined")
  expect_error(compare_learners("majority", "majority", d, "Species", tests = "kfold_t", stratify = TRUE),
               "only the block-regularized designs")
  expect_error(compare_learners("majority", "majority", d, "Species", groups = rep(1:4, length.out = 150)),
               "at least 8")
})
