"""pybcv's errors and warnings cross process boundaries (worker pools,
dask) as themselves: class, message and attributes."""
import pickle

import pytest

from pybcv import errors as E

CASES = [E.ArgumentError("loss", "loss: a cost matrix is for classifiers"),
         E.FitError("kknn", 3, 10, "boom").set_context(design="cv10", repetition=4),
         E.PredictionError("glm", 1, 2, "predicted 0.2"),
         E.LearnerInputError("glm", None, 10, "glm is a 2-class learner"),
         E.TextColumnsError("LogisticRegression", None, 5, "text columns"),
         E.FitWarning("glm", [2, 1], 10, "did not converge", RuntimeWarning),
         E.DataError("no such column"), E.StoreError("damaged"), E.ConfigMismatch("other seed")]


@pytest.mark.parametrize("err", CASES, ids=lambda e: type(e).__name__)
def test_errors_pickle_as_themselves(err):
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert str(back) == str(err) and back.args == err.args
    assert back.__dict__ == err.__dict__


def test_r_learner_error_pickles():
    pytest.importorskip("rpy2")
    from r_bridge.bridge import RLearnerError
    e = RLearnerError("kknn", 2, "incorrect number of dimensions", n_folds=10)
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is RLearnerError and str(back) == str(e)
