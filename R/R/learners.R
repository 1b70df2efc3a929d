## The R learners: the R code of r_bridge, shipped and run by the package.
##
## inst/batch.R is the one copy of the R learners: Python's r_bridge sources
## the same file (from R/inst in a checkout, from its wheel's copy when
## installed).  It is sourced once per session into a private environment
## whose parent is the stats namespace (then base, then the search path): R
## functions that batch.R calls, or that learners look up by name in their
## caller (tree() calls model.frame.default), are found before anything in
## the user's workspace.  A data set enters it as values (columns renamed
## x1..xp, the class y); a learner runs every fold of every design in ONE
## call of run_batch().

batch_env <- function() {
  if (!is.null(.pybcv$batch)) return(.pybcv$batch)
  path <- system.file("batch.R", package = "pybcv")
  if (!nzchar(path)) stop("pybcv: inst/batch.R is missing from the installed package", call. = FALSE)
  env <- new.env(parent = asNamespace("stats"))
  sys.source(path, envir = env, keep.source = FALSE)
  .pybcv$batch <- env
  env
}

## A column name as it appears in messages: quoted, with escapes, so a name
## holding quotes, newlines or control characters prints as data.
show_name <- function(x) encodeString(x, quote = "\"")

## The predictors of `data` (every column but `target`, by position) as
## run_batch's columns: numeric, integer and logical columns become doubles
## (FALSE/TRUE = 0/1, as the Python side sends booleans); a factor keeps its
## levels; a character column becomes a factor with its distinct values in
## sorted (C-locale, code point) order, as the Python side sorts strings.
## Any other type, a missing value or an infinite number is an error naming
## the column.  The user's names never reach R code or a formula.
batch_columns <- function(data, cols) {
  out <- vector("list", length(cols))
  levels_list <- vector("list", length(cols))     # NULL for a column of numbers
  for (j in seq_along(cols)) {
    x <- data[[cols[j]]]
    nm <- show_name(names(data)[cols[j]])
    if (!is.atomic(x) || !is.null(dim(x)))
      stop("column ", nm, " is a ", class(x)[1L], "; predictors must be numeric, integer, ",
           "logical, factor or character vectors", call. = FALSE)
    miss <- is.na(x)
    if (any(miss))
      stop("column ", nm, " has ", sum(miss), " missing value(s) (NA), first in row ",
           which(miss)[1L], "; remove or impute them before comparing learners", call. = FALSE)
    if (is.factor(x) || is.character(x)) {
      levels_list[j] <- list(levels(x) %||% sorted_unique(x))
      out[[j]] <- if (is.factor(x)) as.integer(x) else match(x, levels_list[[j]])
    } else if (is.logical(x) || (is.numeric(x) && is.null(attr(x, "class")))) {
      if (!all(is.finite(x)))
        stop("column ", nm, " has infinite value(s), first in row ", which(!is.finite(x))[1L],
             call. = FALSE)
      out[[j]] <- as.double(x)
    } else {
      stop("column ", nm, " has type ", class(x)[1L], "; predictors must be numeric, integer, ",
           "logical, factor or character (convert it, e.g. with as.numeric())", call. = FALSE)
    }
  }
  list(cols = out, is_factor = !vapply(levels_list, is.null, TRUE), levels = levels_list)
}

## The class: 1-based codes into its distinct values in sorted order (numbers
## numerically, strings and factor labels by code point), the order of
## numpy.unique on the Python side.
batch_class <- function(y, target) {
  nm <- show_name(target)
  if (is.factor(y)) y <- as.character(y)
  if (!is.atomic(y) || !is.null(dim(y)) || !(is.character(y) || is.numeric(y) || is.logical(y)))
    stop("the target column ", nm, " must be a factor, character, logical or numeric vector",
         call. = FALSE)
  miss <- is.na(y)
  if (any(miss))
    stop("the target column ", nm, " has ", sum(miss), " missing value(s) (NA), first in row ",
         which(miss)[1L], call. = FALSE)
  lev <- sorted_unique(y)
  list(codes = match(y, lev), levels = as.character(lev))
}

