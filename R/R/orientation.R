## Table orientation: which index of a 2x2 table means "incorrect".
##
## pybcv's convention (docs/conventions.md): rows are learner A, columns
## learner B, index 1 = incorrect, index 2 = correct, so
##   n00 = both wrong, n01 = A wrong and B right, n10 = A right and B wrong,
##   n11 = both right;  estimate = error(A) - error(B) = (n01 - n10) / n.
## A table with named dimnames is read by its level names; one without
## dimnames (or 4 counts) is read in the convention; dimnames whose meaning
## cannot be told are an error asking for `correct =`.

CORRECT_WORDS <- c("correct", "right", "true")
INCORRECT_WORDS <- c("incorrect", "wrong", "false")
ERROR_DIM_NAME <- "err|wrong|loss|incorrect|miss|fail"

## The positions (incorrect, correct) of one dimension's two levels.
orient_levels <- function(lev, dim_name, correct, what) {
  if (length(lev) != 2L) stop(what, " must have 2 levels, got ", length(lev), call. = FALSE)
  ask <- paste0("; give correct = \"<the level that means correct>\", or pass unname(", what,
                ") to read it as (incorrect, correct)")
  if (!is.null(correct)) {
    i <- match(correct, lev)
    if (is.na(i))
      stop("correct = ", show_name(correct), " is not a level of ", what, " (levels ",
           paste(vapply(lev, show_name, ""), collapse = ", "), ")", call. = FALSE)
    return(c(3L - i, i))
  }
  low <- tolower(trimws(lev))
  # table(a == truth, b == truth): TRUE means correct -- unless the
  # dimension is named like an error indicator
  if (all(low %in% c("true", "false")) && !is.null(dim_name) && !is.na(dim_name) &&
      grepl(ERROR_DIM_NAME, dim_name, ignore.case = TRUE))
    stop(what, " has levels FALSE/TRUE under the name ", show_name(dim_name),
         ", which sounds like an error indicator, so TRUE may mean wrong", ask, call. = FALSE)
  pos_c <- which(low %in% CORRECT_WORDS)
  pos_i <- which(low %in% INCORRECT_WORDS)
  if (length(pos_c) == 1L && length(pos_i) == 1L && pos_c != pos_i) return(c(pos_i, pos_c))
  stop("cannot tell which level of ", what, " means correct (levels ",
       paste(vapply(lev, show_name, ""), collapse = ", "), ")", ask, call. = FALSE)
}

## A 2x2 table/matrix -> list(counts = c(n00, n01, n10, n11), read = text
## saying how it was read).
orient_2x2 <- function(m, correct, what) {
  dn <- dimnames(m)
  if (is.null(dn) || all(vapply(dn, is.null, TRUE))) {
    return(list(counts = c(m[1, 1], m[1, 2], m[2, 1], m[2, 2]),
                read = "no dimnames: rows A, columns B, each (incorrect, correct)"))
  }
  if (any(vapply(dn, is.null, TRUE)))
    stop(what, " has dimnames on one dimension only; name both or neither", call. = FALSE)
  nms <- names(dn)
  swap <- !is.null(nms) && identical(toupper(nms), c("B", "A"))
  if (swap) { m <- t(m); dn <- dimnames(m); nms <- names(dn) }
  r <- orient_levels(dn[[1]], nms[1], correct, what)
  c2 <- orient_levels(dn[[2]], nms[2], correct, what)
  m <- m[r, c2, drop = FALSE]
  label <- function(lev, o) paste0(show_name(lev[o[2]]), " = correct")
  list(counts = c(m[1, 1], m[1, 2], m[2, 1], m[2, 2]),
       read = paste0(if (swap) "dimnames named B, A: transposed; " else "",
                     "rows ", label(dn[[1]], r), ", columns ", label(dn[[2]], c2)))
}

## Per-row correctness from predictions and the truth, or from logicals.
## Predictions that are not labels of truth (probabilities, integer codes of
## a factor, labels of another problem) are refused, as in Python: an error
## naming the fold's argument, the record and the labels.
not_labels_error <- function(what, value, where, labels) {
  shown <- paste(utils::head(labels, 8L), collapse = ", ")
  if (length(labels) > 8L) shown <- paste0(shown, ", ...")
  numeric <- !is.na(suppressWarnings(as.double(value))) &&
    !anyNA(suppressWarnings(as.double(labels))) && length(labels) > 8L
  stop(what, ": prediction ", show_name(value), " (", where, ") is not a label of truth (labels: ",
       shown, "); give predicted class labels, not probabilities, scores or the integer codes of a factor",
       if (numeric) paste0(" (numbers predicted for a numeric target with ", length(labels),
                           " values: a regression? give loss = \"squared\" or \"absolute\")"),
       call. = FALSE)
}

## The classes of truth: a factor's levels (which may include classes absent
## from these records), else its distinct values.
truth_labels <- function(truth) {
  if (is.list(truth)) return(unique(unlist(lapply(truth, truth_labels))))
  if (is.factor(truth)) levels(truth) else unique(as.character(truth))
}

## where(i): where the i-th prediction is, for the message.
check_labels <- function(p, labels, what, where = function(i) paste("record", i)) {
  bad <- which(!(p %in% labels))
  if (length(bad)) not_labels_error(what, p[bad[1L]], where(bad[1L]), labels)
}

