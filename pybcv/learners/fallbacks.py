"""The Python backend of every registry learner (``backend="python"``):
class ``<Learner>Fallback`` runs registry learner ``<Learner>`` without R.

``majority``, ``mean``, ``fnn-weighted`` and ``fnn-distorted`` are exact numpy
twins of the R code in ``R/inst/batch.R``: same arithmetic in the same
order, same tie rules, so their predictions equal the R backend's.
``glm`` runs the IRLS of R's ``glm.fit`` for all folds of a design at once;
``kknn`` re-implements ``kknn::kknn``.  The Weka learners and ``tree`` are
scikit-learn stand-ins; each class docstring says how it differs.

Every class is a scikit-learn estimator (``__init__`` only stores its
parameters) with ``fit``, ``predict`` and ``predict_splits(X, y, splits)``,
and records ``backend_ = "python"``.
"""
from __future__ import annotations

import inspect
import itertools
import threading

import numpy as np

from .._deferred import deferred
from .spec import weka_options
from .timelimit import one_fit

from .._validate import (Params, check_labels, factor_columns_note, keep_init_args,
                         nonfinite_message)

pd = deferred("pandas")     # imported on first use: 0.2 s of start-up (_deferred.py)


class BaseEstimator(Params):
    """scikit-learn's estimator protocol without importing scikit-learn
    (optional, and 0.3 s to import): the same classes with and without it.
    Its repr, as scikit-learn's, names the parameters not at their default."""

    def __repr__(self):
        default = {k: p.default for k, p in inspect.signature(type(self).__init__).parameters.items()}
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params(deep=False).items()
                         if repr(v) != repr(default.get(k)))
        return f"{type(self).__name__}({args})"


class ClassifierMixin:
    """scikit-learn's classifier marker (``is_classifier``) and ``score``."""
    _estimator_type = "classifier"

    def score(self, X, y):
        return float(np.mean(self.predict(X) == np.asarray(y)))


BACKEND = "python"


# --------------------------------------------------------------------- helpers
def take_rows(X, idx):
    """Rows ``idx`` of a numpy array or a pandas DataFrame."""
    return X.iloc[idx] if hasattr(X, "iloc") else np.asarray(X)[idx]


_RANGE_BLOCK = 1 << 13       # indices gathered at a time: 64 KiB, below malloc's 128 KiB mmap threshold


def _index_range(arrays):
    """(min, max) over the entries of ``arrays`` ((0, -1) when there are
    none), gathered a block of about 8k indices at a time, each block freed
    before the next: one concatenation of every split's indices (~1 MB for
    a Table-5 repetition) is memory the allocator maps and unmaps at every
    call, thousands of page faults per repetition (issue 23)."""
    full = [a for a in arrays if a.size]
    block = np.cumsum([a.size for a in full]) // _RANGE_BLOCK     # the block of each array
    ends = [(b.min(), b.max()) for b in
            (np.concatenate([a for _, a in grp]) for _, grp in
             itertools.groupby(zip(block, full), key=lambda t: t[0]))]
    if not ends:
        return 0, -1
    return int(min(lo for lo, _ in ends)), int(max(hi for _, hi in ends))


def _check_splits(splits, n):
    """Splits as lists of intp arrays; index range checked once for all."""
    out = [(np.asarray(tr, dtype=np.intp).ravel(), np.asarray(te, dtype=np.intp).ravel())
           for tr, te in splits]
    if not out:
        return out
    lo, hi = _index_range([a for pair in out for a in pair])
    if lo < 0 or hi >= n:
        for f, (tr, te) in enumerate(out):
            for a, what in ((tr, "train"), (te, "test")):
                if a.size and (a.min() < 0 or a.max() >= n):
                    raise IndexError(f"split {f + 1}: {what} index out of range for {n} rows")
    for f, (tr, _) in enumerate(out):
        if tr.size == 0:
            raise ValueError(f"split {f + 1}: empty training set")
    return out


def _labels(y, X=None):
    """(classes in sorted order, 0-based codes) — the R factor's level order.
    Missing labels (NaN/None), or X with another number of rows, raise ValueError."""
    y = check_labels(y)
    if X is not None and len(X) != len(y):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)}")
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.intp)


