"""The README's examples are true: the Python block prints exactly the
output shown under it, and so does the R block (run with the R package
installed, on iris written to iris.csv)."""
import contextlib
import io
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _block(section, lang):
    part = README.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    code, shown = re.search(rf"```{lang}\n(.*?)```\n```\n(.*?)```", part, re.S).groups()
    return code, shown


def test_readme_python_example_prints_what_it_shows():
    code, shown = _block("Python", "python")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().rstrip() == shown.rstrip()


def test_readme_r_example_prints_what_it_shows(tmp_path):
    from test_r_package import _env, installed_lib_for  # the R package, installed once
    lib = installed_lib_for(tmp_path)
    code, shown = _block("R", "r")
    subprocess.run(["Rscript", "-e", 'write.csv(iris, "iris.csv", row.names = FALSE)'],
                   cwd=tmp_path, check=True)
    script = tmp_path / "readme.R"
    script.write_text(f'.libPaths(c("{lib}", .libPaths()))\n' + code)
    run = subprocess.run(["Rscript", str(script)], cwd=tmp_path, capture_output=True, text=True,
                         env=_env(), timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == shown.strip()


def test_readme_links_exist():
    for target in re.findall(r"\]\(([^)#]+)\)", README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), f"README links to {target}, which does not exist"


@pytest.mark.parametrize("page", ["getting_started.md", "guide/bcv_mcnemar.md", "guide/intervals.md"])
def test_docs_doctests(page):
    import doctest
    res = doctest.testfile(str(ROOT / "docs" / page), module_relative=False,
                           optionflags=doctest.NORMALIZE_WHITESPACE)
    assert res.attempted >= 2 and res.failed == 0
