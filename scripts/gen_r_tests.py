"""Write the R package's test wrappers from Python's registry:

    .venv/bin/python scripts/gen_r_tests.py          # writes R/R/tests_generated.R
    .venv/bin/python scripts/gen_r_tests.py --check  # exit 1 if the file differs

One R function ``<key>_test`` per ``pybcv.stats.TESTS`` entry, with the
public function's arguments under the same names and defaults, the choices of
``registry.OPTION_CHOICES`` (R spelling: "-" becomes ".", as in "two.sided")
checked by ``match.arg``, and roxygen docs made from the function's numpy-style
docstring (description, parameters, returns; the worked example turned into
the R example).  tests/test_r_generated.py fails when the committed file is
not what this script writes; after a change, run it and then roxygen
(``Rscript -e 'roxygen2::roxygenise("R")'``) for R/man.
"""
from __future__ import annotations

import ast
import doctest
import inspect
import re
import sys
import textwrap
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "R" / "R" / "tests_generated.R"

# How R hands each input to Python (R/R/convert.R; np_float and scalar_number
# are the data named in data.name).  A new input name needs a row here; the
# script stops otherwise.
INPUTS = {"diffs": "np_float", "replicates": "np_float", "half_means": "np_float",
          "loss_diff": "np_float", "mu_hat": "scalar_number", "err_a": "scalar_number",
          "err_b": "scalar_number", "n_train": "py_sizes", "n_test": "py_sizes", "J": "py_int"}
# Other names of a test's R function.
R_ALIASES = {"mcnemar_5x2bcv": ("bcv_mcnemar_test",)}

# The McNemar family's tables, read from R's usual forms (R/R/orientation.R):
# (arguments before the options, after them, the R code giving `inp`, its field).
# The McNemar family's tables, read from R's usual forms (R/R/orientation.R):
# the arguments before the Python options and after them.
TABLE_FORMS = {"table": ("x = , y = NULL, truth = NULL", "correct = NULL"),
               "tables": ("x = ", "y = NULL, truth = NULL, folds = NULL, correct = NULL")}
TABLE_PARAMS = {
    "table": [
        ("x", "The 2x2 table: four counts \\code{c(n00, n01, n10, n11)}, a matrix in that "
              "convention (rows learner A, columns learner B, each (incorrect, correct)), or a "
              "\\code{table} with named dimnames read by their level names "
              "(\"correct\"/\"incorrect\", \"right\"/\"wrong\", TRUE/FALSE with TRUE = correct; "
              "dimnames named \\code{B, A} are transposed).  Or the predictions of learner A "
              "(with \\code{y} and \\code{truth}), or A's correctness (logical, with \\code{y})."),
        ("y", "The predictions of learner B (with \\code{truth}), or B's correctness."),
        ("truth", "The true labels, for prediction vectors."),
        ("correct", "The dimnames level that means \"correct\", for a table whose dimnames "
                    "pybcv cannot read (they are an error asking for it)."),
    ],
    "tables": [
        ("x", "The fold tables in fold order: a F x 4 matrix or data frame with columns n00, "
              "n01, n10, n11 (named columns are matched by name), a 2 x 2 x F array or a list of "
              "F 2x2 tables (rows learner A, columns learner B, each (incorrect, correct); named "
              "dimnames are read by their level names).  Or, with \\code{y}, a list of per-fold "
              "predictions of learner A (logical: TRUE = correct, when \\code{truth} is NULL)."),
        ("y", "A list of per-fold predictions of learner B (same folds as \\code{x})."),
        ("truth", "The true labels: a list of per-fold vectors, or one vector for all records "
                  "with \\code{folds}."),
        ("folds", "A list of each fold's validation indices (1-based), e.g. "
                  "\\code{bcv_partitions(n)$validation}."),
        ("correct", "The dimnames level that means \"correct\", for tables whose dimnames "
                    "pybcv cannot read."),
    ],
}


def rd(text: str) -> str:
    """reST-ish docstring text -> Rd text (roxygen with @noMd)."""
    code = []

    def keep(m):
        code.append(m.group(1))
        return f"\0{len(code) - 1}\0"
    text = re.sub(r":\w+:`([^`]+)`", keep, text)
    text = re.sub(r"``([^`]+)``", keep, text)
    text = text.replace("\\", "\\\\").replace("%", "\\%").replace("{", "\\{").replace("}", "\\}")
    return re.sub("\0(\\d+)\0", lambda m: "\\verb{" + rd(code[int(m.group(1))]) + "}", text)


