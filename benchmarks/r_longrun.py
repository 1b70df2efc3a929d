"""Long-run driver for the R bridge: does J48 slow down in a long-lived process?

Each iteration does what one simulation repetition does: draws a new EXP6
data set (n = 300, 2 numeric predictors, 6 classes) and runs J48-unpruned
(backend "r") ``predict_splits`` over several partition designs (one R call
per design); with --sim one iteration is one repetition of the real EXP6
table5 simulation (J48-unpruned vs fnn-weighted, engine.repetition.run_repetition).

Every ``--every`` iterations it prints: wall s/iter and fits/s; JVM heap
used / committed / max (MB); cumulative JVM GC count and seconds; R's Ncells /
Vcells in use (MB, only with --probe-gc, since gc() would release the Java
objects and hide the problem); cumulative R GC seconds; data sets held in R;
CPU s/iter of this process (all threads: robust to other processes on the
machine); JVM loaded classes, JIT seconds, threads, code cache and metaspace
(MB); and probe_s / probecpu, wall and CPU s/iter of the SAME fixed three
iterations re-run at every report (a slowdown of the process, not of the data).

Run (stops after --seconds wall time or --max-iter iterations):
    .venv/bin/python benchmarks/r_longrun.py [--seconds 600] [--every 10]
        [--designs cv10x10,rcv5x2,bcv5x2,rho15_9of10,pseudo_bootstrap]
        [--sim] [--standard-path] [--r-ballast MB] [--probe-gc]
        [--digest]     # print a digest of all predictions (compare two versions)
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from pybcv.datasets import make_dataset  # noqa: E402
from pybcv.learners import make_learner  # noqa: E402
from pybcv.partitions import DESIGNS  # noqa: E402

PROBE = r"""
function(do_gc) {
  rt <- rJava::.jcall("java/lang/Runtime", "Ljava/lang/Runtime;", "getRuntime")
  tot <- rJava::.jcall(rt, "J", "totalMemory"); fre <- rJava::.jcall(rt, "J", "freeMemory")
  mx <- rJava::.jcall(rt, "J", "maxMemory")
  beans <- rJava::.jcall("java/lang/management/ManagementFactory", "Ljava/util/List;",
                         "getGarbageCollectorMXBeans")
  nb <- rJava::.jcall(beans, "I", "size"); cnt <- 0; tm <- 0
  for (i in seq_len(nb) - 1L) {
    b <- rJava::.jcast(rJava::.jcall(beans, "Ljava/lang/Object;", "get", i),
                       "java/lang/management/GarbageCollectorMXBean")
    cnt <- cnt + rJava::.jcall(b, "J", "getCollectionCount")
    tm <- tm + rJava::.jcall(b, "J", "getCollectionTime")
  }
  mf <- "java/lang/management/ManagementFactory"
  cl <- rJava::.jcall(rJava::.jcall(mf, "Ljava/lang/management/ClassLoadingMXBean;",
                                    "getClassLoadingMXBean"), "I", "getLoadedClassCount")
  jit <- rJava::.jcall(rJava::.jcall(mf, "Ljava/lang/management/CompilationMXBean;",
                                     "getCompilationMXBean"), "J", "getTotalCompilationTime")
  th <- rJava::.jcall(rJava::.jcall(mf, "Ljava/lang/management/ThreadMXBean;",
                                    "getThreadMXBean"), "I", "getThreadCount")
  pools <- rJava::.jcall(mf, "Ljava/util/List;", "getMemoryPoolMXBeans")
  code <- 0; meta <- 0
  for (i in seq_len(rJava::.jcall(pools, "I", "size")) - 1L) {
    b <- rJava::.jcast(rJava::.jcall(pools, "Ljava/lang/Object;", "get", i),
                       "java/lang/management/MemoryPoolMXBean")
    nm <- rJava::.jcall(b, "S", "getName")
    u <- rJava::.jcall(rJava::.jcall(b, "Ljava/lang/management/MemoryUsage;", "getUsage"), "J", "getUsed")
    if (grepl("Code", nm)) code <- code + u
    if (grepl("Metaspace", nm)) meta <- meta + u
  }
  g <- if (do_gc) gc(verbose = FALSE)[, 2] else c(NA, NA)   # gc() would hide the problem
  c(used = (tot - fre) / 2^20, total = tot / 2^20, max = mx / 2^20, gcs = cnt,
    gcsec = tm / 1000, ncells = g[1], vcells = g[2], rgcsec = gc.time()[1],
    classes = cl, jitsec = jit / 1000, threads = th, code = code / 2^20, meta = meta / 2^20)
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--max-iter", type=int, default=10**9)
    ap.add_argument("--designs", default="cv10x10,rcv5x2,bcv5x2,rho15_9of10,pseudo_bootstrap")
    ap.add_argument("--probe-gc", action="store_true",
                    help="run the probe (which calls R's gc()) at every report; "
                         "off by default so that the probe does not hide the problem")
    ap.add_argument("--digest", action="store_true")
    ap.add_argument("--standard-path", action="store_true",
                    help="force RWeka's standard interface (J48(y ~ ., data) + predict) "
                         "instead of batch.R's Weka fast path")
    ap.add_argument("--r-ballast", type=float, default=0,
                    help="MB of live data kept in R's global env (a bigger R heap makes "
                         "R collect garbage, and release Java objects, less often)")
    ap.add_argument("--sim", action="store_true",
                    help="one iteration = one repetition of the real EXP6 table5 simulation "
                         "(J48-unpruned vs fnn-weighted:omega=0.29, both R, engine.repetition.run_repetition)")
    a = ap.parse_args()

    import r_bridge
    from r_bridge import bridge
    lrn = make_learner("J48-unpruned", backend="r")
    designs = [DESIGNS[k] for k in a.designs.split(",")]
    fits_per_iter = sum(d.n_splits(300) for d in designs)
    digest = hashlib.sha256()

    if a.sim:
        from pybcv.engine import RunConfig
        from pybcv.engine.repetition import run_repetition
        cfg = RunConfig(dataset="exp6", tests="table5", seed=3, backend="r")
        fits_per_iter = sum(len(DESIGNS[d].splits(cfg.n, 0)) for _, d in cfg.units())

    def run(i):
        if a.sim:
            out = run_repetition(cfg, i)
            if a.digest:
                for t in out.tables.values():
                    digest.update(np.ascontiguousarray(t).tobytes())
            return
        ds = make_dataset("exp6", seed=1000 + i, n=300)
        rng = np.random.default_rng(i)
        for d in designs:
            if a.standard_path:
                preds = r_bridge.predict_splits("J48", ds.X, ds.y, d.splits(ds.n, rng),
                                                {"options": ["-U"], "fast": False}, ("RWeka",))
            else:
                preds = lrn.predict_splits(ds.X, ds.y, d.splits(ds.n, rng))
            if a.digest:
                for p in preds:
                    digest.update(np.ascontiguousarray(p).tobytes())

    run(10**6)                               # warm-up: start R, JVM, packages
    ro = r_bridge.get_r()
    if a.r_ballast:
        ro.r(f"pybcv_ballast <- lapply(1:{int(a.r_ballast)}, function(i) runif(2^17))")
    probe = ro.r(PROBE)

    def info():
        v = dict(zip(["used", "total", "max", "gcs", "gcsec", "ncells", "vcells", "rgcsec",
                               "classes", "jitsec", "threads", "code", "meta"],
                     [float(x) for x in probe(ro.vectors.BoolVector([a.probe_gc]))]))
        env = bridge._env["env"]
        v["ds"] = len(list(env.find("datasets").keys())) if env is not None else 0
        return v

    print(f"fits per iteration (per learner): {fits_per_iter}  "
          f"{'simulation exp6 table5' if a.sim else 'designs: ' + a.designs}", flush=True)
    print(f"{'iter':>5} {'wall_s':>7} {'s/iter':>7} {'fits/s':>7} {'jvm_used':>8} "
          f"{'jvm_tot':>7} {'jvm_max':>7} {'jgc_n':>6} {'jgc_s':>7} {'R_Ncells':>8} "
          f"{'R_Vcells':>8} {'rgc_s':>6} {'ds':>3} {'cpu/iter':>8} {'classes':>7} "
          f"{'jit_s':>6} {'thr':>4} {'codeMB':>6} {'metaMB':>6} {'probe_s':>7} {'probecpu':>8}", flush=True)
    def cpu():
        t = os.times()
        return t.user + t.system

    def probe_time():
        """Wall and CPU seconds (this process, all threads) per iteration of the
        same fixed work every time (3 fixed iterations), so that a slowdown of
        the process is not confused with a harder data set."""
        t, c = time.perf_counter(), cpu()
        for k in range(3):
            run(2 * 10**6 + k)
        return (time.perf_counter() - t) / 3, (cpu() - c) / 3

    t0 = time.perf_counter()
    last_t, last_i, last_c = t0, 0, cpu()
    i = 0
    while i < a.max_iter and time.perf_counter() - t0 < a.seconds:
        run(i)
        i += 1
        if i % a.every == 0:
            now = time.perf_counter()
            dt = (now - last_t) / (i - last_i)
            v = info()
            pw, pc = probe_time()
            print(f"{i:5d} {now - t0:7.1f} {dt:7.3f} {fits_per_iter / dt:7.0f} "
                  f"{v['used']:8.0f} {v['total']:7.0f} {v['max']:7.0f} {v['gcs']:6.0f} "
                  f"{v['gcsec']:7.2f} {v['ncells']:8.1f} {v['vcells']:8.1f} {v['rgcsec']:6.2f} {v['ds']:3d} "
                  f"{(cpu() - last_c) / (i - last_i):8.3f} {v['classes']:7.0f} {v['jitsec']:6.1f} "
                  f"{v['threads']:4.0f} {v['code']:6.1f} {v['meta']:6.1f} {pw:7.3f} {pc:8.3f}",
                  flush=True)
            last_t, last_i, last_c = time.perf_counter(), i, cpu()
    if a.digest:
        print(f"iterations: {i}  prediction digest: {digest.hexdigest()}")


if __name__ == "__main__":
    main()
