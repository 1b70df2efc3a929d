"""Python side of R/tools/bench_compare.sh: pybcv.compare, J48 vs kknn."""
import sys
import time

import pandas as pd

from pybcv.comparison import compare

iris = pd.read_csv(sys.argv[1])
reps = int(sys.argv[2])
rows = [0, 1, 2, 3, 4, 5, 6, 50, 51, 52, 53, 54, 55, 100, 101, 102, 103, 104, 105, 106]
jobs = [("iris table5", iris, "table5"), ("iris all", iris, "all"),
        ("n20 all", iris.iloc[rows].reset_index(drop=True), "all")]
compare(iris.drop(columns="Species"), iris["Species"].astype(str), "J48", "kknn",
        tests="table5", seed=0, backend="r")          # warm-up: R and the JVM start
for name, d, tests in jobs:
    X, y = d.drop(columns="Species"), d["Species"].astype(str)
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        c = compare(X, y, "J48", "kknn", tests=tests, seed=0, backend="r")
        ts.append(time.perf_counter() - t)
    ts.sort()
    p = ",".join("%.6g" % c.results[k].pvalue for k in c.results)
    print(f"python | {name} | best {ts[0]:.3f} s | median {ts[len(ts) // 2]:.3f} s | p {p}")
