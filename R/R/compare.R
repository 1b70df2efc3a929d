## compare_learners(), compare_many(): learners on one data set, every
## requested test.  The partitions come from Python (pybcv.partitions, the
## design streams of pybcv.compare); each named learner runs every fold
## of every design in ONE call of batch.R's run_batch() (the R code r_bridge
## runs through rpy2); the tables are counted here; the statistics come from
## Python in one call.

## The paper's test first, the others in the registry's order (as Python's
## comparisons list them).
paper_first <- function(keys) c(intersect("mcnemar_5x2bcv", keys), setdiff(keys, "mcnemar_5x2bcv"))

## What compare_learners() and compare_many() share: check the arguments,
## resolve the tests, draw every design's splits, and get each learner's
## per-row correctness (one batch per learner).
comparison_setup <- function(learners, data, target, tests, seed, alpha, profile, options,
                             conf.level, alternative = NULL, stratify = FALSE, groups = NULL,
                             timeout = NULL, loss = "zero_one") {
  chk_flag(stratify, "stratify")
  if (!is.null(timeout) && (!is.numeric(timeout) || length(timeout) != 1L || !is.finite(timeout) ||
                            timeout <= 0))
    stop("timeout must be a positive number of seconds (or NULL)", call. = FALSE)
  old <- options(pybcv.timeout = if (is.null(timeout)) NULL else as.numeric(timeout))
  on.exit(options(old), add = TRUE)
  chk_seed(seed)
  chk_level(alpha, "alpha")
  chk_level(conf.level, "conf.level")
  if (!is.list(options) || (length(options) && (is.null(names(options)) || any(!nzchar(names(options))))))
    stop("options must be a named list: test key -> list of options", call. = FALSE)
  if (!is.character(tests) || !length(tests) || anyNA(tests))
    stop("tests must be a design name (\"bcv5x2\"), \"all\", \"table5\" or test keys", call. = FALSE)
  if (!is.data.frame(data)) stop("data must be a data frame", call. = FALSE)
  pybcv_helper()
  data <- utf8_strings(as.data.frame(data))  # a tibble or data.table as a plain data frame
  if (is.character(target)) target <- enc2utf8(target)
  groups <- utf8_strings(groups)
  if (!is.null(groups)) {
    if (stratify) stop("stratify and groups cannot be combined: give one of them", call. = FALSE)
    if (is.character(groups) && length(groups) == 1L && nrow(data) != 1L) {
      gi <- which(names(data) == groups)
      if (length(gi) != 1L)
        stop("groups names no column of data (or several): ", show_name(groups), call. = FALSE)
      if (identical(groups, target))
        stop("groups names the target column; name the column that says which group each ",
             "record belongs to", call. = FALSE)
      groups <- data[[gi]]
      data <- data[-gi]              # the groups column is not a predictor
    }
    if (is.factor(groups)) groups <- as.character(groups)
    if (!is.atomic(groups) || length(groups) != nrow(data))
      stop("groups must be a column name of data or a vector with one value per row (",
           nrow(data), "), got length ", length(groups), call. = FALSE)
    if (anyNA(groups)) stop("groups: row ", which(is.na(groups))[1], " is missing; every record ",
                            "needs a group", call. = FALSE)
  }
  ld <- learner_data(data, target)
  batch <- vapply(learners, function(l) identical(l$kind, "batch"), TRUE)
  if (!length(ld$cols) && any(batch))      # an R function may predict from the target alone
    stop("data has no predictor columns (only the target ", show_name(target), "); the named ",
         "learner(s) ", paste(vapply(learners[batch], `[[`, "", "name"), collapse = ", "),
         " need at least one", call. = FALSE)
  rownames(data) <- NULL
  # an R function(train, test) sees character columns as factors (sorted
  # levels), as the named learners do
  chr <- vapply(data, is.character, TRUE)
  data[chr] <- lapply(data[chr], function(x) factor(x, levels = sorted_unique(x)))
  lz <- loss_setup(loss, tests, data[[target]], ld, stratify, learners)
  numeric <- isTRUE(lz$numeric)     # a loss on numbers: R functions and models are regressors
  data_checks(data[[target]], target, learners, numeric)
  learners <- parsnip_modes(learners, numeric, lz$name)
  sel <- resolve_tests(lz$tests, profile, options, alternative)
  designs <- as.character(unlist(sel$designs))
  sp <- design_batch(designs, ld$n, seed, ld$y, groups, stratify, ld$ylevels[ld$y])
  for (w in sp$notes) warning(w, call. = FALSE)
  rows <- test_rows(sp)
  truth <- ld$y[rows]
  st <- list(ld = ld, keys = sel$keys, options = sel$options, designs = designs, sp = sp, loss = lz,
             key_notes = sel$key_notes)
  if (lz$zero_one) {
    st$correct <- lapply(learners, function(l) learner_codes(l, ld, sp, data) == truth)
  } else if (lz$proba) {             # loss = "log": class probabilities, rows = test rows
    st$pred <- lapply(learners, function(l) learner_probabilities(l, ld, sp, data))
  } else {   # values of the target, or numbers; under an R function loss the per-record losses
    st[[if (is.null(lz$fun)) "pred" else "losses"]] <- lapply(learners, function(l) {
      p <- learner_codes(l, ld, sp, data, numeric = lz$numeric)
      if (!(lz$numeric && identical(l$kind, "function"))) p <- lz$values[p]
      if (is.null(lz$fun)) p else r_function_losses(lz, l, p, data[[target]], rows, sp)
    })
  }
  st
}

