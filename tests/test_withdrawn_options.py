"""Withdrawn options (issue 18).  The calibrated t (docs/conventions.md, "The
calibrated t (withdrawn)"): every front end refuses it with a message that
names the withdrawal, and no profile sets a t.  Options the validity battery
found liberal where the test's default holds
(``pybcv.stats._common.WITHDRAWN_OPTIONS``): the table and the committed
battery (docs/validity/results.csv.gz) are kept in step; a direct call,
``from_tables``, a comparison's options and the CLI refuse them with an
error naming the option, while the battery's kernels still score them; a
comparison's one-sided ``alternative`` leaves those tests two-sided with a
note."""
import subprocess
import sys

import numpy as np
import pytest

from pybcv import validity as V
from pybcv.comparison import compare_losses
from pybcv.comparison import test_options as options_of
from pybcv.errors import ArgumentError
from pybcv.partitions import DESIGNS
from pybcv.stats import PROFILES, TESTS, mcnemar_5x2bcv
from pybcv.stats import _common as C
from pybcv.stats._common import admit_withdrawn
import pybcv.stats as S

TABLES = [[3, 12, 7, 128], [2, 10, 8, 130], [4, 14, 6, 126], [3, 9, 9, 129], [2, 11, 5, 132],
          [3, 13, 8, 126], [4, 10, 7, 129], [2, 12, 6, 130], [3, 15, 9, 123], [2, 11, 6, 131]]


def test_t_calibrated_is_refused_naming_the_withdrawal():
    with pytest.raises(ValueError, match="withdrawn"):
        mcnemar_5x2bcv(TABLES, t="calibrated")
    with pytest.raises(ValueError, match="positive finite number"):
        mcnemar_5x2bcv(TABLES, t="2")


def test_no_profile_changes_the_bcv_t():
    assert "calibrated" not in PROFILES
    for name, opts in PROFILES.items():
        assert "t" not in opts.get("mcnemar_5x2bcv", {}), name
    assert mcnemar_5x2bcv(TABLES).t == 20 / 11


def test_cli_refuses_the_calibrated_profile():
    r = subprocess.run([sys.executable, "-m", "pybcv", "compare", "--profile", "calibrated",
                        "--tests", "mcnemar_5x2bcv"], capture_output=True, text=True)
    assert r.returncode == 2
    assert "withdrawn" in r.stderr and "Traceback" not in r.stderr


def test_compare_refuses_the_calibrated_profile_naming_the_argument():
    with pytest.raises(ArgumentError, match="'calibrated' profile was withdrawn") as e:
        compare_losses(np.zeros(40, int), np.ones(40, int), tests="mcnemar_5x2bcv",
                       profile="calibrated")
    assert e.value.argument == "profile"


def _option_of(test: str, variant: str) -> str:
    """The option a variant label sets (``profile=paper`` of the CV-CI z: alternative)."""
    opts = dict(V.variants(test))[variant]
    names = [k for k in opts if k != "exact"] or list(opts)
    assert len(names) == 1, (test, variant)
    return names[0]


def _adds_liberality():
    """(test, variant) flagged liberal on a null family where the default is
    not flagged, or where the default is flagged too but the variant's
    interval lies entirely above the default's: the options that make a test
    liberal, or more liberal, by themselves."""
    a = V.assessed()
    a = a[a.kind == "null"]
    default = a[a.variant == "default"].set_index(["family", "test"])
    out = set()
    for _, r in a[(a.variant != "default") & (a.liberal == True)].iterrows():  # noqa: E712
        d = default.loc[(r.family, r.test)]
        if not d.liberal or r.type1_lo > d.type1_hi:
            out.add((r.test, r.variant))
    return out


ADDS = sorted(_adds_liberality())


def _tables(test: str, seed: int = 0):
    """Fold tables of the test's design (300 records), with disagreements."""
    d = TESTS[test].design
    ntr, nte = DESIGNS[d].sizes(300)
    rng = np.random.default_rng(seed)
    out = []
    for m in np.broadcast_to(np.asarray(nte, int), (TESTS[test].n_folds,)):
        b, c = rng.integers(3, 9, 2)
        a_ = rng.integers(0, m - b - c)
        out.append([[a_, b], [c, m - a_ - b - c]])
    return np.asarray(out, float), np.broadcast_to(np.asarray(ntr, float), (TESTS[test].n_folds,))


def test_the_table_is_the_battery():
    """Each option the battery found liberal where the default holds is
    withdrawn, and each withdrawal is backed by such a finding."""
    assert ADDS, "the committed battery found no option liberal by itself"
    found = {(t, _option_of(t, v)) for t, v in ADDS}
    assert found == set(C.WITHDRAWN_OPTIONS), (
        f"battery only: {sorted(found - set(C.WITHDRAWN_OPTIONS))}; "
        f"table only: {sorted(set(C.WITHDRAWN_OPTIONS) - found)}")


