"""What the interleaved benchmarks of issue 23 share (table5_rep.py,
r_package.py, engine_anchor.py): rounds on a shared machine, each way timed
in every round, figures as min/median/max over the rounds."""
from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import time


def parser(description: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--runs", type=int, default=3, help="rounds (each way once per round)")
    return ap


def spread(v):
    """(min, median, max); the median of an even count is the upper middle."""
    v = sorted(v)
    return v[0], v[len(v) // 2], v[-1]


def fmt3(v, digits: int = 2) -> str:
    """min/median/max of v as text."""
    return "/".join(f"{x:.{digits}f}" for x in spread(v))


def timed_process(cmd, cwd=None, check=True):
    """(wall s, CPU s of the process and its children, CompletedProcess)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    res = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and res.returncode:
        raise RuntimeError(f"{' '.join(map(str, cmd[:3]))} failed: {res.stderr[-3000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), res


def machine(loads) -> str:
    """The load averages seen (at each round's start and at the end) and the machine."""
    return (f"Load average (1 min) at each round's start and at the end: "
            f"{', '.join(f'{x:.1f}' for x in loads)} ({os.cpu_count()} CPUs); "
            f"{platform.machine()}, Python {platform.python_version()}.")


def stamp() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def report(path: str, text: str) -> None:
    """Print ``text`` and append it to the results file ``path``."""
    print(text)
    with open(path, "a") as fh:
        fh.write(text)
