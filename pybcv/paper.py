"""The paper's published numbers ([YWSL], Table "Type I errors" = Table 5 of
the compiled paper), transcribed from ``bcv_mcnemar_paper.tex``.  Each type-I error is a
rejection rate at alpha = 0.05 over 1000 repetitions (MNIST: 100)."""
from __future__ import annotations

import math

# columns of Table 5
COLUMNS = ("epsilon", "exp6", "simple", "letter", "mnist")
PAPER_REPS = {"epsilon": 1000, "exp6": 1000, "simple": 1000, "letter": 1000, "mnist": 100}

# test key -> (epsilon, EXP6, simple, UCI letter, MNIST), Table 5 order
TABLE5 = {
    "rho_t":               (0.478, 0.272, 0.312, 0.385, 0.250),
    "kfold_t":             (0.043, 0.076, 0.109, 0.142, 0.090),
    "t_5x2cv":             (0.034, 0.050, 0.084, 0.061, 0.080),
    "corrected_rho_t":     (0.053, 0.040, 0.047, 0.075, 0.000),
    "corrected_10x10cv_t": (0.035, 0.040, 0.063, 0.082, 0.080),
    "combined_t_5x2cv":    (0.291, 0.156, 0.214, 0.236, 0.150),
    "blocked_t_3x2bcv":    (0.087, 0.005, 0.015, 0.013, 0.020),
    "combined_f_5x2cv":    (0.028, 0.028, 0.060, 0.057, 0.010),
    "calibrated_f_5x2bcv": (0.035, 0.025, 0.055, 0.042, 0.040),
    "proportion_z":        (0.056, 0.016, 0.014, 0.054, 0.020),
    "cvci_z":              (0.046, 0.062, 0.106, 0.080, 0.090),
    "mcnemar_ho":          (0.031, 0.037, 0.029, 0.062, 0.060),
    "mcnemar_kfold_naive": (0.000, 0.006, 0.020, 0.039, 0.020),
    "mcnemar_5x2bcv":      (0.025, 0.006, 0.005, 0.015, 0.010),
}

def table5(column: str) -> dict:
    """{test: paper's type-I error} for one column of Table 5."""
    i = COLUMNS.index(column)
    return {k: v[i] for k, v in TABLE5.items()}


def paper_se(rate: float, column: str) -> float:
    """Monte Carlo standard error of a paper value (binomial, its rep count)."""
    R = PAPER_REPS[column]
    return math.sqrt(max(rate * (1 - rate), 0.0) / R)