correctness <- function(x, truth, what, labels = NULL, truth_what = "truth",
                        where = function(i) paste("record", i)) {
  if (is.null(truth)) {
    if (!is.logical(x))
      stop(what, " must be logical (TRUE = correct) when no truth is given; or give truth = ",
           "the true labels", call. = FALSE)
    if (anyNA(x)) stop(what, " has missing values", call. = FALSE)
    return(x)
  }
  if (length(x) != length(truth))
    stop(what, " has ", length(x), " predictions but ", truth_what, " has ", length(truth), " labels",
         call. = FALSE)
  if (anyNA(x)) stop(what, " has missing predictions (NA), first at ", which(is.na(x))[1L], call. = FALSE)
  if (anyNA(truth)) stop("truth has missing labels (NA), first at ", which(is.na(truth))[1L], call. = FALSE)
  p <- as.character(x)
  check_labels(p, if (is.null(labels)) truth_labels(truth) else labels, what, where)
  p == as.character(truth)
}

counts_from_correct <- function(ca, cb)
  c(sum(!ca & !cb), sum(!ca & cb), sum(ca & !cb), sum(ca & cb))

## mcnemar_ho_test()'s input -> list(counts, read).
one_table_input <- function(x, y, truth, correct, xname) {
  if (!is.null(y)) {
    ca <- correctness(x, truth, "x")
    cb <- correctness(y, truth, "y")
    if (length(ca) != length(cb)) stop("x and y must have the same length", call. = FALSE)
    return(list(counts = counts_from_correct(ca, cb),
                read = if (is.null(truth)) "x, y: TRUE = correct" else "predictions x (A), y (B) against truth"))
  }
  if (!is.null(truth)) stop("truth needs both prediction vectors x and y", call. = FALSE)
  if (length(dim(x)) == 2L && all(dim(x) == 2L) && (inherits(x, "table") || is.matrix(x)))
    return(orient_2x2(x, correct, xname))
  list(counts = as_one_table(x, "table"), read = "counts n00, n01, n10, n11 (0 = incorrect)")
}

## bcv_mcnemar_test()'s input -> list(tables = F x 4, read).
fold_tables_input <- function(x, y, truth, folds, correct, xname) {
  if (!is.null(y)) {
    if (!is.list(x) || !is.list(y) || length(x) != length(y))
      stop("x and y must be lists of per-fold predictions of the same length", call. = FALSE)
    nf <- length(x)
    tr <- if (is.null(truth)) vector("list", nf) else if (is.list(truth)) truth else {
      if (is.null(folds)) stop("truth for all records needs folds = a list of each fold's record indices",
                               call. = FALSE)
      if (!is.list(folds) || length(folds) != nf)
        stop("folds must be a list of ", nf, " index vectors, one per fold", call. = FALSE)
      lapply(folds, function(i) truth[i])
    }
    if (length(tr) != nf) stop("truth must give one vector per fold (", nf, ")", call. = FALSE)
    if (!is.null(truth) && !is.list(truth) && anyNA(truth))   # its own record number, not a fold's
      stop("truth has missing labels (NA), first at record ", which(is.na(truth))[1L], call. = FALSE)
    record_of <- function(f) function(i) if (!is.null(folds) && !is.list(truth))
      sprintf("record %d, fold %d", folds[[f]][i], f) else sprintf("fold %d, position %d", f, i)
    labels <- if (is.null(truth)) NULL else truth_labels(truth)
    truth_of <- function(f) if (is.list(truth)) sprintf("truth[[%d]]", f) else
      sprintf("fold %d (truth[folds[[%d]]])", f, f)
    tabs <- t(vapply(seq_len(nf), function(f) counts_from_correct(
      correctness(x[[f]], tr[[f]], sprintf("x[[%d]] (fold %d)", f, f), labels, truth_of(f), record_of(f)),
      correctness(y[[f]], tr[[f]], sprintf("y[[%d]] (fold %d)", f, f), labels, truth_of(f), record_of(f))),
      numeric(4)))
    colnames(tabs) <- c("n00", "n01", "n10", "n11")
    return(list(tables = tabs, read = if (is.null(truth)) "x, y: TRUE = correct"
                else "per-fold predictions x (A), y (B) against truth"))
  }
  if (!is.null(truth) || !is.null(folds)) stop("truth and folds need both x and y", call. = FALSE)
  o <- NULL
  if (length(dim(x)) == 3L && all(dim(x)[1:2] == 2L) && !is.null(dimnames(x)) &&
      !all(vapply(dimnames(x)[1:2], is.null, TRUE))) {
    o <- lapply(seq_len(dim(x)[3L]), function(k) {
      m <- x[, , k]
      dimnames(m) <- dimnames(x)[1:2]
      orient_2x2(m, correct, xname)
    })
  } else if (is.list(x) && !is.data.frame(x) && length(x) &&
             any(vapply(x, function(t) !is.null(dimnames(t)), TRUE))) {
    o <- lapply(seq_along(x), function(k)
      orient_2x2(as.matrix(x[[k]]), correct, sprintf("%s[[%d]]", xname, k)))
  }
  if (!is.null(o))
    return(list(tables = t(vapply(o, `[[`, numeric(4), "counts")), read = o[[1]]$read))
  list(tables = as_fold_tables(x, "tables"), read = "fold tables n00, n01, n10, n11 (0 = incorrect)")
}