class _Encoder:
    """Numeric matrix from X: numeric columns as they are, categorical columns
    as 0/1 dummies (all levels, or all but the first = R's treatment contrasts).
    ``cats``: per input column, its levels (None for a numeric column)."""

    def fit(self, X):
        self.cats = []
        if hasattr(X, "columns"):
            for name in X.columns:
                s = X[name]
                if isinstance(s.dtype, pd.CategoricalDtype):
                    self.cats.append(list(s.cat.categories))
                elif s.dtype == object or pd.api.types.is_string_dtype(s.dtype):
                    self.cats.append(sorted({v for v in s if v == v and v is not None},
                                            key=_sort_key))
                else:
                    self.cats.append(None)
        else:
            A = np.asarray(X)
            A = A.reshape(-1, 1) if A.ndim == 1 else A
            fac = A.dtype.kind not in "fiub"
            self.cats = [sorted(set(A[:, j].tolist()), key=_sort_key) if fac else None
                         for j in range(A.shape[1])]
        self.numeric = all(c is None for c in self.cats)
        return self

    def transform(self, X, drop_first=False):
        if self.numeric and not hasattr(X, "columns"):
            A = np.asarray(X, dtype=np.float64)
            A = A.reshape(-1, 1) if A.ndim == 1 else A
            if not np.isfinite(A).all():
                j = int(np.flatnonzero(~np.isfinite(A).all(axis=0))[0])
                raise ValueError(nonfinite_message(A[:, j], j))
            return A
        cols = []
        for j, cats in enumerate(self.cats):
            v = X.iloc[:, j] if hasattr(X, "iloc") else np.asarray(X).reshape(len(X), -1)[:, j]
            if cats is None:
                a = np.asarray(v, dtype=np.float64)
                if not np.isfinite(a).all():
                    raise ValueError(nonfinite_message(a, j))
                cols.append(a)
                continue
            vals = np.asarray(v, dtype=object)
            cols += [(vals == c).astype(np.float64) for c in (cats[1:] if drop_first else cats)]
        return np.column_stack(cols) if cols else np.zeros((len(X), 0))

    def term_index(self):
        """Per output column of ``transform(X)``, the index of its input column."""
        return np.asarray([j for j, cats in enumerate(self.cats)
                           for _ in ([j] if cats is None else cats)], dtype=np.intp)


def _sort_key(v):
    return (type(v).__name__, v) if not isinstance(v, (int, float, np.number)) else ("", v)


def _numeric_matrix(X, who):
    enc = _Encoder().fit(X)
    if not enc.numeric:
        raise ValueError(f"{who} needs numeric predictors; X has categorical columns"
                         + factor_columns_note(X, [c is not None for c in enc.cats]))
    return enc.transform(X)


class _PythonLearner(ClassifierMixin, BaseEstimator):
    """Base: ``fit``/``predict`` via ``_fit_codes``/``_predict_codes`` on
    integer class codes, and a generic ``predict_splits`` (one fit per split)."""

    def fit(self, X, y):
        classes, codes = _labels(y, X)
        self.classes_ = classes
        self.model_ = self._fit_codes(X, codes, len(classes))
        self.backend_ = BACKEND
        return self

    def predict(self, X):
        if not hasattr(self, "model_"):
            raise _not_fitted(self)
        return self.classes_[self._predict_codes(self.model_, X)]

    def _start(self, X, y, splits):
        """(classes, codes, splits) of a ``predict_splits`` call, checked."""
        classes, codes = _labels(y, X)
        self.backend_ = BACKEND
        return classes, codes, _check_splits(splits, len(codes))

    def predict_splits(self, X, y, splits):
        classes, codes, splits = self._start(X, y, splits)
        _Encoder().fit(X).transform(X)    # NaN/inf named by their row in X, not in a fold
        out = []
        for f, (tr, te) in enumerate(splits, start=1):
            with one_fit(f):             # the time limit of a fit (pybcv.learners.timelimit)
                m = self._fit_codes(take_rows(X, tr), codes[tr], len(classes))
                out.append(classes[self._predict_codes(m, take_rows(X, te))])
        return out


def _train_class_counts(codes, splits, K):
    """(F, K) class counts of every training set (a fold at a time: cheaper
    here than concatenating ~10^5 indices)."""
    if K == 2:
        lens = np.fromiter((tr.size for tr, _ in splits), dtype=np.intp, count=len(splits))
        second = np.fromiter((np.count_nonzero(codes[tr]) for tr, _ in splits), dtype=np.intp,
                             count=len(splits))
        return np.column_stack([lens - second, second])
    return np.array([np.bincount(codes[tr], minlength=K) for tr, _ in splits]).reshape(-1, K)


def _not_fitted(est):
    try:
        from sklearn.exceptions import NotFittedError
    except ImportError:  # pragma: no cover
        NotFittedError = RuntimeError
    return NotFittedError(f"{type(est).__name__} is not fitted yet; call fit first")


# --------------------------------------------------------------------- exact twins
class MajorityFallback(_PythonLearner):
    """MAJ: predicts the most frequent training class; a tie goes to the
    smallest label in sorted order.  Identical to the R backend."""

    def _fit_codes(self, X, codes, k):
        return int(np.bincount(codes, minlength=k).argmax())

    def _predict_codes(self, m, X):
        return np.full(len(X), m, dtype=np.intp)

    def predict_splits(self, X, y, splits):
        classes, codes, splits = self._start(X, y, splits)
        if not splits:
            return []
        counts = _train_class_counts(codes, splits, len(classes))
        top = classes[counts.argmax(axis=1)]          # first maximum: smallest label
        return [np.full(te.size, top[f], dtype=classes.dtype) for f, (_, te) in enumerate(splits)]


def _class_means(Xtr, ctr):
    """Means of the classes present, as R's ``colSums(rows) / nrow(rows)``:
    a sequential long-double sum rounded to double, then divided."""
    present = np.unique(ctr)
    M = np.empty((present.size, Xtr.shape[1]))
    for i, c in enumerate(present):
        rows = Xtr[ctr == c]
        s = np.cumsum(rows.astype(np.longdouble), axis=0)[-1].astype(np.float64)
        M[i] = s / rows.shape[0]
    return present, M


