"""Discrepancy (a): the naive K-fold McNemar test (T16) on letter, ours 0.005
against the paper's 0.039.  Re-scores the stored fold tables of the four
Table-5 columns under many readings of the test and prints the rejection
rates at alpha = 0.05 next to the paper's numbers, plus descriptive numbers
(discordant counts per fold, over-dispersion of n01 - n10, quantiles of the
statistic).

Run:  cd docs/replication/analysis && ../../../.venv/bin/python naive_mcnemar_variants.py
(about 10 s of CPU; output stored in naive_mcnemar_variants.txt)
"""
from __future__ import annotations

import sys

import numpy as np
from scipy import stats

import _tables

ALPHA = 0.05
K = 10
COLS = list(_tables.COLUMNS)
PAPER = _tables.PAPER["mcnemar_kfold_naive"]


def terms(b, c, corr=1.0, rule="literal"):
    """Per-fold McNemar terms; 0 where b + c = 0."""
    b = np.asarray(b, float)
    c = np.asarray(c, float)
    s = b + c
    d = np.abs(b - c)
    if rule == "literal":          # paper eq.: (|b-c| - corr)^2
        num = (d - corr) ** 2
    elif rule == "clamp":          # max(|b-c| - corr, 0)^2
        num = np.maximum(d - corr, 0.0) ** 2
    elif rule == "R":              # R mcnemar.test: correction only when |b-c| >= 1
        num = np.where(d >= 1, (d - corr) ** 2, d ** 2)
    else:
        raise ValueError(rule)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(s > 0, num / np.where(s > 0, s, 1.0), 0.0), s


def sum_chi2(b, c, corr=1.0, rule="literal", empty="drop", df_shift=0):
    t, s = terms(b, c, corr, rule)
    M = t.sum(-1)
    df = (s > 0).sum(-1) if empty == "drop" else np.full(M.shape, b.shape[-1])
    df = df + df_shift
    p = np.where(df > 0, stats.chi2.sf(M, np.maximum(df, 1)), 1.0)
    return p


def exact_p(b, c, midp=False):
    """Two-sided exact binomial McNemar p per fold (1 where b + c = 0)."""
    b = np.asarray(b, int)
    c = np.asarray(c, int)
    s = b + c
    k = np.minimum(b, c)
    p = 2 * stats.binom.cdf(k, s, 0.5)
    if midp:
        p = p - stats.binom.pmf(k, s, 0.5)
    p = np.where(b == c, 1.0 if not midp else 1 - stats.binom.pmf(k, s, 0.5), p)
    return np.clip(np.where(s > 0, p, 1.0), 1e-300, 1.0)


def fisher(p, mask):
    X = -2 * np.where(mask, np.log(p), 0.0).sum(-1)
    df = 2 * mask.sum(-1)
    return np.where(df > 0, stats.chi2.sf(X, np.maximum(df, 1)), 1.0)


