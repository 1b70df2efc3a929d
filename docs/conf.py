"""Sphinx configuration of pybcv's documentation site (bash scripts/docs.sh)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("MPLBACKEND", "Agg")

import pybcv  # noqa: E402

project = "pybcv"
author = "the pybcv developers"
copyright = "the pybcv developers, MIT licence"
release = version = pybcv.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "replication/runs", "replication/analysis/sim_*",
                    "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.md5",
                    "auto_examples/*.zip"]

# MyST: $...$ math, anchors for headings (links like page.md#a-heading)
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
# Links from the Markdown pages to files of the repository that are not
# pages of the site (scripts, CSV files, archives) stay plain links.
suppress_warnings = ["myst.xref_missing", "myst.header"]

autosummary_generate = True
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_validation_checks = set()

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "plot_gallery": "True",
}

html_theme = "furo"
html_title = f"pybcv {release}"
html_static_path = ["_static"]
html_css_files = ["pybcv.css"]
# A local MathJax (Debian's libjs-mathjax) when PYBCV_DOCS_MATHJAX names it,
# e.g. for viewing the site offline; the default is MathJax's CDN.
if os.environ.get("PYBCV_DOCS_MATHJAX"):
    mathjax_path = os.environ["PYBCV_DOCS_MATHJAX"]


# --- Docstrings written as plain text (|x| for an absolute value, a*b, an
# indented continuation) are not always valid reStructuredText.  Each
# docstring, after numpydoc, is parsed once by docutils; one that would give
# a warning is shown as preformatted text instead, so the API pages never
# misrender and the build (warnings as errors) does not depend on it.
import io  # noqa: E402
import re  # noqa: E402

import docutils.core  # noqa: E402
import docutils.utils  # noqa: E402

_SPHINX_ONLY = ("Unknown interpreted text role", "Unknown directive type",
                "No role entry", "No directive entry", 'Trying "')


def _rst_problems(lines):
    text = "\n".join(lines)
    text = re.sub(r":(?:[\w-]+:)?[\w-]+:`", "`", text)      # :func:`x` -> `x`
    stream = io.StringIO()
    try:
        docutils.core.publish_doctree(text, settings_overrides={
            "report_level": 2, "halt_level": 5, "warning_stream": stream})
    except Exception as e:  # pragma: no cover - docutils itself failed
        return str(e)
    problems = [ln for ln in stream.getvalue().splitlines()
                if ("WARNING" in ln or "ERROR" in ln or "SEVERE" in ln)
                and not any(s in ln for s in _SPHINX_ONLY)]
    return "\n".join(problems)


_ORIGINAL = {}


def _keep_original(app, what, name, obj, options, lines):
    _ORIGINAL[name] = list(lines)


def _plain_if_invalid(app, what, name, obj, options, lines):
    if not lines or not _rst_problems(lines):
        return
    original = _ORIGINAL.get(name, lines)
    lines[:] = ["::", ""] + ["    " + ln for ln in original] + [""]


def setup(app):
    app.connect("autodoc-process-docstring", _keep_original, priority=100)
    app.connect("autodoc-process-docstring", _plain_if_invalid, priority=900)
