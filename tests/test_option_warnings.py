"""Options the validity battery found liberal where the test's default holds
warn on every result built with them (``pybcv.stats._common.LIBERAL_OPTIONS``,
issue 18): the table and the committed battery (docs/validity/results.csv.gz)
are kept in step here, and the warning reaches a direct call, a comparison
and its JSON (the CLI prints and R reads the result's warnings)."""
from dataclasses import replace

import numpy as np
import pytest

from pybcv import validity as V
from pybcv.comparison import compare_losses
from pybcv.partitions import DESIGNS
from pybcv.stats import TESTS
from pybcv.stats import _common as C
import pybcv.stats as S


def _option_of(test: str, variant: str) -> str:
    """The option a variant label sets (``profile=paper`` of the CV-CI z: alternative)."""
    opts = dict(V.variants(test))[variant]
    names = [k for k in opts if k != "exact"] or list(opts)
    assert len(names) == 1, (test, variant)
    return names[0]


def _adds_liberality():
    """(test, variant) flagged liberal on a null family whose default is not
    flagged there: the options that make a test liberal by themselves."""
    a = V.assessed()
    a = a[a.kind == "null"]
    default = a[a.variant == "default"].set_index(["family", "test"]).liberal
    out = set()
    for _, r in a[(a.variant != "default") & (a.liberal == True)].iterrows():  # noqa: E712
        if not default.get((r.family, r.test), False):
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


def _warned(res, option: str) -> bool:
    return any(w.startswith(f"{option}=") and "validity battery" in w for w in res.warnings)


def test_the_table_is_the_battery():
    """Each option the battery found liberal where the default holds has its
    entry (t = 2.512, withdrawn as a profile, is covered by the t entry), and
    each entry is backed by such a finding."""
    assert ADDS, "the committed battery found no option liberal by itself"
    found = {(t, _option_of(t, v)) for t, v in ADDS}
    assert found == set(C.LIBERAL_OPTIONS), (f"battery only: {sorted(found - set(C.LIBERAL_OPTIONS))}; "
                                             f"table only: {sorted(set(C.LIBERAL_OPTIONS) - found)}")


@pytest.mark.parametrize("test,variant", ADDS)
def test_each_liberal_option_warns_and_the_default_does_not(test, variant):
    T, ntr = _tables(test)
    opts = dict(V.variants(test))[variant]
    option = _option_of(test, variant)
    assert _warned(TESTS[test].from_tables(T, ntr, **opts), option)
    assert not any("validity battery" in w for w in TESTS[test].from_tables(T, ntr).warnings)


def test_only_the_flagged_values_warn():
    d = [v / 30 for v in (1, 0, 2, -1, 1, 1, 3, 0, 1, 2)]
    assert not S.kfold_t(d).warnings
    assert _warned(S.kfold_t(d, alternative="less"), "alternative")     # either direction
    assert not S.t_5x2cv(np.reshape(d, (5, 2)), alternative="less").warnings
    tabs = np.tile([[10.0, 5.0], [8.0, 7.0]], (10, 1, 1))
    assert not S.mcnemar_5x2bcv(tabs).warnings
    assert not S.mcnemar_5x2bcv(tabs, t=1.5).warnings                  # below the paper's t
    assert not S.mcnemar_5x2bcv(tabs, alternative="less").warnings     # liberal only with the default
    assert _warned(S.mcnemar_5x2bcv(tabs, t=2.0), "t")
    assert _warned(S.mcnemar_5x2bcv(tabs, rho1=0.2, rho2=0.3), "t")     # t from rho above 20/11
    assert not S.mcnemar_ho([[10, 5], [12, 20]], correction=False, exact=True).warnings
    r = S.mcnemar_ho([[10, 5], [12, 20]], correction=False)
    assert _warned(r, "correction")
    assert sum("validity battery" in w for w in replace(r, warnings=r.warnings).warnings) == 1


def test_a_comparison_and_its_json_carry_it():
    rng = np.random.default_rng(3)
    la, lb = (rng.random(300) < 0.3).astype(float), (rng.random(300) < 0.3).astype(float)
    cmp = compare_losses(la, lb, tests=["kfold_t", "cvci_z"], alternative="greater", seed=1)
    for k in ("kfold_t", "cvci_z"):
        assert _warned(cmp[k], "alternative")
        assert any("validity battery" in w for w in cmp.to_json()["tests"][k]["warnings"])
    assert "alternative='greater': the validity battery" in str(cmp)
    two = compare_losses(la, lb, tests=["kfold_t", "cvci_z"], seed=1)
    assert not any("validity battery" in w for r in two.results.values() for w in r.warnings)