def variants(T):
    C = T["cv10"]
    b, c = C[..., 0, 1], C[..., 1, 0]
    nz = (b + c) > 0
    B, Cc = b.sum(-1), c.sum(-1)
    out = {}
    out["paper eq., corr 1, empty folds dropped (our 'paper' profile)"] = sum_chi2(b, c)
    out["paper eq., corr 1, empty folds count 0, df 10 (our 'default')"] = sum_chi2(b, c, empty="zero")
    out["no continuity correction, drop"] = sum_chi2(b, c, 0.0)
    out["no continuity correction, df 10"] = sum_chi2(b, c, 0.0, empty="zero")
    out["correction 0.5 (Yates-style), drop"] = sum_chi2(b, c, 0.5)
    out["R mcnemar.test rule (no corr when b = c), drop"] = sum_chi2(b, c, rule="R")
    out["clamped correction max(|b-c|-1,0), drop"] = sum_chi2(b, c, rule="clamp")
    out["paper eq., df = folds - 1"] = sum_chi2(b, c, df_shift=-1)
    out["paper eq., referred to chi2(1) (not chi2(K))"] = np.where(
        True, stats.chi2.sf(terms(b, c)[0].sum(-1), 1), 1)
    # summed table
    for corr in (1.0, 0.0):
        M = terms(B, Cc, corr)[0]
        out[f"summed table, corr {corr:g}, chi2(1)"] = np.where(B + Cc > 0, stats.chi2.sf(M, 1), 1.0)
        out[f"summed table, corr {corr:g}, chi2(10)"] = np.where(B + Cc > 0, stats.chi2.sf(M, 10), 1.0)
    # averaged table
    Mb = terms(B / K, Cc / K, 1.0)[0]
    out["averaged table (t = 1), corr 1, chi2(1)"] = np.where(B + Cc > 0, stats.chi2.sf(Mb, 1), 1.0)
    # exact per fold, combined
    pe = exact_p(b, c)
    out["exact binomial per fold, Fisher's combination"] = fisher(pe, nz)
    out["mid-p per fold, Fisher's combination"] = fisher(exact_p(b, c, True), nz)
    # uncorrected per-fold chi2(1) p-values combined by Fisher
    pu = np.where(nz, stats.chi2.sf(terms(b, c, 0.0)[0], 1), 1.0)
    out["uncorrected per-fold chi2(1) p, Fisher"] = fisher(np.clip(pu, 1e-300, 1), nz)
    # Stouffer on signed z
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(nz, (b - c) / np.sqrt(np.where(nz, b + c, 1)), 0.0)
    Z = z.sum(-1) / np.sqrt(np.maximum(nz.sum(-1), 1))
    out["Stouffer of signed per-fold z (uncorrected)"] = 2 * stats.norm.sf(np.abs(Z))
    # min-p rules
    pc = np.where(nz, stats.chi2.sf(terms(b, c)[0], 1), 1.0)
    out["any fold's corrected McNemar rejects at 0.05"] = np.where((pc < ALPHA).any(-1), 0.0, 1.0)
    out["Bonferroni: min fold p < 0.005"] = np.where((pc < ALPHA / K).any(-1), 0.0, 1.0)
    # other designs' fold tables with the same statistic
    for des, lab in (("rcv5x2", "5x2 CV tables (150 test records/fold)"),
                     ("bcv5x2", "5x2 BCV tables"),
                     ("rho15_2of3", "15 RHO tables (2n/3), chi2(15)")):
        CC = T[des]
        out[f"paper eq. on {lab}"] = sum_chi2(CC[..., 0, 1], CC[..., 1, 0])
    C100 = T["cv10x10"]
    b100, c100 = C100[..., 0, 1], C100[..., 1, 0]
    out["10x10 CV: sum of 100 terms, chi2(df = non-empty folds)"] = sum_chi2(b100, c100)
    M10 = terms(b100, c100)[0].reshape(b100.shape[0], 10, 10).sum(-1)
    out["10x10 CV: mean of the 10 M_KCV, chi2(10)"] = stats.chi2.sf(M10.mean(-1), 10)
    B10 = b100.reshape(-1, 10, 10).sum(-1)
    C10 = c100.reshape(-1, 10, 10).sum(-1)
    out["10x10 CV: 10 summed-per-repetition tables (300 rec.), chi2(10)"] = sum_chi2(B10, C10)
    return out


def describe(T):
    C = T["cv10"]
    b, c = C[..., 0, 1].astype(float), C[..., 1, 0].astype(float)
    s, d = b + c, b - c
    # over-dispersion of b - c per fold: Var(b - c) / E(b + c) (1 if binomial given s)
    phi_fold = d.var() / s.mean()
    # and of the per-repetition total
    D, S = d.sum(-1), s.sum(-1)
    phi_tot = D.var() / S.mean()
    # average between-fold correlation of d within a repetition
    dc = d - d.mean()
    cov = (dc.sum(-1) ** 2 - (dc ** 2).sum(-1)).mean() / (K * (K - 1))
    rho = cov / dc.var()
    M = terms(b, c)[0].sum(-1)
    Mu = terms(b, c, 0.0)[0].sum(-1)
    return dict(disc=s.mean(), disc_sd=s.std(), empty=(s == 0).mean(), phi_fold=phi_fold,
                phi_tot=phi_tot, rho=rho, M_mean=M.mean(), M_var=M.var(), Mu_mean=Mu.mean(),
                Mu_var=Mu.var(), M=M, Mu=Mu, fold_n=C.sum((-1, -2)).mean())