class MeanFallback(_PythonLearner):
    """Nearest class mean (Euclidean), the paper's mean classifier.  Squared
    distances are summed column by column, ties go to the smallest label;
    identical to the R backend (needs numeric predictors)."""

    def _fit_codes(self, X, codes, k):
        return _class_means(_numeric_matrix(X, "mean"), codes)

    def _predict_codes(self, m, X):
        present, M = m
        D = _fnn_dist(_numeric_matrix(X, "mean"), M, [range(M.shape[1])], [1.0])
        return present[np.argmin(D, axis=1)]      # a tie: the first minimum

    def predict_splits(self, X, y, splits):
        classes, codes, splits = self._start(X, y, splits)
        A = _numeric_matrix(X, "mean")
        return [classes[self._predict_codes(_class_means(A[tr], codes[tr]), A[te])]
                for tr, te in splits]


FULL_MATRIX_MAX_N = 2000   # same limit as batch.R (a 2000 x 2000 matrix is 32 MB)


def _fnn_dist(A, B, groups, w):
    """sum_g w[g] * sum_{l in g} (a_l - b_l)^2, in batch.R's order of operations
    (also the mean classifier's distance: one group, weight 1, which is exact)."""
    D = np.zeros((A.shape[0], B.shape[0]))
    for g, wg in zip(groups, w):
        s = np.zeros_like(D)
        for col in g:
            s = s + (A[:, col][:, None] - B[:, col][None, :]) ** 2
        D = D + wg * s
    return D


class _FNN(_PythonLearner):
    """1-NN on a weighted distance: a subclass names its positive parameter
    (``_param``), the predictors it needs (``_p``, ``_needs``) and the groups
    and weights of its distance for a parameter value (``_weights``)."""

    def _groups(self, p):
        v = float(getattr(self, self._param))
        if not v > 0:
            raise ValueError(f"{self._param} must be > 0, got {getattr(self, self._param)!r}")
        if p != self._p:
            raise ValueError(f"{self._who} needs {self._needs}, got {p}")
        return self._weights(v)

    def _fit_codes(self, X, codes, k):
        return _numeric_matrix(X, self._who), codes

    def _predict_codes(self, m, X):
        Xtr, ctr = m
        groups, w = self._groups(Xtr.shape[1])
        D = _fnn_dist(_numeric_matrix(X, self._who), Xtr, groups, w)
        return ctr[np.argmin(D, axis=1)]

    def predict_splits(self, X, y, splits):
        classes, codes, splits = self._start(X, y, splits)
        A = _numeric_matrix(X, self._who)
        groups, w = self._groups(A.shape[1])
        full = _fnn_dist(A, A, groups, w) if A.shape[0] <= FULL_MATRIX_MAX_N else None
        out = []
        for tr, te in splits:
            D = full[np.ix_(te, tr)] if full is not None else _fnn_dist(A[te], A[tr], groups, w)
            out.append(classes[codes[tr][np.argmin(D, axis=1)]])
        return out


class FNNWeightedFallback(_FNN):
    """EXP6's FNN: 1-NN with d = ω(x1−x1')² + ω⁻¹(x2−x2')² (2 numeric
    predictors), ``omega`` > 0.  A distance tie goes to the first training row.
    Identical to the R backend."""

    _who, _param, _p, _needs = "fnn-weighted", "omega", 2, "exactly 2 predictors"

    def __init__(self, omega=1.0):
        self.omega = omega

    @staticmethod
    def _weights(om):
        return ([0], [1]), (om, 1.0 / om)


LETTER_GROUPS = ([0, 2, 8, 15], [1, 3, 5, 6, 7, 9, 11, 13, 14], [4, 10, 12])  # 0-based


class FNNDistortedFallback(_FNN):
    """letter's FNN: 1-NN with d = Σ_k υ^(2−k) Σ_{l∈C_k} (x_l − x'_l)²,
    C1 = {1,3,9,16}, C2 = {2,4,6,7,8,10,12,14,15}, C3 = {5,11,13} (1-based,
    the 16 letter predictors in UCI/mlbench order), ``upsilon`` > 0.  A
    distance tie goes to the first training row.  Identical to the R backend."""

    _who, _param, _p, _needs = "fnn-distorted", "upsilon", 16, "the 16 letter predictors"

    def __init__(self, upsilon=1.0):
        self.upsilon = upsilon

    @staticmethod
    def _weights(u):
        return LETTER_GROUPS, (u, 1.0, 1.0 / u)


# --------------------------------------------------------------------- glm (batched IRLS)
_THRESH = 30.0
_MTHRESH = -30.0


def _linkinv(eta):
    """binomial()$linkinv of R: exp(eta) / (1 + exp(eta)), eta clamped to ±30."""
    e = np.exp(np.clip(eta, _MTHRESH, _THRESH))
    return e / (e + 1)


