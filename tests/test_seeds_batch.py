"""``seeds.rngs`` makes many Generators at once from numpy's SeedSequence
algorithm written with numpy arrays: every state word and every draw must
equal numpy's own SeedSequence, or every stored repetition would change."""
import hypothesis.strategies as hs
import numpy as np
import pytest
from hypothesis import given, settings

from pybcv import seeds
from pybcv.engine import RunConfig

word = hs.integers(0, 2 ** 32 - 1)


@settings(max_examples=200, deadline=None)
@given(seed=hs.one_of(hs.integers(0, 50), hs.integers(0, 2 ** 130)),
       keys=hs.integers(0, 6).flatmap(lambda s: hs.lists(hs.lists(word, min_size=s, max_size=s),
                                                           min_size=1, max_size=5)))
def test_words_are_numpys_seedsequence(seed, keys):
    want = np.stack([np.random.SeedSequence(seed, spawn_key=tuple(k)).generate_state(4, np.uint64)
                     for k in keys])
    got = seeds.pcg64_words(seed, np.asarray(keys, dtype=np.uint64).reshape(len(keys), -1))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("key", [(), (1, 12345), (2, 2 ** 31 - 1)])
@pytest.mark.parametrize("reps", [[0], [0, 1, 2, 999], [2 ** 32 - 1], [2 ** 32, 5],
                                  list(range(40)), list(range(2 ** 32 - 40, 2 ** 32)),
                                  list(range(2 ** 32 - 20, 2 ** 32 + 20))])
def test_rngs_draw_as_numpys_generators(reps, key):
    got = seeds.rngs(18, reps, *key)
    want = [seeds.rng(np.random.SeedSequence(18, spawn_key=(r,) + key)) for r in reps]
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a.permutation(97), b.permutation(97))
        assert a.random() == b.random()


def test_rngs_checks_the_seed():
    with pytest.raises(ValueError, match="seed"):
        seeds.rngs(-1, [0], 1)


@pytest.mark.parametrize("record, options", [("epsilon", {}), ("epsilon", {"share_designs": False}),
                                             ("simple", {})])
def test_unit_rngs_are_the_documented_streams(record, options):
    cfg = RunConfig(record, "table5", seed=3, **options)
    for unit, design in cfg.units()[:3]:
        seq = (seeds.design_seq if cfg.share_designs else seeds.test_seq)
        reps = [0, 7, 41] + list(range(100, 140))          # enough for the batched words
        for r, g in zip(reps, cfg.unit_rngs(reps, unit)):
            ref = seeds.rng(seq(3, r, unit))
            np.testing.assert_array_equal(g.permutation(50), ref.permutation(50))
            np.testing.assert_array_equal(cfg.unit_rng(r, unit).permutation(50),
                                          seeds.rng(seq(3, r, unit)).permutation(50))


@pytest.mark.parametrize("record", ["epsilon", "twin-residuals", "twin-labels", "twin-probs"])
def test_datasets_for_are_each_repetitions_data(record):
    """A learner-free batch draws its repetitions' data from Generators made
    together: the same records as ``dataset_for`` one repetition at a time."""
    cfg = RunConfig(record, "table5", seed=5)
    reps = [0, 3] + list(range(60, 100))
    for r, d in zip(reps, cfg.datasets_for(reps)):
        ref = cfg.dataset_for(r)
        for field in ("loss_a", "loss_b", "y", "pred_a", "pred_b"):
            a, b = getattr(d, field, None), getattr(ref, field, None)
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_array_equal(a, b)
        assert any(getattr(d, f, None) is not None for f in ("loss_a", "pred_a"))


def test_test_orders_without_shuffling_are_the_identity_cuts():
    """shuffle=False: each batch row is the unshuffled test order."""
    from pybcv.partitions import DESIGNS
    checked = 0
    for name, design in DESIGNS.items():
        cv = type(design)(**{**design.get_params(), "shuffle": False})
        rows = cv.test_orders(40, [None, None])
        want = np.concatenate(cv.test_sets(40))
        for row in rows:
            np.testing.assert_array_equal(row, want)
        checked += 1
    assert checked == len(DESIGNS) > 0