## The checks of the command line before any fit, from Python
## (pybcv.datasets.check_records, pybcv.comparison.check_class_target): at
## least 20 records, two classes or more, and no regression target (many
## distinct numbers) for the learners that predict labels: the named
## learners always, R functions, models and parsnip specifications unless
## the loss is on numbers.
data_checks <- function(ycol, target, learners, numeric) {
  if (is.factor(ycol)) ycol <- as.character(ycol)
  cls <- vapply(learners, function(l) if (identical(l$kind, "batch") || !numeric) l$name else "", "")
  named <- all(vapply(learners[nzchar(cls)], function(l) identical(l$kind, "batch"), TRUE))
  notes <- py_call("data_checks", np_target(if (is.character(ycol)) ycol else as.double(ycol)), target,
          show_name(target), as.list(cls[nzchar(cls)]),
          paste0(if (named) paste0("compare regressors (a function(train, test) returning numbers, ",
                                   "lm, rpart::rpart, a parsnip regression model) under ")
                 else "to compare them as regression models give ",
                 "loss = \"squared\" or \"absolute\", or make ",
                 "the target a factor if its values are classes (data$", target, " <- factor(data$",
                 target, "))"),
          if (named) "" else "under the default loss = \"zero_one\"")
  for (note in as.character(unlist(notes))) warning(note, call. = FALSE)
  invisible(TRUE)
}

## compare_learners(loss = ): the loss resolved by Python against the target
## (pybcv.losses.resolve_loss) and the tests it keeps (pybcv.comparison's
## loss_tests: those that need 0/1 outcomes dropped from a selection with a
## warning, refused when named).  `values`: the target's distinct values in
## code order (numbers stay numbers), what the predictions become.
loss_setup <- function(loss, tests, ycol, ld, stratify, learners = list()) {
  zero_one <- list(zero_one = TRUE, proba = FALSE, tests = tests, name = "zero_one")
  if (identical(loss, "zero_one")) return(zero_one)
  fun <- NULL
  if (is.function(loss)) {
    f <- names(formals(args(loss)) %||% formals(loss))
    if (!("..." %in% f) && length(f) < 2L)
      stop("loss: an R function loss takes two arguments, function(truth, pred), and returns ",
           "one loss per record; this one takes ", length(f), call. = FALSE)
    fun <- loss
    loss <- attr(loss, "pybcv_name") %||% "R function"
  } else if (!((is.character(loss) && length(loss) == 1L && !is.na(loss)) ||
               (is.matrix(loss) && is.numeric(loss)))) {
    stop("loss must be \"zero_one\", \"squared\", \"absolute\", \"log\", a numeric k x k ",
         "cost matrix (rows the true class, columns the predicted class, classes in sorted ",
         "order) or an R function(truth, pred) returning one loss per record", call. = FALSE)
  }
  if (is.factor(ycol)) ycol <- as.character(ycol)
  num_y <- is.numeric(ycol) || is.logical(ycol)
  if (!is.null(fun) && num_y && isTRUE(stratify))
    stop("stratify = TRUE forms the blocks within the classes of the target, but under an R ",
         "function loss a numeric target is read as numbers (a regression); leave stratify ",
         "FALSE, or give the target as a factor if its values are classes", call. = FALSE)
  values <- if (num_y) sort(unique(as.double(ycol))) else ld$ylevels
  y <- if (num_y) as.double(ycol) else ld$ylevels[ld$y]
  if (is.matrix(loss) && anyNA(loss)) {
    at <- which(is.na(loss), arr.ind = TRUE)[1L, ]
    stop("loss: the cost matrix has NA at [", at[[1L]], ", ", at[[2L]], "]; every entry must be ",
         "a finite number", call. = FALSE)
  }
  pyloss <- if (is.matrix(loss)) np_float(loss, "loss") else loss
  v <- py_call("loss_selection", if (length(tests) == 1L) tests else as.list(tests),
               if (is.null(fun)) pyloss else NULL, np_target(y), isTRUE(stratify),
               if (is.null(fun)) NULL else loss)
  if (isTRUE(v$proba))              # the log loss: every learner must give probabilities
    for (l in learners)
      if (is.null(l$proba))
        stop("loss = \"log\" needs predicted probabilities, but learner ", l$name,
             " is one of pybcv's named learners, which predict labels only; give a ",
             "model-fitting function whose predict() gives probabilities (rpart::rpart, ",
             "nnet::multinom, MASS::lda), a parsnip model specification, or a ",
             "function(train, test) returning a matrix of class probabilities", call. = FALSE)
  for (w in as.character(unlist(v$notes))) warning(w, call. = FALSE)
  named <- vapply(learners, function(l) identical(l$kind, "batch"), TRUE)
  if (v$loss %in% c("squared", "absolute") && any(named))
    warning("loss '", v$loss, "' on ", paste(vapply(learners[named], `[[`, "", "name"),
                                            collapse = ", "),
            " (classifiers, which predict class labels) reads the labels of the target as ",
            "numbers; meaningful only for ordered numeric classes (as Python's compare())",
            call. = FALSE)
  if (isTRUE(v$zero_one)) return(zero_one)
  list(zero_one = FALSE, proba = isTRUE(v$proba), tests = as.character(unlist(v$keys)),
       name = v$loss, py = pyloss, fun = fun,
       numeric = if (is.null(fun)) v$loss %in% c("squared", "absolute") else num_y,
       values = values, y = y)
}

