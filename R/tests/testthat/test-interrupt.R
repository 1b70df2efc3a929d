## Ctrl-C in R reaches a Weka design inside the JVM (issue 22): R waits for
## the design (R/inst/weka_jvm.R, java/src/pybcv/WekaJob.java) in short Java
## calls with its own interrupt checks between them, and on.exit() cancels
## the design, whose fit in progress is abandoned.  Before, R sat in one Java
## call until every fold of the design was done.

## The design's worker threads of this R process, as Linux names them.
design_threads <- function() {
  comm <- Sys.glob(sprintf("/proc/%d/task/*/comm", Sys.getpid()))
  sum(vapply(comm, function(f) isTRUE(tryCatch(startsWith(readLines(f, warn = FALSE), "pybcv-weka-desi"),
                                               error = function(e) FALSE)), TRUE))
}

test_that("Ctrl-C in R stops a Weka design inside the JVM during its fit", {
  need_python()
  need_r_packages("RWeka")
  skip_if_not(dir.exists("/proc/self/task"), "needs Linux's /proc to find the JVM's threads")
  set.seed(1)
  n <- 60000L
  d <- as.data.frame(matrix(rnorm(n * 10L), n))
  d$y <- factor(ifelse(d$V1 + d$V2 * d$V3 + rnorm(n) > 0, "a", "b"))
  compare_learners("J48", "majority", d[1:200, ], "y")      # R, RWeka and the JVM started
  while (design_threads() > 0L) Sys.sleep(0.01)              # the warm-up's thread ended
  ## from outside, as a terminal would: SIGINT once the long design runs in Java
  system(sprintf(paste("(for i in $(seq 1200); do grep -qs pybcv-weka-desi /proc/%d/task/*/comm",
                       "&& break; sleep 0.05; done; kill -INT %d) >/dev/null 2>&1"),
                 Sys.getpid(), Sys.getpid()), wait = FALSE)
  got <- tryCatch(compare_learners("J48", "majority", d, "y"),
                  interrupt = function(i) "interrupted")
  expect_identical(got, "interrupted")
  stop_at <- rJava::.jcall("pybcv/WekaBatch", "S", "lastStop")
  expect_match(stop_at, "^0/10 during the fit of fold 1$")
  ## R and the JVM stay usable
  expect_s3_class(compare_learners("J48", "majority", d[1:200, ], "y"), "pybcv_comparison")
})
