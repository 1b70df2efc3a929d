## compare_learners(): two learners on one data set, every requested test.
##
## The partitions of each design come from Python (pybcv.partitions.DESIGNS),
## the fits and predictions run here in R, the 2x2 tables are counted in R,
## and the statistics come from Python (TESTS[key].from_tables).

LEARNERS <- c("J48", "J48-unpruned", "JRip", "SMO", "Logistic", "kknn", "tree", "majority")

learner_packages <- function(name) {
  switch(name, "J48" = , "J48-unpruned" = , "JRip" = , "SMO" = , "Logistic" = "RWeka",
         "kknn" = "kknn", "tree" = "tree", character())
}

## "name" or "name:param=value,param=value" (the engine's learner spec syntax).
parse_learner_spec <- function(spec) {
  parts <- regmatches(spec, regexpr(":", spec), invert = TRUE)[[1]]
  name <- trimws(parts[1])
  params <- list()
  if (length(parts) > 1L && nzchar(trimws(parts[2]))) {
    for (kv in trimws(strsplit(parts[2], ",", fixed = TRUE)[[1]])) {
      if (!nzchar(kv)) next
      eq <- regexpr("=", kv, fixed = TRUE)
      if (eq < 0) stop("learner parameter \"", kv, "\": write name:param=value", call. = FALSE)
      params[[trimws(substr(kv, 1L, eq - 1L))]] <- trimws(substring(kv, eq + 1L))
    }
  }
  list(name = name, params = params)
}

check_params <- function(name, params, allowed) {
  bad <- setdiff(names(params), allowed)
  if (length(bad))
    stop("learner \"", name, "\" takes ",
         if (length(allowed)) paste0("the parameter(s) ", paste(allowed, collapse = ", ")) else "no parameters",
         "; got ", paste(bad, collapse = ", "), call. = FALSE)
}

## A named learner as function(train, test, formula) -> predicted labels.
named_learner <- function(spec) {
  ps <- parse_learner_spec(spec)
  name <- ps$name
  params <- ps$params
  if (!name %in% LEARNERS)
    stop("unknown learner \"", name, "\"; known: ", paste(LEARNERS, collapse = ", "),
         ", or pass an R function(train, test) returning predicted labels", call. = FALSE)
  for (p in learner_packages(name))
    if (!requireNamespace(p, quietly = TRUE))
      stop("learner \"", name, "\" needs the R package ", p, ", which is not installed ",
           "(bash scripts/setup.sh installs it)", call. = FALSE)
  weka <- function(fname, control = character()) {
    check_params(name, params, "options")
    if (!is.null(params$options)) control <- c(control, strsplit(params$options, "[[:space:]]+")[[1]])
    control <- control[nzchar(control)]
    function(train, test, fo) {
      fun <- getExportedValue("RWeka", fname)
      m <- if (!length(control)) fun(fo, data = train) else fun(fo, data = train, control = control)
      stats::predict(m, newdata = test, type = "class")
    }
  }
  if (!name %in% c("J48", "J48-unpruned", "JRip", "SMO", "Logistic", "kknn")) check_params(name, params, character())
  switch(name,
    "J48" = weka("J48"),
    "J48-unpruned" = weka("J48", "-U"),
    "JRip" = weka("JRip"), "SMO" = weka("SMO"), "Logistic" = weka("Logistic"),
    "kknn" = {
      check_params(name, params, c("k", "kernel"))
      k <- if (is.null(params$k)) 5L else suppressWarnings(as.integer(params$k))
      if (is.na(k) || k < 1L) stop("learner kknn: k must be a positive integer", call. = FALSE)
      kernel <- if (is.null(params$kernel)) "triangular" else params$kernel
      function(train, test, fo) {
        fit <- kknn::kknn(fo, train, test, k = k, kernel = kernel)
        stats::fitted(fit)
      }
    },
    "tree" = function(train, test, fo) {
      m <- tree::tree(fo, data = train)
      # class probabilities and the first maximum (type = "class" breaks ties at random)
      pr <- stats::predict(m, newdata = test, type = "vector")
      pr <- matrix(pr, nrow = nrow(test), dimnames = list(NULL, levels(train[[all.vars(fo)[1]]])))
      colnames(pr)[max.col(pr, ties.method = "first")]
    },
    "majority" = function(train, test, fo) {
      y <- train[[all.vars(fo)[1]]]
      tab <- table(y)
      rep(names(tab)[which.max(tab)], nrow(test))
    })
}