## Per-record losses of one learner under an R function loss: the loss is
## called once per fold with the fold's truth (the target column's values,
## a factor stays a factor) and predictions (of the same type), and must
## return one finite number per record; anything else is an error naming the
## learner, the fold and the problem.
r_function_losses <- function(lz, l, pred, ycol, rows, sp) {
  fold <- rep.int(seq_along(sp$nte), sp$nte)
  out <- numeric(length(rows))
  for (f in seq_along(sp$nte)) {
    i <- which(fold == f)
    truth <- ycol[rows[i]]
    p <- pred[i]
    if (is.factor(truth) && !is.numeric(p)) p <- factor(p, levels = levels(truth))
    where <- paste0("learner ", l$name, ", ", fold_label(sp, f))
    v <- tryCatch(lz$fun(truth, p), error = function(e)
      stop("loss (an R function) failed on ", where, ": ", conditionMessage(e), call. = FALSE))
    if (is.logical(v) && !anyNA(v)) v <- as.double(v)
    if (!is.numeric(v) || is.matrix(v) || is.data.frame(v))
      stop("loss (an R function) returned ", class(v)[1L], " on ", where, "; it must return ",
           "one number per record", call. = FALSE)
    if (length(v) != length(i))
      stop("loss (an R function) returned ", length(v), " value(s) for the ", length(i),
           " records of ", where, "; it must return one loss per record", call. = FALSE)
    bad <- which(!is.finite(v))
    if (length(bad))
      stop("loss (an R function) returned ", format(v[bad[1L]]), " for record ", rows[i][bad[1L]],
           " (", where, "); losses must be finite numbers (", length(bad), " are not)",
           call. = FALSE)
    out[i] <- as.double(v)
  }
  out
}

## An R function loss labelled by the name it was given under (for the
## report, as Python names a callable by its __name__).
named_loss <- function(loss, expr) {
  if (is.function(loss))
    attr(loss, "pybcv_name") <- if (is.name(expr)) as.character(expr) else "R function"
  loss
}

## The target for Python: numbers as float64, labels as strings.
np_target <- function(y) if (is.numeric(y)) np_float(y, "target") else as.list(y)

## The tests of a selection and their options: Python merges the profile's,
## `alternative` (for every test that has one) and `options` and checks them
## against the registry (an error naming the test and the option).
resolve_tests <- function(tests, profile, options = list(), alternative = NULL) {
  if (is.list(options)) chk_no_na(options, "options$")
  options <- lapply(options, function(o) {
    o <- as.list(o)
    if (!is.null(o[["alternative"]])) o[["alternative"]] <- alt_to_py(o[["alternative"]])
    o
  })
  if (!is.null(alternative)) alternative <- alt_to_py(alternative)
  sel <- py_call("resolve", if (length(tests) == 1L) tests else as.list(tests), profile,
                 if (length(options)) options else NULL, alternative)
  keys <- paper_first(as.character(unlist(sel$keys)))
  list(keys = keys, designs = sel$designs, key_notes = sel$key_notes,
       options = lapply(stats::setNames(keys, keys), function(k) as.list(sel$options[[k]])))
}

## Python's notes on a selection (a test that stays two-sided under a one-sided
## `alternative`) added to those tests' warnings, as Python's compare() says them.
with_key_notes <- function(v, key_notes) {
  for (k in intersect(names(key_notes), names(v)))
    v[[k]]$warnings <- c(as.character(unlist(v[[k]]$warnings)), as.character(unlist(key_notes[[k]])))
  v
}

## One pair's tables and tests -> a "pybcv_comparison".
comparison_of <- function(st, ia, ib, la, lb, data_name, seed, alpha, profile, conf.level) {
  sp <- st$sp
  zero_one <- st$loss$zero_one
  tab_all <- if (zero_one) fold_tables_from_correct(st$correct[[ia]], st$correct[[ib]], sp$nte) else
    if (!is.null(st$losses)) fold_loss_sums(st$losses[[ia]], st$losses[[ib]], sp$nte) else
      pair_loss_sums(st, ia, ib, c(la$name, lb$name))
  tables <- lapply(stats::setNames(nm = st$designs), function(d) {
    f <- sp$design == d
    cbind(tab_all[f, , drop = FALSE], n_train = sp$ntr[f], n_test = sp$nte[f])
  })
  np_tab <- lapply(tables, function(t) np_float(t[, 1:4, drop = FALSE], "tables"))
  np_tr <- lapply(tables, function(t) np_float(t[, "n_train"], "n_train"))
  np_te <- lapply(tables, function(t) np_float(t[, "n_test"], "n_test"))
  v <- with_key_notes(py_call("run_battery", as.list(st$keys), np_tab, np_tr, np_te,
                              lapply(st$options, py_dict), conf.level, zero_one, st$loss$name),
                      st$key_notes)
  htests <- lapply(stats::setNames(st$keys, st$keys), function(k)
    make_htest(v[[k]], sprintf("%s vs %s on %s (%s, seed %s)", la$name, lb$name, data_name,
                               v[[k]]$design, format(seed, scientific = FALSE)),
               warn = FALSE, design = v[[k]]$design))
  structure(list(results = results_frame(htests, alpha), htests = htests, tables = tables,
                 learners = c(a = la$name, b = lb$name), data.name = data_name, n = st$ld$n,
                 target = st$ld$target, seed = seed, alpha = alpha, profile = profile,
                 conf.level = conf.level, loss = st$loss$name),
            class = "pybcv_comparison")
}

