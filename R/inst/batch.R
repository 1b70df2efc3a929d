## batch.R (R/inst of the repository) -- the R side of pybcv's R bridge.
##
## Sourced once per R session into a private environment.  Python sends each
## data set once (register_dataset); afterwards every design is ONE call of
## run_batch(), whose loop over the (train, test) splits runs here in R.  All
## values arrive as R values (vectors, lists), never as R source text.
##
## A learner is a function fitter(ds, tr, params) returning
##   list(levels = <class levels of the training fold>,
##        predict = function(ds2, te) <integer codes into levels>)
## where ds is a data set environment (df: data.frame with predictors x1..xp
## and the class factor y; X / MM: numeric matrix / model matrix, built lazily)
## and tr, te are 1-based row indices.  The class of a training fold is
## droplevels()-ed, so fitting inside a batch equals fitting on that training
## subset alone.

datasets <- new.env(parent = emptyenv())
dataset_order <- character()
max_datasets <- 8L

## ------------------------------------------------------------------ data sets
make_dataset <- function(cols, is_factor, levels_list, y, ylevels) {
  n <- if (length(cols)) length(cols[[1L]]) else length(y)
  for (j in which(is_factor))
    cols[[j]] <- structure(cols[[j]], levels = levels_list[[j]], class = "factor")
  names(cols) <- paste0("x", seq_along(cols))
  if (!is.null(y)) cols[["y"]] <- structure(y, levels = ylevels, class = "factor")
  list2env(list(df = structure(cols, class = "data.frame", row.names = c(NA_integer_, -n)),
                p = length(is_factor), numeric = !any(is_factor),
                cache = new.env(parent = emptyenv())),
           parent = emptyenv())
}

register_dataset <- function(key, cols, is_factor, levels_list, y, ylevels) {
  assign(key, make_dataset(cols, is_factor, levels_list, y, ylevels), envir = datasets)
  dataset_order <<- c(setdiff(dataset_order, key), key)
  while (length(dataset_order) > max_datasets) {
    rm(list = dataset_order[1L], envir = datasets)
    dataset_order <<- dataset_order[-1L]
  }
  invisible(TRUE)
}

has_dataset <- function(key) exists(key, envir = datasets, inherits = FALSE)

clear_datasets <- function() {
  rm(list = ls(datasets, all.names = TRUE), envir = datasets)
  dataset_order <<- character()
  invisible(TRUE)
}

## numeric predictor matrix (learners that need numbers only)
ds_matrix <- function(ds, who) {
  if (is.null(ds$X)) {
    if (!ds$numeric) stop(who, " needs numeric predictors; the data have factor columns")
    ds$X <- if (ds$p) do.call(cbind, unclass(ds$df)[seq_len(ds$p)]) else matrix(0, nrow(ds$df), 0)
  }
  ds$X
}

## model matrix (intercept, treatment contrasts) over the whole data set
ds_modelmatrix <- function(ds) {
  if (is.null(ds$MM)) {
    pred <- ds$df[seq_len(ds$p)]
    ds$MM <- if (ds$p) stats::model.matrix(~ ., data = pred) else matrix(1, nrow(ds$df), 1L)
  }
  ds$MM
}

train_class <- function(ds, tr) droplevels(ds$df$y[tr])

## row-wise index of the first minimum, exact comparisons (ties -> lowest column)
first_min <- function(D) {
  best <- rep.int(1L, nrow(D))
  if (ncol(D) > 1L) {
    bd <- D[, 1L]
    for (j in 2:ncol(D)) {
      b <- D[, j] < bd
      best[b] <- j
      bd[b] <- D[b, j]
    }
  }
  best
}

