"""The significance tests of Yang, Wang, Song & Li's comparison, as pure
functions of fold-level outcomes (they never fit a model), and the registry
``TESTS`` (``pybcv.stats.registry``: each test's key, name, design, options
and kernel, in one place).

Every public test function is named as its registry key
(``TESTS[key].function``; ``cvci_z_from_counts`` is the CV-CI z from pooled
counts).  Conventions: ``docs/conventions.md``.
"""
from ._common import (ALTERNATIVES, BCVMcNemarResult, FTestResult, McNemarResult, NaiveKFoldMcNemarResult,
                      TestResult, TTestResult, ZTestResult)
from .f_tests import calibrated_f_5x2bcv, combined_f_5x2cv
from .mcnemar_tests import bcv_t, mcnemar_5x2bcv, mcnemar_ho, mcnemar_kfold_naive
from .registry import (PROFILES, TABLE5_TESTS, TESTS, TestSpec, designs_for, get_test,
                       profile_options, resolve_tests)
from .t_tests import (blocked_t_3x2bcv, combined_t_5x2cv, corrected_10x10cv_t,
                      corrected_pseudo_bootstrap, corrected_rho_t, kfold_t, pseudo_bootstrap,
                      rho_t, t_5x2cv)
from .z_tests import conservative_z, cvci_z, cvci_z_from_counts, proportion_z

__all__ = ["TestResult", "TTestResult", "ZTestResult", "FTestResult", "McNemarResult",
           "NaiveKFoldMcNemarResult", "BCVMcNemarResult",
           "TESTS", "TABLE5_TESTS", "PROFILES", "TestSpec", "get_test", "resolve_tests",
           "profile_options", "designs_for", "bcv_t", "cvci_z_from_counts", "ALTERNATIVES", *TESTS]