## Per-fold loss sums (n, sum_a, sum_b, sum_sq_diff) of learners ia and ib
## for every fold of every design, from Python (pybcv.pipeline's
## loss_sums_from_design_predictions, as compare(loss = )).
pair_loss_sums <- function(st, ia, ib, names = c("A", "B")) {
  sp <- st$sp
  fold <- rep.int(seq_along(sp$nte), sp$nte)
  rows <- test_rows(sp)
  by_design <- function(v, zero_based = FALSE) lapply(stats::setNames(nm = st$designs), function(d)
    unname(lapply(which(sp$design == d), function(f) {
      x <- if (is.matrix(v)) v[fold == f, , drop = FALSE] else v[fold == f]
      if (zero_based) as.integer(x - 1L) else if (is.numeric(x)) np_float(x, "predictions") else as.list(x)
    })))
  v <- py_call("design_loss_sums", np_target(st$loss$y), by_design(st$pred[[ia]]),
               by_design(st$pred[[ib]]), by_design(rows, TRUE), st$loss$py, as.list(names))
  loss_sums(do.call(rbind, lapply(st$designs, function(d) as.matrix(v[[d]]))))
}

## Per-fold loss sums (n, sum_a, sum_b, sum_sq_diff) of per-record losses
## already computed (an R function loss), from Python (pybcv.outcomes.loss_sums).
fold_loss_sums <- function(la, lb, nte)
  loss_sums(py_call("fold_loss_sums", np_float(la, "losses"), np_float(lb, "losses"),
                    as.integer(nte)))

## Python's per-fold loss sums as a matrix with their column names.
loss_sums <- function(x)
  structure(as.matrix(x), dimnames = list(NULL, c("n", "sum_a", "sum_b", "sum_sq_diff")))

results_frame <- function(htests, alpha) {
  df1 <- function(h, i) if (length(h$parameter) >= i) unname(h$parameter[i]) else NA_real_
  ci <- function(h, i) if (is.null(h$conf.int)) NA_real_ else h$conf.int[i]
  num <- function(f, ...) vapply(htests, f, 1, ...)
  p <- num(function(h) h$p.value)
  data.frame(test = names(htests), name = vapply(htests, function(h) h$method, ""),
             statistic = num(function(h) unname(h$statistic)), df = num(df1, 1L),
             df2 = num(df1, 2L), p.value = p, reject = p < alpha,
             estimate = num(function(h) if (is.null(h$estimate)) NA_real_ else unname(h$estimate)),
             conf.low = num(ci, 1L), conf.high = num(ci, 2L),
             design = vapply(htests, function(h) h$design, ""),
             warnings = vapply(htests, function(h) paste(h$warnings, collapse = "; "), ""),
             stringsAsFactors = FALSE, row.names = NULL)
}