_LOG3 = float(np.log(3.0))
_BLOCK = 1 << 16        # cells of one dense (folds x records) block: ~0.5 MiB, cache-sized


def irls_logistic(Z, y, train_sets, maxit=25, epsilon=1e-8):
    """Logistic regressions by IRLS, all fits at once (R's glm.fit rules).

    Z: (n, p) design matrix (with intercept column); y: (n,) 0/1 responses;
    train_sets: list of F integer index arrays (a repeated index counts as
    many times as it appears).  Returns the coefficients, (F, p).

    The folds are held as a dense (F, n) matrix M of training counts, so one
    IRLS step of every fit is a few array passes over (F, n) and row-wise
    reductions: Z'WZ = (M v) [z_i z_j] and the score Z'M(y - mu), with
    v = mu (1 - mu).  glm.fit's weighted least-squares step
    b = (Z'WZ)^-1 Z'W z, z = eta + (y - mu)/v, is taken in its Newton form
    b = b_old + (Z'WZ)^-1 Z'M(y - mu) (the same solution for the logit
    link).  Starting values (mustart = (y + 0.5)/2), the deviance convergence
    test |dev − dev_old| / (|dev| + 0.1) < epsilon and maxit = 25 follow
    glm.fit; a fit that has converged leaves the batch.  eta is clamped to
    ±30 as binomial()$linkinv does.  Rank-deficient fits get the
    minimum-norm solution (an all-zero column gets coefficient 0, as the R
    backend sets R's NA coefficients to 0).  Folds are processed in blocks of
    about 64k (fold, record) cells, so the work arrays stay in cache.
    """
    Z = np.asarray(Z, dtype=float)
    n, p = Z.shape
    sets = [np.asarray(t, dtype=np.intp).ravel() for t in train_sets]
    F = len(sets)
    if F == 0:
        return np.zeros((0, p))
    if any(t.size == 0 for t in sets):
        raise ValueError("empty training set")
    y = np.asarray(y, dtype=float)
    ysel = y > 0.5
    iu, ju = np.triu_indices(p)
    ZT = np.ascontiguousarray(Z.T)
    ZZT = ZT[iu] * ZT[ju]                        # (q, n): products for the upper triangle
    zmax = np.abs(Z).max(axis=0)
    beta = np.empty((F, p))
    step = max(1, _BLOCK // max(n, 1))
    for s in range(0, F, step):
        block = sets[s:s + step]
        k = len(block)
        bufs = _work_buffers(k, n)
        M = bufs[4]                                 # training counts, fold by row
        for f, t in enumerate(block):
            M[f] = np.bincount(t, minlength=n)
        beta[s:s + k] = _irls_dense(ZT, ZZT, zmax, y, ysel, M, bufs[:4], iu, ju, maxit, epsilon)
    return beta


_WORK = threading.local()


def _work_buffers(k, n):
    """Five (k, n) float work arrays, kept per thread between calls: fresh
    ones would page-fault on first touch in every call (~1000 faults per
    simple repetition)."""
    buf = getattr(_WORK, "buf", None)
    if buf is None or buf.shape[1] < k * n:
        buf = _WORK.buf = np.empty((5, k * n))
    return [buf[i, :k * n].reshape(k, n) for i in range(5)]


def _keep_rows(A, keep):
    """Move the rows ``keep`` of A to its front, in place; the front view."""
    for i, j in enumerate(np.flatnonzero(keep).tolist()):
        if i != j:
            A[i] = A[j]
    return A[:int(keep.sum())]


def _irls_dense(ZT, ZZT, zmax, y, ysel, M, work, iu, ju, maxit, epsilon):
    """The IRLS of one block: M is the (k, n) matrix of training counts,
    ``work`` four (k, n) buffers; M and the buffers are overwritten."""
    k, n = M.shape
    p = ZT.shape[0]
    beta = np.zeros((k, p))
    active = np.arange(k)
    E, T, D, O = work
    c = np.einsum("fn,pn->fp", M, ZT * y)         # Z'M y: the constant part of Z'M(y - mu)
    # step 1 from glm.fit's start for 0/1 data: mu = 0.75 or 0.25 and eta = ±log 3
    # (the same in every fold), i.e. weighted least squares with weights 3/16
    mu0 = np.where(ysel, 0.75, 0.25)
    v0 = mu0 * (1 - mu0)
    z0 = np.where(ysel, _LOG3, -_LOG3) + (y - mu0) / v0
    Hq = np.einsum("fn,qn->fq", M, ZZT * v0)
    g = np.einsum("fn,pn->fp", M, ZT * (v0 * z0))
    b = None
    dev_old = -2.0 * np.log(0.75) * M.sum(axis=1)
    for _ in range(maxit):
        ka = active.size
        H = np.empty((ka, p, p))
        H[:, iu, ju] = Hq
        H[:, ju, iu] = Hq
        # glm.fit solves the weighted least squares Z'WZ b = Z'W z; with the
        # canonical link Z'W z = Z'W Z b_old + Z'M(y - mu), so b = b_old + step
        b = _solve_batched(H, g) if b is None else b + _solve_batched(H, g)
        beta[active] = b
        e, t, d, o = E[:ka], T[:ka], D[:ka], O[:ka]
        np.einsum("fp,pn->fn", b, ZT, out=e)           # eta = Z b
        if np.any(np.abs(b) @ zmax > _THRESH):      # |eta| may pass 30: clamp, and
            np.clip(e, _MTHRESH, _THRESH, out=e)    # sum M y eta from the clamped eta
            sy = np.einsum("fn,fn->f", M, e * y)
        else:
            sy = np.einsum("fp,fp->f", b, c)        # sum M y eta = b'Z'M y = b'c
        np.exp(e, out=t)
        np.add(t, 1.0, out=d)
        np.reciprocal(d, out=o)                     # 1 - mu
        t *= o                                      # mu = exp(eta) / (1 + exp(eta))
        # deviance: -2 sum M log q with log q = y eta - log(1 + exp(eta))
        dev = -2.0 * (sy - np.einsum("fn,fn->f", M, np.log(d, out=d)))
        conv = np.abs(dev - dev_old) / (np.abs(dev) + 0.1) < epsilon
        if conv.any():
            keep = ~conv
            active, dev, b, c = active[keep], dev[keep], b[keep], c[keep]
            if active.size == 0:
                break
            M, t, o = _keep_rows(M, keep), _keep_rows(t, keep), _keep_rows(o, keep)
        dev_old = dev
        o *= t                                      # v = mu (1 - mu) = mu.eta (logit link)
        o *= M
        Hq = np.einsum("fn,qn->fq", o, ZZT)         # Z'WZ
        t *= M
        g = c - np.einsum("fn,pn->fp", t, ZT)       # Z'M(y - mu)
    return beta


_SINGULAR = float(np.exp(-27.6))     # det(H) / prod(diag H) below this: (near-)singular


def _solve_batched(H, g):
    """Solve H b = g for a stack of symmetric PSD systems; (near-)singular
    ones get the minimum-norm solution.  2 x 2 systems (intercept and one
    predictor, the simple experiment) by the closed form."""
    if H.shape[1] == 2:
        a, c, o = H[:, 0, 0], H[:, 1, 1], H[:, 0, 1]
        det = a * c - o * o
        with np.errstate(divide="ignore", invalid="ignore"):
            if np.all((a > 0) & (c > 0) & (det > _SINGULAR * a * c)):
                return np.column_stack([(c * g[:, 0] - o * g[:, 1]) / det,
                                        (a * g[:, 1] - o * g[:, 0]) / det])
    diag = np.einsum("fii->fi", H)
    bad = np.any(diag <= 0, axis=1)
    sign, logdet = np.linalg.slogdet(H)
    with np.errstate(divide="ignore", invalid="ignore"):
        bad |= (sign <= 0) | (logdet - np.sum(np.log(np.abs(diag)), axis=1) < np.log(_SINGULAR))
    b = np.empty_like(g)
    ok = ~bad
    if ok.all():
        return np.linalg.solve(H, g[..., None])[..., 0]
    if ok.any():
        b[ok] = np.linalg.solve(H[ok], g[ok][..., None])[..., 0]
    for i in np.flatnonzero(bad):
        b[i] = np.linalg.pinv(H[i], rcond=1e-10) @ g[i]
    return b


class GLMFallback(_PythonLearner):
    """The simple experiment's LR: binomial logit GLM, class 2 (the larger
    label) when the fitted probability exceeds ``threshold`` (0.5).  2 classes
    only (a training set with more raises ValueError; with one class it
    predicts that class).  Categorical predictors get treatment contrasts.

    ``predict_splits`` fits all folds of a design in one batched IRLS
    (numpy).  It follows glm.fit's algorithm, so coefficients agree with R to
    ~1e-8 and predictions agree except for test points within that distance
    of the 0.5 boundary.
    """

    def __init__(self, threshold=0.5):
        self.threshold = threshold

    def _design(self, X, enc=None):
        enc = enc or _Encoder().fit(X)
        M = enc.transform(X, drop_first=True)
        return np.column_stack([np.ones(M.shape[0]), M]), enc

    def _fit_codes(self, X, codes, k):
        present = np.unique(codes)
        if present.size > 2:
            raise ValueError(f"glm is a 2-class learner, but the training set has "
                             f"{present.size} classes")
        Z, enc = self._design(X)
        if present.size < 2:
            return present, None, enc
        beta = irls_logistic(Z, codes == present[1], [np.arange(Z.shape[0])])[0]
        return present, beta, enc

    def _predict_codes(self, m, X):
        present, beta, enc = m
        if beta is None:
            return np.full(len(X), present[0], dtype=np.intp)
        Z, _ = self._design(X, enc)
        return np.where(_linkinv(Z @ beta) > self.threshold, present[1], present[0])

    def predict_splits(self, X, y, splits):
        classes, codes, splits = self._start(X, y, splits)
        Z, _ = self._design(X)
        F = len(splits)
        if F == 0:
            return []
        K = classes.size
        counts = _train_class_counts(codes, splits, K) > 0    # classes present per training set
        npresent = counts.sum(axis=1)
        if np.any(npresent > 2):
            f = int(np.flatnonzero(npresent > 2)[0])
            raise ValueError(f"glm failed on fold {f + 1} of {F}: glm is a 2-class "
                             f"learner, but the training set has {npresent[f]} classes")
        lo = np.argmax(counts, axis=1)                       # smaller class present
        hi = K - 1 - np.argmax(counts[:, ::-1], axis=1)      # larger class present
        two = np.flatnonzero(npresent == 2)
        beta = np.zeros((F, Z.shape[1]))
        if two.size:
            if K == 2:
                beta[two] = irls_logistic(Z, codes == 1, [splits[f][0] for f in two])
            else:   # folds with different class pairs: one batch per pair
                for pair in {(lo[f], hi[f]) for f in two}:
                    fs = [f for f in two if (lo[f], hi[f]) == pair]
                    beta[fs] = irls_logistic(Z, codes == pair[1], [splits[f][0] for f in fs])
        te_all = np.concatenate([te for _, te in splits])
        nte = np.fromiter((te.size for _, te in splits), dtype=np.intp, count=F)
        fold_te = np.repeat(np.arange(F), nte)
        eta = np.zeros(te_all.size)
        for i in range(Z.shape[1]):
            bi = beta[:, i][fold_te]
            if i > 0:                       # column 0 is the intercept
                bi *= Z[:, i][te_all]
            eta += bi
        # linkinv(eta) > threshold  <=>  eta > logit(threshold)
        thr = float(self.threshold)
        upper = eta > np.log(thr / (1 - thr))
        if two.size < F:
            upper &= (npresent == 2)[fold_te]
        pred = np.where(upper, hi[fold_te], lo[fold_te])
        labels = classes[pred]
        ends = np.cumsum(nte)
        return [labels[e - k:e] for e, k in zip(ends.tolist(), nte.tolist())]


# --------------------------------------------------------------------- kknn
_KERNELS = {
    "triangular": lambda W: 1 - W,
    "epanechnikov": lambda W: 0.75 * (1 - W ** 2),
    "cos": lambda W: np.cos(W * np.pi / 2),
    "inv": lambda W: 1 / W,
    "rectangular": lambda W: np.ones_like(W),
}


def _rowsum_ld(A):
    """Row sums accumulated sequentially in long double, as R's rowSums."""
    return np.cumsum(A.astype(np.longdouble), axis=1)[:, -1].astype(np.float64)


#: test rows per block of the kknn stand-in's distances: a block holds at most
#: this many distances (32 MB), so memory grows linearly in the training size
KNN_BLOCK = 1 << 22


def _nearest(V, L, we, kk):
    """(indices, distances) of the ``kk`` nearest rows of ``L`` to each row of
    ``V`` under the weighted Euclidean distance (weights ``we``), nearest
    first, ties in training order -- exactly the first kk columns of a stable
    argsort of the full distance matrix, computed a block of test rows at a
    time (memory ~ KNN_BLOCK + n_train, not n_test x n_train).  In a block
    the kk-th smallest distance of each row is found by ``np.partition``;
    only the distances up to it (ties included) are sorted."""
    n_test, n_train = V.shape[0], L.shape[0]
    step = max(1, KNN_BLOCK // max(n_train, 1))
    order = np.empty((n_test, kk), dtype=np.intp)
    dist = np.empty((n_test, kk))
    cols = [j for j in range(L.shape[1]) if we[j]]
    for s in range(0, n_test, step):
        Vb = V[s:s + step]
        D = np.zeros((Vb.shape[0], n_train))
        for j in cols:                       # the sum in column order, as before
            D = D + we[j] * (Vb[:, j][:, None] - L[:, j][None, :]) ** 2
        D = np.sqrt(D)
        kth = np.partition(D, kk - 1, axis=1)[:, kk - 1]
        r, c = np.nonzero(D <= kth[:, None])            # c ascending within each row
        d = D[r, c]
        del D
        srt = np.lexsort((c, d, r))                      # by row, distance, training order
        r, c, d = r[srt], c[srt], d[srt]
        first = np.searchsorted(r, np.arange(Vb.shape[0]))
        take = first[:, None] + np.arange(kk)[None, :]
        order[s:s + step] = c[take]
        dist[s:s + step] = d[take]
    return order, dist


class KKNNFallback(_PythonLearner):
    """Weighted kNN after ``kknn::kknn`` (k = 5, kernel "triangular").

    Like kknn: predictors are scaled by their training standard deviation
    (a factor becomes one dummy per level, scaled by the root mean variance of
    its dummies and weighted 1/levels); the k + 1 nearest training points are
    found by Euclidean distance; the distances of the first k divided by the
    (k+1)-th (at least 1e-6), clipped to [1e-6, 1 − 1e-6], go through the
    kernel (triangular: 1 − d); the class with the largest summed weight wins,
    ties to the smallest label.  Differences: a tie in distance between
    neighbours is broken by training order (kknn's C code may order them
    differently), distances are summed in column order, and the rectangular
    kernel lacks kknn's extra tie rule.  Supported kernels: triangular,
    epanechnikov, cos, inv, rectangular.
    """

    def __init__(self, k=5, kernel="triangular"):
        keep_init_args(self, locals())

    def _fit_codes(self, X, codes, nclass):
        if self.kernel not in _KERNELS:
            raise ValueError(f"kernel must be one of {sorted(_KERNELS)}, got {self.kernel!r}")
        enc = _Encoder().fit(X)
        A = enc.transform(X)
        k = int(self.k)
        if not 0 < k <= A.shape[0]:
            raise ValueError(f"k must be in 1..{A.shape[0]} (training rows), got {self.k!r}")
        terms = enc.term_index()
        var = A.var(axis=0, ddof=1) if A.shape[0] > 1 else np.zeros(A.shape[1])
        sd = np.ones(A.shape[1])
        we = np.ones(A.shape[1])
        for t in np.unique(terms):
            sel = terms == t
            sd[sel] = np.sqrt(np.mean(var[sel]))
            we[sel] = 1.0 / sel.sum()
        we[sd == 0] = 0
        sd[sd == 0] = 1
        return enc, A / sd, sd, we, codes

    def _predict_codes(self, m, X):
        enc, L, sd, we, codes = m
        V = enc.transform(X) / sd
        k = int(self.k)
        kk = min(k + 1, L.shape[0])
        order, Dn = _nearest(V, L, we, kk)
        maxdist = Dn[:, -1] if kk == k + 1 else np.full(Dn.shape[0], 1e-6)
        maxdist = np.maximum(maxdist, 1e-6)
        W = Dn[:, :k] / maxdist[:, None]
        W = np.maximum(np.minimum(W, 1 - 1e-6), 1e-6)
        W = _KERNELS[self.kernel](W)
        CL = codes[order[:, :k]]
        present = np.unique(codes)
        wc = np.column_stack([_rowsum_ld(W * (CL == c)) for c in present])
        wc = wc / _rowsum_ld(wc)[:, None]
        return present[np.argmax(wc, axis=1)]


# --------------------------------------------------------------------- scikit-learn stand-ins
def _int_at_least_1(v):
    x = int(v)
    if x < 1 or str(x) != v.strip().lstrip("+"):
        raise ValueError
    return x


def _positive_float(v):
    x = float(v)
    if not (np.isfinite(x) and x > 0):
        raise ValueError
    return x


def _smo_scaling(v):
    if v.strip() not in ("0", "1", "2"):
        raise ValueError
    return int(v)


def weka_option_values(options, learner, honoured):
    """{flag: value} of Weka ``options`` (a string split like a command line,
    or a sequence of strings) for a Python fallback that honours only the
    flags in ``honoured`` ({flag: (parser or None for a switch, what it
    expects)}).  Any other flag is refused (ValueError naming it): a Weka
    option is never ignored silently.

    >>> weka_option_values("-M 5 -U", "J48", J48Fallback.HONOURED_OPTIONS)
    {'-M': 5, '-U': True}
    >>> weka_option_values(["-C", "0.1"], "J48", J48Fallback.HONOURED_OPTIONS)
    Traceback (most recent call last):
    ...
    ValueError: J48: Weka option '-C' cannot be honoured by the Python fallback (it has no counterpart there); honoured: -M <integer >= 1>, -U, -B; use backend='r' for Weka itself
    """
    opts, out, i = weka_options(options, learner), {}, 0
    honoured_txt = ", ".join(f + (f" <{w}>" if p else "") for f, (p, w) in honoured.items()) \
        or "none"
    while i < len(opts):
        flag = opts[i]
        if flag not in honoured:
            raise ValueError(f"{learner}: Weka option {flag!r} cannot be honoured by the Python "
                             f"fallback (it has no counterpart there); honoured: {honoured_txt}; "
                             f"use backend='r' for Weka itself")
        parse, what = honoured[flag]
        if parse is None:
            out[flag] = True
            i += 1
            continue
        if i + 1 >= len(opts):
            raise ValueError(f"{learner}: Weka option {flag} needs a value ({what})")
        try:
            out[flag] = parse(opts[i + 1])
        except (TypeError, ValueError):
            raise ValueError(f"{learner}: Weka option {flag} needs {what}, got "
                             f"{opts[i + 1]!r}") from None
        i += 2
    return out


class _SklearnFallback(_PythonLearner):
    """One-hot encodes categorical predictors and fits a scikit-learn model.
    A training set with a single class predicts that class.  Weka
    ``options``: the flags in ``HONOURED_OPTIONS`` are mapped onto the
    scikit-learn model; any other flag is an error (never ignored)."""

    HONOURED_OPTIONS: dict = {}
    _weka_name = ""

    def check_options(self):
        """{flag: value} of the options, or ValueError naming one it cannot honour."""
        return weka_option_values(getattr(self, "options", None), self._weka_name,
                                  self.HONOURED_OPTIONS)

    def _fit_model(self, opts, A, codes):
        """The fitted estimator, or the class code of a one-class training set."""
        present = np.unique(codes)
        return present[0] if present.size < 2 else self._estimator(opts).fit(A, codes)

    def _fit_codes(self, X, codes, k):
        opts = self.check_options()
        enc = _Encoder().fit(X)
        return enc, self._fit_model(opts, enc.transform(X), codes)

    def _predict_codes(self, m, X):
        enc, est = m
        if not hasattr(est, "predict"):
            return np.full(len(X), est, dtype=np.intp)
        return est.predict(enc.transform(X)).astype(np.intp)

    def predict_splits(self, X, y, splits):
        opts = self.check_options()
        classes, codes, splits = self._start(X, y, splits)
        A = _Encoder().fit(X).transform(X)
        out = []
        for tr, te in splits:
            est = self._fit_model(opts, A[tr], codes[tr])
            out.append(classes[est.predict(A[te]) if hasattr(est, "predict")
                               else np.full(te.size, est)])
        return out


class _WekaFallback(_SklearnFallback):
    """The stand-in of a Weka learner: it takes Weka ``options``."""

    def __init__(self, options=None):
        self.options = options


class J48Fallback(_WekaFallback):
    """Stand-in for Weka's J48 (C4.5): scikit-learn's CART tree with the
    entropy criterion and at least 2 records per leaf (J48's -M 2).
    Differs from C4.5: information gain instead of gain ratio, binary splits
    on dummies instead of multiway splits on nominal attributes, and no
    error-based pruning (so J48 and J48 -U give the same fallback tree).

    Weka options honoured: ``-M m`` (at least m records per leaf, as
    ``min_samples_leaf``), ``-U`` (no pruning: what the fallback always
    does), ``-B`` (binary splits: the fallback's only kind).  Any other
    option (``-C`` pruning confidence, ``-R``, ``-S``, ...) is refused."""

    HONOURED_OPTIONS = {"-M": (_int_at_least_1, "integer >= 1"), "-U": (None, ""),
                        "-B": (None, "")}
    _weka_name = "J48"

    def __init__(self, unpruned=False, options=None):
        keep_init_args(self, locals())

    def _estimator(self, opts):
        from sklearn.tree import DecisionTreeClassifier
        leaf = opts.get("-M", 2)
        return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=leaf, random_state=0)


class TreeFallback(_SklearnFallback):
    """Stand-in for R's ``tree::tree`` (defaults mincut 5, minsize 10):
    scikit-learn's tree with the entropy criterion (≡ tree's deviance),
    min_samples_leaf = 5 and min_samples_split = 10.  tree's mindev = 0.01
    rule (stop when a node's deviance is < 1 % of the root's) has no
    counterpart, so the fallback tree can be deeper."""

    def _estimator(self, opts):
        from sklearn.tree import DecisionTreeClassifier
        return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=5,
                                      min_samples_split=10, random_state=0)


