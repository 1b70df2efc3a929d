## The worked examples (docs/conventions.md): every one, at a relative tolerance of 1e-9.

tol <- 1e-9
near <- function(x, y) expect_equal(unname(x), y, tolerance = tol)

test_that("E1, E1b, E1c: hold-out McNemar", {
  need_python()
  r <- mcnemar_ho_test(c(10, 14, 5, 71))
  expect_s3_class(r, "htest")
  near(r$statistic, 3.368421053)
  near(r$p.value, 0.06645742002)
  expect_identical(names(r$statistic), "McNemar's chi-squared")
  expect_identical(r$parameter, c(df = 1))
  near(r$estimate, 0.09)
  # the same table as an R 2x2 matrix [A row, B column]
  r2 <- mcnemar_ho_test(matrix(c(10, 5, 14, 71), 2))
  expect_identical(r2$statistic, r$statistic)
  r <- mcnemar_ho_test(c(0, 20, 8, 72))
  near(r$statistic, 4.321428571)
  near(r$p.value, 0.03763531379)
  expect_lt(r$p.value, 0.05)
  expect_warning(r <- mcnemar_ho_test(c(30, 0, 0, 70)), "no discordant")
  expect_identical(unname(r$statistic), 0)
  expect_identical(r$p.value, 1)
})

test_that("E2: naive 10-fold McNemar", {
  need_python()
  n01 <- c(3, 2, 4, 1, 3, 0, 2, 5, 1, 3)
  n10 <- c(1, 2, 1, 0, 2, 0, 1, 2, 3, 1)
  expect_warning(r <- mcnemar_kfold_naive_test(fold_tables(n01, n10)), "without discordant")
  near(r$statistic, 2.371428571)
  expect_identical(r$parameter, c(df = 10))
  near(r$p.value, 0.9926198093)
  near(r$terms, c(0.25, 0.25, 0.8, 0, 0, 0, 0, 0.5714285714, 0.25, 0.25))
})

test_that("E3: 5x2 BCV McNemar, tables and statistic", {
  need_python()
  tab <- fold_tables(E3_N01, E3_N10)
  r <- bcv_mcnemar_test(tab)
  expect_s3_class(r, c("bcv_htest", "htest"))
  near(r$statistic, 1.586315280)
  near(r$p.value, 0.2078533684)
  expect_identical(r$parameter, c(df = 1))
  near(r$t, 1.818181818)
  near(r$averaged_table[1, 2], 11.7)
  near(r$averaged_table[2, 1], 7.1)
  near(r$effective_table[1, 2], 21.27272727)
  near(r$effective_table[2, 1], 12.90909091)
  expect_identical(dimnames(r$averaged_table), list(A = c("incorrect", "correct"),
                                                    B = c("incorrect", "correct")))
  # the alias, and the same tables as a 2 x 2 x 10 array and as a list
  expect_identical(mcnemar_5x2bcv_test(tab)$statistic, r$statistic)
  arr <- array(0, c(2, 2, 10))
  for (k in 1:10) arr[, , k] <- matrix(tab[k, ], 2, byrow = TRUE)
  expect_identical(bcv_mcnemar_test(arr)$statistic, r$statistic)
  lst <- lapply(1:10, function(k) matrix(tab[k, ], 2, byrow = TRUE))
  expect_identical(bcv_mcnemar_test(lst)$statistic, r$statistic)
  # columns named n00..n11 are matched by name
  expect_identical(bcv_mcnemar_test(tab[, c(4, 3, 2, 1)])$statistic, r$statistic)
  # print shows the htest part and both tables
  out <- capture.output(print(r))
  expect_true(any(grepl("5x2 BCV McNemar's test", out)))
  expect_true(any(grepl("McNemar's chi-squared = 1.5863, df = 1, p-value = 0.2079", out, fixed = TRUE)))
  expect_true(any(grepl("averaged contingency table", out)))
  expect_true(any(grepl("effective contingency table", out)))
  expect_true(any(grepl("21.2727", out, fixed = TRUE)))
})

test_that("E3b-E3e: BCV McNemar edge cases", {
  need_python()
  r <- bcv_mcnemar_test(fold_tables(rep(20, 10), rep(8, 10)))
  near(r$statistic, 8.513149351)
  near(r$p.value, 0.003525893155)
  one <- fold_tables(c(1, rep(0, 9)), c(0, 1, rep(0, 8)))
  expect_warning(r <- bcv_mcnemar_test(one), "over-corrects")
  near(r$statistic, 2.75)
  near(r$p.value, 0.09725442844)
  r <- bcv_mcnemar_test(one, clamp_correction = TRUE)
  expect_identical(unname(r$statistic), 0)
  expect_identical(r$p.value, 1)
  single <- fold_tables(c(1, rep(0, 9)), rep(0, 10))
  expect_warning(r <- bcv_mcnemar_test(single), "over-corrects")
  near(r$statistic, 3.681818182)
  near(r$p.value, 0.05500883363)
  r <- bcv_mcnemar_test(single, clamp_correction = TRUE)
  expect_identical(c(unname(r$statistic), r$p.value), c(0, 1))
  expect_warning(r <- bcv_mcnemar_test(fold_tables(rep(0, 10), rep(0, 10))), "no discordant")
  expect_identical(c(unname(r$statistic), r$p.value), c(0, 1))
})

