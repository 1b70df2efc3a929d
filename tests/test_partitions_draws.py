"""The partitions draw the same records for the same random stream, bit for
bit, as the code that made the committed replication runs.

Each case hashes (SHA-256) the fold sizes and the indices of every fold of a
scheme at several n (for the block-regularized designs every n mod 8 and
n mod 16) and several seeds.  The hashes were recorded from the code before
the partitions became one class per scheme; a change here changes every
stored repetition, so it must never be "fixed" by updating a hash.
"""
import hashlib

import numpy as np
import pytest

from pybcv import partitions as P
from pybcv.seeds import design_seq, rng

SEEDS = (0, 1, 20240501)
N_GENERAL = (10, 23, 40, 97, 300, 301)
N_BCV = tuple(range(16, 34)) + tuple(range(296, 304))


def _digest(folds) -> str:
    """SHA-256 of a list of index arrays or of (train, test) pairs."""
    h = hashlib.sha256()
    for f in folds:
        parts = f if isinstance(f, tuple) else (f,)
        for a in parts:
            a = np.asarray(a, dtype=np.int64)
            h.update(np.int64(a.size).tobytes())
            h.update(a.tobytes())
        h.update(b"|")
    return h.hexdigest()[:16]


def _ns(key):
    return N_BCV if key.startswith("bcv") else N_GENERAL


def _design_splits(key):
    d = P.DESIGNS[key]
    return [d.splits(n, s) for n in _ns(key) for s in SEEDS]


def _design_test_sets(key):
    d = P.DESIGNS[key]
    return [d.test_sets(n, rng(design_seq(s, r, key))) for n in _ns(key) for s in SEEDS
            for r in (0, 7)]


def _flat(list_of_fold_lists):
    return [f for folds in list_of_fold_lists for f in folds]


DESIGN_SPLITS = {
    'bcv3x2': '6add76ff04837ccd',
    'bcv5x2': '852480a43d99a56a',
    'conservative_z': '89fc960069d02d97',
    'cv10': '584ba2602d29d9a2',
    'cv10x10': 'e3cf06d558056d22',
    'holdout': 'dca6ca46553d33ea',
    'pseudo_bootstrap': '87deebbdeb691f10',
    'rcv5x2': '5d233899bd78faff',
    'rho15_2of3': '470d835ce1509387',
    'rho15_9of10': '0d6688277312ed0b',
}
DESIGN_TEST_SETS = {
    'bcv3x2': '7845992e7ed22ccc',
    'bcv5x2': 'f06e5e6243fcf663',
    'conservative_z': '41428dd370b317d6',
    'cv10': 'c8f22177c5d6aeda',
    'cv10x10': 'c2e08ad3821398b1',
    'holdout': '067316bcd1f8b307',
    'pseudo_bootstrap': '326440ff7ce7323c',
    'rcv5x2': '14d1ee51286fd93f',
    'rho15_2of3': '06693c5dea6c50c2',
    'rho15_9of10': 'a58f0afe2da76fdb',
}
FUNCTION_CASES = {
    'bcv_mx2 m=1': 'ded173239bd452f1',
    'bcv_mx2 m=1 first': '18b7a8abac01e1de',
    'bcv_mx2 m=1 unshuffled': 'b3ae2383f94ff51b',
    'bcv_mx2 m=2': '562d66084e297bbe',
    'bcv_mx2 m=2 first': '277c6ecc58722872',
    'bcv_mx2 m=2 unshuffled': '854878e7b5dd61e8',
    'bcv_mx2 m=3': '054c1e025c739c2a',
    'bcv_mx2 m=3 first': 'd309efa3bf73eb6e',
    'bcv_mx2 m=3 unshuffled': '8f8b4c625df5bcb3',
    'bcv_mx2 m=4': '45f32309a7433a23',
    'bcv_mx2 m=4 first': 'b58ce2b306807120',
    'bcv_mx2 m=4 unshuffled': 'e6da45e01302da53',
    'bcv_mx2 m=5': '8b22271973a50b01',
    'bcv_mx2 m=5 first': '9c533f11968fc658',
    'bcv_mx2 m=5 unshuffled': 'f116b462e2ff7aa4',
    'bcv_mx2 m=6': 'da7033cd2e7a1c4e',
    'bcv_mx2 m=6 first': '7df1f96fbf1d0eb8',
    'bcv_mx2 m=6 unshuffled': '3ddb9b47019acce9',
    'bcv_mx2 m=7': '56e5ce325f971106',
    'bcv_mx2 m=7 first': '66bf78f2b7803b9b',
    'bcv_mx2 m=7 unshuffled': 'dc164a52468f98b6',
    'bcv_mx2 m=8': 'c26bb583cf45f884',
    'bcv_mx2 m=8 first': '9adddaa6bdc111df',
    'bcv_mx2 m=8 unshuffled': 'ddddd4e5d1d7c64a',
    'bcv_mx2 m=9': '8543c670b0dc715a',
    'bcv_mx2 m=9 first': 'ecc109f883a6a234',
    'bcv_mx2 m=9 unshuffled': '71fae625b5a99bf0',
    'bcv_mx2 m=10': '369832281356c17c',
    'bcv_mx2 m=10 first': '82454eeacc6a5147',
    'bcv_mx2 m=10 unshuffled': 'ecdd1bf21a06a51f',
    'bcv_mx2 m=11': '62a2c6e45998dd90',
    'bcv_mx2 m=11 first': 'bb29a57db5d5318e',
    'bcv_mx2 m=11 unshuffled': '6ee5fa469b1dce8b',
    'bcv_mx2 m=12': 'ff237d62ae51e02f',
    'bcv_mx2 m=12 first': 'e3d6f7c0ae235ca9',
    'bcv_mx2 m=12 unshuffled': '288f5a77fe80a065',
    'bcv_mx2 m=13': '11c1b1ea67ce3736',
    'bcv_mx2 m=13 first': '003007162fd88dda',
    'bcv_mx2 m=13 unshuffled': '4fcd392e6b1e612c',
    'bcv_mx2 m=14': '6a7beaa05001554b',
    'bcv_mx2 m=14 first': '7c670a330f3e0a65',
    'bcv_mx2 m=14 unshuffled': '99025f7fe8d2768a',
    'bcv_mx2 m=15': '8d3bba078fd73ea2',
    'bcv_mx2 m=15 first': 'e3b01ec6a00ecf26',
    'bcv_mx2 m=15 unshuffled': 'af3c64decf79126a',
    'bcv_mx2 m=5 spec': '3ec543823830f94f',
    'bcv_blocks': '266d9a9a93dba29d',
    'holdout': '0ba3e0c5eebe2158',
    'holdout unshuffled': 'f56229adf76e7ed6',
    'repeated_holdout': 'a69ac3e930b28165',
    'kfold': 'd342217e4c5d6c4d',
    'kfold unshuffled': '4e2ad9f2f21bf297',
    'repeated_kfold': 'fa2d554f81dfa8b0',
    'random_mx2': 'a741cc009b053726',
    'pseudo_bootstrap': 'bac98d0d64eea683',
    'conservative_z': '6af8aaab63f64a52',
    'generator and SeedSequence': 'f9429e859baffa9b',
    # int random_state of a named design: compare(seed=s)'s stream (pybcv.seeds.design_seq)
    'splitter classes': 'b01c06e628d30e29',
}


