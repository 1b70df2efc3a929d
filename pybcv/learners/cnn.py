"""The MNIST learners of [YWSL] (section "Real-world data set 2: MNIST"):
a convolutional network ``cnn`` and the same network with dropout,
``cnn-dropout``, in PyTorch.

Architecture (the paper's, Keras defaults where it says nothing)::

    x (28 x 28, 1 channel)
    -> conv 32 filters 5x5 ("valid"), ReLU -> max-pool 2x2      (32 x 12 x 12)
    -> conv 64 filters 5x5 ("valid"), ReLU -> max-pool 2x2      (64 x 4 x 4)
    -> flatten (1024) -> [dropout, rate gamma: cnn-dropout only]
    -> dense 500, ReLU -> dense 10 -> softmax

Loss: cross-entropy (mean over the mini-batch), mini-batches of 128 records,
reshuffled every epoch.  The paper trains 250 epochs with Keras and does not
name its optimiser: we use Keras's default optimiser settings for Adam
(learning rate 0.001, beta = (0.9, 0.999), epsilon = 1e-7), Keras's default
initialisation (Glorot-uniform weights, zero biases) and Keras's inverted
dropout (kept units scaled by 1 / (1 - gamma) in training, identity in
prediction).  Inputs are used as given: :mod:`pybcv.mnist` scales pixels
to [0, 1].

Random numbers and reproducibility
----------------------------------
Each fold's fit draws from its own stream
``SeedSequence(seed, spawn_key=(stable_id(stream), crc32(train indices), crc32(y[train])))``:
the initial weights, the order of the mini-batches of every epoch and the
dropout masks.  So the same training set with the same ``seed`` and
``stream`` gives the same fit whatever the position of the fold in the
list, whether folds are trained one at a time or together, and in which
process.  ``stream`` defaults to the registry name, so that ``cnn`` and
``cnn-dropout`` with rate 0 (the paper's H0: the same network) start from
*different* random weights, as two Keras models do; their predictions then
differ only by the randomness of training, which is what the tests must
not mistake for a difference of error rates.  ``cnn-dropout`` with
``stream="cnn"`` and ``rate=0`` is exactly ``cnn``.

Determinism: on CPU the fit runs with ``threads`` intra-op threads
(default 1) and is bit-for-bit repeatable for the same torch build, thread
count and CPU instruction set: oneDNN's convolution kernels for each set
(AVX2, AVX and SSE4.1 measured) round differently, and after a few epochs a test image
in a few hundred may be classified otherwise (measured in
docs/replication/mnist/README.md, "Reproducing the committed run").  On CUDA, cuDNN is put in deterministic mode
(``cudnn.deterministic = True``, ``cudnn.benchmark = False``) during the
fit; repeatable on the same GPU and driver, not equal to the CPU result.

Training folds together (``batch_folds``): up to ``batch_folds`` folds
with the same training size (the 10 folds of a 5x2 BCV design, or every
n/2 fold of the designs a repetition fits) are trained as one stacked
network (:func:`forward_stacked`: grouped convolutions and batched
matrix products, one optimiser step for all).  Each fold keeps its own
random stream, so on CPU the fits are bit for bit those of training the
folds one at a time (parameters and predictions; tests/test_mnist.py);
on CUDA the kernels of grouped and single convolutions may round
differently.  The default ``batch_folds=1`` trains one fold at a time;
on a CPU stacking saves no time (``benchmarks/cnn.py``), on a GPU it
keeps the device busy with one call for many small networks.  From the
engine: ``pybcv simulate --dataset mnist --a cnn:batch_folds=10,device=cuda ...``.
"""
from __future__ import annotations

import contextlib
import zlib

import numpy as np

from .._validate import check_labels, keep_init_args
from ..seeds import stable_id
from .fallbacks import BaseEstimator, ClassifierMixin, _check_splits, _not_fitted