def main():
    data = {col: _tables.load(col) for col in COLS}
    print("== descriptive numbers, 10-fold CV design (cv10), 1000 repetitions each ==")
    print(f"{'column':8} {'fold n':>6} {'disc/fold':>9} {'sd':>5} {'P(empty)':>8} "
          f"{'phi_fold':>8} {'phi_total':>9} {'rho(d)':>7} {'E M':>6} {'Var M':>6} {'E M_u':>6} {'Var M_u':>7}")
    desc = {}
    for col in COLS:
        d = desc[col] = describe(data[col][2])
        print(f"{col:8} {d['fold_n']:6.0f} {d['disc']:9.2f} {d['disc_sd']:5.2f} {d['empty']:8.3f} "
              f"{d['phi_fold']:8.2f} {d['phi_tot']:9.2f} {d['rho']:7.3f} {d['M_mean']:6.2f} "
              f"{d['M_var']:6.2f} {d['Mu_mean']:6.2f} {d['Mu_var']:7.2f}")
    print("(chi2(10): mean 10, variance 20.  phi = Var(n01-n10)/E(n01+n10): 1 for independent"
          " binomial discordances; phi_total for the 300-record sums.  rho(d): mean correlation"
          " of n01-n10 between two folds of one repetition.  M: corrected statistic, M_u: uncorrected)")

    print("\n== rejection rate at alpha = 0.05 under each reading ==")
    res = {col: variants(data[col][2]) for col in COLS}
    names = list(res[COLS[0]])
    print(f"{'reading':66} " + " ".join(f"{c:>8}" for c in COLS))
    print(f"{'PAPER (Table 5)':66} " + " ".join(f"{PAPER[c]:8.3f}" for c in COLS))
    for nm in names:
        print(f"{nm:66} " + " ".join(f"{np.mean(res[c][nm] < ALPHA):8.3f}" for c in COLS))

    print("\n== which critical value of OUR statistic reproduces the paper's rate? ==")
    crit = stats.chi2.isf(ALPHA, K)
    for col in COLS:
        M = desc[col]["M"]
        q = np.quantile(M, 1 - PAPER[col]) if PAPER[col] > 0 else M.max()
        # scale s with P(s M > crit) = paper rate
        print(f"{col:8} paper rate {PAPER[col]:.3f}: our corrected M has its (1-rate) quantile at "
              f"{q:6.2f} (chi2(10) critical {crit:.2f}); factor {crit / q if q > 0 else np.inf:5.2f};"
              f" max M = {M.max():6.2f}; P(M > 18.31) = {np.mean(M > crit):.3f}")
    print("\n== upper quantiles of the corrected M (chi2(10): 90% 15.99, 95% 18.31) ==")
    for col in COLS:
        M = desc[col]["M"]
        print(f"{col:8} " + "  ".join(f"q{int(100*a)}={np.quantile(M, a):6.2f}" for a in (.5, .9, .95, .96, .99)))

    print("\n== one-parameter families, with z = (ours - paper) / pooled SE ==")

    def z(o, q):
        pp = (o + q) / 2
        se = np.sqrt(pp * (1 - pp) * 2 / 1000)
        return (o - q) / se if se > 0 else 0.0

    tabs = {c: data[c][2]["cv10"] for c in COLS}
    fam = []
    for corr in (0, 0.1, 0.2, 0.3, 0.5, 0.75, 1):
        for emp in ("drop", "zero"):
            fam.append((f"correction {corr:g}, empty folds {emp}",
                        lambda C, corr=corr, emp=emp: sum_chi2(C[..., 0, 1], C[..., 1, 0], corr, empty=emp) < ALPHA))
    for corr in (0, 1):
        fam.append((f"correction {corr:g}, any empty fold -> NA -> not rejected",
                    lambda C, corr=corr: (sum_chi2(C[..., 0, 1], C[..., 1, 0], corr, empty="zero") < ALPHA)
                    & ~((C[..., 0, 1] + C[..., 1, 0]) == 0).any(-1)))
    for m in (5, 2):
        fam.append((f"cv10 folds merged pairwise into {m} folds, corr 1, chi2({m})",
                    lambda C, m=m: (lambda CC: sum_chi2(CC[..., 0, 1], CC[..., 1, 0]) < ALPHA)(
                        C.reshape(C.shape[0], m, 10 // m, 2, 2).sum(2))))
    for name, f in fam:
        r = {c: np.mean(f(tabs[c])) for c in COLS}
        print(f"{name:58} " + " ".join(f"{c}:{r[c]:.3f}({z(r[c], PAPER[c]):+.1f})" for c in COLS))

    print("\n== letter: Monte Carlo standard errors ==")
    for r in (0.005, 0.039, 0.061):
        print(f"rate {r:.3f}: SE {np.sqrt(r * (1 - r) / 1000):.4f}")
    # 2 x binomial interval in which the paper's letter number would lie
    return 0


if __name__ == "__main__":
    sys.exit(main())
