"""Partition schemes: one class per scheme, DESIGNS, design_folds, check_design."""
import doctest
import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as hs

from pybcv import partitions as P
from pybcv.partitions import (DESIGNS, BlockRegularizedMx2CV, ConservativeZSplit, HoldOut, KFoldCV,
                              PseudoBootstrapSplit, RandomMx2CV, RepeatedHoldOut, RepeatedKFoldCV,
                              Splitter, StratifiedBlockRegularizedMx2CV, check_design,
                              design_folds)
from pybcv.seeds import design_seq, rng

# one small instance of every scheme, its expected fold count and (n_train, n_test) at n = 301
SCHEMES = {
    "holdout": (HoldOut(train_size=0.75), 1, [(226, 75)]),
    "repeated_holdout": (RepeatedHoldOut(n_repeats=4, train_size=2 / 3), 4, [(201, 100)] * 4),
    "kfold": (KFoldCV(k=7), 7, [(301 - 43, 43)] * 7),
    "repeated_kfold": (RepeatedKFoldCV(k=3, n_repeats=2), 6, [(200, 101), (201, 100), (201, 100)] * 2),
    "random_mx2": (RandomMx2CV(m=3), 6, [(150, 151), (151, 150)] * 3),
    "bcv_mx2": (BlockRegularizedMx2CV(m=5), 10, None),
    "pseudo_bootstrap": (PseudoBootstrapSplit(n_repeats=2, n_replicates=3, train_size=0.9), 8,
                         [(271, 30)] * 8),
    "conservative_z": (ConservativeZSplit(n_repeats=2, n_halvings=2, train_size=0.9), 10,
                       [(271, 30)] * 2 + [(120, 30)] * 8),
}
IDS = list(SCHEMES)


def _same(a, b):
    return len(a) == len(b) and all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])
                                    for x, y in zip(a, b))


# ---------------------------------------------------------------- every class
@pytest.mark.parametrize("name", IDS)
def test_sizes_counts_and_disjoint_folds(name):
    cv, count, sizes = SCHEMES[name]
    n = 301
    sp = cv.splits(n, 0)
    assert len(sp) == count == cv.get_n_splits() == cv.n_splits(n)
    ntr, nte = cv.sizes(n)
    assert [len(tr) for tr, _ in sp] == ntr.tolist() and [len(te) for _, te in sp] == nte.tolist()
    if sizes is not None:
        assert list(zip(ntr.tolist(), nte.tolist())) == sizes
    for tr, te in sp:
        assert np.intersect1d(tr, te).size == 0
        assert np.all(np.diff(tr) > 0) and np.all(np.diff(te) > 0)        # sorted, distinct
        assert tr.min() >= 0 and max(tr.max(), te.max()) < n
        if name != "conservative_z":                                     # training = complement
            assert len(tr) + len(te) == n


@pytest.mark.parametrize("name", IDS)
def test_test_sets_draw_the_numbers_of_splits(name):
    cv = SCHEMES[name][0]
    a = cv.test_sets(97, np.random.default_rng(4))
    b = cv.splits(97, np.random.default_rng(4))
    assert [np.sort(t).tolist() for t in a] == [te.tolist() for _, te in b]


@pytest.mark.parametrize("name", IDS)
def test_test_orders_are_the_concatenated_test_sets(name):
    cv = SCHEMES[name][0]
    rows = cv.test_orders(97, [np.random.default_rng(s) for s in (4, 5)])
    for row, s in zip(rows, (4, 5)):
        assert row.tolist() == np.concatenate(cv.test_sets(97, np.random.default_rng(s))).tolist()


@pytest.mark.parametrize("name", IDS)
def test_test_values_are_the_values_at_the_test_orders(name):
    """The permutation schemes shuffle the values themselves with the draws
    that shuffle the indices: the same as gathering at the test orders."""
    cv = SCHEMES[name][0]
    values = np.random.default_rng(1).normal(size=(3, 97)) + 1j
    gens = lambda: [np.random.default_rng(s) for s in (4, 5, 6)]  # noqa: E731
    want = np.take_along_axis(values, cv.test_orders(97, gens()), axis=1)
    np.testing.assert_array_equal(cv.test_values(values, gens()), want)
    with pytest.raises(ValueError, match="a row per generator"):
        cv.test_values(values, gens()[:2])