IMAGE_SHAPE = (28, 28)
N_PIXELS = 28 * 28
CONV1, CONV2, KERNEL, HIDDEN, FLAT = 32, 64, 5, 500, 64 * 4 * 4
PAPER_EPOCHS = 250
PAPER_BATCH_SIZE = 128
OPTIMIZERS = ("adam", "sgd")
DEVICES = ("cpu", "cuda")
BACKENDS = ("auto", "python")     # PyTorch only: no R implementation
PREDICT_CHUNK = 2000


def _torch():
    try:
        import torch
    except ImportError as e:  # pragma: no cover - python3-torch is a dependency here
        raise ImportError("the cnn learners need PyTorch (Debian: apt install python3-torch; "
                          "pip: pip install torch)") from e
    return torch


# ------------------------------------------------------------------ input checks
def as_images(X, name="X") -> np.ndarray:
    """X as a float32 array (n, 1, 28, 28) from (n, 784) or (n, 28, 28).

    >>> as_images(np.zeros((3, 784))).shape
    (3, 1, 28, 28)
    """
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    a = np.asarray(X)
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric pixel intensities, got dtype {a.dtype}")
    if a.shape[1:] not in ((N_PIXELS,), IMAGE_SHAPE, (1, *IMAGE_SHAPE)):
        raise ValueError(f"{name} must have shape (n, 784), (n, 28, 28) or (n, 1, 28, 28) "
                         f"(28 x 28 grey images), got {a.shape}")
    a = a.reshape(len(a), 1, *IMAGE_SHAPE).astype(np.float32, copy=False)
    if not np.all(np.isfinite(a)):
        bad = int(np.flatnonzero(~np.isfinite(a.reshape(len(a), -1)).any(axis=1))[0])
        raise ValueError(f"{name} has missing or infinite pixel values (NaN/inf), first in row {bad}")
    return a


def label_codes(y, n=None):
    """(classes, codes): the output classes and each label's index.

    Integer labels within 0..9 get the paper's 10 outputs (digits 0-9 even when
    a digit is absent from a small sample); other labels get one output per
    distinct label."""
    y = check_labels(y)
    if n is not None and len(y) != n:
        raise ValueError(f"y must have one label per image: {len(y)} labels for {n} images")
    if y.dtype.kind in "iub" and len(y) and y.min() >= 0 and y.max() <= 9:
        classes = np.arange(10, dtype=y.dtype)
    else:
        classes = np.unique(y)
    if len(classes) < 2:
        raise ValueError("y must contain at least 2 classes")
    return classes, np.searchsorted(classes, y)


def fold_seed_sequence(seed, stream, train_idx, y_train) -> np.random.SeedSequence:
    """The random stream of one fold's fit (see the module docstring)."""
    tr = np.ascontiguousarray(np.asarray(train_idx, dtype=np.int64))
    yc = np.ascontiguousarray(np.asarray(y_train, dtype=np.int64))
    return np.random.SeedSequence(int(seed), spawn_key=(
        stable_id(str(stream)), zlib.crc32(tr.tobytes()), zlib.crc32(yc.tobytes())))


# ------------------------------------------------------------------ the network, functional
def _glorot(torch, gen, shape, fan_in, fan_out):
    a = (6.0 / (fan_in + fan_out)) ** 0.5
    return (torch.rand(shape, generator=gen, dtype=torch.float32) * 2 - 1) * a


def init_params(torch, gen, n_out):
    """Glorot-uniform weights and zero biases (Keras defaults), drawn from ``gen``
    in the order conv1, conv2, dense, output."""
    k2 = KERNEL * KERNEL
    return [
        _glorot(torch, gen, (CONV1, 1, KERNEL, KERNEL), k2, CONV1 * k2), torch.zeros(CONV1),
        _glorot(torch, gen, (CONV2, CONV1, KERNEL, KERNEL), CONV1 * k2, CONV2 * k2),
        torch.zeros(CONV2),
        _glorot(torch, gen, (FLAT, HIDDEN), FLAT, HIDDEN), torch.zeros(HIDDEN),
        _glorot(torch, gen, (HIDDEN, n_out), HIDDEN, n_out), torch.zeros(n_out),
    ]


