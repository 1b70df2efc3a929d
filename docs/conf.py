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
                    "validity/notes.md",      # included in validity/README.md by its generator
                    "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.md5",
                    "auto_examples/*.zip"]

# MyST: $...$ math, anchors for headings (links like page.md#a-heading)
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
# Links from the Markdown pages to files of the repository that are not
# pages of the site (scripts, CSV files, archives) stay plain links.
suppress_warnings = ["myst.xref_missing", "myst.header"]

autosummary_generate = True
# members grouped by kind (classes, functions, data), a data value not printed
autodoc_default_options = {"members": True, "show-inheritance": False,
                           "member-order": "groupwise", "no-value": True}
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
# A local MathJax 2 (Debian's libjs-mathjax:
# file:///usr/share/javascript/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML)
# when PYBCV_DOCS_MATHJAX names it, for viewing the site offline; the default
# is MathJax 3 from its CDN.
if os.environ.get("PYBCV_DOCS_MATHJAX"):
    mathjax_path = os.environ["PYBCV_DOCS_MATHJAX"]
    mathjax3_config = None
    mathjax2_config = {"tex2jax": {"inlineMath": [["\\(", "\\)"]],
                                   "displayMath": [["\\[", "\\]"]],
                                   "processEscapes": True, "processClass": "math|output_area",
                                   "ignoreClass": "document"}}


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


def _more_topics(app, docname, source):
    """guide/index: the pages other topics put into docs/guide/ (not listed
    in its first toctree) go into a "More topics" toctree."""
    if docname != "guide/index":
        return
    text = source[0]
    here = os.path.join(app.srcdir, "guide")
    listed = set(re.findall(r"^(\w[\w-]*)$", text.split("<!-- more topics -->")[0], re.M))
    more = sorted(os.path.splitext(f)[0] for f in os.listdir(here)
                  if f.endswith((".md", ".rst")) and os.path.splitext(f)[0] not in listed | {"index"})
    block = ("```{toctree}\n:maxdepth: 1\n:caption: More topics\n\n" + "\n".join(more) + "\n```\n"
             if more else "")
    source[0] = text.replace("<!-- more topics -->", block)


def _registry_table(app, docname, source):
    """guide/tests: the table of tests, generated from the registry."""
    if "<!-- registry: tests -->" not in source[0]:
        return
    from pybcv.stats import TESTS
    rows = ["| key | name | family | design | in Table 5 |", "|---|---|---|---|---|"]
    for key, spec in TESTS.items():
        rows.append(f"| `{key}` | {spec.name} | {spec.family} | `{spec.design}` | "
                    f"{'yes' if spec.in_table5 else ''} |")
    source[0] = source[0].replace("<!-- registry: tests -->", "\n".join(rows))


def setup(app):
    app.connect("source-read", _more_topics)
    app.connect("source-read", _registry_table)
    app.connect("autodoc-process-docstring", _keep_original, priority=100)
    app.connect("autodoc-process-docstring", _plain_if_invalid, priority=900)
