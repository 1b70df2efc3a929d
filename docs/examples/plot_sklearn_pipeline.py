"""
A scikit-learn pipeline against a tree, with the 5x2 BCV McNemar test
=====================================================================

A standardised logistic regression (a :class:`~sklearn.pipeline.Pipeline`)
against a decision tree on the breast-cancer data.  :func:`pybcv.compare`
fits both on the ten folds of a block-regularized 5x2 cross-validation and
runs the tests of that design; the figure shows what the test sees: the two
error rates on each fold, and the averaged table of right and wrong.
"""
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from pybcv import compare

X, y = load_breast_cancer(return_X_y=True)
logistic = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
tree = DecisionTreeClassifier(random_state=0)
res = compare(X, y, logistic, tree, seed=0)
print(res)

# %%
# The paper's test, with its interval of error(A) - error(B):
r = res.results["mcnemar_5x2bcv"]
print(f"p = {r.pvalue:.4g}, estimate = {r.estimate:+.4f}, "
      f"95% CI = [{r.confidence_interval()[0]:+.4f}, {r.confidence_interval()[1]:+.4f}]")

# %%
# Per-fold error rates and the averaged table.
tables = np.asarray(res.tables["bcv5x2"], dtype=float).reshape(-1, 4)
n = tables.sum(axis=1)
err_a = (tables[:, 0] + tables[:, 1]) / n          # A wrong: n00 + n01
err_b = (tables[:, 0] + tables[:, 2]) / n          # B wrong: n00 + n10
folds = [f"({j},{k})" for j in range(1, 6) for k in (1, 2)]

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"width_ratios": [2, 1]})
x = np.arange(len(folds))
ax1.bar(x - 0.2, err_a, width=0.4, label="A: scaled logistic regression")
ax1.bar(x + 0.2, err_b, width=0.4, label="B: decision tree")
ax1.set_xticks(x, folds, fontsize=8)
ax1.set_xlabel("fold (j, k) of the 5x2 BCV")
ax1.set_ylabel("error rate")
ax1.legend(fontsize=8)
avg = r.averaged_table
ax2.imshow(avg, cmap="Blues")
for i in range(2):
    for j in range(2):
        ax2.text(j, i, f"{avg[i, j]:.1f}", ha="center", va="center",
                 color="white" if avg[i, j] > avg.max() / 2 else "black")
ax2.set_xticks([0, 1], ["B wrong", "B right"])
ax2.set_yticks([0, 1], ["A wrong", "A right"])
ax2.set_title(f"averaged table (t = {r.t:.3f})", fontsize=9)
fig.suptitle(f"5x2 BCV McNemar: p = {r.pvalue:.3g}", fontsize=10)
fig.tight_layout()
plt.show()
