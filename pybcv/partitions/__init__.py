"""Partition designs: which records train and which test in every fold.

A partition set is a list of ``(train, test)`` pairs of sorted, disjoint
0-based row-index arrays, drawn from one ``numpy.random.Generator``
(``rng`` / ``random_state``: a seed, a SeedSequence, a Generator or ``None``;
``shuffle=False`` uses the identity permutation).  The training size, the
fold order of every design, the BCV's blocks and the rules for its extra
records are stated once, in ``docs/conventions.md`` ("Fold order", "Extra
records of the BCV", "Stratified and grouped BCV").

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