## ------------------------------------------------------------------ learners
## Weka learners.  Standard path: RWeka's own interface, fun(y ~ ., data =
## train) and predict(m, newdata = test), as in a plain R script.  Fast path
## (the same Weka model, less R overhead): the whole data set becomes one
## weka.core.Instances object once per data set (RWeka's converter, class
## first as in RWeka's model frame); each fold's training and test rows are
## selected in Java (RemoveRange -V); the classifier is built with the same
## options (after RWeka's option handlers) and classified with RWeka's helper.
## The fast path is used when the training indices are increasing and the
## training set has every class of the data set, so that the Instances Weka
## sees (rows, their order, attributes and class values) are exactly those of
## the standard path; otherwise the standard path runs.
weka_ranges <- function(i) {
  br <- c(0L, which(diff(i) != 1L), length(i))
  paste(paste0(i[br[-length(br)] + 1L], "-", i[br[-1L]]), collapse = ",")
}

weka_instances <- function(ds) {
  if (is.null(ds$cache$weka))
    assign("weka", RWeka:::read_data_into_Weka(cbind(ds$df["y"], ds$df[seq_len(ds$p)]), 1L),
           envir = ds$cache)
  ds$cache$weka
}

## RWeka's .predictions_for_instances() without its per-call reflection
## (.has_method lists every Java method of the classifier, which costs more
## than the prediction): all four learners implement classifyInstance.
weka_classify <- function(cls, inst) {
  p <- rJava::.jcall("RWekaInterfaces", "[D", "classifyInstances",
                     rJava::.jcast(cls, "weka/classifiers/Classifier"), inst)
  p[is.nan(p)] <- NA
  as.integer(p) + 1L
}

weka_rows <- function(inst, idx) {
  f <- rJava::.jnew("weka/filters/unsupervised/instance/RemoveRange")
  rJava::.jcall(f, "V", "setOptions", rJava::.jarray(c("-R", weka_ranges(idx), "-V")))
  rJava::.jcall(f, "Z", "setInputFormat", inst)
  rJava::.jcall("weka/filters/Filter", "Lweka/core/Instances;", "useFilter", inst,
                rJava::.jcast(f, "weka/filters/Filter"))
}

## fixed: Weka options the learner always passes before the user's options
## (J48-unpruned is J48 with -U, as Python's J48(unpruned=True) sends it).
fit_weka <- function(fname, fixed = character()) {
  force(fname)
  force(fixed)
  function(ds, tr, params) {
    fun <- getExportedValue("RWeka", fname)
    opts <- c(fixed, as.character(unlist(params[["options"]], use.names = FALSE)))
    lev_all <- levels(ds$df$y)
    if (!isFALSE(params[["fast"]]) && !is.unsorted(tr, strictly = TRUE) &&
        length(unique(ds$df$y[tr])) == length(lev_all)) {      # the fast path
      handlers <- environment(fun)$handlers
      ctrl <- if (length(opts)) as.character(RWeka:::.compose_and_funcall(handlers$control, as.character(opts)))
              else character()
      inst <- weka_instances(ds)
      cls <- RWeka:::Weka_object_for_name(RWeka:::get_Java_class(fname), NULL)
      if (length(ctrl)) rJava::.jcall(cls, "V", "setOptions", rJava::.jarray(ctrl))
      rJava::.jcall(cls, "V", "buildClassifier", weka_rows(inst, tr))
      return(list(levels = lev_all, predict = function(ds2, te) {
        if (identical(ds2, ds)) {       # the rows in increasing order, the codes back in te's
          o <- order(te)
          return(weka_classify(cls, weka_rows(inst, te[o]))[order(o)])
        }
        mf <- cbind(CLASS = factor(rep(NA, length(te)), levels = lev_all),
                    ds2$df[te, seq_len(ds2$p), drop = FALSE])
        weka_classify(cls, RWeka:::read_data_into_Weka(mf, 1L))
      }))
    }
    train <- ds$df[tr, , drop = FALSE]
    train$y <- droplevels(train$y)
    m <- if (length(opts)) fun(y ~ ., data = train, control = as.character(opts))
         else fun(y ~ ., data = train)
    lev <- levels(train$y)
    list(levels = lev, predict = function(ds2, te) {
      p <- stats::predict(m, newdata = ds2$df[te, , drop = FALSE], type = "class")
      match(as.character(p), lev)
    })
  }
}

