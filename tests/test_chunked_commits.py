"""The store commits finished repetitions in batches (one transaction and
fsync per batch, not per repetition, issue 23 item 3); a run killed with
SIGKILL loses at most the batch in flight and resumes to results identical
bit for bit to an uninterrupted run."""
import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from pybcv.engine import archive, simulate
from pybcv.engine import store as S

RUN = dict(tests=["mcnemar_5x2bcv", "mcnemar_ho", "proportion_z"], seed=7)


def test_a_learner_free_run_commits_per_batch_not_per_repetition(tmp_path, monkeypatch):
    commits = []
    real = S.Store._commit

    def counting(self):
        commits.append(1)
        return real(self)
    monkeypatch.setattr(S.Store, "_commit", counting)
    res = simulate("epsilon", reps=1000, out=str(tmp_path), **RUN)
    assert len(res.reps) == 1000
    # the configuration, then the two chunks of 500 (together or apart)
    assert len(commits) <= 3


def _done(folder):
    try:
        con = sqlite3.connect(f"file:{os.path.join(folder, S.DB_NAME)}?mode=ro", uri=True,
                              timeout=1)
        try:
            return con.execute("SELECT COUNT(*) FROM reps").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _same(a, b):
    x, y = archive.read_sqlite(a), archive.read_sqlite(b)
    for run in (x, y):
        run["rep_info"] = [(r, 0.0, fa, fb, be) for r, _, fa, fb, be in run["rep_info"]]
    return archive.differences(x, y)


@pytest.mark.slow
def test_a_killed_run_resumes_to_identical_results(tmp_path):
    # long enough to outlast its first commit (COMMIT_EVERY_S) by seconds: ~0.4 ms a repetition
    reps, killed, whole = 30000, str(tmp_path / "killed"), str(tmp_path / "whole")
    code = (f"from pybcv.engine import simulate; simulate('epsilon', reps={reps}, chunk=100, "
            f"out={killed!r}, tests={RUN['tests']!r}, seed={RUN['seed']})")
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 120
        while _done(killed) == 0 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    kept = _done(killed)
    assert 0 < kept < reps, f"the run was not killed mid-way ({kept} of {reps} stored)"
    resumed = simulate("epsilon", reps=reps, out=killed, resume=True, chunk=100, **RUN)
    simulate("epsilon", reps=reps, out=whole, **RUN)
    assert len(resumed.reps) == reps
    assert _same(killed, whole) == []
    np.testing.assert_array_equal(resumed.reps, np.arange(reps))