#' Compare two learners on a data set with the tests of the registry
#'
#' Runs learners A and B on the partitions of every design the selected tests
#' need, counts each validation fold's 2x2 table of correct and incorrect
#' predictions, and runs the tests.  The partitions come from Python
#' (`pybcv.partitions.DESIGNS`; design `d` uses the random stream of
#' `pybcv.compare` for `seed` and `d`, so a design's folds do not
#' depend on which other tests are asked for, and R and Python give the same
#' folds, tables and p-values for the same seed).  A named learner runs in R,
#' every fold of every design in one call, through the package's copy of
#' `R/inst/batch.R` -- the R code the Python side runs through rpy2.
#'
#' Columns are data, never code: the predictors reach the learners renamed
#' `x1`, `x2`, ... and the class `y`, whatever their names and level names.
#' Numeric, integer, logical (as 0/1), factor and character (as a factor with
#' sorted levels) predictors are taken; a missing value is an error naming
#' the column; a learner that needs numbers (`"mean"`, `"fnn-weighted"`,
#' `"fnn-distorted"`) gives an error naming the factor columns.  The class
#' levels are the sorted distinct values of the target (Python's order).
#'
#' Before any fit, the data are checked as the command line checks a CSV
#' (Python's `pybcv.datasets.check_records` and
#' `pybcv.comparison.check_class_target`): at least 20 records, a target with
#' two classes or more, and no learner that predicts labels (the named
#' learners always; R functions, model-fitting functions and parsnip
#' specifications unless `loss` is on numbers) on a regression target (a
#' numeric target with more distinct values than half its records, or with
#' a value that is not a whole number): that is an error naming the target
#' column, to be met with regressors under `loss = "squared"` or
#' `"absolute"`, or with `factor()` on the target when its values are
#' classes.
#'
#' Warnings that a learner's fits raise (a named learner such as `"glm"`
#' or `"kknn"`, an R function, a model-fitting function, a parsnip fit)
#' are collected and given once per distinct
#' message after the learner's last fit, naming the learner and on how many
#' fits of which design ("learner f, 10 of 10 fits of bcv5x2 (first on fold
#' 1): ...").  What a model-fitting function or a parsnip fit prints (the
#' optimizer trace of `nnet::multinom`) is discarded (`capture.output()`
#' around the fit); a `function(train, test)` prints as it will.
#'
#' Fold tables: columns `n00, n01, n10, n11` count the validation records
#' where (A, B) were (incorrect, incorrect), (incorrect, correct),
#' (correct, incorrect), (correct, correct): `n01` = A wrong, B right.
#'
#' @param a,b A learner name with optional parameters,
#'   `"name:param=value,..."` (see [pybcv_learners()]: `"J48"`,
#'   `"J48-unpruned"`, `"JRip"`, `"SMO"`, `"Logistic"`, `"kknn"` (k = 5,
#'   triangular kernel), `"tree"`, `"glm"`, `"majority"`, `"mean"`,
#'   `"fnn-weighted"`, `"fnn-distorted"`; e.g. `"kknn:k=7,kernel=rectangular"`,
#'   `"J48:options=-M 5"`), an R `function(train, test)` that fits on the
#'   data frame `train` (all columns, the user's names) and returns one
#'   predicted label per row of `test` (which lacks the target column; its
#'   row names are the record numbers), a model-fitting function with
#'   `formula` (or `form`) and `data` arguments whose model has a `predict()`
#'   method returning labels (`rpart::rpart`, `MASS::lda`, `nnet::multinom`:
#'   fitted as `f(target ~ ., data = train)` on every training half; under
#'   `loss = "squared"` or `"absolute"` a regression model such as `lm` or
#'   `rpart::rpart` on a numeric target, whose plain `predict()` gives
#'   numbers), or a parsnip model specification (classes from
#'   `predict(type = "class")`, under a loss on numbers numbers from
#'   `predict(type = "numeric")`; a specification without a mode, such as
#'   `decision_tree()`, is given "classification", or "regression" under a
#'   loss on numbers, before any fit; one in the other mode is an error
#'   naming `set_mode()`).  Anything else is an error saying which forms are
#'   taken (a fitted model: give the function or specification that fits it).
#' @param data A data frame (e.g. from [utils::read.csv()]).
#' @param target The name of the class column.
#' @param tests A design name (default `"bcv5x2"`: the 5x2 BCV McNemar and
#'   calibrated F tests, 10 fits per learner, as in Python), `"all"` (every
#'   test of [pybcv_tests()]), `"table5"` (the paper's Table 5) or a vector of
#'   test keys.
#' @param seed A non-negative whole number; 0 by default, as in Python.
#' @param alpha The level for the `reject` column.
#' @param profile `"default"`: the tests as defined; `"paper"`: the readings
#'   that fit the paper's numbers (see `docs/conventions.md`,
#'   "The paper profile"); its one-sided CV-CI z is for re-scoring the
#'   paper's simulations, so a comparison with the CV-CI z refuses it.
#' @param options Per-test options, e.g.
#'   `list(mcnemar_5x2bcv = list(t = 1.5))` or
#'   `list(mcnemar_ho = list(exact = TRUE))`; an option value the validity
#'   battery found liberal where the test's default holds is withdrawn and
#'   refused (docs/validity/notes.md, "Options").
#' @param alternative `NULL` (each test's own, two-sided), or `"two.sided"`,
#'   `"less"`, `"greater"` (H1 on error(A) - error(B)) for every selected test
#'   that has one, as Python's `alternative=` and the command line's
#'   `--alternative`; the one-sided 5x2 BCV McNemar test holds alpha where the
#'   two-sided one does in the validity battery (docs/validity); the one-sided
#'   10-fold t, corrected RHO t, CV-CI z and proportion z were liberal where
#'   their two-sided tests hold, and the one-sided corrected 10x10 CV t more
#'   liberal than its two-sided test, so they are withdrawn and those tests
#'   run two-sided, with a note in `warnings`.
#' @param conf.level The level of the confidence intervals (`conf.int`).
#' @param stratify `TRUE`: a stratified 5x2 BCV, the blocks formed within
#'   the classes (the block-regularized designs only), as Python's
#'   `compare(..., stratify=True)` and `pybcv compare --stratify`.
#' @param groups A column name of `data` (then not a predictor) or a vector
#'   with one group per row: a grouped 5x2 BCV, the blocks made of whole
#'   groups so that no group is on both sides of a fold (`--groups COLUMN`).
#' @param timeout Seconds one fit may take (`NULL`: no limit); a fit that
#'   takes longer fails, naming the learner, the fold and the design (R's
#'   `setTimeLimit`; a Weka fit inside the JVM is given up on at the limit
#'   and left to finish in the background).
#' @param verbose Report the designs and fits.
#' @param loss `"zero_one"` (the default: labels, right or wrong, every
#'   test), `"squared"` or `"absolute"` (a numeric target; an R
#'   `function(train, test)` may then be a regressor returning numbers, e.g.
#'   `function(train, test) predict(lm(y ~ ., train), test)`), a numeric
#'   k x k cost matrix (rows the true class, columns the predicted class,
#'   classes in sorted order, as Python's `numpy.unique`), `"log"` (the log
#'   loss -log p(true class), p clipped below at 1e-15: the learners give
#'   class probabilities -- a model-fitting function through
#'   `predict(type = "prob")`, `type = "probs"` or `$posterior`, a parsnip
#'   specification through `type = "prob"`, a `function(train, test)` by
#'   returning a matrix with one column per class, named by class or in
#'   sorted order; the named learners, which give labels only, are refused),
#'   or an R `function(truth, pred)` returning one finite loss per record
#'   of a fold (`truth` the fold's target values, a factor staying a factor;
#'   `pred` the learner's predictions of the same type; called once per
#'   learner and fold; a wrong length, a missing or infinite value or a
#'   non-number is an error naming the learner and the fold; negative values
#'   are allowed, the tests read differences).  As Python's
#'   `compare(loss = )`: the per-fold loss sums come from Python
#'   (`pybcv.pipeline.loss_sums_from_design_predictions`), the t, F and z
#'   tests read the per-fold mean loss differences, and the tests that need
#'   0/1 outcomes (the McNemar family, the proportion z) are dropped with a
#'   warning from a selection (`"bcv5x2"`, `"all"`, ...) or refused when
#'   named; `tables` then hold the loss sums (`n, sum_a, sum_b,
#'   sum_sq_diff`) and `estimate` is mean loss(A) - mean loss(B)
#'   (docs/guide/losses.md).
#' @return A list of class `"pybcv_comparison"`: `results`, a data frame
#'   with columns `test`, `name`, `statistic`, `df`, `df2` (F tests),
#'   `p.value`, `reject`, `estimate` (error(A) - error(B)), `conf.low`,
#'   `conf.high`, `design`, `warnings` (also from `as.data.frame()`);
#'   `htests`, the `"htest"` objects by test key; `tables`, the fold tables
#'   of every design (columns `n00, n01, n10, n11, n_train, n_test`); and the
#'   arguments.
#' @seealso [compare_many()] for k learners, [pybcv_test_predictions()] for
#'   your own per-fold predictions.
#' @export
#' @examples
#' if (pybcv_available() && requireNamespace("RWeka", quietly = TRUE) &&
#'     requireNamespace("kknn", quietly = TRUE)) {
#'   res <- compare_learners("J48", "kknn", iris, "Species",
#'                           tests = c("mcnemar_5x2bcv", "calibrated_f_5x2bcv"))
#'   print(res)
#'   print(res$htests$mcnemar_5x2bcv)
#'   as.data.frame(res)
#' }
compare_learners <- function(a, b, data, target, tests = "bcv5x2", seed = 0, alpha = 0.05,
                             profile = c("default", "paper"), options = list(), alternative = NULL,
                             conf.level = 0.95, stratify = FALSE, groups = NULL, timeout = NULL,
                             verbose = FALSE, loss = "zero_one") {
  profile <- choice(profile, profile_choices, "profile")
  data_name <- dname(substitute(data))
  la <- as_learner(a, dname(substitute(a)))
  lb <- as_learner(b, dname(substitute(b)))
  loss <- named_loss(loss, substitute(loss))
  t0 <- proc.time()[["elapsed"]]
  st <- comparison_setup(list(la, lb), data, target, tests, seed, alpha, profile, options, conf.level,
                         alternative, stratify, groups, timeout, loss)
  if (verbose)
    message(sprintf("%d designs, %d fits per learner, %.2f s", length(st$designs),
                    length(st$sp$ntr), proc.time()[["elapsed"]] - t0))
  comparison_of(st, 1L, 2L, la, lb, data_name, seed, alpha, profile, conf.level)
}

