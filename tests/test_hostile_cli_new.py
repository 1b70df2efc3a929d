"""Malformed command lines on the newer surfaces (issue 22's sweep: losses,
stratify/groups, import-path learners, validity, archive, --decimal,
--timeout): each ends in a one-line error naming the argument, exit code 2,
never a traceback hint or a run.  The cases listed first were found failing
(numbers for bad input or an internal error); the others guard what holds."""
import pytest

from pybcv.cli import main

CASES = [
    # found: a count accepted as 0 / not a number, an internal error
    (["validity", "run", "--jobs", "0", "--runs", "VR"], "argument --jobs: must be an integer >= 1"),
    (["validity", "run", "--jobs", "abc", "--runs", "VR"], "argument --jobs: must be an integer >= 1"),
    (["validity", "score", "--runs", "no/such/folder"], "--runs: no folder 'no/such/folder'"),
    # found (second sweep): a time limit below a microsecond switched the timer off (no limit,
    # exit 0)
    (["compare", "--timeout", "1e-300", "--n", "60"],
     "argument --timeout: must be a positive number of seconds (at least 0.001)"),
    (["simulate", "--dataset", "simple", "--reps", "2", "--timeout", "1e-7", "--out", "VR"],
     "argument --timeout: must be a positive number of seconds (at least 0.001)"),
    # held already
    (["compare", "--loss", "nosuch", "--n", "60"], "--loss: unknown loss 'nosuch'"),
    (["compare", "--loss", "", "--n", "60"], "--loss: unknown loss ''"),
    (["compare", "--loss", "cost:1,2", "--n", "60"], "argument --loss: a cost matrix is numbers"),
    (["compare", "--a", "sklearn.linear_model.Ridge", "--b", "sklearn.linear_model.Lasso", "--stratify",
      "--n", "60"], "--stratify: it forms the blocks"),
    (["compare", "--stratify", "--n", "60", "--tests", "kfold_t"], "--stratify with --tests kfold_t"),
    (["compare", "--a", "sklearn.tree.DecisionTreeClassifier:nosuch=1", "--n", "60"],
     "has no parameter 'nosuch'"),
    (["compare", "--a", "sklearn.tree.DecisionTreeClassifier:=3", "--n", "60"],
     "parameter '=3': write path:param=value"),
    (["compare", "--a", "sklearn.tree.DecisionTreeClassifier:max_depth=(1,", "--n", "60"],
     "unbalanced brackets"),
    (["compare", "--a", "os.system:command=ls", "--n", "60"], "not an estimator class"),
    (["compare", "--a", "sklearn.tree.NoSuchThing", "--n", "60"], "has no 'NoSuchThing'"),
    (["compare", "--timeout", "nan"], "argument --timeout: must be a positive number"),
    (["compare", "--timeout", "1e400"], "argument --timeout: must be a positive number"),
    (["compare", "--timeout", ""], "argument --timeout: must be a positive number"),
    (["compare", "--decimal", ";"], "argument --decimal: invalid choice"),
    (["archive", "pack", "x"], "argument archive_cmd: invalid choice: 'pack'"),
    (["archive", "unpack", "no/such.npz"], "not a folder: no/such.npz"),
]


@pytest.mark.parametrize("argv,msg", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_malformed_command_line_is_a_plain_usage_error(argv, msg, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc = main(argv + ["--quiet"] if argv[0] in ("compare", "validity") else argv)
    err = capsys.readouterr().err
    assert rc == 2, err
    assert msg in err and "PYBCV_TRACEBACK" not in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "VR").exists()


# found (second sweep): an output folder under a file ended in the traceback hint (validity)
@pytest.mark.parametrize("argv,msg", [
    (["validity", "report", "--out", "afile/x"], "--out: output folder 'afile/x' is not writable"),
    (["validity", "score", "--runs", ".", "--out", "afile/x"],
     "--out: output folder 'afile/x' is not writable"),
    (["validity", "run", "--runs", "afile/VR", "--families", "epsilon n=300 eps=0.1"],
     "--runs: output folder 'afile/VR' is not writable"),
])
def test_an_output_folder_under_a_file_is_a_plain_usage_error(argv, msg, capsys, tmp_path,
                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    rc = main(argv + ["--quiet"])
    err = capsys.readouterr().err
    assert rc == 2 and msg in err and "PYBCV_TRACEBACK" not in err, err


def test_archive_verify_with_nothing_to_verify_says_so(capsys, tmp_path):
    # found (second sweep): exit 0 and no output, as if every run were identical
    assert main(["archive", "verify", str(tmp_path)]) == 1
    assert f"no results.sqlite under {tmp_path}" in capsys.readouterr().err


def test_a_time_limit_too_short_for_a_timer_is_refused_in_python():
    from pybcv.learners.timelimit import check_timeout
    with pytest.raises(ValueError, match=r"timeout must be a positive number of seconds \(at least"):
        check_timeout(1e-300)
    assert check_timeout(0.001) == 0.001


# found (second sweep, seen and fixed by the lead): a folder named results.sqlite beside an
# archive was taken for a store ("0 archive(s) unpacked", exit 0)
def test_unpacking_beside_a_folder_named_like_the_store_is_refused(capsys, tmp_path):
    import shutil
    from pathlib import Path
    src = Path(__file__).resolve().parents[1] / "docs/replication/runs/letter_typeI/run.npz"
    shutil.copy(src, tmp_path / "run.npz")
    (tmp_path / "results.sqlite").mkdir()
    rc = main(["archive", "unpack", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2 and "results.sqlite is not a file" in err and "Traceback" not in err, err


# found (second sweep): control characters of --title went raw into the report (a line break
# ended the Markdown heading)
def test_control_characters_of_a_report_title_are_escaped(capsys, tmp_path):
    from pathlib import Path
    run = Path(__file__).resolve().parents[1] / "docs/replication/runs/letter_typeI"
    rc = main(["report", str(run), "--title", "A\nB\x07", "--out", str(tmp_path / "r.md")])
    assert rc == 0, capsys.readouterr().err
    first = (tmp_path / "r.md").read_text().splitlines()[0]
    assert first == "# A\\nB\\x07", first