def _pool(torch, h):
    return torch.nn.functional.max_pool2d(torch.relu(h), 2)


def forward(torch, params, x, mask=None):
    """Logits (b, n_out) of one network; ``mask``: scaled dropout mask (b, 1024)."""
    W1, b1, W2, b2, W3, b3, W4, b4 = params
    conv = torch.nn.functional.conv2d
    h = _pool(torch, conv(_pool(torch, conv(x, W1, b1)), W2, b2)).flatten(1)
    if mask is not None:
        h = h * mask
    h = torch.relu(h @ W3 + b3)
    return h @ W4 + b4


def forward_stacked(torch, params, x, masks=None, split_first_conv=True):
    """Logits (G, b, n_out) of G networks trained together; x (b, G, 28, 28)
    holds image i of network g in channel g; params stacked along a first
    axis of size G; ``masks`` (G, b, 1024).

    Every operation gives, for each network, the same floating-point result
    as :func:`forward` and the same gradients (on CPU, checked in
    tests/test_mnist.py): the second convolution is one grouped convolution
    (G groups), the dense layers batched products followed by the bias
    (``bmm(h, W) + b``, as ``h @ W + b``; a fused ``baddbmm`` rounds
    otherwise), and the first convolution, whose grouped form (one input
    channel per group) accumulates its weight gradient in another order,
    runs once per network (an eighth of the convolutions' work).  On a GPU,
    where equality with one network at a time is not promised, the
    learner passes ``split_first_conv=False``: one grouped convolution
    instead of G small kernel launches per step."""
    W1, b1, W2, b2, W3, b3, W4, b4 = params
    G = W1.shape[0]
    conv = torch.nn.functional.conv2d
    if split_first_conv:
        h = torch.cat([conv(x[:, g:g + 1], W1[g], b1[g]) for g in range(G)], dim=1)
    else:
        h = conv(x, W1.flatten(0, 1), b1.flatten(), groups=G)
    h = _pool(torch, conv(_pool(torch, h), W2.flatten(0, 1), b2.flatten(), groups=G))
    h = h.reshape(h.shape[0], G, FLAT).transpose(0, 1)      # (G, b, 1024)
    if masks is not None:
        h = h * masks
    h = torch.relu(torch.bmm(h, W3) + b3[:, None, :])
    return torch.bmm(h, W4) + b4[:, None, :]