## The distinct values in sorted order: numbers numerically, strings by code
## point (method = "radix", as Python sorts them).
sorted_unique <- function(y)
  if (is.character(y)) sort(unique(y), method = "radix") else sort(unique(y))

## A data frame and its target column -> what run_batch() needs.
learner_data <- function(data, target) {
  if (!is.data.frame(data)) stop("data must be a data frame", call. = FALSE)
  if (!is.character(target) || length(target) != 1L || is.na(target))
    stop("target must be one column name (a string)", call. = FALSE)
  ti <- which(names(data) == target)
  if (length(ti) != 1L)
    stop("target must name exactly one column of data; ",
         if (length(ti)) "several columns have that name" else
           paste0("columns: ", paste(vapply(names(data), show_name, ""), collapse = ", ")),
         call. = FALSE)
  if (nrow(data) < 2L) stop("data has ", nrow(data), " row(s)", call. = FALSE)
  pred <- setdiff(seq_along(data), ti)
  bc <- batch_columns(data, pred)
  txt <- which(bc$is_factor)             # numbers written with a comma, read as text: refused
  if (length(txt)) py_call("comma_numbers", as.list(names(data)[pred][txt]), unname(bc$levels[txt]))
  y <- batch_class(data[[ti]], target)
  list(cols = bc$cols, is_factor = bc$is_factor, levels = bc$levels, y = y$codes,
       ylevels = y$levels, n = nrow(data), names = names(data)[pred], target = target)
}

## A learner given by name ("J48", "kknn:k=7"): Python's registry parses and
## validates the spec and gives batch.R's learner name and parameters, so R
## runs exactly what the Python side sends to R.
named_learner <- function(spec) {
  v <- py_call("r_learner", spec)
  params <- lapply(v$params, function(p) if (is.list(p)) as.character(unlist(p)) else p)
  if (!length(params)) params <- stats::setNames(list(), character())
  for (p in as.character(unlist(v$packages)))
    if (!requireNamespace(p, quietly = TRUE))
      stop("learner \"", v$name, "\" needs the R package ", p, ", which is not installed",
           call. = FALSE)
  list(name = spec, kind = "batch", learner = v$learner, params = params)
}

## `proba`: the learner's class probabilities (loss = "log"): for a
## model-fitting function or a parsnip specification from predict(); a
## function(train, test) must then itself return them (a matrix, one column
## per class); the named learners have none.  `num`: the learner's numeric
## predictions under a loss on numbers ("squared", "absolute"): a regression
## model's predict() (parsnip: type = "numeric"); a function(train, test)
## returns them itself.  `spec`: a parsnip specification (its mode is set
## from the loss by parsnip_modes() before any fit).
as_learner <- function(x, label) {
  if (is.character(x) && length(x) == 1L && !is.na(x)) return(named_learner(x))
  if (inherits(x, "model_spec")) return(spec_learner(x, label))
  if (is.function(x)) {
    f <- names(formals(args(x)) %||% formals(x))
    generic <- !is.primitive(x) && any(grepl("UseMethod(", deparse(body(x)), fixed = TRUE))
    if ((any(c("formula", "form") %in% f) && "data" %in% f) || generic)   # rpart::rpart, MASS::lda
      return(list(name = label, kind = "function", fun = fit_function_learner(x),
                  proba = fit_function_learner(x, "proba"),
                  num = fit_function_learner(x, "numeric")))
    return(list(name = label, kind = "function", fun = x, proba = x, num = x))
  }
  fitted <- if (is.object(x)) Filter(function(k)
    !is.null(utils::getS3method("predict", k, optional = TRUE)), class(x)) else character()
  hint <- if (length(fitted))
    paste0(" (", fitted[1], " is a fitted model: give the function that fits it, e.g. ",
           "rpart::rpart, or the parsnip specification, so that it is refitted on every ",
           "training half)") else ""
  stop("a learner must be a name such as \"J48\" or \"kknn:k=7\" (see pybcv_learners()), ",
       "an R function(train, test) returning predicted labels, a model-fitting function ",
       "with formula and data arguments whose model has a predict() method (rpart::rpart, ",
       "MASS::lda, nnet::multinom, ...) or a parsnip model specification", hint, call. = FALSE)
}