def _function_cases():
    """Scheme functions with parameters other than the DESIGNS defaults."""
    out = {}
    for m in range(1, 16):
        B = P.bcv_n_blocks(m)
        ns = range(B, 3 * B + 1)
        out[f"bcv_mx2 m={m}"] = [P.bcv_mx2(n, s, m=m) for n in ns for s in SEEDS[:2]]
        out[f"bcv_mx2 m={m} first"] = [P.bcv_mx2(n, 3, m=m, extra_rule="first") for n in ns]
        out[f"bcv_mx2 m={m} unshuffled"] = [P.bcv_mx2(n, m=m, shuffle=False) for n in ns]
    out["bcv_mx2 m=5 spec"] = [P.bcv_mx2(n, s, m=5, extra_rule="spec") for n in N_BCV for s in SEEDS]
    out["bcv_blocks"] = [P.bcv_blocks(n, s, n_blocks=B) for B in (2, 4, 8, 16)
                         for n in range(B, 3 * B) for s in SEEDS[:2]]
    out["holdout"] = [P.holdout(n, s, train_size=f) for n in N_GENERAL for s in SEEDS
                      for f in (0.5, 2 / 3, 0.9, 5)]
    out["holdout unshuffled"] = [P.holdout(n, shuffle=False) for n in N_GENERAL]
    out["repeated_holdout"] = [P.repeated_holdout(n, s, 4, 0.75) for n in N_GENERAL for s in SEEDS]
    out["kfold"] = [P.kfold(n, s, k) for n in N_GENERAL for s in SEEDS for k in (2, 3, 7, 10)]
    out["kfold unshuffled"] = [P.kfold(n, k=4, shuffle=False) for n in N_GENERAL]
    out["repeated_kfold"] = [P.repeated_kfold(n, s, 3, 4) for n in N_GENERAL for s in SEEDS]
    out["random_mx2"] = [P.random_mx2(n, s, m) for n in N_GENERAL for s in SEEDS for m in (1, 2, 5)]
    out["pseudo_bootstrap"] = [P.pseudo_bootstrap(n, s, 3, 2, 0.8) for n in N_GENERAL for s in SEEDS]
    out["conservative_z"] = [P.conservative_z(n, s, 3, 2, 0.75) for n in N_GENERAL[1:] for s in SEEDS]
    out["generator and SeedSequence"] = (
        [P.DESIGNS[k].splits(301, np.random.default_rng(5)) for k in sorted(P.DESIGNS)]
        + [P.DESIGNS[k].splits(301, np.random.SeedSequence(5)) for k in sorted(P.DESIGNS)])
    X = np.zeros((301, 1))
    out["splitter classes"] = [list(cv.split(X)) for cv in (
        P.HoldOut(random_state=4), P.RepeatedHoldOut(3, 0.8, random_state=4),
        P.KFoldCV(7, random_state=4), P.RepeatedKFoldCV(3, 2, random_state=4),
        P.RandomMx2CV(3, random_state=4), P.BlockRegularizedMx2CV(5, random_state=4),
        P.BlockRegularizedMx2CV(7, "first", random_state=4),
        P.PseudoBootstrapSplit(2, 2, random_state=4), P.ConservativeZSplit(2, 2, random_state=4))]
    return out


@pytest.mark.parametrize("key", sorted(P.DESIGNS))
def test_design_splits_are_unchanged(key):
    assert _digest(_flat(_design_splits(key))) == DESIGN_SPLITS[key]


@pytest.mark.parametrize("key", sorted(P.DESIGNS))
def test_design_test_sets_are_unchanged(key):
    assert _digest(_flat(_design_test_sets(key))) == DESIGN_TEST_SETS[key]


def test_scheme_functions_are_unchanged():
    got = {name: _digest(_flat(v)) for name, v in _function_cases().items()}
    assert got == FUNCTION_CASES
