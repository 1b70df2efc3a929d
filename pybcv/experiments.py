"""The paper's experiments, one record each: the one place for their facts.

Each :class:`Experiment` says which data set is drawn and at which size,
which learners A and B are compared (with their default parameters), which
parameter is varied for the power curve, its value under H0 (equal true
errors), and the grids of the power curve.  The CLI (``pybcv simulate``,
``pybcv compare``, ``pybcv truth``), the engine (:class:`pybcv.engine.RunConfig`
fills in missing learners from here), the report (the varied parameter of a
power curve) and the R package read these records.

A record compares learners A and B, or k ``learners`` pairwise (RQ1: each
fitted once per repetition, every pair counted and scored; the data set's
file a data parameter, one engine run per file, ``pybcv rq1 run``).

Sources: [YWSL] (the paper), section "Experiments" -- the simulated data sets
(epsilon, simple, EXP6), the UCI letter data and their learners; the H0 values
omega = 0.29 (EXP6) and upsilon = 30.09 (letter) are quoted in the text of
"Experiments for RQ2"; the power curves use lambda = 0, 0.1, ..., 1 with
mu_target = mu_A - lambda (mu_A - mu_B(parameter at lambda = 1)).

:data:`COMPARE_DEFAULTS` are the defaults of a one-off comparison
(:func:`pybcv.compare`, ``pybcv compare`` and the R package's
``compare_learners``): J48 vs kknn (any data), seed 0, the tests of the 5x2
BCV design; :data:`DEMO_LEARNERS` the learners of ``pybcv compare`` without
``--csv`` (the EXP6 experiment's at H0).

>>> EXPERIMENTS["exp6"].learner_b
{'name': 'fnn-weighted', 'omega': 0.29}
>>> EXPERIMENTS["simple"].varied, EXPERIMENTS["simple"].h0_value
('delta', 0.0)
>>> COMPARE_DEFAULTS["seed"], COMPARE_DEFAULTS["tests"]
(0, 'bcv5x2')
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

LAMBDAS: Tuple[float, ...] = tuple(round(0.1 * i, 1) for i in range(11))


@dataclass(frozen=True)
class Experiment:
    """One experiment of the paper.

    ``varied`` is the parameter of the power curve and ``varies`` says whose
    parameter it is: ``"data"`` (a parameter of the data generator, e.g.
    simple's ``delta``) or ``"learner_b"`` (a parameter of B, e.g. EXP6's
    ``omega``).  ``learner_b`` carries B's parameter at its H0 value.
    ``power_grid`` lists the parameter values of the power curve when they
    are fixed in advance (simple); otherwise they come from the true-error
    curve at each ``lambdas`` value (``pybcv truth``), with B's parameter at
    lambda = 1 equal to ``value_at_lambda_1`` and ``truth_grid`` the values
    scored for the true-error curve.
    """
    dataset: str
    n: int
    learner_a: Optional[dict]
    learner_b: Optional[dict]
    varied: str
    varies: str
    h0_value: float
    description: str = ""
    power_grid: Tuple[float, ...] = ()
    lambdas: Tuple[float, ...] = ()
    value_at_lambda_1: Optional[float] = None
    truth_grid: Tuple[float, ...] = ()
    data_params: Dict[str, float] = field(default_factory=dict)
    #: the record's key (default: the data set's name); a second experiment on
    #: the same data set is a second record with its own name
    name: Optional[str] = None
    #: repetitions per unit of work (None: the engine's default, 1 for learner
    #: runs, ~reps/jobs up to 500 for learner-free ones)
    chunk: Optional[int] = None
    #: the per-record loss of its runs unless a run gives another
    #: (``RunConfig.loss``): "zero_one", or "squared" for regressions
    loss: str = "zero_one"
    #: k learners compared pairwise (in place of A and B): each fitted once per
    #: repetition, every pair (:func:`pair_keys`) counted and scored
    learners: Tuple[dict, ...] = ()
    #: the tests the record is scored with, where it fixes them (RQ1)
    tests: str = ""
    #: the record's own random streams: repetition r draws its data from
    #: ``(r, 0, stable_id(key))`` and its one design's partition from
    #: ``(r, 1, stable_id(key))``, key = ``stream_key.format(**data_params)``
    #: (:func:`pybcv.seeds.keyed_seq`; RQ1's streams since its first run)
    stream_key: str = ""

    def __post_init__(self):
        if self.name is None:
            object.__setattr__(self, "name", self.dataset)

    @property
    def learner_free(self) -> bool:
        """True for epsilon: fixed per-record losses, no learner."""
        return self.learner_a is None and not self.learners

    def data_params_at(self, value: float) -> dict:
        """The data generator's parameters with the varied one set to ``value``."""
        if self.varies != "data":
            raise ValueError(f"{self.dataset}: {self.varied} is B's parameter, not the data's")
        return {**self.data_params, self.varied: float(value)}


