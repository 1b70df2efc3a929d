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
  if (!is.null(seed) && !(is.numeric(seed) && length(seed) == 1L && is.finite(seed) &&
                          seed == round(seed) && seed >= 0))
    stop("seed must be NULL or a single non-negative whole number", call. = FALSE)
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
