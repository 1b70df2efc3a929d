"""Partition designs: which records train and which test in every fold.

A partition set is a list of ``(train, test)`` pairs of sorted, disjoint
0-based row-index arrays.  Every random scheme draws its permutations from one
``numpy.random.Generator`` (``rng`` / ``random_state`` may be a seed, a
SeedSequence, a Generator or ``None``); ``shuffle=False`` uses the identity
permutation (worked examples).  The same conventions are listed with the
rest of the package's in ``docs/conventions.md``.

Schemes (one class each, :mod:`pybcv.partitions.splitters`; the functions
of :mod:`pybcv.partitions.functions` wrap them)
=========================  =======================  ===============================
class                      function                 named designs (``DESIGNS``)
=========================  =======================  ===============================
``HoldOut``                ``holdout``              holdout (n1 = 2n/3)
``RepeatedHoldOut``        ``repeated_holdout``     rho15_2of3, rho15_9of10
``KFoldCV``                ``kfold``                cv10
``RepeatedKFoldCV``        ``repeated_kfold``       cv10x10
``RandomMx2CV``            ``random_mx2``           rcv5x2
``BlockRegularizedMx2CV``  ``bcv_mx2``              bcv3x2, bcv5x2
``Stratified...Mx2CV``     (``design_splitter``)    a BCV's blocks within classes
``Group...Mx2CV``          (``design_splitter``)    a BCV's blocks of whole groups
``PseudoBootstrapSplit``   ``pseudo_bootstrap``     pseudo_bootstrap (240 hold-outs)
``ConservativeZSplit``     ``conservative_z``       conservative_z (315 hold-outs)
=========================  =======================  ===============================

Conventions (the one place they are stated)
-------------------------------------------
* Training size: ``n1 = round(f * n)`` with Python's ``round`` for a
  fraction f, kept in [1, n - 1]; a hold-out tests the last ``n - n1``
  records of its permutation.
* K-fold: one permutation cut into k contiguous folds; the first ``n mod k``
  folds are one record larger; fold order run 1 folds 1..k, run 2 ...
* m x 2 CV, random and block-regularized: fold order
  (j=1,k=1), (j=1,k=2), ..., (j=m,k=2); fold (j,1) trains on S_j and tests
  T_j, fold (j,2) the reverse.  In the random m x 2 CV, S_j is the first
  floor(n/2) records of replication j's permutation.
* Block-regularized m x 2 CV (BCV, the paper's section on the
  block-regularized 5x2 CV): one permutation cut into B = 2^ceil(log2(m+1))
  contiguous blocks D_1..D_B; S_j = {D_b : a_j . v_b = 0 mod 2} with v_b the
  bits of b - 1 and a_j the column vectors (4, 1, 2, 3, 5) for m = 5 (the
  paper's table of the 5x2 BCV), (2, 1, 3) for m = 3, else 1..m.  Any two
  training sets share B/4 blocks, about n/4 records.
* Extra records of a BCV (n not a multiple of B): every block gets
  q = n // B records, the r = n mod B extra records go one each to the blocks
  first in an extra-record order: ``extra_rule="balanced"`` (default; for the
  5x2 BCV the order 2, 7, 8, 1, 3, 5, 4, 6, which keeps ||S_j| - |T_j|| <= 2
  and every training overlap within 1 of n/4), ``"first"`` (D_1..D_r: the
  authors' incremental generator; not their DoE.base generator, which
  randomises the rows) or ``"spec"`` (1, 7, 2, 8, 3, 5, 4, 6).  n = 300 gives
  blocks (38, 38, 37, 37, 37, 37, 38, 38) and |S_j| = 150 under "balanced",
  |S_1| = 152 under "first".
* Folds of a one-off comparison with seed S (and of ``design_folds``): the
  stream ``pybcv.seeds.rng(pybcv.seeds.design_seq(S, 0, design))``.

Checking folds a user made (:func:`check_design`): a BCV's folds must come
in complementary pairs, its training sets be unions of B/2 blocks of q or
q + 1 records (halves of B/2*q to B/2*q + min(r, B/2) records) and any two
share B/4 blocks (B/4*q to B/4*q + min(r, B/4) records, n/4 = 75 +- 1 for
n = 300), whatever rule placed the extra records.

>>> from pybcv.partitions import DESIGNS
>>> [int(x) for x in DESIGNS["bcv5x2"].sizes(301)[1]]
[150, 151, 150, 151, 151, 150, 151, 150, 150, 151]
"""
from ._checks import as_generator, train_size_of
from .blocks import (MAX_BCV_M, SPEC_EXTRA_ORDER_5X2, bcv_block_sizes, bcv_blocks, bcv_columns,
                     bcv_design_matrix, bcv_n_blocks, bcv_test_positions, extra_record_order)
from .designs import DESIGNS, check_design, check_splits, design_folds, design_splitter, get_design
from .functions import (bcv_mx2, conservative_z, holdout, kfold, pseudo_bootstrap, random_mx2,
                        repeated_holdout, repeated_kfold)
from .splitters import (BlockRegularizedMx2CV, ConservativeZSplit, GroupBlockRegularizedMx2CV,
                        HoldOut, KFoldCV, PseudoBootstrapSplit, RandomMx2CV, RepeatedHoldOut,
                        RepeatedKFoldCV, Split, Splitter, StratifiedBlockRegularizedMx2CV)

__all__ = [
    "DESIGNS", "get_design", "design_folds", "design_splitter", "check_design", "check_splits",
    "Splitter", "HoldOut", "RepeatedHoldOut", "KFoldCV", "RepeatedKFoldCV", "RandomMx2CV",
    "BlockRegularizedMx2CV", "StratifiedBlockRegularizedMx2CV", "GroupBlockRegularizedMx2CV",
    "PseudoBootstrapSplit", "ConservativeZSplit", "Split",
    "holdout", "repeated_holdout", "kfold", "repeated_kfold", "random_mx2", "bcv_mx2",
    "pseudo_bootstrap", "conservative_z",
    "bcv_n_blocks", "bcv_columns", "bcv_design_matrix", "extra_record_order", "bcv_block_sizes",
    "bcv_blocks", "bcv_test_positions", "MAX_BCV_M", "SPEC_EXTRA_ORDER_5X2",
    "as_generator", "train_size_of",
]