def sections(doc: str):
    """(description paragraphs, {param: text}, returns text) of a numpy docstring."""
    doc = inspect.cleandoc(doc)
    first, _, rest = doc.partition("\n")
    parts = re.split(r"\n(\w+)\n-+\n", "\n" + first + "\n" + textwrap.dedent(rest))
    head, named = parts[0], dict(zip(parts[1::2], parts[2::2]))
    params, name = {}, None
    for line in named.get("Parameters", "").splitlines():
        if line and not line[0].isspace():
            names, _, typ = line.partition(" : ")
            name = [n.strip() for n in names.split(",")]
            for n in name:
                params[n] = [typ.strip(), ""]
        elif line.strip() and name:
            for n in name:
                params[n][1] = (params[n][1] + " " + line.strip()).strip()
    params = {n: f"{t}: {d}" if t and d else t or d for n, (t, d) in params.items()}
    paras = [p.strip() for p in head.strip().split("\n\n") if p.strip()]
    returns = " ".join(l.strip() for l in named.get("Returns", "").splitlines()[1:])
    return paras, params, returns


def pack(prefix, items, suffix, indent, width=88):
    """``prefix item, item, ...suffix`` broken after commas into lines of at most
    ``width`` characters, continuation lines indented by ``indent`` spaces."""
    lines, cur = [], prefix
    for i, it in enumerate(items):
        it += suffix if i == len(items) - 1 else ","
        if len(cur) + 1 + len(it) > width and cur.strip() and not cur.endswith("("):
            lines.append(cur)
            cur = " " * indent + it
        else:
            cur += ("" if cur.endswith(("(", " ")) else " ") + it
    return "\n".join(lines + [cur])


def r_value(v):
    """A Python value as an R literal (one line)."""
    if v is None:
        return "NULL"
    if isinstance(v, (bool, np.bool_)):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return '"' + v.replace('"', '\\"') + '"'
    if isinstance(v, (int, float, np.integer, np.floating)):
        return repr(round(float(v), 12)).removesuffix(".0") if float(v) == float(v) else "NaN"
    a = np.asarray(v, dtype=float)
    flat = a.ravel()
    starts = np.flatnonzero(np.r_[True, flat[1:] != flat[:-1]])
    if a.ndim == 1 and 4 * len(starts) < len(flat):   # long runs: rep(values, lengths)
        lengths = np.diff(np.r_[starts, len(flat)])
        return f"rep({r_value(flat[starts])}, {r_value(lengths)})"
    body = "c(" + ", ".join(r_value(x) for x in flat) + ")"
    return body if a.ndim == 1 else f"matrix({body}, nrow = {a.shape[0]}, byrow = TRUE)"


def r_call(prefix, args, indent=4, width=80):
    """``prefix(args)`` as R code lines broken after commas."""
    items = []
    for a in args:
        items += a.split(", ")   # literals' elements too
    return pack(prefix + "(", items, ")", indent, width)


def r_choices(choices):
    return [c.replace("-", ".") for c in choices]


def example(spec, r_fun: str):
    """The docstring's worked example as R: the variables the call uses, then the call."""
    fname = spec.function.__name__
    ns = dict(vars(sys.modules[spec.function.__module__]))
    lines = []
    for ex in doctest.DocTestParser().get_examples(spec.function.__doc__ or ""):
        tree = ast.parse(ex.source)
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == fname]
        if not calls:
            exec(compile(tree, "<doc>", "exec"), ns)
            continue
        call = calls[0]
        for a in call.args:
            if isinstance(a, ast.Name):
                lines.append(pack(f"{a.id} <- ", r_value(ns[a.id]).split(", "), "", 4, 80))
        args = [a.id if isinstance(a, ast.Name) else r_value(eval(compile(ast.Expression(a), "<doc>", "eval"), ns))
                for a in call.args]
        for kw in call.keywords:
            v = eval(compile(ast.Expression(kw.value), "<doc>", "eval"), ns)
            args.append(f"{kw.arg} = {r_value(v.replace('-', '.') if isinstance(v, str) else v)}")
        lines.append(r_call(r_fun, args))
        break
    if not lines:
        raise SystemExit(f"{spec.key}: no worked example calling {fname}() in its docstring")
    return ["if (pybcv_available()) {"] + ["  " + l for line in lines for l in line.split("\n")] + ["}"]


