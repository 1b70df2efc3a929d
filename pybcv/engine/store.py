"""Durable results of a simulation: one SQLite file per run folder.

Each batch of finished repetitions that :meth:`Store.write` receives (a
chunk of the run: one worker's unit of work) is committed in one transaction
(``synchronous=FULL``: one fsync per chunk, not per repetition), so a run
killed at any moment keeps every chunk it reported finished and loses at
most the chunk in flight, which ``--resume`` recomputes to identical
results.  One writer at a time: a writer holds an exclusive lock on
``.pybcv.lock`` in the run folder (released when it closes or dies), and a
second writer is refused with a :class:`StoreError` saying so.  Tables:

* ``meta(key, value)``: ``config`` (JSON, the run's identity), ``format``,
  ``reps_target``;
* ``results(rep, test, statistic, pvalue)``: every repetition's statistic
  and p-value per test (NaN is stored as NULL; a k-learner run's ``test`` is
  ``"<test>@<pair>"``, its fold tables ``"<design>@<pair>"``);
* ``reps(rep, seconds, fits_a, fits_b, backend, tables)``: per repetition,
  its run time, number of fits per learner, the backend that ran, and the
  fold tables of every design (compressed), so the tests can be re-scored
  under another option profile without refitting;
* ``failures(rep, learner, design, fold, message, recorded)``: repetitions
  that could not be computed (an R or Java error, say): reported, never
  scored.

Integrity.  A repetition counts as done only when it is complete: its
``reps`` row, one ``results`` row for every test of the configuration, and
(for learner runs) its fold tables.  An incomplete one (rows lost) is left
out of every result and recomputed on ``--resume``: lost rows never count as
"not rejected".  A file that is not SQLite (overwritten), truncated or
otherwise damaged, a missing table or an unreadable blob raise
:class:`StoreError` naming the file and what is wrong; so do a full disk
("disk is full") and a read-only file opened for writing.

Read-only media.  A writer leaves the file in rollback-journal mode when it
closes (one self-contained file).  A reader of a folder it cannot write (or
``readonly=True``) opens a finished file with ``immutable=1`` (no lock files:
works on read-only mounts and archives, leaves nothing behind), or with
``mode=ro`` while a writer's log sits beside it.
"""
from __future__ import annotations

import io
import json
import os
import sqlite3
import time
import zlib
from contextlib import contextmanager
from typing import Dict, Iterable, List, Optional, Tuple
from urllib.parse import quote

import numpy as np

try:                      # POSIX file locks; elsewhere a second writer is not detected
    import fcntl
except ImportError:       # pragma: no cover
    fcntl = None

from ..errors import ConfigMismatch, StoreError
from ..experiments import pair_keys

FORMAT = "pybcv-sim-1"
DB_NAME = "results.sqlite"
LOCK_NAME = ".pybcv.lock"
REQUIRED_TABLES = ("meta", "results", "reps")

_SCHEMA = """
    CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
    CREATE TABLE IF NOT EXISTS results(rep INTEGER, test TEXT, statistic REAL, pvalue REAL,
                                       PRIMARY KEY(rep, test)) WITHOUT ROWID;  -- one b-tree
    CREATE TABLE IF NOT EXISTS reps(rep INTEGER PRIMARY KEY, seconds REAL, fits_a INTEGER,
                                    fits_b INTEGER, backend TEXT, tables BLOB, finished REAL);
    CREATE TABLE IF NOT EXISTS failures(rep INTEGER PRIMARY KEY, learner TEXT, design TEXT,
                                        fold INTEGER, message TEXT, recorded REAL);
"""


# SQLite's primary result codes, in words (sqlite3.Error.sqlite_errorname)
_EXPLAIN = {
    "SQLITE_FULL": "disk is full",
    "SQLITE_CORRUPT": "the file is damaged (truncated or overwritten)",
    "SQLITE_NOTADB": "not an SQLite database (overwritten or not a pybcv results file)",
    "SQLITE_READONLY": "the file is read-only",
    "SQLITE_CANTOPEN": "the file cannot be opened",
    "SQLITE_IOERR": "an input/output error (failing disk or network file system)",
    "SQLITE_BUSY": "the file is locked by another process",
    "SQLITE_LOCKED": "the file is locked by another connection",
    "SQLITE_PERM": "permission denied",
}


