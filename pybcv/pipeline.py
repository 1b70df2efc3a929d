"""The pipeline's middle: design -> fits -> fold tables.  The one place
where partitions and predictions become contingency tables (the counting
itself is :mod:`pybcv.outcomes`; fixed losses: :func:`pybcv.fold_tables.tables_batch`).

Used by the simulation engine (:mod:`pybcv.engine`) and by every one-off
comparison (:mod:`pybcv.comparison`); it imports neither:

* :func:`design_generator` / :func:`draw_splits` -- the random stream of a
  design and every design's splits;
* :func:`predict_learners` -- k learners predict the union of designs (one
  batch per learner, or one task per learner and design on processes);

* :func:`predict_designs` -- each learner predicts the folds of every design
  in ONE ``predict_splits`` call (one batch; for an R learner one call into R);
* :func:`tables_from_design_predictions` -- predictions of two learners on the
  union of designs -> ``{design: (F, 2, 2) tables}`` (one ``bincount``);
* :func:`fold_tables` -- the two steps above for learners A and B.

Table orientation (``pybcv.outcomes``): ``[[n00, n01], [n10, n11]]``, rows
A wrong/right, columns B wrong/right.

>>> import numpy as np
>>> y = np.array([0, 1, 0, 1])
>>> splits = {"holdout": [(np.array([0, 1]), np.array([2, 3]))]}
>>> tables_from_design_predictions(y, {"holdout": [np.array([1, 1])]},
...                                {"holdout": [np.array([0, 0])]}, splits)["holdout"].tolist()
[[[0, 1], [1, 0]]]
"""
from __future__ import annotations

import json
import warnings
from typing import Any, Dict, List, Mapping, Sequence

import numpy as np
from tqdm import tqdm

from . import seeds
from ._deferred import deferred
from .errors import FitWarning, LearnerContext, LearnerInputError
from .interrupts import stop_pool, workers_deaf
from .learners import as_learner as _wrap_learner
from .learners import make_learner, parse_spec, seeded
from .learners.timelimit import fit_timeout
from .outcomes import loss_sums, tables_from_predictions
from .partitions import DESIGNS, design_splitter

# imported when a pool of workers first starts, not with every command's start
_mp = deferred("multiprocessing")
_futures = deferred("concurrent.futures")


def spec_dict(spec) -> dict:
    """``{"name": ..., **params}`` from a name, ``"name:param=value,..."``
    (read by ``pybcv.learners.parse_spec``) or a spec dict.

    >>> spec_dict("fnn-weighted:omega=0.29")
    {'name': 'fnn-weighted', 'omega': 0.29}
    """
    if isinstance(spec, dict):
        if "name" not in spec:
            raise ValueError(f"learner spec needs a 'name': {spec!r}")
        return dict(spec)
    return parse_spec(spec)


_LEARNERS_OF_PROCESS: Dict[str, Any] = {}


def learner_from_spec(spec: dict, backend: str = "auto"):
    """The learner of a spec dict, built once per process and backend; a
    spec's own ``backend`` (RQ1's Python majority and mean) overrides the run's."""
    backend = spec.get("backend", backend)
    key = json.dumps([spec, backend], sort_keys=True)
    if key not in _LEARNERS_OF_PROCESS:
        params = {k: v for k, v in spec.items() if k not in ("name", "backend")}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            _LEARNERS_OF_PROCESS[key] = make_learner(spec["name"], backend=backend, **params)
    return _LEARNERS_OF_PROCESS[key]


def as_learner(x, backend: str = "auto"):
    """A learner from a registry name, ``"name:param=value"``, a spec dict, a
    pybcv learner or any scikit-learn classifier."""
    if isinstance(x, (str, dict)):
        return learner_from_spec(spec_dict(x), backend)
    return _wrap_learner(x)


def learner_label(x) -> str:
    """A short name of a learner argument, in the spec form the command line
    and R take (``"fnn-weighted:omega=0.29"``): a string as it was given, a
    spec dict written that way, so that Python, the command line and R
    label a learner alike."""
    if isinstance(x, str):
        return x
    if isinstance(x, dict):
        params = ",".join(f"{k}={v}" for k, v in x.items() if k != "name")
        return x.get("name", "?") + (f":{params}" if params else "")
    return type(x).__name__