EXPERIMENTS: Dict[str, Experiment] = {e.name: e for e in [
    Experiment("epsilon", 300, None, None, "eps", "data", 0.1,
               "Dietterich's epsilon: fixed per-record losses, H0 true for every eps",
               data_params={"eps": 0.1}),
    Experiment("simple", 1000, {"name": "glm"}, {"name": "majority"}, "delta", "data", 0.0,
               "two Gaussian classes, logistic regression vs the majority class; delta = 0 is H0",
               power_grid=LAMBDAS, data_params={"delta": 0.0}, chunk=4),
    Experiment("exp6", 300, {"name": "J48-unpruned"}, {"name": "fnn-weighted", "omega": 0.29},
               "omega", "learner_b", 0.29,
               "EXP6 (2 predictors, 6 classes): unpruned C4.5 vs the omega-weighted 1-NN",
               lambdas=LAMBDAS, value_at_lambda_1=1.0,
               truth_grid=(0.2, 0.25, 0.29, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)),
    Experiment("letter", 300, {"name": "tree"}, {"name": "fnn-distorted", "upsilon": 30.09},
               "upsilon", "learner_b", 30.09,
               "UCI letter (16 predictors, 26 classes): CART tree vs the upsilon-distorted 1-NN",
               lambdas=LAMBDAS, value_at_lambda_1=1.0,
               truth_grid=(1.0, 3.0, 8.0, 16.0, 25.0, 30.0, 35.0, 50.0)),
    Experiment("mnist", 1000, {"name": "cnn", "epochs": 5},
               {"name": "cnn-dropout", "rate": 0.0, "epochs": 5}, "rate", "learner_b", 0.0,
               "MNIST: the CNN vs the same CNN with dropout rate gamma; gamma = 0 is H0 "
               "(the paper: n = 10,000, 250 epochs; here reduced to fit a CPU, "
               "docs/replication/mnist/README.md)",
               power_grid=(0.0, 0.1, 0.2, 0.3, 0.4)),
    # the validity battery's symmetric nulls on UCI data (pybcv.validity): two logistic
    # regressions seeing the records through independent noise (pybcv.learners.noisy) of
    # sd noise x the column's sd; equal noise is H0 by symmetry
    *[Experiment(k, 1000, {"name": "glm", "noise": 0.5, "noise_stream": 1},
                 {"name": "glm", "noise": 0.5, "noise_stream": 2}, "noise", "learner_b", 0.5,
                 f"UCI {k} (records drawn with replacement): logistic regression seeing the "
                 f"data through noise vs its twin with other noise; equal noise is H0",
                 power_grid=(0.5, 1.0, 2.0))
      for k in ("magic", "pima", "twonorm")],
    # the battery's loss families (issue 21): two regressions seeing the records through
    # independent noise; compared under a real-valued loss (RunConfig(loss=...))
    Experiment("twin-residuals", 300, None, None, "noise", "data", 1.0,
               "learner-free regression twins: fixed predictions exchangeable given y; "
               "H0 true under any loss", data_params={"noise": 1.0}, loss="squared"),
    Experiment("twin-labels", 300, None, None, "eps", "data", 0.2,
               "learner-free classifier twins (3 classes): fixed predictions exchangeable "
               "given y; H0 true under any cost matrix", data_params={"eps": 0.2}),
    Experiment("twin-probs", 300, None, None, "noise", "data", 1.0,
               "learner-free probability twins: fixed class probabilities exchangeable "
               "given y; H0 true under the log loss", data_params={"noise": 1.0}, loss="log"),
    # the battery's null with training variability (pybcv.validity.ShiftTwin): each twin's
    # error rate moves with the mean of its own shift column over the training set
    # (H0 at B's base error rate 0.3, A's; a higher base makes B worse: the power grid)
    Experiment("shift-twins", 300, {"name": "pybcv.validity.ShiftTwin", "view": 0, "c": 0.5},
               {"name": "pybcv.validity.ShiftTwin", "view": 1, "c": 0.5, "base": 0.3}, "base",
               "learner_b", 0.3, "synthetic twins whose error rates move with their training "
               "sets (base + c x the training mean of a N(0, 1) column of their own): equal "
               "base is H0 by symmetry", power_grid=(0.3, 0.35, 0.4)),
    Experiment("linear", 300,
               {"name": "sklearn.linear_model.Ridge", "noise": 1.0, "noise_stream": 1},
               {"name": "sklearn.linear_model.Ridge", "noise": 1.0, "noise_stream": 2},
               "noise", "learner_b", 1.0,
               "synthetic linear regression: ridge regression seeing X through noise vs its twin "
               "with other noise; equal noise is H0 under any loss",
               power_grid=(1.0, 1.5, 2.0), loss="squared"),
    Experiment("magic-length", 300,
               {"name": "sklearn.linear_model.Ridge", "noise": 0.5, "noise_stream": 1},
               {"name": "sklearn.linear_model.Ridge", "noise": 0.5, "noise_stream": 2},
               "noise", "learner_b", 0.5,
               "UCI magic's fLength from its other numeric columns (records drawn with "
               "replacement): ridge regression seeing the data through noise vs its twin; "
               "equal noise is H0 under any loss",
               power_grid=(0.5, 1.0, 2.0), loss="squared"),
    # RQ1 ([YWSL] "Experiments for RQ1"): 300 records drawn without replacement from one
    # UCI file (data parameter ``file``, one of RQ1_DATASETS), a 5x2 BCV, the seven
    # learners fitted once per repetition and all 21 pairs scored (pybcv.rq1: rho1, rho2).
    # majority and mean run in Python (exact twins of the R learners); mean sees the
    # factors one-hot coded (it needs numbers)
    Experiment("uci-sample", 300, None, None, "", "none", float("nan"),
               "RQ1: the paper's seven learners compared pairwise on UCI data sets",
               name="rq1", tests="mcnemar_5x2bcv",
               stream_key="rq1:{file}",
               learners=({"name": "majority", "backend": "python"},
                         {"name": "mean", "backend": "python", "one_hot": True},
                         {"name": "Logistic"}, {"name": "SMO"}, {"name": "JRip"}, {"name": "J48"},
                         {"name": "kknn", "k": 5, "kernel": "triangular"})),
]}