#' Compare k learners pairwise on one data set
#'
#' Each learner runs once per design (one batch); every pair (i < j, the
#' earlier learner as A) is then tested as [compare_learners()] tests two
#' learners, on the same folds.  The R counterpart of
#' `pybcv compare --learners a,b,c`.
#'
#' Each test's p-values are adjusted over the k(k-1)/2 pairs by Holm's and
#' by Shaffer's procedure (Python's `pybcv.comparison.holm` / `shaffer`, as
#' `compare_many` in Python and `pybcv compare --learners`); `adjust`
#' picks the one that decides `reject`.  `plot()` draws the k x k matrix of
#' adjusted p-values of one test, coloured by which learner of the pair has
#' the lower error.
#'
#' @inheritParams compare_learners
#' @param learners A character vector of learner specs (or a list of specs
#'   and R functions), at least two; names, when given, label the learners.
#' @param adjust The multiplicity adjustment that decides `reject`: `"holm"`
#'   (the default, as on the command line) or `"shaffer"`.
#' @return A list of class `"pybcv_comparisons"`: `comparisons`, the
#'   `"pybcv_comparison"` of every pair, named `"A vs B"`; `results`, their
#'   result tables stacked with columns `a` and `b` first, and `p.holm`,
#'   `p.shaffer` (adjusted over the pairs of each test) and `reject` (the
#'   `adjust` column below `alpha`) (also from `as.data.frame()`); `errors`,
#'   each learner's pooled error rate; `adjust`.
#' @export
#' @examples
#' if (pybcv_available() && requireNamespace("RWeka", quietly = TRUE) &&
#'     requireNamespace("kknn", quietly = TRUE)) {
#'   many <- compare_many(c("J48", "kknn", "majority"), iris, "Species",
#'                        tests = "mcnemar_5x2bcv")
#'   as.data.frame(many)
#' }
compare_many <- function(learners, data, target, tests = "bcv5x2", seed = 0, alpha = 0.05,
                         profile = c("default", "paper"), options = list(), alternative = NULL,
                         adjust = c("holm", "shaffer"), conf.level = 0.95, stratify = FALSE,
                         groups = NULL, timeout = NULL, loss = "zero_one") {
  profile <- choice(profile, profile_choices, "profile")
  adjust <- choice(adjust, adjustments, "adjust")
  data_name <- dname(substitute(data))
  loss <- named_loss(loss, substitute(loss))
  if (!(is.character(learners) || is.list(learners)) || length(learners) < 2L)
    stop("learners must hold at least two learners", call. = FALSE)
  labels <- names(learners)
  ls <- lapply(seq_along(learners), function(i) {
    labelled <- !is.null(labels) && nzchar(labels[i])
    l <- as_learner(learners[[i]], if (labelled) labels[i] else paste0("learner", i))
    if (labelled) l$name <- labels[i]
    l
  })
  nm <- vapply(ls, `[[`, "", "name")
  if (anyDuplicated(nm)) stop("learners must differ; repeated: ", paste(unique(nm[duplicated(nm)]), collapse = ", "),
                              call. = FALSE)
  st <- comparison_setup(ls, data, target, tests, seed, alpha, profile, options, conf.level,
                         alternative, stratify, groups, timeout, loss)
  pairs <- utils::combn(length(ls), 2L, simplify = FALSE)
  comps <- lapply(pairs, function(p)
    comparison_of(st, p[1], p[2], ls[[p[1]]], ls[[p[2]]], data_name, seed, alpha, profile, conf.level))
  names(comps) <- vapply(pairs, function(p) paste(nm[p[1]], "vs", nm[p[2]]), "")
  res <- do.call(rbind, lapply(comps, function(cmp)
    cbind(a = cmp$learners[["a"]], b = cmp$learners[["b"]], cmp$results, stringsAsFactors = FALSE)))
  rownames(res) <- NULL
  res$p.holm <- res$p.shaffer <- NA_real_
  for (k in unique(res$test)) {
    i <- which(res$test == k)
    adj <- py_call("adjust", np_float(res$p.value[i], "p.value"), length(ls))
    res$p.holm[i] <- as.numeric(adj$holm)
    res$p.shaffer[i] <- as.numeric(adj$shaffer)
  }
  res$reject <- !is.na(res[[paste0("p.", adjust)]]) & res[[paste0("p.", adjust)]] < alpha
  first <- c("a", "b", "test", "name", "statistic", "df", "df2", "p.value", "p.holm", "p.shaffer",
             "reject")
  res <- res[, c(first, setdiff(names(res), first))]
  structure(list(comparisons = comps, results = res, learners = nm, errors = learner_errors(comps, nm),
                 data.name = data_name, seed = seed, alpha = alpha, profile = profile,
                 adjust = adjust),
            class = "pybcv_comparisons")
}

