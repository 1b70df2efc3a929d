"""Reading a user's CSV (issue 21): decimal commas, a word on the columns
read as categorical, a warning when such a column looks numeric, the CLI's
own words in the hints."""
import warnings

import numpy as np
import pytest

from pybcv.cli import main
from pybcv.datasets import load_csv


def _decimal_comma_csv(tmp_path, n=60, stray=False):
    """Columns a, b of numbers with decimal commas; ``stray``: one cell of
    each is text ("nd"), so they are mostly, not only, numbers (a note, not
    an error)."""
    rng = np.random.default_rng(0)
    rows = ["a;b;kind;class"]
    for i in range(n):
        a, b = rng.normal(size=2)
        rows.append(f"{a:.3f};{b:.3f};k{i % 3};{'yes' if a + b > 0 else 'no'}".replace(".", ","))
    if stray:
        rows[5] = "nd;nd;" + rows[5].split(";", 2)[2]
    p = tmp_path / ("dec_stray.csv" if stray else "dec.csv")
    p.write_text("\n".join(rows) + "\n")
    return str(p)


def test_decimal_commas_are_read_as_numbers(tmp_path):
    p = _decimal_comma_csv(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = load_csv(p, sep=";", decimal=",")
    first = open(p).read().splitlines()[1].split(";")
    assert d.X["a"].dtype.kind == "f" and d.X["a"].iloc[0] == float(first[0].replace(",", "."))
    notes = [str(w.message) for w in caught]
    assert any("read as categorical (not numbers): 'kind' (3 levels)" in m for m in notes)
    assert not any("looks numeric" in m for m in notes)


def test_decimal_commas_read_as_text_are_named(tmp_path):
    """A column of numbers written with decimal commas, read without
    decimal=',': an error (as text it would be a predictor of one level per
    value; a new-user walk got error rates of 0.47 for 0.29); a column
    mostly of such numbers gets a note."""
    from pybcv.errors import DataError
    with pytest.raises(DataError, match=r"column 'a' holds numbers written with a comma \(e.g. '0,126'\), "
                                        r"which would be read as text with 60 levels: read them with "
                                        r"decimal=','"):
        load_csv(_decimal_comma_csv(tmp_path), sep=";")
    p = _decimal_comma_csv(tmp_path, stray=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = load_csv(p, sep=";")
    notes = [str(w.message) for w in caught]
    assert d.X["a"].dtype == object
    assert any("'a' (" in m and "'kind' (3 levels)" in m for m in notes)
    assert any("column 'a' has" in m and "numbers with decimal commas" in m and "decimal=','" in m
               for m in notes), notes


def test_many_levels_with_digits_look_numeric(tmp_path):
    p = tmp_path / "units.csv"
    p.write_text("w,class\n" + "".join(f"{i} kg,{'ab'[i % 2]}\n" for i in range(40)))
    with pytest.warns(UserWarning, match=r"column 'w' has 40 levels and looks numeric .*'0 kg'"):
        load_csv(p)


def test_decimal_errors(tmp_path):
    p = _decimal_comma_csv(tmp_path)
    with pytest.raises(ValueError, match="also the field separator"):
        load_csv(p, sep=",", decimal=",")
    with pytest.raises(ValueError, match="decimal must be"):
        load_csv(p, sep=";", decimal=";")


def test_cli_decimal_and_notes(tmp_path, capsys):
    p = _decimal_comma_csv(tmp_path)
    rc = main(["compare", "--csv", p, "--sep", ";", "--a", "majority", "--b", "glm",
               "--backend", "python"])
    out, err = capsys.readouterr()
    assert rc == 2 and not out and "holds numbers written with a comma" in err
    assert "read them with --decimal ," in err, err
    rc = main(["compare", "--csv", _decimal_comma_csv(tmp_path, stray=True), "--sep", ";", "--a",
               "majority", "--b", "glm", "--backend", "python"])
    err = capsys.readouterr().err
    assert rc == 0
    assert "pybcv: note:" in err and "read them with --decimal ," in err, err
    rc = main(["compare", "--csv", p, "--sep", ";", "--decimal", ",", "--a", "majority", "--b", "glm",
               "--backend", "python", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0 and "looks numeric" not in err
    rc = main(["compare", "--csv", p, "--decimal", ",", "--backend", "python"])
    err = capsys.readouterr().err
    assert rc == 2 and "such as --sep ';'" in err


def test_cli_suggests_its_own_options(tmp_path, capsys):
    p = tmp_path / "m.csv"
    p.write_text("a,b,class\n1,?,x\n2,abc,y\n" + "".join(f"{i},{i},{'xy'[i % 2]}\n" for i in range(30)))
    rc = main(["compare", "--csv", str(p), "--backend", "python"])
    err = capsys.readouterr().err
    assert rc == 2 and "--drop-missing" in err and "drop_missing=True" not in err, err
    assert "na_values" not in err


@pytest.mark.parametrize("flag", ["--quiet", "--json"])
def test_cli_data_notes_survive_quiet_and_reach_the_json(tmp_path, capsys, flag):
    import json
    p = _decimal_comma_csv(tmp_path, stray=True)
    for learners in (["--a", "majority", "--b", "glm"], ["--learners", "majority,glm"]):
        rc = main(["compare", "--csv", p, "--sep", ";", "--backend", "python", "--quiet", flag]
                  + learners)
        out, err = capsys.readouterr()
        assert rc == 0 and "read them with --decimal ," in err, err
        if flag == "--json":
            obj = json.loads(out)
            notes = obj["comparison"]["warnings"] if "comparison" in obj else obj["warnings"]
            assert any("read them with --decimal ," in w for w in notes), notes


def test_python_dataframe_with_decimal_comma_text_is_named():
    import pandas as pd
    from pybcv.datasets import from_arrays
    rng = np.random.default_rng(0)
    from pybcv.errors import DataError
    X = pd.DataFrame({"a": [f"{v:.3f}".replace(".", ",") for v in rng.normal(size=60)],
                      "kind": ["x", "y", "z"] * 20})
    with pytest.raises(DataError, match=r"column 'a' holds numbers written with a comma .*pd.to_numeric"):
        from_arrays(X, np.arange(60) % 2)
    X.loc[5, "a"] = "nd"
    with pytest.warns(UserWarning, match=r"column 'a' has 60 levels and looks numeric: .*decimal "
                                         r"commas .*pd.to_numeric"):
        from_arrays(X, np.arange(60) % 2)


def test_compare_takes_a_dataset_read_once(tmp_path):
    """compare()/compare_many() take a Dataset already read and checked
    (load_csv): its notes are said when it is read, never again by the
    comparison, and no second check reads X."""
    from pybcv.comparison import compare, compare_many
    p = _decimal_comma_csv(tmp_path, stray=True)
    with pytest.warns(UserWarning, match="decimal commas"):
        d = load_csv(p, sep=";")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cmp = compare(d, None, "majority", "glm", backend="python")
        many = compare_many(d, learners=["majority", "glm", "majority"], backend="python")
    said = [str(w.message) for w in caught] + cmp.warnings + many.to_json()["warnings"]
    assert not any("decimal commas" in m for m in said), said
    assert cmp.n == d.n and cmp.fits == (10, 10)
    with pytest.raises(ValueError, match="holds its labels: leave y out"):
        compare(d, d.y, "majority", "glm", backend="python")
    with pytest.raises(ValueError, match="learner-free Dataset 'epsilon'"):
        from pybcv.datasets import epsilon
        compare(epsilon(0), None, "majority", "glm", backend="python")
    with pytest.raises(ValueError, match="y is missing"):
        compare(d.X, None, "majority", "glm", backend="python")


def test_cli_compare_reads_the_csv_once(tmp_path, capsys, monkeypatch):
    """pybcv compare --csv hands the data it read to compare(), which checks
    them no second time (so the notes are said once, by the CLI)."""
    import pybcv.comparison as C
    calls = []
    monkeypatch.setattr(C, "from_arrays", lambda *a, **k: calls.append(1) or
                        pytest.fail("compare() re-read the CLI's data"))
    p = _decimal_comma_csv(tmp_path, stray=True)
    rc = main(["compare", "--csv", p, "--sep", ";", "--a", "majority", "--b", "glm",
               "--backend", "python", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0 and not calls, err
    notes = __import__("json").loads(out)["comparison"]["warnings"]
    assert sum("column 'a' has 60 levels" in w for w in notes) == 1, notes