spec_learner <- function(spec, label)
  list(name = label, kind = "function", fun = parsnip_learner(spec),
       proba = parsnip_learner(spec, "proba"), num = parsnip_learner(spec, "numeric"),
       spec = spec)

## The mode of every parsnip specification among `learners`, before any
## fit: a specification without one (decision_tree()) is given the mode the
## loss asks for ("regression" under a loss on numbers, else
## "classification"); one in another mode is refused, naming set_mode().
parsnip_modes <- function(learners, numeric, loss) {
  want <- if (numeric) "regression" else "classification"
  lapply(learners, function(l) {
    if (is.null(l$spec)) return(l)
    mode <- l$spec$mode %||% "unknown"
    if (identical(mode, "unknown"))
      return(spec_learner(parsnip_set_mode(l$spec, want), l$name))
    if (!identical(mode, want))
      stop("learner ", l$name, " is a parsnip specification in mode \"", mode, "\", but ",
           if (numeric) paste0("loss = \"", loss, "\" compares numbers (a regression); give ",
                               "set_mode(\"regression\")")
           else paste0("loss = \"", loss, "\" compares class labels (or probabilities); give ",
                       "set_mode(\"classification\") and a factor target, or compare ",
                       "regressors under loss = \"squared\" or \"absolute\""),
           call. = FALSE)
    l
  })
}

## parsnip::set_mode(spec, mode); where parsnip is absent (the tests'
## stand-in specification) the mode is set in the specification itself.
parsnip_set_mode <- function(spec, mode) {
  pkg <- "parsnip"
  if (requireNamespace(pkg, quietly = TRUE)) return(getExportedValue(pkg, "set_mode")(spec, mode))
  spec$mode <- mode
  spec
}

## The value of `expr` with what it prints discarded (the optimizer trace
## of nnet::multinom and the like, on every fit of a model-fitting function
## or a parsnip specification); warnings and errors pass.
silently <- function(expr) {
  utils::capture.output(out <- expr)
  out
}

`%||%` <- function(a, b) if (is.null(a)) b else a

## The target of a fold: the column of train that test lacks.
fold_target <- function(train, test) setdiff(names(train), names(test))

fold_formula <- function(target)
  stats::as.formula(paste0("`", gsub("`", "\\\\`", target), "` ~ ."), env = globalenv())

## Class labels from predict(model, test): a factor or character vector, the
## $class of a list (MASS::lda), the .pred_class of a data frame (parsnip);
## type = "class" is asked first (rpart, tree).  Numbers are refused.
predict_labels <- function(model, test) {
  p <- tryCatch(suppressWarnings(stats::predict(model, newdata = test, type = "class")),
                error = function(e) NULL)
  if (is.null(p) || !(is.factor(p) || is.character(p) || is.list(p)))
    p <- stats::predict(model, newdata = test)
  if (is.data.frame(p) && ".pred_class" %in% names(p)) p <- p[[".pred_class"]]
  if (is.list(p) && !is.data.frame(p) && !is.null(p$class)) p <- p$class
  if (!(is.factor(p) || is.character(p)) || !is.null(dim(p)))
    stop("predict() of the fitted ", class(model)[1], " model returns ",
         if (is.numeric(p)) "numbers (probabilities or scores?)" else class(p)[1],
         ", not class labels; wrap the model in a function(train, test) that returns labels ",
         "(a regression model is compared under loss = \"squared\" or \"absolute\")",
         call. = FALSE)
  as.character(p)
}

## Numeric predictions from predict(model, test) (a loss on numbers: lm,
## rpart on a numeric target): a numeric vector, a one-column matrix, or the
## .pred column of a data frame.
predict_numbers <- function(model, test) {
  p <- stats::predict(model, newdata = test)
  if (is.data.frame(p) && ".pred" %in% names(p)) p <- p[[".pred"]]
  if (is.matrix(p) && ncol(p) == 1L) p <- p[, 1L]
  if (!is.numeric(p) || !is.null(dim(p)))
    stop("predict() of the fitted ", class(model)[1], " model returns ", class(p)[1],
         ", not numbers; under a loss on numbers the learners are regressors: wrap the model ",
         "in a function(train, test) that returns one number per record", call. = FALSE)
  unname(as.double(p))
}