as_learner <- function(x, label) {
  if (is.character(x) && length(x) == 1L && !is.na(x)) {
    f <- named_learner(x)
    return(list(name = x, fit_predict = function(train, test, target) {
      train[[target]] <- droplevels(as.factor(train[[target]]))
      fo <- stats::as.formula(paste0("`", target, "` ~ ."))
      f(train, test, fo)
    }))
  }
  if (is.function(x)) {
    return(list(name = label, fit_predict = function(train, test, target) x(train, test)))
  }
  stop("a learner must be a name (", paste(LEARNERS, collapse = ", "),
       ") or an R function(train, test) returning predicted labels", call. = FALSE)
}

fold_table <- function(pa, pb, truth) {
  la <- pa != truth
  lb <- pb != truth
  c(n00 = sum(la & lb), n01 = sum(la & !lb), n10 = sum(!la & lb), n11 = sum(!la & !lb))
}

predict_fold <- function(l, data, target, tr, te, design, f, nf) {
  train <- data[tr, , drop = FALSE]
  test <- data[te, setdiff(names(data), target), drop = FALSE]
  p <- tryCatch(suppressWarnings(l$fit_predict(train, test, target)), error = function(e)
    stop("learner ", l$name, " failed on fold ", f, " of ", nf, " (design ", design, "): ",
         conditionMessage(e), call. = FALSE))
  if (is.data.frame(p) || is.matrix(p) || length(p) != length(te))
    stop("learner ", l$name, " returned ", if (is.null(p)) 0L else NROW(p), " predictions for ",
         length(te), " validation records (fold ", f, " of design ", design, ")", call. = FALSE)
  p <- as.character(p)
  if (anyNA(p))
    stop("learner ", l$name, " returned missing predictions (fold ", f, " of design ", design, ")",
         call. = FALSE)
  p
}