d15 <- c(0.02, -0.01, 0.03, 0.00, 0.04, 0.01, 0.02, -0.02, 0.03, 0.01, 0.05, 0.00, 0.02, 0.01, 0.03)
P <- matrix(c(.04, .02, .01, .03, .05, .00, .02, .04, .03, .01), 5, 2, byrow = TRUE)

test_that("E4, E7, E5: RHO t, corrected RHO t, 10-fold t", {
  need_python()
  r <- rho_t_test(d15)
  near(r$statistic, 3.292219567); near(r$p.value, 0.005344383542)
  expect_identical(r$parameter, c(df = 14)); near(r$estimate, 0.016)
  expect_identical(names(r$statistic), "t")
  expect_identical(r$method, "RHO paired t-test")
  r <- corrected_rho_t_test(d15, n_train = 9, n_test = 1)
  near(r$statistic, 2.016064515); near(r$p.value, 0.06340141328)
  r <- corrected_rho_t_test(d15, n_train = rep(270, 15), n_test = rep(30, 15))
  near(r$statistic, 2.016064515)
  r <- kfold_t_test(c(1, 0, 2, -1, 1, 1, 3, 0, 1, 2) / 30)
  near(r$statistic, 2.738612788); near(r$p.value, 0.02289949455)
  expect_identical(r$parameter, c(df = 9)); near(r$estimate, 0.03333333333)
})

test_that("E6, E8, E9: 5x2 CV t, combined 5x2 t, blocked 3x2 t", {
  need_python()
  r <- t_5x2cv_test(P)
  near(r$statistic, 1.975459193); near(r$p.value, 0.1051870336)
  expect_identical(r$parameter, c(df = 5))
  r <- combined_t_5x2cv_test(P)
  near(r$statistic, 3.904344047); near(r$p.value, 0.01135947551); near(r$estimate, 0.025)
  r <- blocked_t_3x2bcv_test(P[1:3, ])
  near(r$statistic, 1.463850109); near(r$p.value, 0.2031106637); near(r$estimate, 0.025)
})

test_that("E12: corrected 10x10 CV t", {
  need_python()
  x <- outer(0:9, 0:9, function(r, k) (((7 * r + 3 * k) %% 11) - 4) / 30)
  r <- corrected_10x10cv_t_test(x, n_train = 9, n_test = 1)
  near(r$statistic, 0.8654308747); near(r$p.value, 0.3888946955)
  expect_identical(r$parameter, c(df = 99)); near(r$estimate, 0.032)
})

test_that("E13, E14: pseudo-bootstrap tests", {
  need_python()
  reps <- c(.021, .018, .025, .016, .022, .019, .024, .017, .020, .023, .018, .021, .026, .015, .020)
  r <- pseudo_bootstrap_test(0.02, reps)
  near(r$statistic, 6.123724357); near(r$p.value, 2.633895621e-5)
  expect_identical(r$parameter, c(df = 14))
  r <- corrected_pseudo_bootstrap_test(0.02, reps, n_train = 9, n_test = 1, J = 15)
  near(r$statistic, 3.75); near(r$p.value, 0.002153387338)
})

test_that("E10, E11: combined F and calibrated BCV F", {
  need_python()
  r <- combined_f_5x2cv_test(P)
  near(r$statistic, 2.073170732); near(r$p.value, 0.2178439659)
  expect_identical(r$parameter, c(df1 = 10, df2 = 5))
  expect_identical(names(r$statistic), "F")
  r <- calibrated_f_5x2bcv_test(P)
  near(r$statistic, 2.073170732); near(r$p.value, 0.2197064552)
  expect_identical(r$parameter, c(df1 = 7, df2 = 5))
  out <- capture.output(print(r))
  expect_true(any(grepl("F = 2.0732, df1 = 7, df2 = 5, p-value = 0.2197", out, fixed = TRUE)))
})

test_that("E15, E16, E17: z tests", {
  need_python()
  r <- proportion_z_test(0.15, 0.09, 100)
  near(r$statistic, 1.305582420); near(r$p.value, 0.1916946021)
  expect_null(r$parameter)
  expect_identical(names(r$statistic), "z")
  half <- matrix(c(.03, .01, .02, .025, .015, .035, .04, 0, .025, .02, .01, .03, .035, .015,
                   .02, .02, .03, .005, 0, .03), 10, 2, byrow = TRUE)
  r <- conservative_z_test(0.02, half)
  near(r$statistic, 1.294369603); near(r$p.value, 0.1955377849)
  h <- c(rep(1, 30), rep(-1, 15), rep(0, 255))
  r <- cvci_z_test(h)
  near(r$statistic, 2.254938084); near(r$p.value, 0.02413721542); near(r$estimate, 0.05)
  near(r$sigma2_out, 0.1475)
  ## one-sided, the CV-CI z is withdrawn (the validity battery: test-registry-wrappers.R)
  expect_error(cvci_z_test(h, alternative = "greater"), "withdrawn")
})