class CountingLearner:
    """Wraps a learner and counts its fits (one per split); with ``proba``
    its ``predict_splits`` gives the learner's class probabilities
    (``predict_proba_splits``: the log loss) instead of labels.  The
    learner's :class:`~pybcv.errors.FitWarning` s are kept (``warned``:
    {(category, text): positions of the fits among all splits given}), not
    shown: :meth:`fit_warnings` says them per design."""

    def __init__(self, learner, proba: bool = False):
        self.learner = learner
        self.fits = 0
        self.proba = proba
        self.warned = {}

    def predict_splits(self, X, y, splits):
        start, self.fits = self.fits, self.fits + len(splits)
        caught = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("ignore", RuntimeWarning)
                warnings.simplefilter("always", FitWarning)
                if self.proba:
                    return self.learner.predict_proba_splits(X, y, splits)
                return self.learner.predict_splits(X, y, splits)
        finally:
            for w in caught:
                if isinstance(w.message, FitWarning):
                    self.warned.setdefault((w.message.category, w.message.text), []).extend(
                        start + f - 1 for f in w.message.folds)
                else:                  # anything else (a user's learner's warning) as it was
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)

    def fit_warnings(self, splits: Mapping[str, list]) -> Dict[tuple, Dict[str, List[int]]]:
        """{(category, text): {design: its folds (1-based) that warned}} of
        the fits of ``splits``, given in this order (:func:`predict_designs`)."""
        names = list(splits)
        ends = np.cumsum([len(splits[u]) for u in names])
        out = {}
        for key, pos in self.warned.items():
            for p in sorted(set(pos)):
                i = int(np.searchsorted(ends, p, side="right"))
                fold = int(p - ends[i] + len(splits[names[i]]) + 1)
                out.setdefault(key, {}).setdefault(names[i], []).append(fold)
        return out

    @property
    def backend_(self) -> str:
        return getattr(self.learner, "backend_", "python")


def predict_designs(learner, X, y, splits: Mapping[str, list], one_batch: bool = True
                    ) -> Dict[str, list]:
    """``{design: predictions per fold}`` of one learner.

    ``one_batch``: every design's folds in one ``predict_splits`` call; when
    that batch fails, each design runs alone so that the error raised names
    its design (a note) and its fold within the design.  Otherwise one call
    per design."""
    names = list(splits)
    if not one_batch:
        return {u: _predict_one_design(learner, X, y, splits[u], u) for u in names}
    try:
        pred = learner.predict_splits(X, y, [sp for u in names for sp in splits[u]])
    except Exception:
        for u in names:
            _predict_one_design(learner, X, y, splits[u], u)
        raise
    return _by_design(pred, splits)


def _by_design(flat, splits: Mapping[str, list]) -> dict:
    """A list over the folds of every design in turn, cut back into ``{design: its part}``."""
    ends = np.cumsum([len(splits[u]) for u in splits])
    return {u: flat[e - len(splits[u]):e] for u, e in zip(splits, ends)}


def _predict_one_design(learner, X, y, splits, name):
    try:
        return learner.predict_splits(X, y, splits)
    except LearnerContext as e:          # an R/Java fault or a prediction that is no label
        raise e.set_context(design=name)
    except ValueError as e:              # a learner refusing the data: named, in words
        who = getattr(learner, "name", None) or getattr(getattr(learner, "learner", None), "name",
                                                         None) or type(learner).__name__
        raise LearnerInputError(who, None, len(splits), str(e)).set_context(design=name) from e
    except Exception as e:
        e.add_note(f"(partition design {name!r})")
        raise


def tables_from_design_predictions(y, pred_a: Mapping[str, list], pred_b: Mapping[str, list],
                                   splits: Mapping[str, list]) -> Dict[str, np.ndarray]:
    """``{design: (F, 2, 2)}`` tables from both learners' predictions of the
    union of designs (one count over all folds)."""
    T = tables_from_predictions(y, [p for u in splits for p in pred_a[u]],
                                [p for u in splits for p in pred_b[u]],
                                [sp for u in splits for sp in splits[u]])
    return _by_design(T, splits)


def fold_tables(learner_a, learner_b, X, y, splits: Mapping[str, list], one_batch: bool = True
                ) -> Dict[str, np.ndarray]:
    """``{design: (F, 2, 2)}``: A and B each predict the union of designs
    (:func:`predict_designs`), then the tables are counted."""
    pa = predict_designs(learner_a, X, y, splits, one_batch)
    pb = predict_designs(learner_b, X, y, splits, one_batch)
    return tables_from_design_predictions(y, pa, pb, splits)


def draw_splits(n: int, designs: Mapping[str, str], generators: Mapping[str, Any],
                y=None, groups=None) -> Dict[str, List]:
    """``{unit: design.splits(n, generator)}``; with class labels ``y`` the
    block-regularized designs are drawn stratified by them, with ``groups``
    grouped by them (``design_splitter``)."""
    if y is None and groups is None:
        return {u: DESIGNS[d].splits(n, generators[u]) for u, d in designs.items()}
    return {u: design_splitter(d, stratify=y is not None, grouped=groups is not None).splits(
                n, generators[u], y=y, groups=groups) for u, d in designs.items()}