class JRipFallback(_WekaFallback):
    """Documented stand-in for Weka's JRip (RIPPER), not a rule learner:
    a cost-complexity pruned entropy tree (min 2 records per leaf,
    ccp_alpha = 0.01), i.e. a small set of axis-parallel rules.  RIPPER's
    ordered rule growing/pruning and MDL stopping are not reproduced, so no
    JRip option has a counterpart: every Weka option is refused."""

    _weka_name = "JRip"

    def _estimator(self, opts):
        from sklearn.tree import DecisionTreeClassifier
        return DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
                                      ccp_alpha=0.01, random_state=0)


class SMOFallback(_WekaFallback):
    """Stand-in for Weka's SMO with defaults: predictors scaled to [0, 1] on
    the training data (SMO's -N 0), a linear-kernel SVM with C = 1, and
    pairwise (one-vs-one) multi-class, via scikit-learn's SVC (libsvm).
    Differs in the optimiser's tolerance and in tie handling of the
    pairwise vote; no logistic calibration (SMO's -M is off by default too).

    Weka options honoured: ``-C c`` (the complexity constant, SVC's ``C``)
    and ``-N 0|1|2`` (normalise to [0, 1] / standardise / leave the
    predictors as they are).  Any other option (``-K`` kernel, ``-L``,
    ``-P``, ``-M``, ...) is refused."""

    HONOURED_OPTIONS = {"-C": (_positive_float, "a finite number > 0"),
                        "-N": (_smo_scaling, "0, 1 or 2")}
    _weka_name = "SMO"

    def _estimator(self, opts):
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import MinMaxScaler, StandardScaler
        from sklearn.svm import SVC
        svc = SVC(kernel="linear", C=opts.get("-C", 1.0))
        scaling = opts.get("-N", 0)
        if scaling == 2:
            return svc
        return make_pipeline(MinMaxScaler() if scaling == 0 else StandardScaler(), svc)


class LogisticFallback(_WekaFallback):
    """Stand-in for Weka's Logistic (multinomial logistic regression with
    ridge 1e-8): scikit-learn's LogisticRegression without penalty (lbfgs,
    multinomial).  Differs by the tiny ridge and the optimiser's tolerance.
    No Weka option is mapped (Weka's ridge acts on its own internal
    scaling): every Weka option is refused."""

    _weka_name = "Logistic"

    def _estimator(self, opts):
        from sklearn.linear_model import LogisticRegression
        return LogisticRegression(penalty=None, max_iter=2000)