def test_test_orders_refuse_label_schemes():
    with pytest.raises(ValueError, match="y .* is required"):
        StratifiedBlockRegularizedMx2CV().test_orders(40, [np.random.default_rng(0)])


@pytest.mark.parametrize("name", IDS)
def test_random_state_and_reproducibility(name):
    cv = SCHEMES[name][0]
    X = np.zeros((120, 2))
    fixed = type(cv)(**{**cv.get_params(), "random_state": 7})
    assert _same(list(fixed.split(X)), list(fixed.split(X)))             # int: same every call
    key = fixed._design_key()            # a named design's int seed: compare(seed=7)'s stream
    stream = 7 if key is None else rng(design_seq(7, 0, key))
    assert _same(list(fixed.split(X)), fixed.splits(120, stream))
    assert not _same(fixed.splits(120, 7), fixed.splits(120, 8))
    g = type(cv)(**{**cv.get_params(), "random_state": np.random.default_rng(7)})
    first, second = list(g.split(X)), list(g.split(X))                    # Generator: stream goes on
    assert _same(first, fixed.splits(120, np.random.default_rng(7))) and not _same(first, second)
    unshuffled = type(cv)(**{**cv.get_params(), "shuffle": False})
    assert _same(unshuffled.splits(120, 1), unshuffled.splits(120, 2))


@pytest.mark.parametrize("name", IDS)
def test_clone_get_set_params_and_repr(name):
    base = pytest.importorskip("sklearn.base")
    cv = SCHEMES[name][0]
    c = base.clone(cv)
    assert type(c) is type(cv) and c.get_params() == cv.get_params() and c is not cv
    assert _same(c.splits(60, 3), cv.splits(60, 3))
    assert "random_state=None" in repr(cv) and repr(cv).startswith(type(cv).__name__ + "(")
    c.set_params(random_state=5)
    assert c.random_state == 5 and cv.random_state is None
    with pytest.raises(ValueError, match="has no parameter 'n_folds'"):
        c.set_params(n_folds=3)


@pytest.mark.parametrize("name", IDS)
def test_works_as_cv_in_cross_validate(name):
    pytest.importorskip("sklearn")
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import cross_validate
    cv = SCHEMES[name][0]
    X, y = np.zeros((80, 1)), np.arange(80) % 2
    out = cross_validate(DummyClassifier(), X, y, cv=type(cv)(**{**cv.get_params(), "random_state": 0}))
    assert len(out["test_score"]) == cv.get_n_splits()


def test_splitters_are_the_designs_and_functions_wrap_them():
    assert all(isinstance(d, Splitter) for d in DESIGNS.values())
    assert _same(P.holdout(50, 1, 0.6), HoldOut(0.6).splits(50, 1))
    assert _same(P.repeated_holdout(50, 1, 3), RepeatedHoldOut(3).splits(50, 1))
    assert _same(P.kfold(50, 1, 5), KFoldCV(5).splits(50, 1))
    assert _same(P.repeated_kfold(50, 1, 5, 2), RepeatedKFoldCV(5, 2).splits(50, 1))
    assert _same(P.random_mx2(50, 1, 2), RandomMx2CV(2).splits(50, 1))
    assert _same(P.bcv_mx2(50, 1, 3, "first"), BlockRegularizedMx2CV(3, "first").splits(50, 1))
    assert _same(P.pseudo_bootstrap(50, 1, 2, 2), PseudoBootstrapSplit(2, 2).splits(50, 1))
    assert _same(P.conservative_z(50, 1, 2, 2), ConservativeZSplit(2, 2).splits(50, 1))
    assert [d.n_splits(300) for d in DESIGNS.values()] == [1, 15, 15, 10, 100, 10, 6, 10, 240, 315]


