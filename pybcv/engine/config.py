"""What defines a simulation run: :class:`RunConfig`.

Its identity (``identity()``, stored with every run and compared on
``--resume``) is the data set, the tests, the seed, n, the data parameters,
learners A and B, the option profile, the backend and whether designs are
shared, and (only when set) ``stratify``: the block-regularized designs
drawn stratified by the class labels, or ``group_size``: drawn grouped
(whole groups per block) with the synthetic groups of consecutive records
``arange(n) // group_size`` (``design_splitter``; the records stay
independent: the groups only constrain the partition), and (only when not
``"zero_one"``) ``loss``: a real-valued per-record loss (``"squared"``,
``"absolute"``, ``"log"`` (class probabilities) or a cost matrix, :mod:`pybcv.losses`; default: the
experiment record's) under which the t, F and z tests read per-fold loss
sums instead of the 2x2 fold tables (the tests that need 0/1 outcomes are
refused), and (only when set) ``keep_tables``: a learner-free run stores its
fold tables like a learner run (which always does), so that its tests and
their options are re-scored from the store (the validity battery).  Missing
learners and n come from the experiment's record
(:data:`pybcv.experiments.EXPERIMENTS`).

Random streams (:mod:`pybcv.seeds`): repetition r draws its data from
``data_seq(seed, r)`` and design d's partition from ``design_seq(seed, r, d)``
(or test k's own partition from ``test_seq(seed, r, k)`` when designs are not
shared).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .. import datasets as _ds
from .. import seeds
from ..experiments import BACKENDS, EXPERIMENTS, get_experiment, pair_keys
from ..partitions import DESIGNS, design_splitter
from ..comparison import loss_tests
from ..losses import NAMES as LOSS_NAMES, Loss, resolve_loss
from ..stats import TESTS, designs_for, profile_options
from ..stats._common import admit_withdrawn
from ..pipeline import spec_dict

@dataclass
class RunConfig:
    """What defines a run's results (its identity), plus how to run it.

    ``dataset`` names the experiment record (:data:`pybcv.experiments.EXPERIMENTS`;
    for the paper's experiments, the name of their data set); the data set
    drawn is the record's ``dataset``.

    >>> cfg = RunConfig("exp6", "mcnemar_5x2bcv")
    >>> cfg.n, cfg.learner_b
    (300, {'name': 'fnn-weighted', 'omega': 0.29})
    >>> cfg.units()
    [('bcv5x2', 'bcv5x2')]
    """
    dataset: str
    tests: List[str]
    seed: int = 0
    n: Optional[int] = None
    data_params: Dict[str, Any] = field(default_factory=dict)
    learner_a: Optional[dict] = None
    learner_b: Optional[dict] = None
    profile: str = "default"
    backend: str = "auto"
    share_designs: bool = True
    stratify: bool = False
    group_size: int = 0
    loss: Any = None
    learners: Optional[List[dict]] = None
    keep_tables: bool = False
    #: the folder of a data set read from files (RQ1's UCI files; default
    #: :func:`pybcv.datasets.uci_dir`); not part of the identity
    data_dir: Optional[str] = None

    def __post_init__(self):
        experiment = get_experiment(self.dataset)
        self.dataset = experiment.name
        self.loss = _check_loss(experiment.loss if self.loss is None else self.loss)
        # under a real-valued loss a selection ("table5", "all", a design) drops the tests
        # that need 0/1 outcomes; named ones are refused (as in compare)
        self.tests = loss_tests(self.tests, Loss(self.loss_name, self.zero_one))[0]
        if self.n is None:
            self.n = experiment.n
        if self.learners is not None and not experiment.learners:
            raise ValueError(f"experiment {self.dataset!r} compares learners A and B; "
                             f"learners= is for records with k learners (rq1)")
        if experiment.learners:
            self.learners = [spec_dict(x) for x in (self.learners or experiment.learners)]
            self.learner_a = self.learner_b = None
            names = [x["name"] for x in self.learners]
            if len(names) < 2 or len(set(names)) != len(names):
                raise ValueError(f"learners: two or more learners with distinct names, got {names}")
        elif experiment.learner_free:
            self.learner_a = self.learner_b = None
            if self.backend in BACKENDS:
                self.backend = "auto"     # no learner: the backend plays no part
        else:
            self.learner_a = spec_dict(self.learner_a) if self.learner_a else dict(experiment.learner_a)
            self.learner_b = spec_dict(self.learner_b) if self.learner_b else dict(experiment.learner_b)
        profile_options(self.profile)  # validates
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if isinstance(self.seed, bool) or int(self.seed) != self.seed or int(self.seed) < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        self.seed = int(self.seed)
        for k in ("stratify", "keep_tables"):
            if not isinstance(getattr(self, k), (bool, np.bool_)):
                raise ValueError(f"{k} must be True or False, got {getattr(self, k)!r}")
        self.stratify = bool(self.stratify)
        self.keep_tables = bool(self.keep_tables) and experiment.learner_free  # learners: always
        g = self.group_size
        if isinstance(g, (bool, np.bool_)) or int(g) != g or int(g) < 0:
            raise ValueError(f"group_size must be a non-negative integer (0: no groups), got {g!r}")
        self.group_size = int(g)
        if self.stratify and self.group_size:
            raise ValueError("stratify and group_size cannot be combined: give one of them")
        for k, v in self.data_params.items():   # a string parameter names a file
            if isinstance(v, str):
                _ds.check_name(v, f"data parameter {k}")
        if experiment.stream_key:
            try:
                experiment.stream_key.format(**self.data_params)
            except KeyError as e:
                raise ValueError(f"experiment {self.dataset!r} needs the data parameter "
                                 f"{e.args[0]} (data_params)") from None
            if len(self.units()) != 1:
                raise ValueError(f"experiment {self.dataset!r} draws one design per repetition "
                                 f"from its own stream; tests of {len(self.units())} designs given")
        if self.stratify or self.group_size:
            what = "stratify" if self.stratify else "group_size"
            if experiment.learner_free:
                raise ValueError(f"{what}: the learner-free experiment {self.dataset!r} is drawn "
                                 f"without a partition of records to stratify or group")
            for _, d in self.units():   # a ValueError names a design without the variant
                design_splitter(d, stratify=self.stratify, grouped=bool(self.group_size))
        fixed = _ds.FIXED_PREDICTIONS.get(experiment.dataset)
        if experiment.learner_free and not self.zero_one and fixed is None:
            raise ValueError(f"loss {self.loss_name!r}: the learner-free experiment "
                             f"{self.dataset!r} draws fixed 0/1 losses; give loss='zero_one'")
        if fixed == "regression" and self.zero_one:
            raise ValueError(f"the experiment {self.dataset!r} predicts numbers: give a "
                             f"real-valued loss ('squared', 'absolute')")
        if fixed == "proba" and self.loss != "log":
            raise ValueError(f"the experiment {self.dataset!r} predicts class probabilities: "
                             f"give loss='log'")
        if fixed in ("regression", "classes") and self.loss == "log":
            raise ValueError(f"loss 'log' needs class probabilities, but the experiment "
                             f"{self.dataset!r} predicts "
                             f"{'numbers' if fixed == 'regression' else 'class labels'}")

    @property
    def zero_one(self) -> bool:
        """True under the 0/1 loss (the fold tables); else per-fold loss sums."""
        return self.loss == "zero_one"

    @property
    def loss_name(self) -> str:
        return self.loss if isinstance(self.loss, str) else "cost_matrix"

    def loss_for(self, y):
        """The :class:`pybcv.losses.Loss` of this run for target ``y``."""
        return resolve_loss(self.loss, y)

    @property
    def experiment(self):
        return EXPERIMENTS[self.dataset]

    @property
    def learner_free(self) -> bool:
        return self.experiment.learner_free

    def identity(self) -> dict:
        out = asdict(self)
        del out["data_dir"]            # where the files are does not change the run
        for k in ("stratify", "group_size", "learners", "keep_tables"):
            if not out[k]:
                del out[k]
        if out["loss"] == "zero_one":
            del out["loss"]             # the plain design: the identity of runs made before the options
        return json.loads(json.dumps(out, sort_keys=True))

    def pairs(self) -> List[Tuple[int, int, str]]:
        """(i, j, key) of the pairs of a k-learner run (:func:`pybcv.experiments.pair_keys`);
        [] for an A-versus-B run."""
        return pair_keys(self.learners) if self.learners else []

    def keys(self) -> List[str]:
        """The keys of the results: the tests, or ``"<test>@<pair>"`` of every
        test and pair of a k-learner run."""
        if not self.learners:
            return list(self.tests)
        return [f"{k}@{p}" for _, _, p in self.pairs() for k in self.tests]

    def _stream_key(self) -> str:
        return self.experiment.stream_key.format(**self.data_params)

    def options(self) -> Dict[str, dict]:
        po = profile_options(self.profile)
        return {k: po.get(k, {}) for k in self.tests}

    def units(self) -> List[Tuple[str, str]]:
        """(unit, design) pairs to fit: one per design when shared, else one per test."""
        if self.share_designs:
            return [(d, d) for d in designs_for(self.tests)]
        return [(k, TESTS[k].design) for k in self.tests]

    def unit_of(self, test: str) -> str:
        return TESTS[test].design if self.share_designs else test

    def unit_rng(self, r: int, unit: str):
        return self.unit_rngs([r], unit)[0]

    def unit_rngs(self, reps: Sequence[int], unit: str) -> list:
        """The Generators of ``unit``'s partition in repetitions ``reps``: the
        streams of ``seeds.keyed_seq(seed, r, 1, stream key)`` (a record with
        its own stream key), ``seeds.design_seq`` (shared designs) or
        ``seeds.test_seq``, made together (``seeds.rngs``)."""
        if self.experiment.stream_key:
            return seeds.rngs(self.seed, reps, 1, seeds.stable_id(self._stream_key()))
        return seeds.rngs(self.seed, reps, 1 if self.share_designs else 2, seeds.stable_id(unit))

    def split_labels(self, y) -> dict:
        """The keyword arguments of ``pybcv.pipeline.draw_splits`` that draw
        this run's design variant for class labels ``y``."""
        if self.stratify:
            return {"y": y}
        if self.group_size:
            return {"groups": np.arange(len(y)) // self.group_size}
        return {}

    def fixed_losses(self, d: "_ds.Dataset"):
        """(loss_a, loss_b) per record of a learner-free data set: its fixed
        0/1 losses, or its fixed predictions under this run's loss (0/1
        losses as int8, for the fold tables)."""
        if d.loss_a is not None:
            return d.loss_a, d.loss_b
        loss = self.loss_for(d.y)
        if loss.zero_one:
            return ((d.pred_a != d.y).astype(np.int8), (d.pred_b != d.y).astype(np.int8))
        return loss(d.y, d.pred_a), loss(d.y, d.pred_b)

    def dataset_for(self, r: int) -> "_ds.Dataset":
        seq = (seeds.keyed_seq(self.seed, r, 0, self._stream_key()) if self.experiment.stream_key
               else seeds.data_seq(self.seed, r))
        return self._make_dataset(seq)

    def datasets_for(self, reps: Sequence[int]) -> List["_ds.Dataset"]:
        """``[dataset_for(r) for r in reps]``, their Generators made together
        (``seeds.rngs``; a data set draws from a Generator as from its seed)."""
        key = (0, seeds.stable_id(self._stream_key())) if self.experiment.stream_key else (0,)
        return [self._make_dataset(g) for g in seeds.rngs(self.seed, reps, *key)]

    def _make_dataset(self, seed) -> "_ds.Dataset":
        where = {"folder": self.data_dir} if self.data_dir else {}
        return _ds.make_dataset(self.experiment.dataset, seed, n=self.n, **self.data_params, **where)

    def at(self, value: float) -> "RunConfig":
        """This configuration with the experiment's varied parameter at
        ``value`` (a point of its power curve).

        >>> RunConfig("exp6", "mcnemar_5x2bcv").at(0.5).learner_b
        {'name': 'fnn-weighted', 'omega': 0.5}
        """
        e = self.experiment
        fields = asdict(self)
        if e.varies not in ("data", "learner_b"):
            raise ValueError(f"experiment {self.dataset!r} has no power curve (no varied parameter)")
        if e.varies == "data":
            fields["data_params"] = e.data_params_at(value)
        else:
            fields["learner_b"] = {**self.learner_b, e.varied: float(value)}
        return RunConfig(**fields)

    def varied_value(self) -> Optional[float]:
        """The value of the experiment's varied parameter in this run."""
        e = self.experiment
        src = self.data_params if e.varies == "data" else (self.learner_b or {})
        default = e.data_params.get(e.varied) if e.varies == "data" else None
        v = src.get(e.varied, default)
        return None if v is None else float(v)

    def true_difference(self) -> Optional[float]:
        """mu_A - mu_B where it is known: 0 at every H0 point of the paper's
        experiments (epsilon always; simple at delta = 0; EXP6 and letter at
        the tuned omega / upsilon with the paper's learners); epsilon with a
        ``shift``: the shift; the regression twins with a ``bias``: bias^2
        under the squared loss (unknown under another); else None."""
        e = self.experiment
        if e.learner_free:
            bias = float(self.data_params.get("bias", 0.0))
            if bias:
                return bias ** 2 if self.loss == "squared" else None
            return float(self.data_params.get("shift", 0.0))
        if self.learners:
            return None
        if (self.learner_a != e.learner_a
                or {k: v for k, v in self.learner_b.items() if k != e.varied}
                != {k: v for k, v in e.learner_b.items() if k != e.varied}):
            return None
        v = self.varied_value()
        return 0.0 if v is not None and abs(v - e.h0_value) < 1e-12 else None


def _check_loss(loss):
    """A run's loss as stored in its identity: a name of
    :data:`pybcv.losses.NAMES` or a cost matrix as a list of rows of floats."""
    if isinstance(loss, str):
        if loss not in LOSS_NAMES:
            raise ValueError(f"loss must be one of {', '.join(LOSS_NAMES)} or a cost matrix, "
                             f"got {loss!r}")
        return loss
    if isinstance(loss, (list, tuple, np.ndarray)):
        C = np.asarray(loss, dtype=float)
        if C.ndim != 2 or C.shape[0] != C.shape[1] or C.shape[0] < 2 \
                or not np.all(np.isfinite(C)):
            raise ValueError(f"loss: a cost matrix must be k x k finite numbers (k >= 2), "
                             f"got shape {C.shape}")
        return C.tolist()
    raise ValueError(f"loss must be one of {', '.join(LOSS_NAMES)} or a cost matrix (a run's "
                     f"loss is stored with it: no callable), got {type(loss).__name__}")


def score(cfg: RunConfig, tables: Dict[str, Any], level: float = 0.95, options=None):
    """({key: (statistic[R], pvalue[R])}, {key: (low[R], high[R])}) from
    {unit: (R, F, 2, 2)} tables (under a real-valued ``cfg.loss``: (R, F, 4)
    per-fold loss sums; a k-learner run: ``{"<unit>@<pair>": ...}``), keys as
    :meth:`RunConfig.keys`: each test's kernel runs once for both (the
    intervals for mu_A - mu_B at ``level``, NaN where a test has none)."""
    options = cfg.options() if options is None else options
    res, ci = {}, {}
    for _, _, pair in cfg.pairs() or [(0, 1, None)]:
        for k in cfg.tests:
            key, unit = (k, cfg.unit_of(k)) if pair is None else (f"{k}@{pair}",
                                                                  f"{cfg.unit_of(k)}@{pair}")
            ntr, nte = DESIGNS[TESTS[k].design].sizes(cfg.n)
            run = TESTS[k].batch_with_intervals if cfg.zero_one else TESTS[k].batch_losses
            with admit_withdrawn():     # a profile's options: the paper's one-sided CV-CI z
                stat, p, lo, hi = run(tables[unit], ntr, nte, level=level, **options.get(k, {}))
            res[key], ci[key] = (stat, p), (lo, hi)
    return res, ci
