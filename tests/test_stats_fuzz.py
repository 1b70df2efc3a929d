"""Fuzz (hypothesis): no invalid input to a public statistics function or a
registry entry point returns a number; each raises ValueError or TypeError
with a message that names the argument (docs/conventions.md, "Inputs")."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as hs
from hypothesis.extra import numpy as hnp

from pybcv import stats as S
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS

D15 = [0.02, -0.01, 0.03, 0.0, 0.04, 0.01, 0.02, -0.02, 0.03, 0.01, 0.05, 0.0, 0.02, 0.01, 0.03]
P52 = [[.04, .02], [.01, .03], [.05, .00], [.02, .04], [.03, .01]]
TAB = [[10, 14], [5, 71]]
K10 = [[[0, 3], [1, 36]]] * 10
BCV = [[[0, 12], [7, 131]]] * 10

# ---- pools of invalid values, by kind of argument
BAD_COMMON_ARRAY = [[], [[]], [[0.1], [0.1, 0.2]], np.array([True, False]), np.array([1 + 2j, 3j]), np.array(["a", "b"]),
                    np.array([None, 1.0], dtype=object), "0.1", None, np.nan]
BAD = {
    "diffs": BAD_COMMON_ARRAY + [[0.1, np.nan], [0.1, np.inf], [0.1, 1.5], [[[0.1]]]],
    "counts": BAD_COMMON_ARRAY + [[[1, -2], [3, 4]], [[1, 2.5], [3, 4]], [[1, np.nan], [3, 4]],
                                  [[1e308, 1e308], [1e308, 1.0]], [[0, 0], [0, 0]], [[1, 2, 3]]],
    "flag": [None, 0, 1, "yes", "True", 1.0, np.array([True]), [True]],
    "size": [0, -1, 2.5, 0.5, "10", True, np.nan, np.inf, [], [[1, 2]], 1j, None],
    "alternative": ["both", None, 1, b"less", ["less"], "Less"],
    "rho": [-2, 1.5, np.nan, np.inf, "0.5", None, True, 1j, [0.5]],
    "choice": ["x", None, 1, True],
    "whole": [0, 1.5, True, None, "3", np.nan, -3],
    "rate": [1.2, -0.1, np.nan, True, None, "0.1", [0.1, 0.2]],
    "mu": [2.0, np.nan, [0.1, 0.2], True, "a", None],
    "t": [0, -1, np.nan, np.inf, "2", True],
    "count": [-1, 1.5, True, None, "3", np.nan, np.inf, 10 ** 6],
}

# function, valid kwargs, {argument: kind of its invalid values}
CASES = [
    (S.rho_t, dict(diffs=D15), {"diffs": "diffs", "alternative": "alternative"}),
    (S.rho_t, dict(diffs=D15), {"diffs": "diffs", "alternative": "alternative"}),
    (S.kfold_t, dict(diffs=D15[:10]), {"diffs": "diffs", "alternative": "alternative"}),
    (S.t_5x2cv, dict(diffs=P52), {"diffs": "diffs", "alternative": "alternative"}),
    (S.combined_t_5x2cv, dict(diffs=P52), {"diffs": "diffs", "alternative": "alternative"}),
    (S.blocked_t_3x2bcv, dict(diffs=P52[:3]), {"diffs": "diffs", "alternative": "alternative"}),
    (S.corrected_rho_t, dict(diffs=D15, n_train=270, n_test=30),
     {"diffs": "diffs", "n_train": "size", "n_test": "size", "alternative": "alternative"}),
    (S.corrected_10x10cv_t, dict(diffs=np.full((10, 10), 0.01), n_train=270, n_test=30),
     {"diffs": "diffs", "n_train": "size", "n_test": "size", "alternative": "alternative"}),
    (S.pseudo_bootstrap, dict(mu_hat=0.02, replicates=D15),
     {"mu_hat": "mu", "replicates": "diffs", "alternative": "alternative"}),
    (S.corrected_pseudo_bootstrap, dict(mu_hat=0.02, replicates=D15, n_train=9, n_test=1, J=15),
     {"mu_hat": "mu", "replicates": "diffs", "n_train": "size", "n_test": "size", "J": "whole",
      "alternative": "alternative"}),
    (S.combined_f_5x2cv, dict(diffs=P52), {"diffs": "diffs"}),
    (S.calibrated_f_5x2bcv, dict(diffs=P52), {"diffs": "diffs"}),
    (S.proportion_z, dict(err_a=0.15, err_b=0.09, n_test=100),
     {"err_a": "rate", "err_b": "rate", "n_test": "size", "alternative": "alternative"}),
    (S.conservative_z, dict(mu_hat=0.02, half_means=P52),
     {"mu_hat": "mu", "half_means": "diffs", "alternative": "alternative"}),
    (S.cvci_z, dict(loss_diff=[1, 0, -1, 0, 1]), {"loss_diff": "diffs", "alternative": "alternative"}),
    (S.mcnemar_ho, dict(table=TAB), {"table": "counts", "correction": "flag", "exact": "flag"}),
    (S.mcnemar_kfold_naive, dict(tables=K10),
     {"tables": "counts", "correction": "flag", "empty_fold": "choice"}),
    (S.mcnemar_5x2bcv, dict(tables=BCV),
     {"tables": "counts", "rho1": "rho", "rho2": "rho", "clamp_correction": "flag", "t": "t"}),
    (S.bcv_t, dict(m=5, rho1=0.5, rho2=0.5), {"m": "whole", "rho1": "rho", "rho2": "rho"}),
    (S.cvci_z_from_counts, dict(n01=30, n10=15, n=300),
     {"n01": "count", "n10": "count", "n": "whole", "alternative": "alternative"}),
]
# None is a valid value for some arguments
ALLOWED = {("mcnemar_5x2bcv", "t"): [None]}


def _valid_registry_call(key):
    spec = TESTS[key]
    ntr, nte = DESIGNS[spec.design].sizes(300)
    rng = np.random.default_rng(0)
    T = np.zeros((2, len(ntr), 2, 2))
    T[..., 0, 1] = rng.integers(0, 5, (2, len(ntr)))
    T[..., 1, 0] = rng.integers(0, 5, (2, len(ntr)))
    T[..., 1, 1] = nte - T[..., 0, 1] - T[..., 1, 0]
    return T, ntr, nte


OPTION_KIND = {"alternative": "alternative", "correction": "flag", "exact": "flag", "clamp_correction": "flag",
               "empty_fold": "choice", "rho1": "rho", "rho2": "rho", "t": "t"}


def _check_raises(call, name):
    try:
        out = call()
    except (ValueError, TypeError) as e:
        assert name in str(e), f"error does not name {name!r}: {e}"
        return
    raise AssertionError(f"invalid {name} returned {out!r}")


@settings(max_examples=600, deadline=None)
@given(case=hs.sampled_from(CASES), data=hs.data())
def test_public_functions_reject_invalid_input(case, data):
    fn, kwargs, kinds = case
    name = data.draw(hs.sampled_from(sorted(kinds)))
    bad = data.draw(hs.sampled_from(BAD[kinds[name]]))
    if any(bad is v for v in ALLOWED.get((fn.__name__, name), [])):
        return
    _check_raises(lambda: fn(**{**kwargs, name: bad}), name)


@settings(max_examples=300, deadline=None)
@given(case=hs.sampled_from(CASES), data=hs.data())
def test_public_functions_reject_random_non_real_arrays(case, data):
    fn, kwargs, kinds = case
    arrays = [a for a, k in kinds.items() if k in ("diffs", "counts")]
    if not arrays:
        return
    name = data.draw(hs.sampled_from(arrays))
    dtype = data.draw(hs.sampled_from([np.bool_, np.complex128, np.str_]))
    shape = np.shape(kwargs[name])
    bad = data.draw(hnp.arrays(dtype, shape))
    _check_raises(lambda: fn(**{**kwargs, name: bad}), name)


@settings(max_examples=600, deadline=None)
@given(key=hs.sampled_from(list(TESTS)), entry=hs.sampled_from(["batch", "from_tables", "batch_interval"]),
       data=hs.data())
def test_registry_entry_points_reject_invalid_input(key, entry, data):
    spec = TESTS[key]
    T, ntr, nte = _valid_registry_call(key)
    args = {"tables": T if entry != "from_tables" else T[0], "n_train": ntr, "n_test": nte}
    kinds = {"tables": "counts", "n_train": "size", "n_test": "size"}
    kinds.update({o: OPTION_KIND[o] for o in spec.options})
    if entry == "batch_interval":
        kinds["level"] = "level"
    name = data.draw(hs.sampled_from(sorted(kinds)))
    pool = BAD.get(kinds[name], [0, 1, 1.5, -0.1, np.nan, True, "0.95", None])
    bad = data.draw(hs.sampled_from(pool))
    if name in ("n_train", "n_test") and bad is None and not (
            name == "n_train" and key in ("corrected_rho_t", "corrected_10x10cv_t",
                                          "corrected_pseudo_bootstrap")):
        return      # sizes may be left out: n_test is read from the tables, n_train unused
    if name == "tables" and entry != "from_tables" and isinstance(bad, np.ndarray) and bad.ndim == 3:
        bad = np.stack([bad, bad])                   # a batch of the bad tables
    kw = {k: v for k, v in args.items() if k not in ("tables", "n_train", "n_test")}
    call_args = dict(args)
    if name in ("tables", "n_train", "n_test"):
        call_args[name] = bad
    else:
        kw[name] = bad
    fn = getattr(spec, entry)
    _check_raises(lambda: fn(call_args["tables"], call_args["n_train"], call_args["n_test"], **kw), name)


@pytest.mark.parametrize("key", list(TESTS))
def test_unknown_option_and_wrong_fold_count(key):
    spec = TESTS[key]
    T, ntr, nte = _valid_registry_call(key)
    with pytest.raises(ValueError, match="no option"):
        spec.batch(T, ntr, nte, bogus=1)
    with pytest.raises(ValueError, match="tables"):
        spec.from_tables(np.concatenate([T[0], T[0][:1]]), None, None)
    with pytest.raises(ValueError, match="tables"):
        spec.batch(T[0], ntr, nte)        # one repetition given to batch


def test_flags_must_be_bools():
    with pytest.raises(TypeError, match="correction"):
        S.mcnemar_ho(TAB, correction=None)
    with pytest.raises(TypeError, match="correction"):
        TESTS["mcnemar_ho"].from_tables([TAB], correction=0)
    assert S.mcnemar_ho(TAB, correction=np.bool_(True)).statistic == S.mcnemar_ho(TAB, correction=True).statistic
    assert S.mcnemar_ho(TAB, correction=np.bool_(False), exact=True).pvalue == \
        S.mcnemar_ho(TAB, exact=True).pvalue


def test_rho_range():
    """Valid: -1 <= rho1, rho2 <= 1, rho2 <= (1 + rho1)/2, 1 + rho1 + 8 rho2 > 0."""
    assert S.bcv_t(5, 0.0, 0.5) == 10 / 5
    assert S.bcv_t(5, -0.5, 0.25) == 10 / (0.5 + 2)
    for r1, r2 in [(0.0, 0.51), (1.1, 0.5), (-1.0, -0.1), (0.5, -1.5), (-0.9, -0.05)]:
        with pytest.raises(ValueError, match="rho"):
            S.bcv_t(5, r1, r2)