## A model-fitting function f(formula, data, ...) (or an S3 generic with a
## formula method, as MASS::lda) as a learner: fit on the training half
## (what the fit prints discarded), predict the test half: its labels,
## its class probabilities (`what` = "proba") or numbers ("numeric").
fit_function_learner <- function(f, what = "labels") function(train, test) {
  target <- fold_target(train, test)
  model <- silently(f(fold_formula(target), data = train))
  if (what == "labels") return(predict_labels(model, test))
  if (what == "numeric") return(predict_numbers(model, test))
  if (is.numeric(train[[target]]) || is.logical(train[[target]]))
    stop("loss = \"log\" needs class probabilities, but the target ", show_name(target),
         " is numeric, so the model is fitted as a regression; make the target a factor ",
         "(e.g. data$", target, " <- factor(data$", target, "))", call. = FALSE)
  predict_probabilities(model, test, levels(train[[target]]))
}

## Class probabilities from predict(model, test): type = "prob" (rpart,
## randomForest), type = "probs" (nnet::multinom), the $posterior of a list
## (MASS::lda); a matrix with one column per class.  For a two-class factor
## target (`lev`) a vector from type = "probs" or "response" (nnet::multinom,
## a binomial glm) is the probability of the second level, as R's binomial
## models define it.
predict_probabilities <- function(model, test, lev = NULL) {
  for (type in c("prob", "probs", "response")) {
    p <- tryCatch(suppressWarnings(stats::predict(model, newdata = test, type = type)),
                  error = function(e) NULL)
    if (is.matrix(p) || is.data.frame(p)) return(p)
    if (type != "prob" && is.numeric(p) && length(p) == nrow(test) && length(lev) == 2L)
      return(matrix(c(1 - p, p), ncol = 2L, dimnames = list(NULL, lev)))
  }
  p <- tryCatch(stats::predict(model, newdata = test), error = function(e) NULL)
  if (is.list(p) && !is.data.frame(p) && is.matrix(p$posterior)) return(p$posterior)
  stop("predict() of the fitted ", class(model)[1], " model gives no class probabilities ",
       "(tried type = \"prob\", \"probs\", \"response\" and $posterior); wrap the model in a ",
       "function(train, test) that returns a matrix of probabilities, one column per class",
       call. = FALSE)
}

## One fold's class probabilities as a matrix (records x the target's
## classes, columns in ld$ylevels order): columns named by class are matched
## by name (a class the model lacks gets 0), unnamed ones must be one per
## class in sorted order.  Python's log loss checks the values.
probability_matrix <- function(p, n, ld, where) {
  if (is.data.frame(p)) {
    names(p) <- sub("^\\.pred_", "", names(p))       # parsnip's .pred_<class>
    p <- as.matrix(p)
  }
  k <- length(ld$ylevels)
  if (!is.matrix(p) || !is.numeric(p) || nrow(p) != n)
    stop(where, " gave ", if (is.matrix(p)) paste(dim(p), collapse = " x ") else
      paste(length(p), class(p)[1L]), " predictions for ", n, " validation records; ",
      "loss = \"log\" needs a matrix of class probabilities, ", n, " x ", k,
      " (one column per class: ", paste(utils::head(ld$ylevels, 8L), collapse = ", "),
      if (k > 8L) ", ...", ")", call. = FALSE)
  cn <- colnames(p)
  if (!is.null(cn)) {
    extra <- setdiff(cn, ld$ylevels)
    if (length(extra))
      stop(where, " gave probabilities of class ", show_name(extra[1L]), ", which is not a class ",
           "of the target (classes: ", paste(ld$ylevels, collapse = ", "), ")", call. = FALSE)
    out <- matrix(0, n, k)
    out[, match(cn, ld$ylevels)] <- p
    return(out)
  }
  if (ncol(p) != k)
    stop(where, " gave ", ncol(p), " unnamed probability columns for ", k, " classes; name the ",
         "columns by class or give one per class in sorted order", call. = FALSE)
  unname(p)
}