def design_generator(seed: int, design: str):
    """The random stream of ``design`` in a one-off comparison with ``seed``."""
    return seeds.rng(seeds.design_seq(seed, 0, design))


def _predict_task(learner, backend, X, y, design_splits, seed=None, timeout=None, proba=False,
                  one_batch=False):
    """One learner's predictions of some designs (a task of a process, or
    with ``one_batch`` all of them); ``seed``: the random_state of a
    scikit-learn estimator that has none."""
    with fit_timeout(timeout):
        lrn = CountingLearner(seeded(as_learner(learner, backend), seed), proba)
        pred = predict_designs(lrn, X, y, design_splits, one_batch)
        return pred, lrn.backend_, lrn.fit_warnings(design_splits)


def predict_learners(learners, X, y, splits, backend, n_jobs, progress, seed=None, timeout=None,
                     proba=False):
    """[{design: predictions}], [backend] and [fit warnings] per learner
    (:meth:`CountingLearner.fit_warnings`): one batch per learner
    when sequential and quiet; else one task per (learner, design), on
    ``n_jobs`` processes, with a tqdm bar.  ``seed``: the ``random_state`` of
    scikit-learn fits that have none; ``timeout``: seconds a fit may take
    (:mod:`pybcv.learners.timelimit`); ``proba``: class probabilities
    instead of labels (the log loss)."""
    with fit_timeout(timeout):
        if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
            raise ValueError(f"n_jobs must be an integer >= 1, got {n_jobs!r}")
        if n_jobs == 1 and not progress:
            out = [_predict_task(lrn, backend, X, y, splits, seed, timeout, proba, one_batch=True)
                   for lrn in learners]
            return [o[0] for o in out], [o[1] for o in out], [o[2] for o in out]
        for lrn in learners:                      # bad specs fail before any fit
            as_learner(lrn, backend)
        tasks = [(i, d) for i in range(len(learners)) for d in splits]
        bar = tqdm(total=sum(len(splits[d]) for _, d in tasks), disable=not progress, unit="fit",
                   desc="fitting")
        preds = [dict() for _ in learners]
        backends = ["python"] * len(learners)
        warned = [{} for _ in learners]

        def done(i, d, result):
            preds[i].update(result[0])
            backends[i] = result[1]
            for key, by_design in result[2].items():     # the task's fit warnings
                warned[i].setdefault(key, {}).update(by_design)
            bar.update(len(splits[d]))
        try:
            if n_jobs == 1:
                for i, d in tasks:
                    done(i, d, _predict_task(learners[i], backend, X, y, {d: splits[d]}, seed,
                                             timeout, proba))
            else:
                # fresh processes (spawn): an embedded R or JVM of this process is not forked
                with workers_deaf():    # the workers and their helpers, started here, ignore Ctrl-C
                    pool = _futures.ProcessPoolExecutor(n_jobs, mp_context=_mp.get_context("spawn"))
                try:
                    with workers_deaf():
                        futures = {pool.submit(_predict_task, learners[i], backend, X, y,
                                               {d: splits[d]}, seed, timeout, proba): (i, d)
                                   for i, d in tasks}
                    for fut in _futures.as_completed(futures):
                        done(*futures[fut], fut.result())
                except BaseException:
                    stop_pool(pool)      # Ctrl-C or a failure: the deaf workers are stopped now
                    raise
                pool.shutdown()
        finally:
            bar.close()
        return preds, backends, warned


def loss_sums_from_design_predictions(y, pred_a: Mapping[str, list], pred_b: Mapping[str, list],
                                      splits: Mapping[str, list], loss,
                                      names: Sequence[str] = ("A", "B")) -> Dict[str, np.ndarray]:
    """``{design: (F, 4)}`` per-fold loss sums (:func:`pybcv.outcomes.loss_sums`)
    of both learners' predictions under a real-valued ``loss``
    (:class:`pybcv.losses.Loss`), in place of the 2x2 tables; a loss that
    fails names the learner (``names``), the design and the fold."""
    y = np.asarray(y)
    out = {}
    for u in splits:
        rows = []
        for f, ((_, te), pa, pb) in enumerate(zip(splits[u], pred_a[u], pred_b[u])):
            te = np.asarray(te, dtype=np.int64)
            ls = []
            for name, p in zip(names, (pa, pb)):
                try:
                    ls.append(loss(y[te], p))
                except ValueError as e:
                    raise ValueError(f"learner {name!r}, fold {f + 1} of {len(splits[u])}, "
                                     f"design {u!r}: {e}") from None
            rows.append(loss_sums(*ls, [np.arange(te.size)])[0])
        out[u] = np.array(rows).reshape(-1, 4)
    return out
