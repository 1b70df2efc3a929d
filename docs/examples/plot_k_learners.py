"""
k learners: every pair on the same folds
========================================

Four scikit-learn classifiers on the wine data.  :func:`pybcv.compare_many`
fits each once per fold of the 5x2 BCV, tests every pair with the 5x2 BCV
McNemar test and adjusts the p-values over the six pairs (Holm); the plot
is the matrix of adjusted p-values, learners ordered by error rate.
"""
import matplotlib.pyplot as plt
from sklearn.datasets import load_wine
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from pybcv import compare_many

X, y = load_wine(return_X_y=True)
learners = [make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
            GaussianNB(), DecisionTreeClassifier(random_state=0), DummyClassifier()]
res = compare_many(X, y, learners, tests="mcnemar_5x2bcv", adjust="holm")
print(res)

# %%
res.plot()
plt.tight_layout()
plt.show()
