"""The public error types of pybcv, in one module.

* :class:`DataError` -- bad user data (a missing file or column, NaN, too few
  records, one class); a ValueError;
* :class:`ArgumentError` -- an argument that cannot be used as given, named
  in its ``argument``; a ValueError;
* :class:`LearnerContext` -- the base of the errors raised while a learner
  runs (an R or Java fault, predictions that are no labels): the message
  names the learner, the fold, and where the engine knows them the design
  and the repetition;
* :class:`LearnerInputError` -- a learner refuses the data it is given (a
  LearnerContext and a ValueError); :class:`TextColumnsError`, one of them,
  is a scikit-learn estimator that takes no text columns, found by a trial
  fit before any fold;
* :class:`PredictionError` -- predictions that are not labels of y's
  classes, or of the wrong shape (a LearnerContext and a ValueError);
* :class:`FitError` -- a Python learner's fit or predict raised (a
  LearnerContext and a RuntimeError);
* :class:`FitWarning` -- the warnings of some fits of one learner, one per
  distinct message (a scikit-learn ConvergenceWarning, an R learner's
  warning), with the folds that gave it; a comparison summarises them per
  design in its ``warnings``;
* :class:`ConfigMismatch` -- ``--resume`` with another configuration than
  the stored one (a ValueError);
* :class:`StoreError` -- a results file that cannot be used (a RuntimeError).

The R bridge adds ``RLearnerError`` (a LearnerContext) and
``RUnavailableError`` in ``r_bridge``.
"""
from __future__ import annotations


def _restore(cls, args, state):
    """An error rebuilt from its class, args and attributes (unpickling)."""
    e = cls.__new__(cls, *args)
    e.args = args
    e.__dict__.update(state)
    return e


class _Picklable:
    """Errors whose ``__init__`` takes other arguments than their ``args``
    pickle as class + args + attributes: a worker process's error reaches
    the parent as itself (pickle's default calls ``cls(*args)``, which fails
    for them and breaks the worker pool instead)."""

    def __reduce__(self):
        return _restore, (type(self), self.args, dict(self.__dict__))


class DataError(ValueError):
    """Bad user data (missing file or column, NaN, too few records, one class)."""


class ArgumentError(_Picklable, ValueError):
    """An argument of a public function that cannot be used as given;
    ``argument`` names it ("options", "tests", "loss", "learners", "y",
    "stratify", "groups") so that a front end names its own option for it
    (the CLI: --option, --tests, --loss, ...), never by reading the message.

    >>> e = ArgumentError("loss", "loss: a cost matrix is for classifiers")
    >>> e.argument, str(e), isinstance(e, ValueError)
    ('loss', 'loss: a cost matrix is for classifiers', True)
    """

    def __init__(self, argument: str, message: str):
        super().__init__(message)
        self.argument = argument


class LearnerContext(_Picklable, Exception):
    """Mixin of the errors raised while a learner runs (R errors, predictions
    that are not labels): where it happened, for the message.

    Attributes ``learner``, ``fold`` (1-based within the splits of the call),
    ``n_folds``, and ``design`` and ``repetition``, which the code that knows
    them (the engine) fills with :meth:`set_context`; the message (``str``)
    always names what is known:

    >>> class E(LearnerContext, RuntimeError):
    ...     pass
    >>> e = E("kknn", 3, 10, "incorrect number of dimensions")
    >>> str(e)
    "learner 'kknn', fold 3 of 10: incorrect number of dimensions"
    >>> str(e.set_context(design="cv10", repetition=17))
    "learner 'kknn', fold 3 of 10, design 'cv10', repetition 17: incorrect number of dimensions"
    """

    learner = None
    fold = None
    n_folds = None
    design = None
    repetition = None
    detail = ""
    prefix = "learner"

    def __init__(self, learner, fold, n_folds, message):
        super().__init__(message)
        self._place(learner, fold, n_folds, message)

    def _place(self, learner, fold, n_folds, detail):
        said = f"{self.prefix} {learner!r}: "
        if isinstance(detail, str) and detail.startswith(said):     # named once, not twice
            detail = detail[len(said):]
        self.learner, self.fold, self.n_folds, self.detail = learner, fold, n_folds, detail
        self.args = (str(self),)

    def set_context(self, design=None, repetition=None):
        """Add the design and the repetition (the engine knows them); returns self."""
        if design is not None:
            self.design = design
        if repetition is not None:
            self.repetition = int(repetition)
        self.args = (str(self),)
        return self

    def where(self) -> str:
        parts = [f"{self.prefix} {self.learner!r}"]
        if self.fold:
            parts.append(f"fold {self.fold}" + (f" of {self.n_folds}" if self.n_folds else ""))
        if self.design is not None:
            parts.append(f"design {self.design!r}")
        if self.repetition is not None:
            parts.append(f"repetition {self.repetition}")
        return ", ".join(parts)

    def __str__(self):
        return f"{self.where()}: {self.detail}"


class PredictionError(LearnerContext, ValueError):
    """Predictions that are not labels of y's classes, or of the wrong shape.

    Attributes ``learner`` (name), ``fold`` (1-based, within the splits
    passed), ``n_folds``, and ``design`` / ``repetition`` which the engine
    fills with ``set_context(design=..., repetition=...)``."""


class LearnerInputError(LearnerContext, ValueError):
    """A learner refuses the data it is given (a 2-class learner on 3
    classes, categorical columns for a numeric learner): the message names
    the learner, and the engine adds the design and the repetition."""


class TextColumnsError(LearnerInputError):
    """A learner that takes numbers only (a plain scikit-learn estimator)
    refused the data's text columns in a trial fit, before any fold."""


class FitError(LearnerContext, RuntimeError):
    """A Python learner's fit or predict raised (a scikit-learn estimator on
    data it cannot take, a time limit): the message names the learner and
    the fold, and the engine adds the design and the repetition."""


class FitWarning(_Picklable, UserWarning):
    """One warning message of some fits of a learner, said once: ``learner``,
    ``folds`` (1-based, within the splits of the call), ``n_folds``, ``text``
    (the warning's class and first line, or R's message) and ``category``
    (the original warning class: a comparison re-raises its summary with it,
    so a filter on, e.g., ConvergenceWarning still applies).

    >>> str(FitWarning("glm", [1, 2], 10, "glm.fit: algorithm did not converge"))
    "learner 'glm', 2 of 10 fits (first on fold 1): glm.fit: algorithm did not converge"
    """

    def __init__(self, learner, folds, n_folds, text, category=UserWarning):
        self.learner, self.folds, self.n_folds = learner, sorted(folds), n_folds
        self.text, self.category = text, category
        super().__init__(f"learner {learner!r}, {len(self.folds)} of {n_folds} fits (first on fold "
                         f"{self.folds[0]}): {text}")


class ConfigMismatch(ValueError):
    """--resume with a configuration other than the stored one."""


class StoreError(RuntimeError):
    """The results file cannot be used: damaged, not SQLite, a table or a blob
    missing or unreadable, the disk full, or the file read-only.  The message
    names the file and what is wrong."""


__all__ = ["DataError", "ArgumentError", "LearnerContext", "PredictionError", "LearnerInputError",
           "TextColumnsError", "FitError", "FitWarning", "ConfigMismatch", "StoreError"]
