## weka_jvm.R (R/inst of the repository) -- the Weka learners' whole design inside the JVM.
##
## Sourced by batch.R (into its own environment, `here` set to this folder).
## The data set goes to Java once, as a pybcv.WekaBatch object (java/src/),
## kept in the data set's cache so that it lives and dies with the data set
## in batch.R's FIFO.  A design is then ONE Java call: every fold is trained
## and predicted inside the JVM, and only the predicted class codes come back.
##
## The Instances each fold sees are those of RWeka's own interface,
## fun(y ~ ., data = train) with train$y <- droplevels(train$y), and the
## options are RWeka's (the learner's control handlers applied), so the
## predictions equal those of the standard path of batch.R (tested in
## tests/test_weka_jvm.py).  "J48-unpruned" is J48 with -U.
##
## The compiled classes are java/pybcv-weka.jar next to this file (R/inst/java
## in the repository, built from java/src by scripts/build_java.sh; java/ of
## the installed R package; r_bridge/R/java in a wheel).  When it is missing
## (said once per session, with how to build it), or when PYBCV_WEKA_JVM=0 or
## params$jvm or params$fast is FALSE (fast = FALSE asks for RWeka's own
## interface), jvm_usable() is FALSE and batch.R keeps its own path.
## jvm_state$runs counts the designs each learner ran inside the JVM (how a
## caller tells that the fast path ran: r_bridge.weka_jvm_runs() in Python).

jvm_learners <- c("J48", "J48-unpruned", "JRip", "SMO", "Logistic")
jvm_state <- new.env(parent = emptyenv())
jvm_state$runs <- integer()

## TRUE when the JVM path can run this learner with these parameters.
jvm_usable <- function(learner, params) {
  if (!(learner %in% jvm_learners) || isFALSE(params$jvm) || isFALSE(params$fast) ||
      identical(Sys.getenv("PYBCV_WEKA_JVM"), "0")) return(FALSE)
  if (is.null(jvm_state$ok)) {
    jar <- file.path(here, "java", "pybcv-weka.jar")
    if (!file.exists(jar)) {
      message("pybcv: the Weka helper ", jar, " is missing, so the Weka learners run through ",
              "RWeka's own interface (3-5x slower per fit); build it in the pybcv repository ",
              "with `bash scripts/build_java.sh` (needs a JDK) and reinstall")
      jvm_state$ok <- FALSE
    } else {
      jvm_state$ok <- tryCatch({
        suppressPackageStartupMessages(loadNamespace("RWeka"))   # starts the JVM with weka.jar
        rJava::.jaddClassPath(normalizePath(jar))
        !is.null(rJava::.jfindClass("pybcv/WekaBatch"))
      }, error = function(e) FALSE)
    }
  }
  isTRUE(jvm_state$ok)
}

## RWeka's name of a learner: J48-unpruned is J48 (with -U).
jvm_fname <- function(learner) if (learner == "J48-unpruned") "J48" else learner

## Weka options as RWeka passes them: the learner's control handlers applied
## to the given options; J48-unpruned adds -U.
jvm_options <- function(learner, params) {
  opts <- as.character(params$options)
  if (learner == "J48-unpruned" && !("-U" %in% opts)) opts <- c("-U", opts)
  if (!length(opts)) return(character())
  handlers <- environment(getExportedValue("RWeka", jvm_fname(learner)))$handlers
  as.character(RWeka:::.compose_and_funcall(handlers$control, opts))
}

## The data set as a pybcv.WekaBatch (built once per data set).
jvm_dataset <- function(ds) {
  if (is.null(ds$cache$weka_jvm)) {
    df <- ds$df
    cols <- df[seq_len(ds$p)]      # column by column; a factor as its 0-based codes
    x <- as.double(unlist(lapply(cols, function(col) if (is.factor(col)) as.double(col) - 1
                                                     else as.double(col))))
    x[is.na(x)] <- NaN
    assign("weka_jvm", envir = ds$cache,
           rJava::.jnew("pybcv/WekaBatch", rJava::.jarray(x), nrow(df),
                        rJava::.jarray(unname(vapply(cols, nlevels, 1L))),
                        rJava::.jarray(as.character(unlist(lapply(cols, levels)))),
                        rJava::.jarray(as.integer(df$y) - 1L), rJava::.jarray(levels(df$y))))
  }
  ds$cache$weka_jvm
}

## run_batch()'s contract (see batch.R): idx 1-based, fold by fold train then
## test; returns list(ok, fold, message, codes) with 1-based codes into
## levels(ds$df$y).
##
## The design runs in a Java worker thread (java/src/pybcv/WekaJob.java)
## while R waits in short Java calls (await) with its own interrupt checks
## between them, so that:
## - Ctrl-C in R (the R package, reticulate; or r_bridge, which sets R's
##   interrupt flag) interrupts R between two awaits, and on.exit() cancels
##   the job, whose fit in progress is abandoned;
## - the stop file (option pybcv.stop_file, created by Ctrl-C in Python) and
##   the time limit per fit (option pybcv.timeout, as batch.R's folds) are
##   checked by Java every 50 ms, during a fit too.
jvm_run_batch <- function(learner, ds, idx, ntr, nte, params) {
  tryCatch({
    obj <- jvm_dataset(ds)
    opts <- jvm_options(learner, params)
    cls <- gsub("/", ".", RWeka:::get_Java_class(jvm_fname(learner)), fixed = TRUE)
    job <- rJava::.jcall(obj, "Lpybcv/WekaJob;", "start", cls,
                         rJava::.jarray(opts), rJava::.jarray(as.integer(idx) - 1L),
                         rJava::.jarray(as.integer(ntr)), rJava::.jarray(as.integer(nte)),
                         as.character(getOption("pybcv.stop_file", "")),
                         as.double(getOption("pybcv.timeout", 0)))
    settled <- FALSE
    on.exit(if (!settled) rJava::.jcall(job, "V", "cancel"), add = TRUE)   # R interrupted
    while ((state <- rJava::.jcall(job, "I", "await", 200L)) == 0L)
      Sys.sleep(0)                                   # R's interrupt check
    settled <- TRUE
    codes <- if (state == 1L) rJava::.jcall(job, "[I", "codes") else NULL
    if (is.null(codes)) {
      list(ok = FALSE, fold = rJava::.jcall(job, "I", "errorFold"),
           message = rJava::.jcall(job, "S", "errorMessage"), codes = integer())
    } else if (any(codes < 0L)) {
      f <- findInterval(which(codes < 0L)[1L] - 1L, cumsum(c(0L, nte)))
      list(ok = FALSE, fold = as.integer(f), message = "the learner returned missing predictions",
           codes = integer())
    } else {
      jvm_state$runs[learner] <- sum(jvm_state$runs[learner], 1L, na.rm = TRUE)
      list(ok = TRUE, fold = 0L, message = "", codes = codes + 1L)
    }
  }, error = function(e) list(ok = FALSE, fold = 1L, message = conditionMessage(e), codes = integer()))
}