compare_learners <- function(a, b, data, target, tests = "all", seed = 1, alpha = 0.05,
                             profile = c("default", "paper"), options = list(), verbose = FALSE) {
  la <- as_learner(a, dname(substitute(a)))
  lb <- as_learner(b, dname(substitute(b)))
  data_name <- dname(substitute(data))
  profile <- choice(profile, c("default", "paper"), "profile")
  if (!is.data.frame(data)) stop("data must be a data frame", call. = FALSE)
  if (!is.character(target) || length(target) != 1L || !target %in% names(data))
    stop("target must name one column of data; columns: ", paste(names(data), collapse = ", "),
         call. = FALSE)
  if (anyNA(data[[target]])) stop("the target column \"", target, "\" has missing values", call. = FALSE)
  if (!is.numeric(seed) || length(seed) != 1L || !is.finite(seed) || seed != round(seed) || seed < 0)
    stop("seed must be a single non-negative whole number", call. = FALSE)
  if (!is.numeric(alpha) || length(alpha) != 1L || !(alpha > 0 && alpha < 1))
    stop("alpha must be a number in (0, 1)", call. = FALSE)
  if (!is.list(options) || (length(options) && is.null(names(options))))
    stop("options must be a named list: test key -> list of options", call. = FALSE)
  if (!is.character(tests) || !length(tests)) stop("tests must be \"all\", \"table5\" or test keys", call. = FALSE)
  pybcv_helper()
  data <- as.data.frame(data)
  rownames(data) <- NULL
  n <- nrow(data)
  truth <- as.character(data[[target]])

  sel <- py_call("resolve", if (length(tests) == 1L) tests else as.list(tests), profile,
                 call = sys.call())
  keys <- as.character(unlist(sel$keys))
  bad <- setdiff(names(options), keys)
  if (length(bad)) stop("options given for test(s) not run: ", paste(bad, collapse = ", "), call. = FALSE)

  tables <- list()
  for (d in as.character(unlist(sel$designs))) {
    sp <- py_call("design_splits", d, py_int(n, "n"), py_int(seed, "seed"), call = sys.call())
    nf <- length(sp$train)
    if (verbose) message("design ", d, ": ", nf, " fits per learner")
    tab <- matrix(0, nf, 6L, dimnames = list(NULL, c("n00", "n01", "n10", "n11", "n_train", "n_test")))
    for (f in seq_len(nf)) {
      tr <- as.integer(sp$train[[f]])
      te <- as.integer(sp$test[[f]])
      pa <- predict_fold(la, data, target, tr, te, d, f, nf)
      pb <- predict_fold(lb, data, target, tr, te, d, f, nf)
      tab[f, ] <- c(fold_table(pa, pb, truth[te]), length(tr), length(te))
    }
    tables[[d]] <- tab
  }

  reg <- py_call("registry_table")
  design_of <- stats::setNames(vapply(reg, `[[`, "", "design"), vapply(reg, `[[`, "", "key"))
  htests <- list()
  for (k in keys) {
    spec_design <- design_of[[k]]
    tab <- tables[[spec_design]]
    opts <- utils::modifyList(as.list(sel$options[[k]]), as.list(options[[k]]))
    if (!is.null(opts$alternative)) opts$alternative <- alt_to_py(opts$alternative)
    v <- py_call("run_from_tables", k, np_float(tab[, 1:4, drop = FALSE], "tables"),
                 np_float(tab[, "n_train"], "n_train"), np_float(tab[, "n_test"], "n_test"),
                 if (length(opts)) do.call(reticulate::dict, opts) else reticulate::dict(),
                 call = sys.call())
    h <- make_htest(v, sprintf("%s vs %s on %s (%s, seed %s)", la$name, lb$name, data_name,
                               spec_design, format(seed, scientific = FALSE)), warn = FALSE)
    h$design <- spec_design
    htests[[k]] <- h
  }
  df1 <- function(h, i) if (length(h$parameter) >= i) unname(h$parameter[i]) else NA_real_
  results <- data.frame(
    test = keys,
    name = vapply(htests, function(h) h$method, ""),
    statistic = vapply(htests, function(h) unname(h$statistic), 1),
    df = vapply(htests, df1, 1, 1L),
    df2 = vapply(htests, df1, 1, 2L),
    p.value = vapply(htests, function(h) h$p.value, 1),
    reject = vapply(htests, function(h) h$p.value < alpha, TRUE),
    estimate = vapply(htests, function(h) if (is.null(h$estimate)) NA_real_ else unname(h$estimate), 1),
    design = vapply(htests, function(h) h$design, ""),
    warnings = vapply(htests, function(h) paste(h$warnings, collapse = "; "), ""),
    stringsAsFactors = FALSE, row.names = NULL)
  structure(list(results = results, htests = htests, tables = tables,
                 learners = c(a = la$name, b = lb$name), data.name = data_name, n = n,
                 target = target, seed = seed, alpha = alpha, profile = profile),
            class = "pybcv_comparison")
}

print.pybcv_comparison <- function(x, digits = 4L, ...) {
  cat("pybcv: ", x$learners[["a"]], " (A) vs ", x$learners[["b"]], " (B) on ", x$data.name,
      " (n = ", x$n, ", target ", x$target, "), seed ", format(x$seed, scientific = FALSE),
      ", profile ", x$profile, ", alpha = ", x$alpha, "\n", sep = "")
  r <- x$results[, c("test", "statistic", "df", "df2", "p.value", "reject", "estimate")]
  if (all(is.na(r$df2))) r$df2 <- NULL
  print(r, digits = digits, row.names = FALSE, ...)
  w <- x$results$warnings
  if (any(nzchar(w))) cat("warnings:", paste0("\n  ", x$results$test[nzchar(w)], ": ", w[nzchar(w)]), "\n")
  cat("(htest objects in $htests, fold tables in $tables)\n")
  invisible(x)
}
