"""Markdown reports of simulation folders, beside the paper's Table 5.

* A type-I folder (``results.sqlite``) gives one column: our rejection rate
  with its Monte Carlo standard error next to the paper's value and its SE
  (binomial, 1000 repetitions); ``z`` = difference / pooled binomial SE, marked
  **>3SE** when |z| > 3.
* A power folder (``power.csv`` with ``param=<v>/`` runs) gives a PNG power
  curve (matplotlib, Agg) and a table.

``profile`` re-scores every run under that option profile (from the stored
fold tables; epsilon is recomputed) and the report names the profile.
"""
from __future__ import annotations

import glob
import html
import unicodedata
import json
import math
import os
from typing import List, Optional


from . import paper
from .experiments import EXPERIMENTS
from .engine import load_result
from .engine.simulation import is_stored_run
from .pipeline import learner_label
from .stats import TESTS, PROFILES

ALPHA = 0.05


def two_sample_z(r1: float, n1: int, r2: float, n2: int) -> float:
    """z of the difference of two rejection rates with the pooled binomial SE
    sqrt(p(1-p)(1/n1 + 1/n2)), p the pooled rate (a rate of 0 in a short run
    then still has a sensible SE)."""
    p = (r1 * n1 + r2 * n2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return (r1 - r2) / se if se > 0 else 0.0


def _text(s: str) -> str:
    """User text (a title, a folder name) as Markdown text: HTML in it is
    shown, never rendered; control characters (a line break would end the
    heading) are written as escapes.

    >>> _text("<script>x</script> & co")
    '&lt;script&gt;x&lt;/script&gt; &amp; co'
    >>> print(_text('a' + chr(10) + 'b' + chr(7)))
    a\\nb\\x07
    """
    s = "".join(repr(c)[1:-1] if unicodedata.category(c) == "Cc" else c for c in str(s))
    return html.escape(s, quote=False)


def _fmt_param(cfg, varied: Optional[str] = None) -> str:
    """The run's data parameters and learners with their parameters, e.g.
    ``A=cnn:epochs=5, B=cnn-dropout:epochs=5,rate=0``; ``varied`` (a power
    curve's parameter) is left out."""
    bits = [f"{k}={v}" for k, v in (cfg.data_params or {}).items() if k != varied]
    for side, spec in (("A", cfg.learner_a), ("B", cfg.learner_b)):
        if spec:
            bits.append(f"{side}=" + learner_label({k: v for k, v in spec.items() if k != varied}))
    return ", ".join(bits)


def failure_lines(failures, head: str = "- **{n} repetition(s) failed** and are left out of "
                  "the rates:", bullet: str = "  - ", shown: int = 5) -> List[str]:
    """Lines listing the repetitions whose learner failed (left out of every
    rate; Markdown by default), ``head`` with their number ``n``; none when all ran."""
    if not failures:
        return []
    more = [f"{bullet}... and {len(failures) - shown} more"] if len(failures) > shown else []
    return [head.format(n=len(failures))] + [bullet + f["message"] for f in failures[:shown]] + more


def type1_section(d: str, profile: Optional[str] = None) -> (str, dict):
    res = load_result(d, profile=profile)
    cfg = res.config
    if cfg.learners:
        raise ValueError(f"{d}: a run of {len(cfg.learners)} learners compared pairwise "
                         f"(experiment {cfg.dataset!r}); its report is `pybcv rq1 "
                         f"report --out <the folder above runs/>`")
    R = len(res.reps)
    col = cfg.dataset if cfg.dataset in paper.COLUMNS else None
    ref = paper.table5(col) if col else {}
    rates = res.rejection_rate(ALPHA)
    cov = res.coverage()        # where the statistics give intervals and the true difference is known

    head = [f"### {cfg.dataset}: type-I error at alpha = {ALPHA} ({_text(d)})", ""]
    if R == 0:                   # every repetition failed, or none finished yet
        lines = [*head, f"- **no finished repetition**: no rate to report "
                 f"({len(res.failures)} failed)", *failure_lines(res.failures), ""]
        return "\n".join(lines), {"dataset": cfg.dataset, "reps": 0, "rates": rates, "flags": {}}

    def cov_cell(k):
        return (f" {cov[k]:.3f} |" if k in cov else " - |") if cov else ""
    lines = [*head, f"- repetitions: **{R}** (paper: {paper.PAPER_REPS.get(col, '-')}); seed {cfg.seed}; "
             f"n = {cfg.n}; {_fmt_param(cfg) or 'learner-free (fixed per-record losses)'}",
             f"- option profile: **{cfg.profile}** {json.dumps(PROFILES[cfg.profile])}",
             f"- backend that ran: {', '.join(res.backends)}; fits per repetition: "
             f"A {res.fits_per_rep[0]:.0f}, B {res.fits_per_rep[1]:.0f}; "
             f"{res.seconds_per_rep:.3f} s per repetition", *failure_lines(res.failures), "",
             "| test | ours | MC SE | paper | paper SE | z | |" + (" 95% CI coverage |" if cov else ""),
             "|---|---:|---:|---:|---:|---:|---|" + ("---:|" if cov else "")]
    flags = {}
    for k in cfg.tests:
        r = rates[k]
        se = math.sqrt(r * (1 - r) / R)
        paper_cells = "- | - | - | "
        if k in ref:
            pv, z = ref[k], two_sample_z(r, R, ref[k], paper.PAPER_REPS[col])
            flags[k] = (r, pv, z)
            paper_cells = (f"{pv:.3f} | {paper.paper_se(pv, col):.3f} | {z:+.1f} | "
                           f"{'**>3SE**' if abs(z) > 3 else ''} ")
        lines.append(f"| {TESTS[k].name} | {r:.3f} | {se:.3f} | {paper_cells}|" + cov_cell(k))
    n_out = sum(abs(z) > 3 for _, _, z in flags.values())
    lines += ["", f"{len(flags) - n_out} of {len(flags)} tests lie within 3 standard errors (pooled) "
              f"of the paper." if flags else "", ""]
    return "\n".join(lines), {"dataset": cfg.dataset, "reps": R, "rates": rates, "flags": flags}


def power_section(d: str, profile: Optional[str], out_dir: Optional[str]) -> str:
    subs = [sub for sub in sorted(glob.glob(os.path.join(d, "param=*"))) if is_stored_run(sub)]
    runs = sorted(((float(os.path.basename(p).split("=", 1)[1]), load_result(p, profile=profile))
                   for p in subs), key=lambda x: x[0])
    cfg = runs[0][1].config
    pname = EXPERIMENTS[cfg.dataset].varied
    tpath = os.path.join(d, "truth.json")
    truth = json.load(open(tpath)) if os.path.exists(tpath) else None
    def lam_of(x):
        if not truth:
            return None
        best = min(truth["targets"], key=lambda t: abs(t[pname] - x))
        return best["lambda"] if abs(best[pname] - x) <= 1e-3 * max(1.0, abs(x)) else None
    xs = [v for v, _ in runs]
    reps = [len(r.reps) for _, r in runs]
    lines = [f"### {cfg.dataset}: power curve along {pname} ({_text(d)})", "",
             f"- repetitions per point: {min(reps)}–{max(reps)}; profile **{cfg.profile}**; seed {cfg.seed}; "
             f"{_fmt_param(cfg, pname)} ({pname} varies); backend {', '.join(sorted({b for _, r in runs for b in r.backends}))}",
             *failure_lines([f for _, r in runs for f in r.failures]), ""]
    lams = [lam_of(x) for x in xs]
    use_lam = all(lv is not None for lv in lams)
    if use_lam:                                    # columns along lambda, as the paper plots them
        order = sorted(range(len(xs)), key=lambda i: lams[i])
        runs, xs, lams = [runs[i] for i in order], [xs[i] for i in order], [lams[i] for i in order]
    head = "| test | " + " | ".join(f"{pname}={x:g}" + (f" (λ={lv:.1f})" if lv is not None else "")
                                    for x, lv in zip(xs, lams)) + " |"
    if truth:
        g = [float(v) for v in truth["grid"]]
        mu_end = truth["mu_b"][g.index(1.0)] if 1.0 in g else float("nan")
        lines += [f"- true errors on the population ({truth['n_sets']} training sets of n = {truth['n_train']}, "
                  f"seed {truth['seed']}): mu_A = {truth['mu_a']:.4f}, mu_B({pname} = 1) = {mu_end:.4f}; "
                  f"{pname} at H0 (lambda = 0) = {truth['param_h0']:.4f}; "
                  f"mu_target = mu_A - lambda (mu_A - mu_B({pname} = 1))", ""]
    lines += [head, "|---|" + "---:|" * len(xs)]
    curves = {k: [r.rejection_rate(ALPHA)[k] for _, r in runs] for k in cfg.tests}
    lines += [f"| {TESTS[k].name} | " + " | ".join(f"{y:.3f}" for y in ys) + " |"
              for k, ys in curves.items()]
    if out_dir:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5))
        xplot = lams if use_lam else xs
        for i, k in enumerate(cfg.tests):
            style = dict(lw=2.5, color="black") if k == "mcnemar_5x2bcv" else dict(
                lw=1, color=plt.cm.tab20(i % 20), ls=("-", "--")[i % 2])
            ax.plot(xplot, curves[k], marker="o", ms=3, label=TESTS[k].name, **style)
        ax.axhline(ALPHA, ls=":", color="grey")
        ax.set_xlabel(f"lambda ({pname} from the true-error curve)" if use_lam else pname)
        ax.set_ylabel(f"rejection rate (alpha = {ALPHA})")
        ax.set_title(f"{cfg.dataset}: power ({min(reps)} reps per point, profile {cfg.profile})")
        ax.legend(fontsize=6, ncol=2)
        fig.tight_layout()
        name = f"power_{cfg.dataset}_{cfg.profile}.png"
        fig.savefig(os.path.join(out_dir, name), dpi=110)
        plt.close(fig)
        lines += ["", f"![power curve {cfg.dataset}]({name})"]
    lines.append("")
    return "\n".join(lines)