## kknn's default contrasts are the names "contr.dummy" and "contr.ordinal",
## which model.matrix() looks up on the search path (found only after
## library(kknn)); the functions themselves (contrasts = ) give the same
## model matrices without attaching kknn.
fit_kknn <- function(ds, tr, params) {
  train <- ds$df[tr, , drop = FALSE]
  train$y <- droplevels(train$y)
  lev <- levels(train$y)
  if (length(lev) < 2L) return(fit_majority(ds, tr, params))   # one class: kknn cannot fit
  k <- as.integer(params[["k"]])
  kernel <- as.character(params[["kernel"]])
  list(levels = lev, predict = function(ds2, te) {
    f <- kknn::kknn(y ~ ., train, ds2$df[te, , drop = FALSE], k = k, kernel = kernel,
                    contrasts = list(unordered = kknn::contr.dummy, ordered = kknn::contr.ordinal))
    match(as.character(stats::fitted(f)), lev)
  })
}

fit_tree <- function(ds, tr, params) {
  train <- ds$df[tr, , drop = FALSE]
  train$y <- droplevels(train$y)
  m <- tree::tree(y ~ ., data = train)
  list(levels = levels(train$y), predict = function(ds2, te) {
    # predict(type = "class") breaks ties between classes at random (with R's
    # RNG); the class probabilities and a first-maximum rule are deterministic.
    pr <- stats::predict(m, newdata = ds2$df[te, , drop = FALSE], type = "vector")
    first_min(-matrix(pr, nrow = length(te)))
  })
}

## logistic regression: the same IRLS as stats::glm (glm.fit with binomial()),
## called on the rows of a model matrix built once per data set.
fit_glm <- function(ds, tr, params) {
  y <- train_class(ds, tr)
  lev <- levels(y)
  if (length(lev) > 2L)
    stop("glm is a 2-class learner, but the training set has ", length(lev),
         " classes (", paste(lev, collapse = ", "), ")")
  if (length(lev) < 2L) return(fit_majority(ds, tr, params))     # one class: predict it
  fam <- stats::binomial()
  b <- stats::glm.fit(ds_modelmatrix(ds)[tr, , drop = FALSE], as.integer(y) - 1L,
                      family = fam)$coefficients
  b[is.na(b)] <- 0
  thr <- as.numeric(params[["threshold"]])
  list(levels = lev, predict = function(ds2, te) {
    eta <- drop(ds_modelmatrix(ds2)[te, , drop = FALSE] %*% b)
    ifelse(fam$linkinv(eta) > thr, 2L, 1L)
  })
}

fit_majority <- function(ds, tr, params) {
  y <- train_class(ds, tr)
  lev <- levels(y)
  top <- which.max(tabulate(as.integer(y), length(lev)))   # first max: smallest label
  list(levels = lev, predict = function(ds2, te) rep.int(top, length(te)))
}

## nearest class mean (Euclidean).  Means are colSums / count (as the Python
## twin computes them) and squared distances are summed column by column.
fit_mean <- function(ds, tr, params) {
  X <- ds_matrix(ds, "mean")
  y <- train_class(ds, tr)
  lev <- levels(y)
  yi <- as.integer(y)
  M <- matrix(0, length(lev), ncol(X))
  for (c in seq_along(lev)) M[c, ] <- colSums(X[tr[yi == c], , drop = FALSE]) / sum(yi == c)
  list(levels = lev, predict = function(ds2, te) {
    Xte <- ds_matrix(ds2, "mean")[te, , drop = FALSE]
    D <- matrix(0, nrow(Xte), length(lev))
    for (j in seq_len(ncol(Xte))) D <- D + outer(Xte[, j], M[, j], "-")^2
    first_min(D)
  })
}

## weighted squared distances between rows of A (test) and B (train):
## sum over groups g of w[g] * sum_{l in groups[[g]]} (a_l - b_l)^2
fnn_dist <- function(A, B, groups, w) {
  D <- matrix(0, nrow(A), nrow(B))
  for (g in seq_along(groups)) {
    s <- matrix(0, nrow(A), nrow(B))
    for (l in groups[[g]]) s <- s + outer(A[, l], B[, l], "-")^2
    D <- D + w[g] * s
  }
  D
}

