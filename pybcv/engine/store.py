"""Durable results of a simulation: one SQLite file per run folder.

Every finished repetition is committed in its own transaction
(``synchronous=FULL``), so a run killed at any moment keeps every repetition
it reported finished.  Tables:

* ``meta(key, value)``: ``config`` (JSON, the run's identity), ``format``,
  ``reps_target``;
* ``results(rep, test, statistic, pvalue)``: every repetition's statistic
  and p-value per test (NaN is stored as NULL);
* ``reps(rep, seconds, fits_a, fits_b, backend, tables)``: per repetition,
  its run time, number of fits per learner, the backend that ran, and the
  fold tables of every design (compressed), so the tests can be re-scored
  under another option profile without refitting.
"""
from __future__ import annotations

import io
import json
import math
import os
import sqlite3
import time
import zlib
from typing import Dict, Iterable, List, Optional, Tuple

import numpy as np

FORMAT = "pybcv-sim-1"
DB_NAME = "results.sqlite"


class ConfigMismatch(ValueError):
    """--resume with a configuration other than the stored one."""


def pack_tables(tables: Dict[str, np.ndarray]) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **{k: np.asarray(v, dtype=np.int32) for k, v in tables.items()})
    return zlib.compress(buf.getvalue(), 6)


def unpack_tables(blob: bytes) -> Dict[str, np.ndarray]:
    with np.load(io.BytesIO(zlib.decompress(blob))) as z:
        return {k: z[k] for k in z.files}


def _f(x):
    x = float(x)
    return None if math.isnan(x) else x


class Store:
    def __init__(self, folder: str):
        self.folder = folder
        self.path = os.path.join(folder, DB_NAME)
        self.con = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.executescript("""
            CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE IF NOT EXISTS results(rep INTEGER, test TEXT, statistic REAL, pvalue REAL,
                                               PRIMARY KEY(rep, test));
            CREATE TABLE IF NOT EXISTS reps(rep INTEGER PRIMARY KEY, seconds REAL, fits_a INTEGER,
                                            fits_b INTEGER, backend TEXT, tables BLOB, finished REAL);
        """)

    # -- meta
    def get_meta(self, key) -> Optional[str]:
        row = self.con.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key, value):
        self.con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (key, str(value)))

    def config(self) -> Optional[dict]:
        v = self.get_meta("config")
        return None if v is None else json.loads(v)

    def init_config(self, identity: dict, resume: bool, reps_target: int):
        """Store the config of a new run, or check it on --resume."""
        old = self.config()
        have = self.n_done()
        if old is None:
            if have:
                raise ConfigMismatch(f"{self.path} holds results but no configuration")
            self.con.execute("BEGIN")
            self.set_meta("format", FORMAT)
            self.set_meta("config", json.dumps(identity, sort_keys=True))
            self.set_meta("reps_target", reps_target)
            self.con.execute("COMMIT")
            return
        if not resume:
            raise ConfigMismatch(
                f"{self.folder} already holds a run ({have} repetition(s) done); "
                f"use --resume to continue it, or choose another --out folder")
        if old != json.loads(json.dumps(identity, sort_keys=True)):
            diff = sorted(k for k in set(old) | set(identity) if old.get(k) != identity.get(k))
            details = "; ".join(f"{k}: stored {old.get(k)!r}, given {identity.get(k)!r}" for k in diff)
            raise ConfigMismatch(f"cannot resume {self.folder}: the configuration differs ({details}). "
                                 f"Use the stored settings or another --out folder.")
        self.set_meta("reps_target", max(int(self.get_meta("reps_target") or 0), reps_target))

    # -- results
    def done(self) -> set:
        return {r for (r,) in self.con.execute("SELECT rep FROM reps")}

    def n_done(self) -> int:
        return self.con.execute("SELECT COUNT(*) FROM reps").fetchone()[0]

    def write(self, rows: Iterable[dict]):
        """Commit finished repetitions: each dict has rep, results {test: (stat, p)},
        seconds, fits_a, fits_b, backend, tables {design: (F,2,2)} (optional)."""
        for row in rows:
            r = int(row["rep"])
            blob = pack_tables(row["tables"]) if row.get("tables") else None
            self.con.execute("BEGIN IMMEDIATE")
            try:
                self.con.execute("DELETE FROM results WHERE rep=?", (r,))
                self.con.executemany(
                    "INSERT INTO results(rep, test, statistic, pvalue) VALUES(?,?,?,?)",
                    [(r, k, _f(s), _f(p)) for k, (s, p) in row["results"].items()])
                self.con.execute(
                    "INSERT OR REPLACE INTO reps(rep, seconds, fits_a, fits_b, backend, tables, finished) "
                    "VALUES(?,?,?,?,?,?,?)",
                    (r, float(row.get("seconds", 0.0)), int(row.get("fits_a", 0)),
                     int(row.get("fits_b", 0)), str(row.get("backend", "")), blob, time.time()))
                self.con.execute("COMMIT")
            except BaseException:
                self.con.execute("ROLLBACK")
                raise

    def results(self) -> Tuple[np.ndarray, Dict[str, Tuple[np.ndarray, np.ndarray]]]:
        """(reps sorted, {test: (statistic[R], pvalue[R])}) over finished repetitions."""
        reps = np.array(sorted(self.done()), dtype=np.int64)
        pos = {int(r): i for i, r in enumerate(reps)}
        out: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
        for r, k, s, p in self.con.execute("SELECT rep, test, statistic, pvalue FROM results"):
            if r not in pos:
                continue
            if k not in out:
                out[k] = (np.full(len(reps), np.nan), np.full(len(reps), np.nan))
            out[k][0][pos[r]] = np.nan if s is None else s
            out[k][1][pos[r]] = np.nan if p is None else p
        return reps, out

    def tables(self) -> Tuple[np.ndarray, Dict[str, np.ndarray]]:
        """(reps, {design: (R, F, 2, 2)}) from the stored fold tables."""
        rows = self.con.execute("SELECT rep, tables FROM reps ORDER BY rep").fetchall()
        reps = np.array([r for r, _ in rows], dtype=np.int64)
        acc: Dict[str, List[np.ndarray]] = {}
        for _, blob in rows:
            if blob is None:
                raise ValueError("this run stored no fold tables")
            for k, v in unpack_tables(blob).items():
                acc.setdefault(k, []).append(v)
        return reps, {k: np.stack(v) for k, v in acc.items()}

    def rep_info(self):
        return self.con.execute("SELECT rep, seconds, fits_a, fits_b, backend FROM reps ORDER BY rep").fetchall()

    def close(self):
        self.con.close()