def explain(exc: sqlite3.Error, path: str, doing: str = "") -> StoreError:
    """A :class:`StoreError` naming ``path`` and, in words, what SQLite's
    error means (its result code, e.g. SQLITE_FULL -> "disk is full")."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    base = name.split("_")[0] + "_" + name.split("_")[1] if name.count("_") >= 2 else name
    words = _EXPLAIN.get(name) or _EXPLAIN.get(base)
    text = str(exc)
    if words is None:
        low = text.lower()
        words = ("disk is full" if "full" in low else
                 _EXPLAIN["SQLITE_NOTADB"] if "not a database" in low else
                 _EXPLAIN["SQLITE_CORRUPT"] if "malformed" in low else
                 _EXPLAIN["SQLITE_READONLY"] if "readonly" in low or "read-only" in low else text)
    what = f" while {doing}" if doing else ""
    return StoreError(f"results file {path}: {words}{what} (SQLite: {text})")


#: the first bytes of a packed tables blob (before: an npz, read as such)
TABLES_MAGIC = b"PBT1"


def pack_tables(tables: Dict[str, np.ndarray]) -> bytes:
    """A repetition's fold tables as one zlib-compressed blob: ``TABLES_MAGIC``,
    the byte length of a JSON list of (key, dtype, shape), that list, then
    each array's bytes in its order (counts as int32; per-fold loss sums of
    a real-valued loss as float64).  Not an npz: reading 21 npz members per
    repetition took 3.6 ms, most of a resumed run's time (benchmarks/rq1_rep_results.md)."""
    arrs = {k: np.ascontiguousarray(v, dtype="<i4" if np.asarray(v).dtype.kind in "biu"
                                    else "<f8") for k, v in tables.items()}
    head = json.dumps([[k, a.dtype.str, a.shape] for k, a in arrs.items()]).encode()
    return zlib.compress(b"".join([TABLES_MAGIC, len(head).to_bytes(4, "little"), head,
                                   *(a.tobytes() for a in arrs.values())]), 6)


def unpack_tables(blob: bytes) -> Dict[str, np.ndarray]:
    """The fold tables of :func:`pack_tables` (or of an npz blob, as stores
    written before it hold)."""
    raw = bytearray(zlib.decompress(blob))
    if not raw.startswith(TABLES_MAGIC):
        with np.load(io.BytesIO(raw)) as z:
            return {k: z[k] for k in z.files}
    end = 8 + int.from_bytes(raw[4:8], "little")
    out, pos = {}, end
    for k, dtype, shape in json.loads(raw[8:end]):
        a = np.frombuffer(raw, dtype, int(np.prod(shape)), pos).reshape(shape)
        out[k] = a
        pos += a.nbytes
    if pos != len(raw):
        raise ValueError(f"{len(raw) - pos} bytes of the tables blob left unread")
    return out


def config_differences(stored: dict, identity: dict) -> str:
    """"key: stored ..., given ...; ..." for every key on which a stored
    configuration and ``identity`` (as it would be stored) differ; "" when
    they are the same."""
    given = json.loads(json.dumps(identity, sort_keys=True))
    if stored == given:
        return ""
    diff = sorted(k for k in set(stored) | set(given) if stored.get(k) != given.get(k))
    return "; ".join(f"{k}: stored {stored.get(k)!r}, given {given.get(k)!r}" for k in diff)


def sqlite_uri(path: str) -> str:
    """The ``file:`` URI of ``path``: whatever the path looks like (``file:x``,
    ``x?mode=memory``), SQLite opens that file and reads no option from it."""
    return "file:" + quote(os.path.abspath(path))