def build_report(dirs: List[str], profile: Optional[str] = None, out: Optional[str] = None,
                 title: str = "pybcv replication report") -> str:
    out_dir = os.path.dirname(os.path.abspath(out)) if out else None
    parts = [f"# {_text(title)}", "",
             f"Profile: **{profile or 'as each run was made'}**. "
             "Paper values: [YWSL] Table \"Type I errors\" (1000 repetitions; SE = sqrt(p(1-p)/1000)). "
             "z = (ours - paper) / pooled binomial SE of the difference, sqrt(p(1-p)(1/R_ours + 1/R_paper)) "
             "with p the pooled rate; **>3SE** marks |z| > 3.", ""]
    summary = []
    for d in dirs:
        if is_stored_run(d):
            text, info = type1_section(d, profile)
            parts.append(text)
            summary.append(info)
        elif any(is_stored_run(sub) for sub in glob.glob(os.path.join(d, "param=*"))):
            parts.append(power_section(d, profile, out_dir))
        else:
            raise FileNotFoundError(f"{d}: neither a simulation folder (results.sqlite or an archive) "
                                    f"nor a power-curve folder (param=*/ runs)")
    if len(summary) > 1:
        cols = [s["dataset"] for s in summary]
        parts += ["### Table 5 side by side (ours / paper)", "",
                  "| test | " + " | ".join(f"{c} ({s['reps']} reps)" for c, s in zip(cols, summary)) + " |",
                  "|---|" + "---|" * len(cols)]
        def cell(s, k):
            if k not in s["flags"]:
                return "-"
            r, pv, z = s["flags"][k]
            return f"{r:.3f} / {pv:.3f}" + (" **>3SE**" if abs(z) > 3 else "")
        parts += [f"| {TESTS[k].name} | " + " | ".join(cell(s, k) for s in summary) + " |"
                  for k in paper.TABLE5]
        parts.append("")
    text = "\n".join(parts).rstrip("\n") + "\n"
    if out:
        with open(out, "w") as f:
            f.write(text)
    return text