@pytest.mark.parametrize("test,variant", ADDS)
def test_each_liberal_option_is_refused_and_the_battery_still_scores_it(test, variant):
    T, ntr = _tables(test)
    opts = dict(V.variants(test))[variant]
    option = _option_of(test, variant)
    with pytest.raises(ArgumentError, match=f"{option}=.* is withdrawn from .*validity battery") as e:
        TESTS[test].from_tables(T, ntr, **opts)
    assert e.value.argument == option
    assert np.isfinite(TESTS[test].from_tables(T, ntr).pvalue)         # the default runs
    assert TESTS[test].refused(opts) and not TESTS[test].refused({})
    with pytest.raises(ArgumentError, match=f"{option}=.* is withdrawn"):
        TESTS[test].batch(T[None], ntr, None, **opts)                  # one repetition or many
    with admit_withdrawn():                                            # the battery's scoring
        _, p = TESTS[test].batch(T[None], ntr, None, **opts)
    assert np.isfinite(p).all()
    if not variant.startswith("profile="):
        with pytest.raises(ArgumentError, match=f"options\\[{test!r}\\]: {option}="):
            options_of([test], options={test: opts})


def test_only_the_withdrawn_values_are_refused():
    d = [v / 30 for v in (1, 0, 2, -1, 1, 1, 3, 0, 1, 2)]
    for alt in ("less", "greater"):                                    # either direction
        with pytest.raises(ArgumentError, match=f"alternative='{alt}' is withdrawn"):
            S.kfold_t(d, alternative=alt)
    assert S.t_5x2cv(np.reshape(d, (5, 2)), alternative="less").alternative == "less"
    tabs = np.tile([[10.0, 5.0], [8.0, 7.0]], (10, 1, 1))
    assert S.mcnemar_5x2bcv(tabs).t == pytest.approx(20 / 11)
    assert S.mcnemar_5x2bcv(tabs, t=1.5).t == 1.5                      # below the paper's t
    assert S.mcnemar_5x2bcv(tabs, t=20 / 11).t == pytest.approx(20 / 11)
    assert S.mcnemar_5x2bcv(tabs, alternative="less").alternative == "less"
    for kw in ({"t": 2.0}, {"rho1": 0.2, "rho2": 0.3}):                # t from rho above 20/11
        with pytest.raises(ArgumentError, match="t=.* is withdrawn"):
            S.mcnemar_5x2bcv(tabs, **kw)
    assert S.mcnemar_5x2bcv(tabs, rho1=0.6, rho2=0.7).t < 20 / 11
    assert S.mcnemar_ho([[10, 5], [12, 20]], correction=False, exact=True).pvalue > 0
    with pytest.raises(ArgumentError, match="correction=False is withdrawn"):
        S.mcnemar_ho([[10, 5], [12, 20]], correction=False)
    with pytest.raises(ArgumentError, match="correction=False is withdrawn"):
        S.mcnemar_kfold_naive([[0, 2, 1, 37]] * 10, correction=False)
    h = np.tile([0.0, 1.0, -1.0, 1.0], 30)
    for f in (lambda a: S.cvci_z(h, alternative=a), lambda a: S.cvci_z_from_counts(5, 9, 100, a),
              lambda a: S.proportion_z(0.2, 0.3, 100, alternative=a),
              lambda a: S.corrected_rho_t(d + d[:5], 200, 100, alternative=a)):
        with pytest.raises(ArgumentError, match="alternative='less' is withdrawn"):
            f("less")


def test_a_comparison_runs_them_two_sided_with_a_note():
    rng = np.random.default_rng(3)
    la, lb = (rng.random(300) < 0.3).astype(float), (rng.random(300) < 0.3).astype(float)
    keys = ["kfold_t", "cvci_z", "t_5x2cv", "mcnemar_5x2bcv"]
    cmp = compare_losses(la, lb, tests=keys, alternative="greater", seed=1)
    two = compare_losses(la, lb, tests=keys, seed=1)
    for k in ("kfold_t", "cvci_z"):
        assert cmp[k].alternative == "two-sided" and cmp[k].pvalue == two[k].pvalue
    for k in ("t_5x2cv", "mcnemar_5x2bcv"):
        assert cmp[k].alternative == "greater" and cmp[k].pvalue != two[k].pvalue
    note = [n for n in cmp.warnings if "withdrawn" in n]
    assert note and "kfold_t, cvci_z" in note[0] and "two-sided" in note[0]
    assert any("withdrawn" in w for w in cmp.to_json()["comparison"]["warnings"])


def test_the_paper_profile_is_for_the_paper_s_tables_not_a_comparison():
    """The paper profile reads the CV-CI z one-sided: a comparison refuses it
    naming the profile; simulations re-score with it (tests/test_engine.py)."""
    with pytest.raises(ArgumentError, match="profile 'paper' sets cvci_z") as e:
        options_of(["cvci_z", "mcnemar_kfold_naive"], profile="paper")
    assert e.value.argument == "profile"
    assert options_of(["mcnemar_kfold_naive"], profile="paper") == {
        "mcnemar_kfold_naive": {"empty_fold": "drop"}}


@pytest.mark.parametrize("args,flag", [
    (["--profile", "paper", "--tests", "cvci_z"], "--profile"),
    (["--option", "mcnemar_5x2bcv.t=2", "--tests", "mcnemar_5x2bcv"], "--option/--alternative"),
    (["--option", "mcnemar_ho.correction=false", "--tests", "mcnemar_ho"], "--option/--alternative")])
def test_the_cli_refuses_them_as_usage_errors(args, flag):
    r = subprocess.run([sys.executable, "-m", "pybcv", "compare", "--backend", "python", "--quiet",
                        "--a", "majority", *args], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"pybcv: error: {flag}: " in r.stderr and "withdrawn" in r.stderr