class FolderLock:
    """An exclusive lock on ``folder/.pybcv.lock`` held while one process
    writes the folder; a second writer gets a :class:`StoreError`.  The
    operating system drops the lock when the holder exits or is killed; a
    holder that closes removes the file."""

    def __init__(self, folder: str, what: str = "run folder"):
        self.path = os.path.join(folder, LOCK_NAME)
        self.fh = None
        if fcntl is None:
            return
        while True:
            fh = open(self.path, "a+")
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                fh.seek(0)
                holder = fh.read().strip()
                fh.close()
                raise StoreError(f"{what} {folder} is being written by another pybcv process"
                                 f"{' (' + holder + ')' if holder else ''}; wait for it to "
                                 f"finish, or write into another folder") from None
            try:
                same = os.path.samestat(os.fstat(fh.fileno()), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            fh.close()               # removed by a holder that just closed: lock the new file
        fh.seek(0)
        fh.truncate()
        fh.write(f"pid {os.getpid()}")
        fh.flush()
        self.fh = fh

    def release(self):
        if self.fh is not None:
            try:
                os.remove(self.path)
            except OSError:
                pass
            self.fh.close()          # closing the file drops the lock
            self.fh = None


class Store:
    """The results file of run folder ``folder``.

    ``readonly``: None (default) opens an existing file read-only and
    reopens it for writing at the first write (so reading a run, for a
    report, never changes its file), and creates a new file for writing;
    True: read-only, writing is an error (and so is a missing file);
    False: for writing at once.
    """

    def __init__(self, folder: str, readonly: Optional[bool] = None):
        self.folder = folder
        self.path = os.path.join(folder, DB_NAME)
        exists = os.path.exists(self.path)
        if exists and os.path.isdir(self.path):
            raise StoreError(f"results file {self.path} is a directory")
        if readonly and not exists:
            raise StoreError(f"results file {self.path} does not exist")
        if readonly is None and exists and os.path.getsize(self.path) == 0:
            exists = False          # an empty file (created, nothing written): a new store
        self._may_write = readonly is not True
        self.readonly = bool(readonly) or (readonly is None and exists)
        self._expected = None
        self._lock = None
        self._open(exists)

    def _open(self, exists):
        try:
            self.con = self._connect(exists)
        except sqlite3.Error as e:
            raise explain(e, self.path, "opening it") from None

    def _ensure_writer(self):
        """Reopen a read-only store for writing (the first write of a resumed run)."""
        if not self.readonly:
            return
        if not (self._may_write and os.access(self.folder, os.W_OK)          # folder and file
                and (not os.path.exists(self.path) or os.access(self.path, os.W_OK))):
            raise StoreError(f"results file {self.path} is read-only (opened read-only, or the "
                             f"folder or the file cannot be written)")
        if self._lock is None:
            self._lock = FolderLock(self.folder)
        self.con.close()
        self.readonly = False
        self._open(os.path.exists(self.path))

    def _connect(self, exists):
        uri = sqlite_uri(self.path)
        if self.readonly:
            active = [x for x in ("-wal", "-journal") if os.path.exists(self.path + x)]
            if not active:
                # no writer's log beside it: a finished file, read as it is
                # (immutable: SQLite creates no lock files, so this works on
                # read-only media and leaves nothing behind)
                con = sqlite3.connect(uri + "?immutable=1", uri=True, isolation_level=None)
            elif os.access(self.folder, os.W_OK):
                con = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=60,
                                      isolation_level=None)
            else:
                raise StoreError(
                    f"results file {self.path}: its {active[0]} file (a write in progress, or "
                    f"a run that was killed) cannot be read on a read-only folder; copy the "
                    f"folder to writable storage, or open it once for writing")
        else:
            if self._lock is None:
                self._lock = FolderLock(self.folder)
            con = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)
        try:                # a file that cannot be used is closed again
            if self.readonly or (exists and os.path.getsize(self.path) > 0):
                self._check(con)
            if not self.readonly:
                con.execute("PRAGMA journal_mode=WAL")
                con.execute("PRAGMA synchronous=FULL")
                con.executescript(_SCHEMA)
        except BaseException:
            con.close()
            raise
        return con

    def _check(self, con):
        """Raise StoreError when the file is not a usable results file."""
        try:
            tables = {r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            bad = con.execute("PRAGMA quick_check").fetchall()
        except sqlite3.Error as e:
            raise explain(e, self.path, "checking it") from None
        if bad and bad[0][0] != "ok":
            detail = "; ".join(r[0] for r in bad[:3])
            raise StoreError(f"results file {self.path}: the file is damaged (truncated or "
                             f"overwritten): {detail}")
        if not tables and os.path.getsize(self.path) == 0:
            if self.readonly:
                raise StoreError(f"results file {self.path} is empty")
            return
        missing = [t for t in REQUIRED_TABLES if t not in tables]
        if missing:
            raise StoreError(f"results file {self.path}: table(s) {', '.join(missing)} missing "
                             f"(the file is damaged or not a pybcv results file); rerun into "
                             f"a new --out folder")

    def _run(self, sql, args=(), doing="reading it"):
        try:
            return self.con.execute(sql, args)
        except sqlite3.Error as e:
            raise explain(e, self.path, doing) from None

    # -- meta
    def get_meta(self, key) -> Optional[str]:
        row = self._run("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key, value):
        self._ensure_writer()
        self._run("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", (key, str(value)),
                  "writing it")

    def config(self) -> Optional[dict]:
        v = self.get_meta("config")
        if v is None:
            return None
        try:
            return json.loads(v)
        except ValueError:
            raise StoreError(f"results file {self.path}: the stored configuration is not "
                             f"valid JSON (the file is damaged)") from None

    def _expectation(self):
        """(result keys every complete repetition has, whether it has fold
        tables); a k-learner run's keys are ``"<test>@<pair>"``."""
        if self._expected is None:
            c = self.config() or {}
            tests, learners = c.get("tests"), c.get("learners")
            if isinstance(tests, list) and isinstance(learners, list):
                tests = [f"{k}@{p}" for _, _, p in pair_keys(learners) for k in tests]
            self._expected = (list(tests) if isinstance(tests, list) else None,
                              c.get("learner_a") is not None or bool(learners)
                              or bool(c.get("keep_tables")))
        return self._expected

    def check_config(self, identity: dict, resume: bool) -> bool:
        """ConfigMismatch unless a run of ``identity`` may start here (no
        run stored) or, with ``resume``, continue the stored one (the same
        identity); True when a run is stored.  Writes nothing."""
        old = self.config()
        have = self.n_done()
        if old is None:
            if have:
                raise ConfigMismatch(f"{self.path} holds results but no configuration")
            return False
        if not resume:
            raise ConfigMismatch(
                f"{self.folder} already holds a run ({have} repetition(s) done); "
                f"use --resume to continue it, or choose another --out folder")
        details = config_differences(old, identity)
        if details:
            raise ConfigMismatch(f"cannot resume {self.folder}: the configuration differs ({details}). "
                                 f"Use the stored settings or another --out folder.")
        return True

    def init_config(self, identity: dict, resume: bool, reps_target: int):
        """Store the config of a new run, or check it on --resume."""
        if not self.check_config(identity, resume):
            with self._transaction():
                self.set_meta("format", FORMAT)
                self.set_meta("config", json.dumps(identity, sort_keys=True))
                self.set_meta("reps_target", reps_target)
            self._expected = None
            return
        self.set_meta("reps_target", max(int(self.get_meta("reps_target") or 0), reps_target))

    # -- transactions (errors in words: a full disk says so)
    @contextmanager
    def _transaction(self):
        """BEGIN IMMEDIATE ... COMMIT around the body; rolled back when it raises."""
        self._ensure_writer()
        self._run("BEGIN IMMEDIATE", doing="writing it")
        try:
            yield
            self._commit()
        except BaseException:
            if self.con.in_transaction:
                try:
                    self.con.execute("ROLLBACK")
                except sqlite3.Error:
                    pass        # SQLite may have rolled back itself (e.g. on a full disk)
            raise

    def _commit(self):
        self._run("COMMIT", doing="writing it")

    # -- completeness
    def incomplete(self) -> Dict[int, str]:
        """{rep: what is missing} for repetitions with a ``reps`` row that
        are not complete (result rows or fold tables lost)."""
        tests, want_tables = self._expectation()
        out: Dict[int, str] = {}
        counts = dict(self._run("SELECT rep, COUNT(*) FROM results GROUP BY rep"))
        blobs = {r: has for r, has in self._run("SELECT rep, tables IS NOT NULL FROM reps")}
        if tests is not None:
            # {rep with too few result rows: the tests it has} (read only when there is one)
            short = {r: set() for r in blobs if counts.get(r, 0) < len(tests)}
            for r, k in self._run("SELECT rep, test FROM results") if short else ():
                if r in short:
                    short[r].add(k)
            for r, present in short.items():
                lost = [t for t in tests if t not in present]
                out[r] = f"result rows of {len(lost)} test(s) missing ({', '.join(lost[:4])}" \
                         + (", ..." if len(lost) > 4 else "") + ")"
        if want_tables:
            for r, has in blobs.items():
                if not has and r not in out:
                    out[r] = "fold tables missing"
        return out

    def done(self) -> set:
        """The complete repetitions (an incomplete one is recomputed on resume)."""
        return {r for (r,) in self._run("SELECT rep FROM reps")} - set(self.incomplete())

    def n_done(self) -> int:
        return len(self.done())

    # -- writing
    def write(self, rows: Iterable[dict]):
        """Commit finished repetitions, all in one transaction (a chunk: one
        fsync): each dict has rep, results {test: (stat, p)}, seconds,
        fits_a, fits_b, backend, tables {design: (F,2,2)} (optional)."""
        self._ensure_writer()
        rows = list(rows)
        if not rows:
            return
        reps = [(int(row["rep"]),) for row in rows]
        what = (f"repetition {reps[0][0]}" if len(reps) == 1 else
                f"repetitions {reps[0][0]}..{reps[-1][0]} ({len(reps)})")
        with self._transaction():
            self._many("DELETE FROM results WHERE rep=?", reps, what)
            self._many("DELETE FROM failures WHERE rep=?", reps, what)
            self._many("INSERT INTO results(rep, test, statistic, pvalue) VALUES(?,?,?,?)",
                       # SQLite stores a NaN as NULL, which reads back as None
                       [(r, k, float(st), float(p)) for (r,), row in zip(reps, rows)
                        for k, (st, p) in row["results"].items()], what)
            now = time.time()
            self._many(
                "INSERT OR REPLACE INTO reps(rep, seconds, fits_a, fits_b, backend, tables, finished) "
                "VALUES(?,?,?,?,?,?,?)",
                [(r, float(row.get("seconds", 0.0)), int(row.get("fits_a", 0)),
                  int(row.get("fits_b", 0)), str(row.get("backend", "")),
                  pack_tables(row["tables"]) if row.get("tables") else None, now)
                 for (r,), row in zip(reps, rows)], what)

    def _many(self, sql, args, what):
        try:
            self.con.executemany(sql, args)
        except sqlite3.Error as e:
            raise explain(e, self.path, f"storing {what}") from None

    def record_failure(self, rep: int, message: str, learner: Optional[str] = None,
                       design: Optional[str] = None, fold: Optional[int] = None):
        """Record that repetition ``rep`` could not be computed (never a
        number): the error text and, where known, the learner, the design and
        the fold.  Any partial rows of that repetition are removed, so it
        counts neither as done nor as "not rejected"; a later successful
        :meth:`write` of the same repetition replaces the record."""
        r = int(rep)
        with self._transaction():
            self._run("DELETE FROM results WHERE rep=?", (r,), "writing it")
            self._run("DELETE FROM reps WHERE rep=?", (r,), "writing it")
            self._run("INSERT OR REPLACE INTO failures(rep, learner, design, fold, message, "
                      "recorded) VALUES(?,?,?,?,?,?)",
                      (r, learner, design, None if fold is None else int(fold), str(message),
                       time.time()), f"recording the failure of repetition {r}")

    def failures(self) -> List[dict]:
        """The recorded failures, by repetition: dicts with rep, learner,
        design, fold, message (an older file without the table: none)."""
        has = self._run("SELECT 1 FROM sqlite_master WHERE type='table' AND name='failures'"
                        ).fetchone()
        if not has:
            return []
        return [dict(rep=r, learner=lr, design=d, fold=f, message=m) for r, lr, d, f, m in
                self._run("SELECT rep, learner, design, fold, message FROM failures ORDER BY rep")]

    def settled(self) -> set:
        """Repetitions that need no more work: complete ones and recorded
        failures (a run can finish although some repetitions failed)."""
        return self.done() | {f["rep"] for f in self.failures()}

    # -- reading
    def results(self) -> Tuple[np.ndarray, Dict[str, Tuple[np.ndarray, np.ndarray]]]:
        """(reps sorted, {test: (statistic[R], pvalue[R])}) over complete repetitions."""
        reps = np.array(sorted(self.done()), dtype=np.int64)
        pos = {int(r): i for i, r in enumerate(reps)}
        got: Dict[str, Tuple[np.ndarray, np.ndarray]] = {}
        for r, k, s, p in self._run("SELECT rep, test, statistic, pvalue FROM results"):
            if r not in pos:
                continue                                # not a complete repetition
            if k not in got:
                got[k] = (np.full(len(reps), np.nan), np.full(len(reps), np.nan))
            got[k][0][pos[r]] = np.nan if s is None else s     # NULL: a NaN stored
            got[k][1][pos[r]] = np.nan if p is None else p
        # the tests in the configuration's order, which the engine writes
        # them in (a results table without rowid keeps its rows in key order)
        order = [k for k in self._expectation()[0] or () if k in got]
        known = set(order)
        return reps, {k: got[k] for k in order + [k for k in got if k not in known]}

    def tables(self, reps: Optional[Iterable[int]] = None
               ) -> Tuple[np.ndarray, Dict[str, np.ndarray]]:
        """(reps, {design: (R, F, 2, 2)}) from the stored fold tables of the
        complete repetitions, or of the complete ones among
        ``reps`` (a chunk of a long run: memory bounded in the repetitions)."""
        want = self.done() if reps is None else self.done() & {int(r) for r in reps}
        span = (min(want), max(want)) if want else (0, -1)
        rows = [(r, b) for r, b in self._run("SELECT rep, tables FROM reps WHERE rep BETWEEN ? "
                                             "AND ? ORDER BY rep", span) if r in want]
        reps = np.array([r for r, _ in rows], dtype=np.int64)
        acc: Dict[str, List[np.ndarray]] = {}
        for r, blob in rows:
            if blob is None:
                raise ValueError("this run stored no fold tables")
            try:
                tabs = unpack_tables(blob)
            except Exception as e:
                raise StoreError(f"results file {self.path}: the fold tables of repetition "
                                 f"{r} cannot be read ({type(e).__name__}: {e}); the file is "
                                 f"damaged") from None
            for k, v in tabs.items():
                acc.setdefault(k, []).append(v)
        try:
            return reps, {k: np.stack(v) for k, v in acc.items()}
        except ValueError as e:
            raise StoreError(f"results file {self.path}: fold tables of different shapes "
                             f"({e}); the file is damaged") from None

    def rep_info(self):
        done = self.done()
        return [row for row in self._run(
            "SELECT rep, seconds, fits_a, fits_b, backend FROM reps ORDER BY rep").fetchall()
            if row[0] in done]

    def close(self):
        """Close; a writer first folds its write-ahead log into the file and
        leaves it in rollback-journal mode, so the finished file is one
        self-contained file that read-only media can serve."""
        if not self.readonly:
            try:
                self.con.execute("PRAGMA journal_mode=DELETE")
            except sqlite3.Error:
                pass        # another connection still open: it stays in WAL mode
        self.con.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None