#: RQ1's data sets: the 21 UCI sets of the paper that this project holds (29 in the paper)
RQ1_DATASETS = ("balance", "cmc", "donors", "german", "krvskp", "letter", "magic",
                "mammographic", "optdigits", "pendigits", "pima", "ringnorm", "satellite",
                "spambase", "splice", "tic_tac_toe", "titanic", "transfusion", "twonorm",
                "wave", "yeast")

def pair_keys(learners) -> List[Tuple[int, int, str]]:
    """(i, j, key) of every pair i < j of ``learners`` (spec dicts), key
    ``"<name i>~<name j>"``: the results of pair (i, j) are stored under
    ``"<test>@<key>"``, its fold tables under ``"<design>@<key>"``.

    >>> pair_keys([{"name": "J48"}, {"name": "kknn"}, {"name": "mean"}])[2]
    (1, 2, 'kknn~mean')
    """
    names = [spec["name"] for spec in learners]
    return [(i, j, f"{names[i]}~{names[j]}")
            for i, j in itertools.combinations(range(len(names)), 2)]


#: The data set of ``pybcv compare`` without ``--csv`` (a demonstration) and
#: its learners: the EXP6 experiment's pair at H0 (fnn-weighted needs exactly
#: the two EXP6 predictors, so these learners are for the demonstration only).
DEMO_DATASET = "exp6"
DEMO_LEARNERS = {side: getattr(EXPERIMENTS[DEMO_DATASET], side)
                 for side in ("learner_a", "learner_b")}

#: Where a learner runs: "auto" (R where it is available, else Python), "r"
#: or "python" -- the choices of every ``backend`` argument.
BACKENDS = ("auto", "r", "python")

#: Defaults of every one-off comparison on the user's data (Python
#: ``compare``, ``pybcv compare --csv``, R).  The learners, C4.5 (J48) and
#: weighted kNN (kknn), take any number of numeric and categorical
#: predictors, in R and in their Python stand-ins.
COMPARE_DEFAULTS = {
    "learner_a": {"name": "J48"},
    "learner_b": {"name": "kknn"},
    "tests": "bcv5x2",          # the tests of the 5x2 BCV design: 10 fits per learner
    "seed": 0,
    "alpha": 0.05,
    "profile": "default",
    "backend": "auto",
}

#: Defaults of ``pybcv simulate`` / :func:`pybcv.engine.simulate`.
SIMULATE_DEFAULTS = {"tests": "table5", "reps": 1000, "seed": 0, "profile": "default",
                     "backend": "auto"}


def get_experiment(name: str) -> Experiment:
    """The record named ``name`` (case-insensitive); ValueError naming the known ones."""
    key = str(name).lower()
    if key not in EXPERIMENTS:
        raise ValueError(f"unknown data set or experiment {name!r}; known: {', '.join(EXPERIMENTS)}")
    return EXPERIMENTS[key]