def wrapper(spec, choices) -> str:
    """Test ``spec``'s roxygen docs and its ``registry_wrapper()`` call (R/R/tests.R)."""
    key, fun = spec.key, spec.key + "_test"
    params = list(inspect.signature(spec.function).parameters.values())
    inputs = [p.name for p in params if p.default is p.empty]
    options = [p for p in params if p.default is not p.empty]
    paras, pdoc, returns = sections(spec.function.__doc__ or "")
    form = inputs[0] if len(inputs) == 1 and inputs[0] in TABLE_FORMS else None
    if form is None:
        unknown = [n for n in inputs if n not in INPUTS]
        if unknown:
            raise SystemExit(f"{key}: no R converter for input(s) {unknown}; add them to INPUTS")

    formals = []
    for p in options:
        if p.name in choices:
            ch = choices[p.name]
            if ch[0] != p.default:
                raise SystemExit(f"{key}: {p.name}'s default {p.default!r} is not its first choice")
            formals.append(f"{p.name} = c({', '.join(r_value(c) for c in r_choices(ch))})")
        else:
            formals.append(f"{p.name} = {r_value(p.default)}")
    if form:
        before, after = TABLE_FORMS[form]
        args = [before] + formals + [after]
        extra = [f'"{form}"']
        doc_params = list(TABLE_PARAMS[form])
        doc_params[0] = ("x", doc_params[0][1] + "  Python: " + rd(pdoc.get(form, "")))
    else:
        args = [f"{n} = " for n in inputs] + formals
        extra = [f'{n} = "{INPUTS[n]}"' for n in inputs]
        doc_params = [(n, rd(pdoc.get(n, "")) or n) for n in inputs]
    for p in options:
        txt = rd(pdoc.get(p.name, ""))
        if p.name in choices:
            txt = ("One of " + ", ".join(f'"{c}"' for c in r_choices(choices[p.name])) +
                   " (the first is the default; see the description).")
            gone = [c for c in r_choices(choices[p.name])
                    if spec.refused({p.name: c.replace(".", "-")})]
            if gone:
                txt = (f'"{r_choices(choices[p.name])[0]}": ' + " and ".join(f'"{c}"' for c in gone)
                       + ' are withdrawn, an error naming what the validity battery found '
                       '(docs/validity/notes.md, "Options").')
        doc_params.append((p.name, txt or f"Python's option {p.name}."))

    doc = [spec.name, ""] + [l for p in paras for l in (rd(p), "")]
    if not any(p.startswith("Source") for p in paras):
        doc += [f"Source: {rd(spec.source)}.", ""]
    doc += [f"Python: \\code{{pybcv.stats.{spec.function.__name__}}}, design \\code{{{spec.design}}}.", ""]
    doc += [f"Python returns {rd(returns)}", ""]
    doc += [f"@param {n} {t}" for n, t in doc_params]
    doc += ["@inherit registry_tests return params", "@noMd", "@export", "@examples"] + example(spec, fun)
    wrapped = []
    for i, line in enumerate(doc):
        if i > doc.index("@examples"):
            wrapped += line.split("\n")
        else:
            wrapped += textwrap.wrap(line, 84, break_long_words=False, break_on_hyphens=False) or [""]
    head = "\n".join(("#' " + l).rstrip() for l in wrapped)
    items = ", ".join(a for a in args if a).replace('", "', '"\0"').split(", ")
    alist = "alist(" + ", ".join(a.replace("\0", ", ") for a in items) + ")"
    rest = ", ".join(extra) if form else "c(" + ", ".join(extra) + ")"
    one_line = f'{fun} <- registry_wrapper("{key}", {alist}, {rest})'
    code = one_line if len(one_line) <= 140 else "\n".join([f'{fun} <- registry_wrapper("{key}",',
                      pack("  alist(", [a.replace("\0", ", ") for a in items], "),", 8, 88),
                      pack("  form = " if form else "  c(", extra if form else extra, ")" if form else "))",
                           4, 88)])
    for alias in R_ALIASES.get(key, ()):
        code += f"\n\n#' @rdname {fun}\n#' @export\n{alias} <- {fun}"
    return f"{head}\n{code}\n"


def generate() -> str:
    from pybcv.stats.registry import OPTION_CHOICES, TESTS
    out = ["## Generated by scripts/gen_r_tests.py from pybcv.stats.TESTS: do not edit by hand.",
           "## Each test's docs and its function, made by registry_wrapper() (R/R/tests.R,",
           "## collated before this file).", "", ""]
    return "\n".join(out) + "\n".join(wrapper(s, OPTION_CHOICES) for s in TESTS.values())


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    text = generate()
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text() == text
        print(f"{OUT.relative_to(ROOT)} is {'up to date' if same else 'stale: run scripts/gen_r_tests.py'}")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