## Class probabilities of learner l for every test row of every fold in sp
## (loss = "log"): a matrix, rows as test_rows(sp), columns ld$ylevels.
learner_probabilities <- function(l, ld, sp, data) {
  do.call(rbind, per_fold(l$proba, l, ld, sp, data, function(p, te, f)
    probability_matrix(p, length(te), ld, paste0("learner ", l$name, " on ", fold_label(sp, f)))))
}

## A parsnip model specification as a learner (parsnip::fit, what it
## prints discarded, then class predictions, or with `what` = "proba" the
## class probabilities of type = "prob", with "numeric" the numbers of type =
## "numeric", a regression).  parsnip is looked up by name, not declared: an
## optional integration for users who have it (a model_spec cannot exist
## without it), which R CMD check cannot resolve offline when it is not
## installed.
parsnip_learner <- function(spec, what = "labels") {
  fit <- parsnip_fit()
  function(train, test) {
    model <- silently(fit(spec, fold_formula(fold_target(train, test)), data = train))
    if (what == "proba") return(as.data.frame(stats::predict(model, new_data = test, type = "prob")))
    if (what == "numeric") return(stats::predict(model, new_data = test, type = "numeric")[[".pred"]])
    as.character(stats::predict(model, new_data = test, type = "class")[[".pred_class"]])
  }
}

## parsnip::fit(spec, formula, data = ) (the contract parsnip_learner relies
## on: a fitted model whose predict(new_data = , type = "class" / "prob" /
## "numeric") gives a data frame of .pred_class / .pred_<class> / .pred); the tests put a stand-in
## with that contract here where parsnip is not installed.
parsnip_fit <- function() {
  pkg <- "parsnip"
  if (!requireNamespace(pkg, quietly = TRUE))
    stop("a parsnip model specification needs the R package parsnip, which is not installed",
         call. = FALSE)
  getExportedValue(pkg, "fit")
}

## The splits of the designs, concatenated in design order: idx (train then
## test rows of each fold), ntr, nte, and the design of each fold.  `notes`:
## Python's notes on a stratified or grouped design (rare classes, named by
## `labels`; halves far from n/2), for the caller to warn.
design_batch <- function(designs, n, seed, y = NULL, groups = NULL, stratify = FALSE,
                         labels = NULL) {
  v <- py_call("designs_batch", as.list(designs), py_int(n, "n"), py_int(seed, "seed"),
               if (stratify) as.integer(y) else NULL, groups, isTRUE(stratify),
               if (stratify && !is.null(labels)) as.character(labels) else NULL)
  d <- v$designs[designs]
  cat_int <- function(k) as.integer(unlist(lapply(d, `[[`, k), use.names = FALSE))
  list(notes = as.character(unlist(v$notes)), idx = cat_int("idx"), ntr = cat_int("ntr"),
       nte = cat_int("nte"), design = rep(designs, vapply(d, function(x) length(x$ntr), 1L)),
       fold = unlist(lapply(d, function(x) seq_along(x$ntr)), use.names = FALSE))
}

## Test rows of every fold, concatenated (the order of run_batch's output).
test_rows <- function(sp) {
  end_tr <- cumsum(sp$ntr + sp$nte) - sp$nte
  unlist(lapply(seq_along(sp$nte), function(f) sp$idx[end_tr[f] + seq_len(sp$nte[f])]),
         use.names = FALSE)
}

fold_label <- function(sp, f)
  sprintf("fold %d of %d (design %s)", sp$fold[f], sum(sp$design == sp$design[f]), sp$design[f])