## The multiplicity adjustments of compare_many() (Python's
## pybcv.comparison.ADJUSTMENTS; testthat checks they agree).
adjustments <- c("holm", "shaffer")

## Each learner's error rate (under another loss its mean loss) pooled over
## the folds of the error design (the 5x2 BCV when it ran, as Python's
## Comparison.error_design).
learner_errors <- function(comps, nm) {
  err <- stats::setNames(rep(NA_real_, length(nm)), nm)
  for (cmp in comps) {
    d <- if ("bcv5x2" %in% names(cmp$tables)) "bcv5x2" else names(cmp$tables)[1L]
    s <- colSums(cmp$tables[[d]])
    err[cmp$learners] <- if (identical(cmp$loss, "zero_one"))
      c(s[["n00"]] + s[["n01"]], s[["n00"]] + s[["n10"]]) / sum(s[c("n00", "n01", "n10", "n11")])
    else c(s[["sum_a"]], s[["sum_b"]]) / s[["n"]]
  }
  err
}

#' @export
#' @rdname compare_many
#' @param y Ignored (for the generic).
#' @param test The test whose adjusted p-values `plot()` shows (the paper's
#'   test by default).
#' @details `plot()` draws a k x k matrix, learners ordered by error rate:
#'   cell (row, column) holds the adjusted p-value of that pair, a `*` where
#'   it is below `alpha`, and says which learner has the lower error ("row
#'   better" / "col better"); blue where the row's learner has the lower
#'   error, red where the column's, the deeper the smaller the p-value.
plot.pybcv_comparisons <- function(x, y, test = "mcnemar_5x2bcv", ...) {
  r <- x$results
  if (!(test %in% r$test))
    stop("test ", show_name(test), " did not run; ran: ", paste(unique(r$test), collapse = ", "),
         call. = FALSE)
  r <- r[r$test == test, , drop = FALSE]
  nm <- names(sort(x$errors))
  k <- length(nm)
  p <- matrix(NA_real_, k, k, dimnames = list(nm, nm))
  better <- matrix(0, k, k)     # +1: the row's learner has the lower error
  col <- paste0("p.", x$adjust)
  for (i in seq_len(nrow(r))) {
    a <- match(r$a[i], nm); b <- match(r$b[i], nm)
    p[a, b] <- p[b, a] <- r[[col]][i]
    s <- -sign(r$estimate[i])            # estimate = error(a) - error(b)
    better[a, b] <- s; better[b, a] <- -s
  }
  z <- better * (1 - ifelse(is.na(p), 1, p))    # in [-1, 1]
  pal <- grDevices::hcl.colors(21L, "Blue-Red 2", rev = TRUE)
  old <- graphics::par(mar = c(7, 7, 3, 1))
  on.exit(graphics::par(old))
  graphics::image(seq_len(k), seq_len(k), t(z[k:1, , drop = FALSE]), zlim = c(-1, 1), col = pal,
                  axes = FALSE, xlab = "", ylab = "",
                  main = sprintf("%s: %s-adjusted p (* < %g)", test, x$adjust, x$alpha), ...)
  lab <- sprintf("%s\n(%.3f)", nm, x$errors[nm])
  graphics::axis(1, seq_len(k), lab, las = 2, cex.axis = 0.7, tick = FALSE)
  graphics::axis(2, k:1, lab, las = 1, cex.axis = 0.7, tick = FALSE)
  for (i in seq_len(k)) for (j in seq_len(k)) {
    if (is.na(p[i, j])) next
    txt <- sprintf("%.3f%s\n%s", p[i, j], if (p[i, j] < x$alpha) "*" else "",
                   if (better[i, j] > 0) "row better" else if (better[i, j] < 0) "col better" else "equal")
    bg <- pal[round((z[i, j] + 1) * 10) + 1L]
    ink <- if (sum(grDevices::col2rgb(bg) * c(0.299, 0.587, 0.114)) < 128) "white" else "black"
    graphics::text(j, k + 1 - i, txt, cex = 0.7, col = ink)
  }
  invisible(x)
}

