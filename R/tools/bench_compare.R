## R side of R/tools/bench_compare.sh: pybcv::compare_learners, J48 vs kknn.
args <- commandArgs(TRUE)
suppressPackageStartupMessages(library(pybcv))
iris_csv <- read.csv(args[1])
reps <- as.integer(args[2])
rows <- c(0:6, 50:55, 100:106) + 1L
jobs <- list(list("iris table5", iris_csv, "table5"), list("iris all", iris_csv, "all"),
             list("n20 all", iris_csv[rows, ], "all"))
invisible(compare_learners("J48", "kknn", iris_csv, "Species", tests = "table5"))   # warm-up
for (j in jobs) {
  ts <- numeric(reps)
  for (i in seq_len(reps)) {
    t <- proc.time()[["elapsed"]]
    r <- compare_learners("J48", "kknn", j[[2]], "Species", tests = j[[3]], seed = 0)
    ts[i] <- proc.time()[["elapsed"]] - t
  }
  ts <- sort(ts)
  p <- paste(sprintf("%.6g", r$results$p.value), collapse = ",")
  cat(sprintf("R      | %s | best %.3f s | median %.3f s | p %s\n", j[[1]], ts[1],
              ts[(reps %/% 2) + 1L], p))
}