## Predicted class codes (into ld$ylevels) of learner l for every test row
## of every fold in sp: one run_batch() call for a named learner, whose
## fits' R warnings are given as a function(train, test)'s are (fit_warnings()).
## With `numeric` (loss "squared" / "absolute") an R function's predictions
## are numbers, not labels: they are returned as they are.
learner_codes <- function(l, ld, sp, data, numeric = FALSE) {
  if (identical(l$kind, "batch")) {
    b <- batch_env()
    key <- "pybcv_r_package"
    b$register_dataset(key, ld$cols, ld$is_factor, ld$levels, ld$y, ld$ylevels)
    on.exit(b$clear_datasets(), add = TRUE)
    res <- b$run_batch(l$learner, key, sp$idx, sp$ntr, sp$nte, l$params)
    if (!isTRUE(res$ok)) {
      msg <- res$message
      if (grepl("needs numeric predictors", msg, fixed = TRUE))
        msg <- paste0(msg, " (", paste(vapply(ld$names[ld$is_factor], show_name, ""), collapse = ", "),
                      "); choose a learner that takes factors or convert the columns")
      where <- if (res$fold > 0L) paste(" on", fold_label(sp, res$fold)) else ""
      stop("learner ", l$name, " failed", where, ": ", msg, call. = FALSE)
    }
    fit_warnings(Map(c, res$warnings, res$warning_folds), l, sp)   # glm's, kknn's, ...
    return(res$codes)
  }
  ## an R function(train, test): called once per fold with the user's data
  out <- per_fold(if (numeric) l$num %||% l$fun else l$fun, l, ld, sp, data, function(p, te, f) {
    if (is.data.frame(p) || is.matrix(p))
      stop("learner ", l$name, " returned a ", NROW(p), " x ", NCOL(p), " ", class(p)[1L],
           " (", fold_label(sp, f), "), not one ", if (numeric) "number" else "label",
           " per validation record; class probabilities are read under loss = \"log\"",
           call. = FALSE)
    if (length(p) != length(te))
      stop("learner ", l$name, " returned ", if (is.null(p)) 0L else NROW(p), " predictions for ",
           length(te), " validation records (", fold_label(sp, f), ")", call. = FALSE)
    if (numeric) {
      if (is.factor(p)) p <- as.character(p)
      q <- suppressWarnings(as.double(p))
      bad <- which(!is.finite(q))
      if (length(bad))
        stop("learner ", l$name, " returned ", show_name(as.character(p[bad[1L]])), " (",
             fold_label(sp, f), ", record ", te[bad[1L]], "); under a loss on numbers the ",
             "predictions must be finite numbers", call. = FALSE)
      return(q)
    }
    p <- as.character(p)
    if (anyNA(p))
      stop("learner ", l$name, " returned missing predictions (", fold_label(sp, f), ")", call. = FALSE)
    check_labels(p, ld$ylevels, paste("learner", l$name),
                 function(i) paste0(fold_label(sp, f), ", record ", te[i]))
    match(p, ld$ylevels)
  })
  unlist(out, use.names = FALSE)
}

## fun(train, test) of learner l on every fold of sp (the user's data, the
## time limit of compare_learners(timeout = ) per fit; an error names the
## learner and the fold), each result passed through check(p, te, f).  The
## warnings of the fits are collected and given once each, after the last
## fit, naming the learner and on how many fits of which design
## (fit_warnings()).
per_fold <- function(fun, l, ld, sp, data, check) {
  end_tr <- cumsum(sp$ntr + sp$nte) - sp$nte
  out <- vector("list", length(sp$ntr))
  warned <- list()
  for (f in seq_along(sp$ntr)) {
    tr <- sp$idx[end_tr[f] - sp$ntr[f] + seq_len(sp$ntr[f])]
    te <- sp$idx[end_tr[f] + seq_len(sp$nte[f])]
    train <- data[tr, , drop = FALSE]
    test <- data[te, names(data) != ld$target, drop = FALSE]
    limit <- getOption("pybcv.timeout")      # compare_learners(timeout = ): per fit
    p <- tryCatch({
      if (!is.null(limit)) setTimeLimit(elapsed = limit)
      withCallingHandlers(fun(train, test), warning = function(w) {
        warned[[length(warned) + 1L]] <<- c(conditionMessage(w), f)
        invokeRestart("muffleWarning")
      })
    }, error = function(e) {
      setTimeLimit(elapsed = Inf)
      msg <- conditionMessage(e)
      if (!is.null(limit) && grepl("elapsed time limit", msg))
        msg <- paste0("the fit took longer than the time limit of ", format(limit), " s (timeout)")
      else msg <- one_class_message(train[[ld$target]], data[[ld$target]], sp, f, msg)
      stop("learner ", l$name, " failed on ", fold_label(sp, f), ": ", msg, call. = FALSE)
    }, finally = setTimeLimit(elapsed = Inf))
    out[[f]] <- check(p, te, f)
  }
  fit_warnings(warned, l, sp)
  out
}