fnn_groups <- function(learner, params, p) {
  if (learner == "fnn-weighted") {
    omega <- as.numeric(params[["omega"]])
    if (p != 2L) stop("fnn-weighted needs exactly 2 predictors, got ", p)
    list(groups = list(1L, 2L), w = c(omega, 1 / omega), key = list("w", omega))
  } else {
    u <- as.numeric(params[["upsilon"]])
    if (p != 16L) stop("fnn-distorted needs the 16 letter predictors, got ", p)
    list(groups = list(c(1L, 3L, 9L, 16L), c(2L, 4L, 6L, 7L, 8L, 10L, 12L, 14L, 15L),
                       c(5L, 11L, 13L)),
         w = c(u, 1, 1 / u), key = list("d", u))
  }
}

## 1-NN; ties go to the first training row (lowest position in tr).
fit_fnn <- function(learner) {
  force(learner)
  function(ds, tr, params) {
    X <- ds_matrix(ds, learner)
    g <- fnn_groups(learner, params, ncol(X))
    y <- train_class(ds, tr)
    yi <- as.integer(y)
    list(levels = levels(y), predict = function(ds2, te) {
      D <- if (identical(ds2, ds) && nrow(X) <= 2000L) {
        # whole-data distance matrix, computed once per data set and parameter
        # (only the latest parameter's matrix is kept)
        if (!identical(ds$cache$fnn_key, g$key)) {
          assign("fnn_D", fnn_dist(X, X, g$groups, g$w), envir = ds$cache)
          assign("fnn_key", g$key, envir = ds$cache)
        }
        ds$cache$fnn_D[te, tr, drop = FALSE]
      } else {
        fnn_dist(ds_matrix(ds2, learner)[te, , drop = FALSE], X[tr, , drop = FALSE], g$groups, g$w)
      }
      yi[first_min(D)]
    })
  }
}

fitters <- list(
  "J48" = fit_weka("J48"), "J48-unpruned" = fit_weka("J48", "-U"),
  "JRip" = fit_weka("JRip"), "SMO" = fit_weka("SMO"), "Logistic" = fit_weka("Logistic"),
  "kknn" = fit_kknn, "tree" = fit_tree, "glm" = fit_glm,
  "majority" = fit_majority, "mean" = fit_mean,
  "fnn-weighted" = fit_fnn("fnn-weighted"), "fnn-distorted" = fit_fnn("fnn-distorted")
)

## ------------------------------------------------------------------ entry points
## The Weka learners' JVM path (weka_jvm.R, next to this file; found
## through the sys.source()/source() call that reads this file): NULL when absent.
weka_jvm <- local({
  f <- NULL
  for (fr in rev(sys.frames())) {
    g <- get0("file", envir = fr, inherits = FALSE)
    if (is.character(g) && length(g) == 1L && grepl("batch\\.R$", g)) { f <- g; break }
  }
  path <- if (is.null(f)) "" else file.path(dirname(normalizePath(f)), "weka_jvm.R")
  if (nzchar(path) && file.exists(path)) {
    e <- new.env()
    e$here <- dirname(path)
    sys.source(path, envir = e, keep.source = FALSE)
    e
  }
})

## A fit without R's messages; its warnings are muffled too, or, with `fold`,
## kept in `warned` (message, fold) for run_batch() to give back.
warned <- new.env(parent = emptyenv())
quiet <- function(expr, fold = NULL) withCallingHandlers(expr,
  warning = function(w) {
    if (!is.null(fold)) {
      warned$msg <- c(warned$msg, conditionMessage(w))
      warned$fold <- c(warned$fold, as.integer(fold))
    }
    invokeRestart("muffleWarning")
  },
  message = function(m) invokeRestart("muffleMessage"))

err_text <- function(e) {
  msg <- conditionMessage(e)
  if (is.null(msg) || !nzchar(msg)) msg <- paste(class(e), collapse = "/")
  msg
}