#' @describeIn compare_learners The `results` data frame (one row per test).
#' @param x A `"pybcv_comparison"` (or `"pybcv_comparisons"`) object.
#' @param row.names,optional,... Ignored (for the generic).
#' @export
as.data.frame.pybcv_comparison <- function(x, row.names = NULL, optional = FALSE, ...) x$results

#' @export
#' @rdname compare_many
#' @param x A `"pybcv_comparisons"` object.
#' @param row.names,optional,... Ignored (for the generic).
as.data.frame.pybcv_comparisons <- function(x, row.names = NULL, optional = FALSE, ...) x$results

#' @describeIn compare_learners Prints the results table.
#' @param digits Digits to print.
#' @export
print.pybcv_comparison <- function(x, digits = 4L, ...) {
  cat("pybcv: ", x$learners[["a"]], " (A) vs ", x$learners[["b"]], " (B)",
      if (is.na(x$seed)) " from own predictions" else
        paste0(" on ", x$data.name, " (n = ", x$n, ", target ", show_name(x$target), "), seed ",
               format(x$seed, scientific = FALSE)),
      ", profile ", x$profile, ", alpha = ", x$alpha, "\n", sep = "")
  if (!is.null(x$loss) && !identical(x$loss, "zero_one"))
    cat("loss: ", x$loss, " (estimate = mean loss(A) - mean loss(B); tables hold loss sums)\n",
        sep = "")
  r <- x$results[, c("test", "statistic", "df", "df2", "p.value", "reject", "estimate",
                     "conf.low", "conf.high")]
  if (all(is.na(r$df2))) r$df2 <- NULL
  if (all(is.na(r$conf.low) & is.na(r$conf.high))) r$conf.low <- r$conf.high <- NULL
  print(r, digits = digits, row.names = FALSE, ...)
  w <- x$results$warnings
  if (any(nzchar(w))) cat("warnings:", paste0("\n  ", x$results$test[nzchar(w)], ": ", w[nzchar(w)]), "\n")
  cat("(htest objects in $htests, fold tables in $tables; as.data.frame() for the table)\n")
  invisible(x)
}

#' @export
#' @rdname compare_many
print.pybcv_comparisons <- function(x, digits = 4L, ...) {
  cat("pybcv: ", length(x$learners), " learners (", paste(x$learners, collapse = ", "), ") on ",
      x$data.name, ", seed ", format(x$seed, scientific = FALSE), ", ", length(x$comparisons),
      " pairs\n", sep = "")
  cat("p-values adjusted over the pairs of each test by ", x$adjust, " (reject: p.", x$adjust,
      " < ", x$alpha, ")\n", sep = "")
  loss <- if (length(x$comparisons)) x$comparisons[[1L]]$loss else NULL
  if (!is.null(loss) && !identical(loss, "zero_one"))
    cat("loss: ", loss, "; mean losses: ", paste(names(x$errors), signif(x$errors, digits),
                                                collapse = ", "), "\n", sep = "")
  r <- x$results[, c("a", "b", "test", "statistic", "p.value", "p.holm", "p.shaffer", "reject",
                     "estimate")]
  print(r, digits = digits, row.names = FALSE, ...)
  invisible(x)
}
