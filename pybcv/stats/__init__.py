"""The 17 significance tests of Yang, Wang, Song & Li's comparison, as pure
functions of fold-level outcomes (they never fit a model), and the registry
``TESTS`` (``pybcv.stats.registry``: each test's key, name, design, options
and kernel, in one place).

Every public test function is named as its registry key:

- t: ``rho_t``, ``kfold_t``, ``t_5x2cv``, ``corrected_rho_t``,
  ``corrected_10x10cv_t``, ``combined_t_5x2cv``, ``blocked_t_3x2bcv``,
  ``pseudo_bootstrap``, ``corrected_pseudo_bootstrap`` (and the generic ``paired_t``);
- F: ``combined_f_5x2cv``, ``calibrated_f_5x2bcv``;
- z: ``proportion_z``, ``conservative_z``, ``cvci_z``;
- McNemar: ``mcnemar_ho``, ``mcnemar_kfold_naive``, ``mcnemar_5x2bcv`` (the
  paper's block-regularized 5x2 CV McNemar test).

The older names (``mcnemar``, ``naive_kfold_mcnemar``, ``bcv_mcnemar``,
``corrected_resampled_t``, ``corrected_repeated_cv_t``, ``pseudo_bootstrap_t``,
``corrected_pseudo_bootstrap_t``) remain as aliases.  Conventions:
``docs/conventions.md``.
"""
from ._common import (BCVMcNemarResult, FTestResult, McNemarResult, NaiveKFoldMcNemarResult,
                      TestResult, TTestResult, ZTestResult)
from .f_tests import calibrated_f_5x2bcv, combined_f_5x2cv
from .mcnemar_tests import (bcv_mcnemar, bcv_t, mcnemar, mcnemar_5x2bcv, mcnemar_ho,
                            mcnemar_kfold_naive, naive_kfold_mcnemar)
from .registry import (PROFILES, TABLE5_TESTS, TESTS, TestSpec, designs_for, get_test,
                       profile_options, resolve_tests)
from .t_tests import (blocked_t_3x2bcv, combined_t_5x2cv, corrected_10x10cv_t,
                      corrected_pseudo_bootstrap, corrected_pseudo_bootstrap_t,
                      corrected_repeated_cv_t, corrected_resampled_t, corrected_rho_t, kfold_t,
                      paired_t, pseudo_bootstrap, pseudo_bootstrap_t, rho_t, t_5x2cv)
from .z_tests import conservative_z, cvci_z, cvci_z_from_counts, proportion_z

# more aliases in the paper's vocabulary
bcv5x2_mcnemar = mcnemar_5x2bcv

#: the public test function of each registry key
FUNCTIONS = {key: spec.function for key, spec in TESTS.items()}

__all__ = ["TestResult", "TTestResult", "ZTestResult", "FTestResult", "McNemarResult",
           "NaiveKFoldMcNemarResult", "BCVMcNemarResult",
           "TESTS", "TABLE5_TESTS", "PROFILES", "TestSpec", "get_test", "resolve_tests",
           "profile_options", "designs_for", "FUNCTIONS", "bcv_t", "paired_t", "cvci_z_from_counts",
           *TESTS,
           "mcnemar", "naive_kfold_mcnemar", "bcv_mcnemar", "bcv5x2_mcnemar", "corrected_resampled_t",
           "corrected_repeated_cv_t", "pseudo_bootstrap_t", "corrected_pseudo_bootstrap_t"]