## idx: all indices (1-based) of the design, fold by fold: train then test;
## ntr, nte: their lengths.  Returns list(ok, fold, message, codes) where codes
## are the predicted classes as 1-based codes into levels(ds$df$y), all folds
## concatenated, and the fits' warnings: warnings (messages), warning_folds
## (the fold of each).  On error: ok = FALSE and the failing fold.
run_batch <- function(learner, key, idx, ntr, nte, params) {
  warned$msg <- character()
  warned$fold <- integer()
  if (!has_dataset(key)) return(list(ok = FALSE, fold = 0L, message = "missing dataset", codes = integer()))
  fitter <- fitters[[learner]]
  if (is.null(fitter)) return(list(ok = FALSE, fold = 0L, message = paste("unknown learner", learner), codes = integer()))
  ds <- get(key, envir = datasets, inherits = FALSE)
  if (!is.null(weka_jvm) && weka_jvm$jvm_usable(learner, params))     # weka_jvm.R
    return(weka_jvm$jvm_run_batch(learner, ds, idx, ntr, nte, params))
  ylev <- levels(ds$df$y)
  nf <- length(ntr)
  out <- vector("list", nf)
  off <- 0L
  ## a time limit per fit (seconds): option pybcv.timeout, set by pybcv
  limit <- getOption("pybcv.timeout")
  if (!is.null(limit)) on.exit(setTimeLimit(elapsed = Inf), add = TRUE)
  stop_file <- as.character(getOption("pybcv.stop_file", ""))   # see weka_jvm.R
  for (f in seq_len(nf)) {
    if (nzchar(stop_file) && file.exists(stop_file))
      return(list(ok = FALSE, fold = f, message = "stopped: the stop file appeared (Ctrl-C)",
                  codes = integer()))
    tr <- idx[off + seq_len(ntr[f])]
    off <- off + ntr[f]
    te <- idx[off + seq_len(nte[f])]
    off <- off + nte[f]
    res <- tryCatch(quiet({
      if (!is.null(limit)) setTimeLimit(elapsed = limit)
      m <- fitter(ds, tr, params)
      codes <- m$predict(ds, te)
      if (length(codes) != length(te) || anyNA(codes)) stop("the learner returned missing predictions")
      match(m$levels, ylev)[codes]
    }, fold = f), error = function(e) e)
    if (!is.null(limit)) setTimeLimit(elapsed = Inf)
    if (inherits(res, "error")) {
      msg <- err_text(res)
      if (!is.null(limit) && grepl("elapsed time limit", msg))
        msg <- paste0("the fit took longer than the time limit of ", format(limit), " s (timeout)")
      return(list(ok = FALSE, fold = f, message = msg, codes = integer()))
    }
    out[[f]] <- res
  }
  list(ok = TRUE, fold = 0L, message = "", codes = as.integer(unlist(out, use.names = FALSE)),
       warnings = warned$msg, warning_folds = warned$fold)
}

## One fit on a whole (training) data set, for the estimator's fit(); the
## returned model is kept on the Python side and passed to predict_model.
fit_model <- function(learner, cols, is_factor, levels_list, y, ylevels, params) {
  res <- tryCatch(quiet({
    ds <- make_dataset(cols, is_factor, levels_list, y, ylevels)
    m <- fitters[[learner]](ds, seq_len(nrow(ds$df)), params)
    m$ylevels <- ylevels
    m
  }), error = function(e) e)
  if (inherits(res, "error")) return(list(ok = FALSE, message = err_text(res), model = NULL))
  list(ok = TRUE, message = "", model = res)
}

predict_model <- function(model, cols, is_factor, levels_list) {
  res <- tryCatch(quiet({
    ds2 <- make_dataset(cols, is_factor, levels_list, NULL, NULL)
    codes <- model$predict(ds2, seq_len(nrow(ds2$df)))
    if (anyNA(codes)) stop("the learner returned missing predictions")
    as.integer(match(model$levels, model$ylevels)[codes])
  }), error = function(e) e)
  if (inherits(res, "error")) return(list(ok = FALSE, message = err_text(res), codes = integer()))
  list(ok = TRUE, message = "", codes = res)
}
