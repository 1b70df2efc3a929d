"""The Python kknn stand-in finds neighbours a block of test rows at a time
(issue 22: memory near-linear in n): its predictions are those of the full
distance matrix it used before, on several data sets, whatever the block."""
import numpy as np
import pytest

from pybcv.learners import fallbacks as fb
from pybcv.learners.fallbacks import KKNNFallback


def _full_matrix_predict(model, m, X):
    """The stand-in's predictions with the whole n_test x n_train matrix (its
    code before the blocked search), as the reference."""
    enc, L, sd, we, codes = m
    V = enc.transform(X) / sd
    k = int(model.k)
    D = np.zeros((V.shape[0], L.shape[0]))
    for j in range(L.shape[1]):
        if we[j]:
            D = D + we[j] * (V[:, j][:, None] - L[:, j][None, :]) ** 2
    D = np.sqrt(D)
    kk = min(k + 1, L.shape[0])
    order = np.argsort(D, axis=1, kind="stable")[:, :kk]
    Dn = np.take_along_axis(D, order, axis=1)
    maxdist = Dn[:, -1] if kk == k + 1 else np.full(Dn.shape[0], 1e-6)
    maxdist = np.maximum(maxdist, 1e-6)
    W = np.maximum(np.minimum(Dn[:, :k] / maxdist[:, None], 1 - 1e-6), 1e-6)
    W = fb._KERNELS[model.kernel](W)
    CL = codes[order[:, :k]]
    present = np.unique(codes)
    wc = np.column_stack([fb._rowsum_ld(W * (CL == c)) for c in present])
    wc = wc / fb._rowsum_ld(wc)[:, None]
    return present[np.argmax(wc, axis=1)]


def _datasets():
    rng = np.random.default_rng(5)
    X1 = rng.normal(size=(300, 4))
    y1 = (X1[:, 0] + X1[:, 1] ** 2 > 0.5).astype(int)
    X2 = rng.integers(0, 3, size=(250, 3)).astype(float)        # many tied distances
    y2 = rng.integers(0, 3, size=250)
    import pandas as pd
    X3 = pd.DataFrame({"a": rng.normal(size=200), "c": rng.choice(list("pqrs"), 200)})
    y3 = np.where((X3["a"] > 0) ^ (X3["c"] == "p"), "yes", "no")
    from pybcv.datasets import exp6
    d = exp6(2, n=300)
    return [(X1, y1), (X2, y2), (X3, y3), (d.X, d.y)]


@pytest.mark.parametrize("block", [1, 7 * 150, 1 << 22])
@pytest.mark.parametrize("kernel", ["triangular", "rectangular", "inv"])
def test_blocked_search_predicts_as_the_full_matrix(monkeypatch, block, kernel):
    monkeypatch.setattr(fb, "KNN_BLOCK", block)
    for X, y in _datasets():
        n = len(y)
        tr, te = np.arange(0, n, 2), np.arange(1, n, 2)
        model = KKNNFallback(k=5, kernel=kernel)
        Xtr = X.iloc[tr] if hasattr(X, "iloc") else X[tr]
        Xte = X.iloc[te] if hasattr(X, "iloc") else X[te]
        model.fit(Xtr, y[tr])
        got = model.predict(Xte)
        codes = np.unique(y[tr], return_inverse=True)[1]
        m = model._fit_codes(Xtr, codes, len(np.unique(y[tr])))
        want = np.unique(y[tr])[_full_matrix_predict(model, m, Xte)]
        assert np.array_equal(got, want)


def test_blocks_bound_the_distance_matrix(monkeypatch):
    """No block holds more than KNN_BLOCK distances (plus one row)."""
    seen = []
    real_zeros = np.zeros

    def zeros(shape, *a, **k):
        if isinstance(shape, tuple) and len(shape) == 2:
            seen.append(shape[0] * shape[1])
        return real_zeros(shape, *a, **k)

    monkeypatch.setattr(fb, "KNN_BLOCK", 1000)
    monkeypatch.setattr(fb.np, "zeros", zeros)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 2))
    y = (X[:, 0] > 0).astype(int)
    fb._nearest(X[:200], X[200:], np.ones(2), 6)
    assert seen and max(seen) <= 1000