def test_class_specific_facts():
    assert [len(te) for te in KFoldCV(10).test_sets(23, 0)] == [3, 3, 3, 2, 2, 2, 2, 2, 2, 2]
    for run in np.split(np.arange(6), 2):                                 # each run partitions 0..n-1
        folds = RepeatedKFoldCV(3, 2).test_sets(31, 2)
        assert np.array_equal(np.sort(np.concatenate([folds[i] for i in run])), np.arange(31))
    sp = RandomMx2CV(3).splits(31, 0)
    for j in range(3):
        assert _same([sp[2 * j]], [sp[2 * j + 1][::-1]])                 # (S, T) then (T, S)
    tr = [set(t) for t, _ in BlockRegularizedMx2CV(5).splits(300, 0)[::2]]
    assert {len(a & b) for a, b in itertools.combinations(tr, 2)} <= {74, 75, 76}
    cz = ConservativeZSplit(2, 3).splits(40, 1)
    assert len(cz) == 2 * (1 + 2 * 3)
    for h in range(3):                                                    # half splits stay in one half
        block = cz[2 + 4 * h: 6 + 4 * h]
        halves = [set(block[0][0]) | set(block[0][1]), set(block[2][0]) | set(block[2][1])]
        assert len(halves[0]) == len(halves[1]) == 20 and not halves[0] & halves[1]
        assert all(set(a) | set(b) == halves[i // 2] for i, (a, b) in enumerate(block))


@pytest.mark.parametrize("make, message", [
    (lambda: KFoldCV(1).splits(10), r"k must be an integer >= 2, got 1"),
    (lambda: KFoldCV(10).splits(9), r"too few records for 10-fold CV: n = 9"),
    (lambda: RepeatedKFoldCV(3, 0).splits(10), r"n_repeats must be an integer >= 1"),
    (lambda: HoldOut(1.5).splits(10), r"train_size must be a fraction in \(0, 1\)"),
    (lambda: HoldOut(10).splits(10), r"train_size = 10 records leaves no record"),
    (lambda: RandomMx2CV(0).splits(10), r"m must be an integer >= 1"),
    (lambda: BlockRegularizedMx2CV(16).splits(100), r"m must be an integer in \[1, 15\]"),
    (lambda: BlockRegularizedMx2CV(5, "middle").splits(100), r"extra_rule must be"),
    (lambda: BlockRegularizedMx2CV(3, "spec").splits(100), r"'spec' is defined for the 5x2"),
    (lambda: BlockRegularizedMx2CV(5).splits(7), r"too few records for block-regularized CV with 8"),
    (lambda: BlockRegularizedMx2CV(5).splits(100.5), r"n must be a positive integer"),
    (lambda: PseudoBootstrapSplit(n_replicates=1).splits(100), r"n_replicates must be an integer >= 2"),
    (lambda: ConservativeZSplit(train_size=0.3).splits(100), r"n2 = 70 below n/2 = 50"),
    (lambda: HoldOut(random_state=-1).splits(10), r"random_state must be a non-negative"),
    (lambda: HoldOut(random_state=np.random.RandomState(0)).splits(10), r"not a legacy RandomState"),
    (lambda: list(HoldOut().split(np.zeros((5, 1)), np.zeros(4))), r"X has 5 records but y has 4"),
])
def test_bad_arguments_name_the_argument(make, message):
    with pytest.raises(ValueError, match=message):
        make()


# ---------------------------------------------------------------- the BCV's structure
@settings(max_examples=150, deadline=None)
@given(m=hs.integers(1, 15), extra=hs.integers(0, 40), seed=hs.integers(0, 2 ** 32 - 1))
def test_bcv_training_sets_share_a_quarter(m, extra, seed):
    """Any two training sets of an m x 2 BCV share n/4 records: within 1 for
    m <= 7 (B <= 8), within 2.25 for B = 16 (see blocks.extra_record_order);
    folds (j, 1), (j, 2) swap S_j and T_j."""
    B = P.bcv_n_blocks(m)
    n = B + extra
    sp = P.bcv_mx2(n, seed, m=m)
    assert len(sp) == 2 * m
    tol = 1.0 if B <= 8 else 2.25
    for a, b in itertools.combinations([set(tr) for tr, _ in sp[::2]], 2):
        assert abs(len(a & b) - n / 4) <= tol
    for j in range(m):
        S_, T_ = sp[2 * j]
        assert np.array_equal(sp[2 * j + 1][0], T_) and np.array_equal(sp[2 * j + 1][1], S_)
        assert len(np.intersect1d(S_, T_)) == 0 and len(S_) + len(T_) == n
        assert abs(len(S_) - len(T_)) <= (3 if m == 7 else 2 if B <= 8 else B // 2)


def test_bcv_overlap_is_exactly_a_quarter_when_B_divides_n():
    for m in range(1, 16):
        n = 4 * P.bcv_n_blocks(m)
        trains = [set(tr) for tr, _ in P.bcv_mx2(n, 1, m=m)[::2]]
        assert {len(a & b) for a, b in itertools.combinations(trains, 2)} <= {n // 4}


def test_bcv_worked_examples():
    """The paper's 5x2 table (S_j as blocks of 2 records, n = 16), the L4 3x2
    design, and the block sizes of both extra-record rules at n = 300, 301."""
    S_ = [set(tr.tolist()) for tr, _ in P.bcv_mx2(16, m=5, shuffle=False)[::2]]
    assert S_ == [set(range(8)), {0, 1, 4, 5, 8, 9, 12, 13}, {0, 1, 2, 3, 8, 9, 10, 11},
                  {0, 1, 6, 7, 8, 9, 14, 15}, {0, 1, 4, 5, 10, 11, 14, 15}]
    assert P.bcv_block_sizes(300, 8).tolist() == [38, 38, 37, 37, 37, 37, 38, 38]
    assert P.bcv_block_sizes(300, 8, "first").tolist() == [38, 38, 38, 38, 37, 37, 37, 37]
    assert P.bcv_block_sizes(301, 8).tolist() == [38, 38, 38, 37, 37, 37, 38, 38]
    sp = P.bcv_mx2(300, 5, m=5)
    assert all(len(tr) == 150 for tr, _ in sp)
    assert {len(set(a[0]) & set(b[0])) for a, b in itertools.combinations(sp[::2], 2)} <= {75, 76}
    assert len(P.bcv_mx2(300, 5, m=5, extra_rule="first")[0][0]) == 152
    assert {len(tr) for tr, _ in P.bcv_mx2(301, 5, m=5)} == {150, 151}
    S3 = [tr.tolist() for tr, _ in P.bcv_mx2(12, m=3, shuffle=False)[::2]]
    assert S3 == [list(range(6)), [0, 1, 2, 6, 7, 8], [0, 1, 2, 9, 10, 11]]


# ---------------------------------------------------------------- design_folds
@pytest.mark.parametrize("design", sorted(DESIGNS))
@pytest.mark.parametrize("n, seed", [(40, 0), (301, 0), (300, 17)])
def test_design_folds_are_the_one_off_streams_folds(design, n, seed):
    got = design_folds(n, design, seed)
    ref = DESIGNS[design].test_sets(n, rng(design_seq(seed, 0, design)))
    assert len(got) == len(ref) and all(np.array_equal(a, np.sort(b)) for a, b in zip(got, ref))
    sp = DESIGNS[design].splits(n, rng(design_seq(seed, 0, design)))   # what compare() fits on
    assert all(np.array_equal(a, te) for a, (_, te) in zip(got, sp))


def test_design_folds_defaults_and_errors():
    assert all(np.array_equal(a, b) for a, b in zip(design_folds(100), design_folds(100, "bcv5x2", 0)))
    assert not np.array_equal(design_folds(100, seed=1)[0], design_folds(100, seed=0)[0])
    with pytest.raises(ValueError, match=r"unknown partition design 'bcv4x2'; known: \["):
        design_folds(100, "bcv4x2")
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError, match="seed must be a non-negative integer"):
            design_folds(100, seed=bad)
    with pytest.raises(ValueError, match="too few records"):
        design_folds(7)


# ---------------------------------------------------------------- check_design: BCV
@pytest.mark.parametrize("m, design", [(5, "bcv5x2"), (3, "bcv3x2")])
def test_true_bcv_folds_are_accepted_at_every_n(m, design):
    B = P.bcv_n_blocks(m)
    for n in list(range(B, 6 * B)) + list(range(296, 312)):
        for seed in (0, 1):
            assert check_design(design_folds(n, design, seed), n, design) == []


def test_every_m_x_2_bcv_is_accepted_under_either_extra_rule():
    for m in range(1, 16):
        B = P.bcv_n_blocks(m)
        for n in range(B, 4 * B, 3):
            for rule in ("balanced", "first"):
                w = check_design([te for _, te in P.bcv_mx2(n, n, m, rule)], n, BlockRegularizedMx2CV(m))
                assert rule == "first" or w == [], (m, n, w)


def test_bcv_folds_of_other_extra_rules_and_columns_are_accepted_with_warnings():
    for n in range(8, 60):
        for rule in ("first", "spec"):
            folds = [te for _, te in P.bcv_mx2(n, n, 5, rule)]
            for w in check_design(folds, n, "bcv5x2"):
                assert re.fullmatch(r"replication \d has halves of \d+ and \d+ records where pybcv's "
                                    r"'balanced' rule for the n mod 8 = \d extra records gives .*", w)
    w = check_design([te for _, te in P.bcv_mx2(300, 0, 5, "first")], 300, "bcv5x2")
    assert w == ["replication 1 has halves of 148 and 152 records where pybcv's 'balanced' rule "
                 "for the n mod 8 = 4 extra records gives 150 and 150"]
    # the authors' L8 columns: {D1..D4}, {D1,D2,D5,D6}, {D1,D3,D5,D7}, {D1,D2,D7,D8}, {D1,D3,D6,D8}
    blocks = np.random.default_rng(3).permutation(400).reshape(8, 50)
    cols = [(0, 1, 2, 3), (0, 1, 4, 5), (0, 2, 4, 6), (0, 1, 6, 7), (0, 2, 5, 7)]
    folds = []
    for S in cols:
        S_ = np.concatenate([blocks[b] for b in S])
        folds += [np.setdiff1d(np.arange(400), S_), S_]
    assert check_design(folds, 400, "bcv5x2") == []
    assert check_design(design_folds(97, "bcv5x2"), 97, BlockRegularizedMx2CV(5)) == []
    assert check_design([te for _, te in P.bcv_mx2(97, 1, 7)], 97, BlockRegularizedMx2CV(7)) == []


def test_other_constructions_with_bcv_overlaps_are_accepted_with_a_warning():
    S = [[0, 1, 2, 3], [0, 1, 4, 5], [0, 2, 4, 6]]       # 2^3 factorial: 8 groups of 1, not 4 blocks of 2
    folds = [f for s in S for f in (np.setdiff1d(np.arange(8), s), np.array(s))]
    assert check_design(folds, 8, "bcv3x2") == [
        "the training-set overlaps meet the BCV's condition, but the records fall into 8 groups "
        "(same side in every replication) of 1 to 1 records, where pybcv's block-regularized 3x2 "
        "CV has 4 blocks of 2 records"]


@pytest.mark.parametrize("n", [40, 96, 300, 301, 302, 303, 1000])
def test_repeated_two_fold_cv_is_refused_as_a_bcv(n):
    """Random 5x2 CV folds are complementary halves, but their training sets
    overlap by about n/4 +- sqrt(n)/8 instead of n/4 +- 1."""
    refused = 0
    for seed in range(5):
        folds = [te for _, te in P.random_mx2(n, seed, 5)]
        try:
            check_design(folds, n, "bcv5x2")
        except ValueError as e:
            refused += 1
            msg = str(e)
            got = re.fullmatch(r"bcv5x2: folds 0-9 form a repeated 2-fold CV, not a block-regularized "
                               r"5x2 CV: training sets of replications (\d) and (\d) overlap in (\d+) "
                               r"records where the BCV requires (.*?)( \(\d+ of 10 pairs are outside\))?",
                               msg)
            assert got, msg
            a, b, ov = (int(x) for x in got.groups()[:3])
            S = [np.setdiff1d(np.arange(n), folds[2 * j]) for j in range(5)]
            assert len(np.intersect1d(S[a - 1], S[b - 1])) == ov               # independent count
            q, r = divmod(n, 8)
            assert not 2 * q <= ov <= 2 * q + min(r, 2)
            if n == 300:
                assert got.group(4) == "75 +- 1"
    assert refused >= (4 if n >= 96 else 3)


def test_bcv_message_for_repeated_two_fold_cv_at_300():
    folds = [te for _, te in P.random_mx2(300, 1, 5)]
    with pytest.raises(ValueError) as e:
        check_design(folds, 300)
    assert str(e.value).startswith("bcv5x2: folds 0-9 form a repeated 2-fold CV, not a "
                                   "block-regularized 5x2 CV: training sets of replications 1 and ")
    assert "where the BCV requires 75 +- 1" in str(e.value)


def _bcv300():
    return design_folds(300, "bcv5x2", 0)


@pytest.mark.parametrize("edit, message", [
    (lambda f: f[:8], r"bcv5x2: a block-regularized 5x2 CV \(2 folds per replication, m = 5\) has 10 folds, got 8"),
    (lambda f: f[:3] + [f[3][1:]] + f[4:],
     r"bcv5x2: replication 2: row \d+ is in neither fold 2 nor fold 3 \(1 record missing\)"),
    (lambda f: f[:3] + [np.r_[f[3], f[2][:1]]] + f[4:],
     r"bcv5x2: replication 2: row \d+ is in both fold 2 and fold 3"),
    (lambda f: f[:3] + [np.r_[f[3], f[3][:1]]] + f[4:], r"bcv5x2: fold 3: row \d+ is listed twice"),
    (lambda f: [np.r_[f[0], [300]]] + f[1:], r"bcv5x2: fold 0: row 300 is outside 0..299 \(rows are 0-based, n = 300\)"),
    (lambda f: [np.r_[f[0], [-1]]] + f[1:], r"fold 0: row -1 is outside 0..299"),
    (lambda f: [f[0] + 0.5] + f[1:], r"fold 0: rows must be integer record indices, got float64"),
    (lambda f: [np.array([], dtype=int)] + f[1:], r"fold 0: its rows must be a non-empty 1-d array"),
    (lambda f: np.concatenate(f), r"test_sets must be a list of index arrays \(one per fold\), got one flat array"),
    (lambda f: [np.r_[f[0], f[1][:3]], f[1][3:]] + f[2:],
     r"bcv5x2: fold 0 tests 153 records where a block-regularized 5x2 CV of 300 records tests "
     r"halves of 150 \+- 2 records"),
])
def test_broken_bcv_folds_are_refused_with_the_reason(edit, message):
    with pytest.raises(ValueError, match=message):
        check_design(edit(_bcv300()), 300, "bcv5x2")


def test_float_rows_that_are_whole_numbers_are_accepted():
    assert check_design([f.astype(float) for f in _bcv300()], 300) == []
    assert check_design([f.tolist() for f in _bcv300()], 300) == []


# ---------------------------------------------------------------- check_design: other designs
def test_kfold_designs():
    sk = pytest.importorskip("sklearn.model_selection")
    for n in (10, 57, 300, 305):
        assert check_design(design_folds(n, "cv10", 2), n, "cv10") == []
        sk_folds = [te for _, te in sk.KFold(10, shuffle=True, random_state=0).split(np.zeros(n))]
        assert check_design(sk_folds, n, "cv10") == []                  # same size rule as scikit-learn
    assert check_design(design_folds(301, "cv10x10", 2), 301, "cv10x10") == []
    f = design_folds(305, "cv10")
    assert check_design(f[::-1], 305, "cv10") == [
        "the larger folds are not the first n mod k = 5 folds (pybcv's order); each fold's own "
        "size is what counts"]
    f = design_folds(300, "cv10")
    with pytest.raises(ValueError, match=r"cv10: row \d+ is in both fold 2 and fold 5"):
        check_design(f[:2] + [np.r_[f[2], f[5][:1]]] + f[3:], 300, "cv10")
    with pytest.raises(ValueError, match=r"cv10: row \d+ is in none of folds 0-9 \(1 record missing\)"):
        check_design(f[:9] + [f[9][1:]], 300, "cv10")
    with pytest.raises(ValueError, match=r"cv10: fold 0 tests 31 records where a 10-fold CV of 300 "
                                         r"records has folds of 30"):
        check_design([np.r_[f[0], f[1][:1]], f[1][1:]] + f[2:], 300, "cv10")
    f = design_folds(300, "cv10x10")
    with pytest.raises(ValueError, match=r"cv10x10: run 3 \(folds 20-29\): row \d+ is in none of folds 20-29"):
        check_design(f[:25] + [f[25][1:]] + f[26:], 300, "cv10x10")
    with pytest.raises(ValueError, match=r"has 100 folds, got 10"):
        check_design(f[:10], 300, "cv10x10")


def test_holdout_and_random_mx2_designs():
    assert check_design(design_folds(301, "holdout"), 301, "holdout") == []
    assert check_design(design_folds(301, "rho15_9of10", 4), 301, "rho15_9of10") == []
    one_more = [np.arange(101)]
    assert check_design(one_more, 301, "holdout") == [
        "fold 0 tests 101 records where pybcv's hold-out tests 100 (n1 = 201 of n = 301; "
        "a training size rounded another way)"]
    with pytest.raises(ValueError, match=r"holdout: fold 0 tests 150 records where the hold-out tests "
                                         r"n - n1 = 100 of n = 301"):
        check_design([np.arange(150)], 301, "holdout")
    with pytest.raises(ValueError, match=r"holdout: a hold-out has 1 folds, got 2"):
        check_design([np.arange(100), np.arange(100)], 301, "holdout")
    assert check_design(design_folds(301, "rcv5x2"), 301, "rcv5x2") == []
    assert check_design(design_folds(301, "bcv5x2"), 301, "rcv5x2") == []  # a BCV is an m x 2 CV
    f = design_folds(300, "rcv5x2")
    with pytest.raises(ValueError, match=r"rcv5x2: fold 0 tests 151 records where a 5x2 CV of 300 "
                                         r"records tests halves of 150"):
        check_design([np.r_[f[0], f[1][:1]], f[1][1:]] + f[2:], 300, "rcv5x2")
    with pytest.raises(ValueError, match=r"conservative_z: the training sets of the conservative-Z"):
        check_design(design_folds(300, "conservative_z"), 300, "conservative_z")
    with pytest.raises(ValueError, match="unknown partition design"):
        check_design(f, 300, "bcv6x2")


# ---------------------------------------------------------------- worked examples
@pytest.mark.parametrize("module", ["pybcv.partitions", "pybcv.partitions.blocks",
                                    "pybcv.partitions.splitters", "pybcv.partitions.functions",
                                    "pybcv.partitions.designs", "pybcv.partitions._checks",
                                    "pybcv.fold_tables"])
def test_docstring_examples(module):
    import importlib
    res = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


@pytest.mark.parametrize("name", sorted(P.DESIGNS))
def test_named_design_sizes_are_its_fold_lengths(name):
    """sizes (worked out from the test sets alone where the training sets are
    their complements) and the fold count agree with drawn folds at every n,
    including the design's smallest."""
    cv = P.DESIGNS[name]
    for n in sorted({cv.min_n, cv.min_n + 1, 97, 300}):
        sp = cv.splits(n, 3)
        ntr, nte = cv.sizes(n)
        assert [len(tr) for tr, _ in sp] == ntr.tolist(), (name, n)
        assert [len(te) for _, te in sp] == nte.tolist(), (name, n)
        assert len(sp) == cv.n_splits(n) == cv.get_n_splits(), (name, n)