test_that("E-2E: partitions + tables + statistics, end to end", {
  need_python()
  i <- 0:39
  lA <- as.integer(i %% 5 == 0 | i %% 7 == 3)
  lB <- as.integer(i %% 6 == 1)
  expect_equal(c(mean(lA), mean(lB)), c(0.325, 0.175))
  tab_of <- function(te) c(sum(lA[te] & lB[te]), sum(lA[te] & !lB[te]),
                           sum(!lA[te] & lB[te]), sum(!lA[te] & !lB[te]))
  bcv <- bcv_partitions(40, m = 5, shuffle = FALSE)
  T5 <- t(vapply(bcv$validation, tab_of, numeric(4)))
  expect_equal(unname(T5[, 2:3]), matrix(c(5, 1, 6, 4, 5, 3, 6, 2, 6, 3, 5, 2, 3, 2, 8, 3, 6, 2, 5, 3),
                                         10, 2, byrow = TRUE))
  diffs <- matrix((T5[, 2] - T5[, 3]) / rowSums(T5), 5, 2, byrow = TRUE)
  near(diffs, matrix(c(.20, .10, .10, .20, .15, .15, .05, .25, .20, .10), 5, 2, byrow = TRUE))
  r <- bcv_mcnemar_test(T5)
  near(r$averaged_table[1, 2], 5.5); near(r$averaged_table[2, 1], 2.5)
  near(r$statistic, 1.364204545); near(r$p.value, 0.2428101242)
  r <- calibrated_f_5x2bcv_test(diffs)
  near(r$statistic, 3.714285714); near(r$p.value, 0.08382710906)
  b3 <- bcv_partitions(40, m = 3, shuffle = FALSE)
  T3 <- t(vapply(b3$validation, tab_of, numeric(4)))
  d3 <- matrix((T3[, 2] - T3[, 3]) / rowSums(T3), 3, 2, byrow = TRUE)
  near(as.vector(t(d3)), c(.20, .10, .15, .15, .15, .15))
  r <- blocked_t_3x2bcv_test(d3)
  near(r$statistic, 5.196152423); near(r$p.value, 0.003478165115)
  # the same through pybcv_test(): the registry's from_tables route
  near(pybcv_test("blocked_t_3x2bcv", T3)$statistic, 5.196152423)
  near(pybcv_test("mcnemar_5x2bcv", T5)$statistic, 1.364204545)
  T10 <- t(vapply(0:9, function(k) tab_of(4 * k + 1:4), numeric(4)))
  expect_equal(unname(T10[, 2:3]), matrix(c(2, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1),
                                          10, 2, byrow = TRUE))
  expect_warning(r <- mcnemar_kfold_naive_test(T10), NA)
  near(r$statistic, 2.0); near(r$p.value, 0.9963401532)
  r <- kfold_t_test((T10[, 2] - T10[, 3]) / 4)
  near(r$statistic, 3.674234614); near(r$p.value, 0.005121072764)
  r <- cvci_z_test(lA - lB)
  near(r$estimate, 0.15); near(r$sigma2_out, 0.3775)
  near(r$statistic, 1.544055038); near(r$p.value, 0.1225749999)
  r <- pybcv_test("cvci_z", T10)
  near(r$statistic, 1.544055038)
})

test_that("partition checks of the worked examples", {
  need_python()
  p <- bcv_partitions(16, shuffle = FALSE)
  S <- p$train[c(1, 3, 5, 7, 9)]
  expect_identical(lapply(S, function(s) s - 1L),
                   list(j1.k1 = 0:7, j2.k1 = c(0L, 1L, 4L, 5L, 8L, 9L, 12L, 13L),
                        j3.k1 = c(0:3, 8:11), j4.k1 = c(0L, 1L, 6L, 7L, 8L, 9L, 14L, 15L),
                        j5.k1 = c(0L, 1L, 4L, 5L, 10L, 11L, 14L, 15L)))
  for (j in 1:5) {
    expect_identical(p$validation[[2 * j - 1]], p$train[[2 * j]])
    expect_identical(sort(c(p$train[[2 * j - 1]], p$validation[[2 * j - 1]])), 1:16)
  }
  p <- bcv_partitions(300, seed = 3)
  S <- p$train[c(1, 3, 5, 7, 9)]
  expect_true(all(lengths(S) == 150))
  ov <- combn(5, 2, function(ij) length(intersect(S[[ij[1]]], S[[ij[2]]])))
  expect_true(all(ov %in% c(75, 76)))
  expect_identical(max(lengths(bcv_partitions(300, seed = 3, extra_rule = "first")$train)), 152L)
  p3 <- bcv_partitions(12, m = 3, shuffle = FALSE)
  expect_identical(unname(p3$train[c(1, 3, 5)]), list(1:6, c(1:3, 7:9), c(1:3, 10:12)))
})
