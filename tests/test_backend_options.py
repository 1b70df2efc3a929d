"""R learners' own options are checked against the backend that will run
them (issue 22): accepted with --backend r (and in the R package), refused
with a clear message with --backend python, and with --backend auto only
when R is unavailable."""
import pytest

from pybcv.cli import main
from pybcv.learners import check_learner

R_ONLY = [("J48", {"options": "-C 0.1"}), ("J48", {"options": "-R"}),
          ("JRip", {"options": "-F 4"}), ("kknn", {"kernel": "gaussian"}),
          ("kknn", {"kernel": "optimal"})]


@pytest.mark.parametrize("name,params", R_ONLY)
def test_r_options_pass_for_the_r_backend_and_not_for_python(name, params):
    est = check_learner(name, backend="r", **params)          # starts no R
    assert est.backend == "r"
    with pytest.raises(ValueError, match="Python"):
        check_learner(name, backend="python", **params)


def test_auto_accepts_r_options_only_when_r_runs(monkeypatch):
    import pybcv.learners.base as base
    monkeypatch.setattr(base, "r_problem", lambda pkgs, what: None)
    assert check_learner("kknn", backend="auto", kernel="gaussian").kernel == "gaussian"
    monkeypatch.setattr(base, "r_problem", lambda pkgs, what: "R is not installed")
    with pytest.raises(ValueError, match="R, which would run it with backend='auto', is unavailable "
                                         r"\(R is not installed\)"):
        check_learner("kknn", backend="auto", kernel="gaussian")


@pytest.mark.parametrize("spec", ["J48:options=-C 0.1", "JRip:options=-F 4", "kknn:kernel=gaussian"])
def test_cli_checks_against_the_chosen_backend(capsys, monkeypatch, spec):
    import pybcv.cli as cli
    ran = {}

    def fake_compare(X, y, a, b, **kw):          # the options reach the comparison unrefused
        ran["a"] = a
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "compare", fake_compare)
    rc = main(["compare", "--a", spec, "--backend", "r", "--n", "60", "--quiet"])
    assert rc == 130 and ran["a"]["name"] == spec.split(":")[0]
    capsys.readouterr()
    rc = main(["compare", "--a", spec, "--backend", "python", "--n", "60", "--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and "--backend r" in err and "Traceback" not in err, err
    assert err.startswith(f"pybcv: error: --a: learner '{spec.split(':')[0]}'"), err