# ------------------------------------------------------------------ the estimators
class _ConvNet(ClassifierMixin, BaseEstimator):
    """Shared fitting code of :class:`CNN` and :class:`CNNDropout`."""

    _registry_name = None

    @property
    def name(self):
        """The registry name (``pybcv.learners.LEARNERS``)."""
        return self._registry_name

    def _rate(self):
        return 0.0

    # -- checks
    def _validate(self):
        """The registry's check before any fit (``make_learner``, and every
        fit); returns the torch device."""
        rate = self._rate()
        if not isinstance(rate, (int, float, np.floating, np.integer)) or not 0 <= rate < 1:
            raise ValueError(f"rate must be a number in [0, 1), got {rate!r}")
        for name in ("epochs", "batch_size", "batch_folds", "threads"):
            v = getattr(self, name)
            if v is None and name == "threads":
                continue
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        if not isinstance(self.lr, (int, float, np.floating)) or not self.lr > 0:
            raise ValueError(f"lr must be a positive number, got {self.lr!r}")
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"optimizer must be one of {OPTIMIZERS}, got {self.optimizer!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) \
                or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"learner {self._registry_name!r}: backend must be 'auto' or "
                             f"'python' (PyTorch; there is no R implementation), "
                             f"got {self.backend!r}")
        if not isinstance(self.stream, str):
            raise TypeError(f"stream must be a string, got {type(self.stream).__name__}")
        return self._device()

    def _device(self):
        torch = _torch()
        if self.device not in DEVICES:
            raise ValueError(f"device must be one of {DEVICES}, got {self.device!r}")
        if self.device == "cuda" and not torch.cuda.is_available():
            raise ValueError("device='cuda' was asked for but PyTorch sees no CUDA GPU "
                             "(torch.cuda.is_available() is False); use device='cpu'")
        return torch.device(self.device)

    @contextlib.contextmanager
    def _settings(self):
        """Thread count and cuDNN determinism for the duration of a fit."""
        torch = _torch()
        threads = torch.get_num_threads()
        cudnn = (torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
        try:
            if self.threads is not None:
                torch.set_num_threads(int(self.threads))
            torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = True, False
            yield torch
        finally:
            torch.set_num_threads(threads)
            torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = cudnn

    # -- one group of folds with equal training sizes, trained together
    def _train(self, torch, dev, images, codes, n_out, folds):
        """Trained parameters for ``folds`` (list of train index arrays of one size);
        stacked along a first axis when there are several."""
        G = len(folds)
        n_tr = len(folds[0])
        gens, rngs, params = [], [], []
        for tr in folds:
            ss = fold_seed_sequence(self.seed, self.stream, tr, codes[tr])
            s_torch, s_np = ss.spawn(2)
            g = torch.Generator().manual_seed(int(s_torch.generate_state(1, np.uint64)[0]
                                                  >> np.uint64(1)))
            gens.append(g)
            rngs.append(np.random.Generator(np.random.PCG64(s_np)))
            params.append(init_params(torch, g, n_out))
        if G == 1:
            P = [p.to(dev).requires_grad_() for p in params[0]]
        else:
            P = [torch.stack(ps).to(dev).requires_grad_() for ps in zip(*params)]
        opt = (torch.optim.Adam(P, lr=self.lr, betas=(0.9, 0.999), eps=1e-7)
               if self.optimizer == "adam" else torch.optim.SGD(P, lr=self.lr))
        X_dev = torch.from_numpy(images).to(dev)
        C_dev = torch.from_numpy(codes.astype(np.int64)).to(dev)
        folds_dev = torch.from_numpy(np.stack(folds).astype(np.int64)).to(dev)    # (G, n_tr)
        rate = float(self._rate())
        keep = 1.0 - rate
        bs = int(self.batch_size)
        ce = torch.nn.functional.cross_entropy
        for _ in range(int(self.epochs)):
            orders = torch.from_numpy(np.stack([r.permutation(n_tr) for r in rngs])).to(dev)
            for start in range(0, n_tr, bs):
                b = min(bs, n_tr - start)
                idx = folds_dev.gather(1, orders[:, start:start + b])             # (G, b)
                masks = None
                if rate > 0:
                    masks = [(torch.rand((b, FLAT), generator=g) < keep).float().div_(keep)
                             for g in gens]
                opt.zero_grad(set_to_none=True)
                if G == 1:
                    m = None if masks is None else masks[0].to(dev)
                    loss = ce(forward(torch, P, X_dev[idx[0]], m), C_dev[idx[0]])
                else:
                    x = X_dev[idx][:, :, 0].transpose(0, 1).contiguous()   # (b, G, 28, 28)
                    m = None if masks is None else torch.stack(masks).to(dev)
                    logits = forward_stacked(torch, P, x, m, split_first_conv=dev.type == "cpu")
                    tgt = C_dev[idx]                                       # (G, b)
                    # the sum of the G per-network mean losses: separate gradients
                    loss = ce(logits.reshape(G * b, -1), tgt.reshape(-1), reduction="sum") / b
                loss.backward()
                opt.step()
        P = [p.detach() for p in P]
        return [P] if G == 1 else [[p[g] for p in P] for g in range(G)]

    def _predict_codes(self, torch, dev, P, images):
        out = []
        with torch.no_grad():
            for s in range(0, len(images), PREDICT_CHUNK):
                x = torch.from_numpy(images[s:s + PREDICT_CHUNK]).to(dev)
                out.append(forward(torch, P, x).argmax(1).cpu().numpy())
        return np.concatenate(out) if out else np.zeros(0, np.int64)

    # -- the protocol
    def predict_splits(self, X, y, splits):
        """Labels predicted for ``X[test]`` by a network fitted on ``X[train], y[train]``,
        for each ``(train, test)`` of ``splits``."""
        dev, images, classes, codes = self._data(X, y)
        splits = _check_splits(splits, len(images))
        out = [None] * len(splits)
        with self._settings() as torch:
            by_size = {}
            for f, (tr, _) in enumerate(splits):
                by_size.setdefault(len(tr), []).append(f)
            for fs in by_size.values():
                for s in range(0, len(fs), int(self.batch_folds)):
                    group = fs[s:s + int(self.batch_folds)]
                    trained = self._train(torch, dev, images, codes, len(classes),
                                          [splits[f][0] for f in group])
                    for f, P in zip(group, trained):
                        te = splits[f][1]
                        out[f] = classes[self._predict_codes(torch, dev, P, images[te])]
        return out

    def fit(self, X, y):
        dev, images, classes, codes = self._data(X, y)
        with self._settings() as torch:
            self.params_ = [p.cpu() for p in self._train(
                torch, dev, images, codes, len(classes), [np.arange(len(images))])[0]]
        return self

    def _data(self, X, y):
        """(device, images, classes, label codes), checked; sets ``classes_``."""
        dev = self._validate()
        images = as_images(X)
        self.classes_, codes = label_codes(y, len(images))
        self.backend_ = "python"
        return dev, images, self.classes_, codes

    def predict(self, X):
        if not hasattr(self, "params_"):
            raise _not_fitted(self)
        dev = self._device()
        images = as_images(X)
        with self._settings() as torch:
            P = [p.to(dev) for p in self.params_]
            return self.classes_[self._predict_codes(torch, dev, P, images)]


class CNN(_ConvNet):
    """The paper's CNN (learner A of the MNIST experiment).

    Parameters: ``epochs`` (paper 250), ``batch_size`` (paper 128), ``lr``
    and ``optimizer`` ("adam": Keras's defaults, or "sgd"), ``device``
    ("cpu" or "cuda"), ``backend`` ("auto" or "python": both run PyTorch;
    accepted for the registry's uniform signature), ``seed`` and ``stream`` (the fold's random stream, see
    the module docstring), ``threads`` (torch intra-op threads during a fit;
    None keeps torch's setting), ``batch_folds`` (folds trained together).

    >>> import numpy as np
    >>> g = np.random.default_rng(0)
    >>> X, y = g.random((40, 784)).astype("float32"), np.arange(40) % 10
    >>> pred = CNN(epochs=1).predict_splits(X, y, [(np.arange(20), np.arange(20, 40))])
    >>> pred[0].shape
    (20,)
    """
    _registry_name = "cnn"

    def __init__(self, epochs=PAPER_EPOCHS, batch_size=PAPER_BATCH_SIZE, lr=0.001,
                 optimizer="adam", device="cpu", seed=0, stream="cnn", threads=1,
                 batch_folds=1, backend="auto"):
        keep_init_args(self, locals())


class CNNDropout(_ConvNet):
    """The paper's CNN+DO (learner B): :class:`CNN` with dropout of rate
    ``rate`` (gamma, in [0, 1)) on the 1024 flattened features before the
    dense layer.  ``rate = 0`` is the paper's H0 (same network as ``cnn``).

    >>> CNNDropout(rate=0.2).get_params()["rate"]
    0.2
    """
    _registry_name = "cnn-dropout"

    def __init__(self, rate=0.0, epochs=PAPER_EPOCHS, batch_size=PAPER_BATCH_SIZE, lr=0.001,
                 optimizer="adam", device="cpu", seed=0, stream="cnn-dropout", threads=1,
                 batch_folds=1, backend="auto"):
        keep_init_args(self, locals())

    def _rate(self):
        return self.rate

