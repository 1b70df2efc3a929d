"""The 17 significance tests of [YWSL]'s comparison, as pure functions of
fold-level outcomes (they never fit a model), and the registry ``TESTS``.

Families: t (``paired_t``, ``t_5x2cv``, ``combined_t_5x2cv``,
``blocked_t_3x2bcv``, ``corrected_resampled_t``, ``corrected_repeated_cv_t``,
``pseudo_bootstrap_t``, ``corrected_pseudo_bootstrap_t``), F
(``combined_f_5x2cv``, ``calibrated_f_5x2bcv``), z (``proportion_z``,
``conservative_z``, ``cvci_z``) and McNemar (``mcnemar``,
``naive_kfold_mcnemar``, ``bcv_mcnemar`` -- the paper's 5x2 BCV McNemar).
"""
from ._common import TestResult
from .mcnemar_tests import mcnemar, naive_kfold_mcnemar, bcv_mcnemar, bcv_t
from .t_tests import (paired_t, t_5x2cv, combined_t_5x2cv, blocked_t_3x2bcv, corrected_resampled_t,
                corrected_repeated_cv_t, pseudo_bootstrap_t, corrected_pseudo_bootstrap_t)
from .f_tests import combined_f_5x2cv, calibrated_f_5x2bcv
from .z_tests import proportion_z, conservative_z, cvci_z
from .registry import (TESTS, TABLE5_TESTS, PROFILES, TestSpec, get_test, resolve_tests,
                       profile_options, designs_for)

# aliases in the paper's vocabulary
mcnemar_5x2bcv = bcv_mcnemar
bcv5x2_mcnemar = bcv_mcnemar
mcnemar_ho = mcnemar
rho_t = kfold_t = paired_t
corrected_rho_t = corrected_resampled_t
corrected_10x10cv_t = corrected_repeated_cv_t

__all__ = ["TestResult", "TESTS", "TABLE5_TESTS", "PROFILES", "TestSpec", "get_test",
           "resolve_tests", "profile_options", "designs_for",
           "mcnemar", "naive_kfold_mcnemar", "bcv_mcnemar", "bcv_t", "paired_t", "t_5x2cv",
           "combined_t_5x2cv", "blocked_t_3x2bcv", "corrected_resampled_t",
           "corrected_repeated_cv_t", "pseudo_bootstrap_t", "corrected_pseudo_bootstrap_t",
           "combined_f_5x2cv", "calibrated_f_5x2bcv", "proportion_z", "conservative_z", "cvci_z"]
