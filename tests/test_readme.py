"""The README's examples are true: its doctest block runs, and the script
block of "Your own models' predictions" prints exactly the output shown."""
import contextlib
import doctest
import io
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_readme_doctests():
    res = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                           optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.attempted >= 5 and res.failed == 0


def test_readme_own_predictions_example_prints_what_it_shows():
    section = README.split("## Your own models' predictions", 1)[1]
    code, shown = re.search(r"```python\n(.*?)```\n```\n(.*?)```", section, re.S).groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().rstrip() == shown.rstrip()
