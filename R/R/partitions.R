## Block-regularized m x 2 CV partitions, made by Python (pybcv.partitions.bcv_mx2).

#' Block-regularized m x 2 cross-validation partitions
#'
#' The training and validation sets of an m x 2 block-regularized CV, made by
#' Python's `pybcv.partitions.bcv_mx2`: the records are permuted and cut into
#' \eqn{B = 2^{\lceil \log_2(m+1) \rceil}} blocks (8 for m = 5), and each
#' training set \eqn{S_j} is the union of B/2 blocks given by a column of a
#' two-level orthogonal array, so that any two training sets share about n/4
#' records.  Indices are 1-based and equal Python's (0-based) indices plus one
#' for the same seed.
#'
#' @param n The number of records (at least B).
#' @param m The number of replications, 1 to 15.
#' @param seed A non-negative whole number for numpy's `default_rng` (0 by
#'   default, as everywhere in pybcv); `NULL` draws a fresh permutation.
#' @param extra_rule Which blocks get the `n mod B` extra records.
#' @param shuffle `FALSE` uses the identity permutation (blocks of
#'   consecutive records).
#' @param x A `"bcv_partitions"` object.
#' @param ... Ignored.
#' @return A list of class `"bcv_partitions"`: `train` and `validation`,
#'   lists of 2m integer vectors named `j1.k1`, `j1.k2`, ..., in fold order
#'   (fold (j, 1) trains on \eqn{S_j} and validates on \eqn{T_j}, fold (j, 2)
#'   the reverse); `n`, `m`, `seed`, `extra_rule`.
#' @export
#' @examples
#' if (pybcv_available()) {
#'   p <- bcv_partitions(300)
#'   p
#'   lengths(p$train)
#' }
bcv_partitions <- function(n, m = 5, seed = 0, extra_rule = c("balanced", "first", "spec"),
                           shuffle = TRUE) {
  chk_flag(shuffle, "shuffle")
  extra_rule <- choice(extra_rule, c("balanced", "first", "spec"), "extra_rule")
  if (!is.null(seed)) chk_seed(seed, "NULL or a single non-negative whole number")
  pybcv_helper()
  v <- py_call("bcv_splits", py_int(n, "n"), py_int(m, "m"), py_int(seed, "seed"), extra_rule,
               shuffle, call = sys.call())
  m <- length(v$train) %/% 2L
  nm <- sprintf("j%d.k%d", rep(seq_len(m), each = 2L), rep(1:2, m))
  as_idx <- function(l) stats::setNames(lapply(l, function(i) as.integer(i)), nm)
  structure(list(train = as_idx(v$train), validation = as_idx(v$test), n = as.integer(n), m = m,
                 seed = seed, extra_rule = extra_rule),
            class = "bcv_partitions")
}

#' @rdname bcv_partitions
#' @export
print.bcv_partitions <- function(x, ...) {
  cat(x$m, "x2 block-regularized CV of n = ", x$n, " records (seed ",
      if (is.null(x$seed)) "none" else format(x$seed, scientific = FALSE), ", extra records: ",
      x$extra_rule, ")\n", sep = "")
  S <- x$train[seq(1L, by = 2L, length.out = x$m)]
  ov <- outer(seq_len(x$m), seq_len(x$m),
              Vectorize(function(i, j) length(intersect(S[[i]], S[[j]]))))
  cat("training sizes |S_j|:", vapply(S, length, 1L), "\n")
  if (x$m > 1L) cat("pairwise overlaps |S_j & S_j'|:", sort(unique(ov[upper.tri(ov)])), "\n")
  cat("folds (j, k): k = 1 trains on S_j and validates on T_j, k = 2 the reverse\n")
  invisible(x)
}

#' Folds of any design, as Python and the command line draw them
#'
#' The training and validation records of every fold of `design`, drawn from
#' the design's own stream of `seed` exactly as [compare_learners()], Python's
#' `compare()` and `pybcv folds` draw them: the folds to predict on yourself
#' for [pybcv_test_predictions()] with any design (`"cv10"` for the K-fold
#' tests, ...), and the stratified (`y`) or grouped (`groups`) 5x2 BCV.
#'
#' @param n The number of records.
#' @param design A design name: the `design` column of [pybcv_tests()].
#' @param seed A non-negative whole number (0 by default, as everywhere in pybcv).
#' @param y `NULL`, or the class of each record: the blocks of a
#'   block-regularized design are then formed within the classes (stratified).
#' @param groups `NULL`, or the group of each record: the blocks then hold
#'   whole groups (grouped).  Notes on rare classes or on halves far from
#'   n/2 are warnings, as in Python.
#' @return A list: `train` and `validation`, lists of 1-based index vectors in
#'   fold order (`pybcv folds` writes the same rows 0-based), and `design`,
#'   `n`, `seed`.
#' @export
#' @examples
#' if (pybcv_available()) {
#'   f <- pybcv_folds(100, design = "cv10")
#'   lengths(f$validation)
#' }
pybcv_folds <- function(n, design = "bcv5x2", seed = 0, y = NULL, groups = NULL) {
  if (!is.character(design) || length(design) != 1L || is.na(design))
    stop("design must be one design name (the design column of pybcv_tests())", call. = FALSE)
  chk_seed(seed)
  if (!is.numeric(n) || length(n) != 1L || !is.finite(n) || n != round(n) || n < 1)
    stop("n must be a single whole number of records", call. = FALSE)
  n <- py_int(n, "n")
  per_record <- function(v, name) {
    if (is.null(v)) return(NULL)
    v <- utf8_strings(if (is.factor(v)) as.character(v) else v)
    if (!is.atomic(v) || length(v) != n)
      stop(name, " must have one value per record (n = ", n, "), got length ", length(v),
           call. = FALSE)
    if (anyNA(v)) stop(name, ": record ", which(is.na(v))[1L], " is missing", call. = FALSE)
    v
  }
  y <- per_record(y, "y")
  groups <- per_record(groups, "groups")
  pybcv_helper()
  if (!design %in% pybcv_tests()$design)
    stop("design must be one of ", paste(unique(pybcv_tests()$design), collapse = ", "),
         "; got ", show_name(design), call. = FALSE)
  codes <- if (is.null(y)) NULL else match(y, sorted_unique(y))
  sp <- design_batch(design, n, seed, codes, groups, !is.null(y), y)
  for (w in sp$notes) warning(w, call. = FALSE)
  start <- cumsum(sp$ntr + sp$nte) - sp$ntr - sp$nte
  rows <- function(f, from, k) sp$idx[start[f] + from + seq_len(k)]
  f <- seq_along(sp$ntr)
  list(train = lapply(f, function(i) rows(i, 0L, sp$ntr[i])),
       validation = lapply(f, function(i) rows(i, sp$ntr[i], sp$nte[i])),
       design = design, n = n, seed = seed)
}