## The warnings of learner l's fits (pairs of message and fold index), one R
## warning per distinct message: 'learner l, 10 of 10 fits of bcv5x2 (first
## on fold 1): <message>' (Python's compare names a learner's fit warnings
## with their count the same way).
fit_warnings <- function(warned, l, sp) {
  if (!length(warned)) return(invisible())
  msg <- vapply(warned, `[[`, "", 1L)
  fold <- as.integer(vapply(warned, `[[`, "", 2L))
  for (m in unique(msg)) {
    f <- unique(fold[msg == m])
    where <- vapply(unique(sp$design[f]), function(d) {
      fd <- f[sp$design[f] == d]
      sprintf("%d of %d fits of %s (first on fold %d)", length(fd), sum(sp$design == d), d,
              min(sp$fold[fd]))
    }, "")
    warning("learner ", l$name, ", ", paste(where, collapse = "; "), ": ", m, call. = FALSE)
  }
}

## Why a learner failed on fold f when its training part holds one class of
## a target that has more (a rare class all in the validation part): said
## plainly, with R's message after it; else R's message as it is.
one_class_message <- function(ytrain, y, sp, f, msg) {
  seen <- unique(as.character(ytrain[!is.na(ytrain)]))
  all <- unique(as.character(y[!is.na(y)]))
  if (length(seen) != 1L || length(all) < 2L) return(msg)
  rep <- if (grepl("[0-9]x2$", sp$design[f])) paste0(" (replication ", (sp$fold[f] + 1L) %/% 2L,
                                                     " of the design)") else ""
  paste0("the training part of this fold", rep, " holds only one class of the target (",
         show_name(seen), ", ", length(ytrain), " records; ",
         paste(vapply(setdiff(all, seen), show_name, ""), collapse = ", "),
         " only in the validation part), and the learner cannot be fitted on one class; ",
         "use stratify = TRUE (every block keeps the class proportions) or data with more ",
         "records of the rare class (R's message: ", msg, ")")
}

## Fold tables (n00, n01, n10, n11 per fold; 0 = incorrect, 1 = correct,
## first index A, second B) from the correctness of A and B on each test row.
fold_tables_from_correct <- function(ok_a, ok_b, nte) {
  fold <- rep.int(seq_along(nte), nte)
  cell <- 4L * (fold - 1L) + 2L * ok_a + ok_b + 1L
  matrix(as.double(tabulate(cell, 4L * length(nte))), ncol = 4L, byrow = TRUE,
         dimnames = list(NULL, c("n00", "n01", "n10", "n11")))
}

#' The learners compare_learners() runs by name
#'
#' Lists the learners of Python's registry (`pybcv.learners.LEARNERS`); each
#' runs in R through the package's `inst/batch.R`, the same R
#' code that the Python side runs through rpy2.
#'
#' @return A character vector of learner names.  A name takes parameters as
#'   `"name:param=value,param=value"`, e.g. `"kknn:k=7,kernel=rectangular"`
#'   or `"J48:options=-M 5"`.
#' @export
#' @examples
#' if (pybcv_available()) pybcv_learners()
pybcv_learners <- function() as.character(unlist(py_call("learner_names")))

#' The paper's experiments as Python records them
#'
#' One record per experiment from Python's `pybcv.experiments.EXPERIMENTS`
#' (data set, default n, learners A and B with their defaults, the varied
#' parameter and its H0 value, the lambda grid), so that R, Python and the
#' command line read the same defaults.  Learner specs from a record can be
#' passed to [compare_learners()].
#'
#' @return A named list of records (lists), one per data set.
#' @export
#' @examples
#' if (pybcv_available()) try(names(pybcv_experiments()))
pybcv_experiments <- function() py_call("experiments")
