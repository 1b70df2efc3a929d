"""Stratified and grouped 5x2 BCV (issue 21.2): what still holds of the
plain design (half/half, training overlaps n/4, up to rounding), class
balance per block, no group on both sides of a fold; the one-off comparison
with ``stratify=`` / ``groups=``."""
import numpy as np
import pytest

from pybcv.partitions import (DESIGNS, BlockRegularizedMx2CV, GroupBlockRegularizedMx2CV, KFoldCV,
                              StratifiedBlockRegularizedMx2CV, bcv_n_blocks, check_design,
                              design_splitter)


def _blocks(folds, n, m):
    """Block id of every record: the pattern of its sides over the m replications."""
    side = np.zeros(n, dtype=np.int64)
    for j in range(m):
        side[np.asarray(folds[2 * j + 1])] += 1 << j     # fold (j, 2) tests S_j
    return np.unique(side, return_inverse=True)[1].ravel()


def _overlaps(splits, m):
    trains = [set(splits[2 * j][0].tolist()) for j in range(m)]
    return [len(trains[a] & trains[b]) for a in range(m) for b in range(a + 1, m)]


@pytest.mark.parametrize("n,m", [(300, 5), (301, 5), (97, 5), (150, 3), (203, 7)])
@pytest.mark.parametrize("seed", [0, 1])
def test_stratified_keeps_the_plain_sizes_and_balances_classes(n, m, seed):
    rng = np.random.default_rng(seed)
    y = rng.choice(["a", "b", "c"], size=n, p=[0.6, 0.3, 0.1])
    cv = StratifiedBlockRegularizedMx2CV(m=m)
    plain = BlockRegularizedMx2CV(m=m)
    splits = cv.splits(n, seed, y=y)
    B = bcv_n_blocks(m)
    # the same fold sizes as the plain design: half/half and overlaps as there
    assert [len(te) for _, te in splits] == plain.sizes(n)[1].tolist()
    assert sorted(_overlaps(splits, m)) == sorted(_overlaps(plain.splits(n, seed), m))
    assert check_design([te for _, te in splits], n, plain) == []
    # class balance per block: n_c // B or n_c // B + 1 records of class c
    block = _blocks([te for _, te in splits], n, m)
    assert block.max() + 1 == B
    for c in np.unique(y):
        n_c = int((y == c).sum())
        counts = np.bincount(block[y == c], minlength=B)
        assert counts.min() >= n_c // B and counts.max() <= n_c // B + 1, (c, counts)
        # per half: B/2 blocks of q_c or q_c + 1
        q, r = divmod(n_c, B)
        for tr, te in splits:
            k = int((y[te] == c).sum())
            assert B // 2 * q <= k <= B // 2 * q + min(r, B // 2)


def test_stratified_folds_are_random_and_seeded():
    y = np.repeat([0, 1], [70, 30])
    cv = StratifiedBlockRegularizedMx2CV()
    a = cv.test_sets(100, 3, y=y)
    b = cv.test_sets(100, 3, y=y)
    c = cv.test_sets(100, 4, y=y)
    assert all(np.array_equal(x, z) for x, z in zip(a, b))
    assert not all(np.array_equal(np.sort(x), np.sort(z)) for x, z in zip(a, c))


def test_stratified_is_tighter_than_plain_on_class_counts():
    # the plain BCV's halves vary in their class counts, the stratified ones do not
    y = np.repeat([0, 1], [200, 100])
    plain = [abs(int((y[te] == 1).sum()) - 50) for s in range(20)
             for te in DESIGNS["bcv5x2"].test_sets(300, s)]
    strat = [abs(int((y[te] == 1).sum()) - 50) for s in range(20)
             for te in StratifiedBlockRegularizedMx2CV().test_sets(300, s, y=y)]
    assert max(strat) <= 2 < max(plain)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grouped_never_splits_a_group_and_bounds_the_sizes(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 9, size=60)
    groups = np.repeat(rng.permutation(60) * 7, sizes)          # arbitrary group ids
    groups = groups[rng.permutation(groups.size)]
    n, m, B = groups.size, 5, 8
    splits = GroupBlockRegularizedMx2CV(m=m).splits(n, seed, groups=groups)
    g_max = int(sizes.max())
    for tr, te in splits:
        assert not set(groups[tr]) & set(groups[te])
        assert abs(len(te) - n / 2) <= B / 2 * g_max
    for ov in _overlaps(splits, m):
        assert abs(ov - n / 4) <= B / 4 * g_max
    block = _blocks([te for _, te in splits], n, m)
    loads = np.bincount(block, minlength=B)
    assert loads.max() - loads.min() <= g_max


def test_grouped_with_singleton_groups_has_the_plain_sizes():
    n = 301
    splits = GroupBlockRegularizedMx2CV().splits(n, 0, groups=np.arange(n))
    assert [len(te) for _, te in splits] == DESIGNS["bcv5x2"].sizes(n)[1].tolist()


def test_grouped_and_stratified_errors():
    with pytest.raises(ValueError, match="at least 8"):
        GroupBlockRegularizedMx2CV().splits(70, 0, groups=np.arange(70) % 7)
    with pytest.raises(ValueError, match="groups"):
        GroupBlockRegularizedMx2CV().splits(40, 0)
    with pytest.raises(ValueError, match="one value per record"):
        GroupBlockRegularizedMx2CV().splits(40, 0, groups=np.arange(39))
    with pytest.raises(ValueError, match="needs y|y \\(the class labels"):
        StratifiedBlockRegularizedMx2CV().splits(40, 0)
    with pytest.raises(ValueError, match="row 3 is NaN"):
        GroupBlockRegularizedMx2CV().splits(10, 0, groups=[0, 1, 2, np.nan, 4, 5, 6, 7, 8, 9])
    with pytest.raises(ValueError, match="depend on the groups"):
        GroupBlockRegularizedMx2CV().sizes(40)


def test_groups_are_no_longer_silently_ignored():
    X = np.zeros((40, 1))
    for cv in (BlockRegularizedMx2CV(), KFoldCV(5), StratifiedBlockRegularizedMx2CV()):
        with pytest.raises(ValueError, match="groups"):
            list(cv.split(X, np.arange(40) % 2, groups=np.arange(40) // 4))


def test_sklearn_splitter_protocol():
    from sklearn.model_selection import cross_val_score
    from sklearn.tree import DecisionTreeClassifier
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = (X[:, 0] > 0).astype(int)
    groups = np.arange(80) // 4
    s = cross_val_score(DecisionTreeClassifier(random_state=0), X, y, groups=groups,
                        cv=GroupBlockRegularizedMx2CV(random_state=0))
    assert len(s) == 10
    s = cross_val_score(DecisionTreeClassifier(random_state=0), X, y,
                        cv=StratifiedBlockRegularizedMx2CV(random_state=0))
    assert len(s) == 10


def test_design_splitter():
    assert design_splitter("bcv5x2") is DESIGNS["bcv5x2"]
    assert isinstance(design_splitter("bcv3x2", stratify=True), StratifiedBlockRegularizedMx2CV)
    assert design_splitter("bcv3x2", grouped=True).m == 3
    with pytest.raises(ValueError, match="only the block-regularized designs"):
        design_splitter("cv10", stratify=True)
    with pytest.raises(ValueError, match="cannot be combined"):
        design_splitter("bcv5x2", stratify=True, grouped=True)


# ------------------------------------------------------------------ the one-off comparison
def _data():
    from pybcv.datasets import exp6
    return exp6(1)


def test_compare_stratified_and_grouped():
    from pybcv.comparison import compare
    d = _data()
    plain = compare(d.X, d.y, "majority", "fnn-weighted", backend="python")
    strat = compare(d.X, d.y, "majority", "fnn-weighted", backend="python", stratify=True)
    again = compare(d.X, d.y, "majority", "fnn-weighted", backend="python", stratify=True)
    assert np.array_equal(strat.tables["bcv5x2"], again.tables["bcv5x2"])      # one seed, one answer
    assert not np.array_equal(strat.tables["bcv5x2"], plain.tables["bcv5x2"])
    # majority predicts one class: stratified, its errors per fold are the class shares
    err_a = strat.tables["bcv5x2"][:, 0, :].sum(-1)
    assert err_a.max() - err_a.min() <= 2
    groups = np.arange(d.n) // 6
    grp = compare(d.X, d.y, "majority", "fnn-weighted", backend="python", groups=groups)
    assert grp.tables["bcv5x2"].sum() == 5 * d.n
    with pytest.raises(ValueError, match="grouped variant"):
        compare(d.X, d.y, "majority", "fnn-weighted", backend="python", groups=groups, tests="cv10")
    with pytest.raises(ValueError, match="one value per record"):
        compare(d.X, d.y, "majority", "fnn-weighted", backend="python", groups=groups[:-1])
    with pytest.raises(ValueError, match="stratify must be True or False"):
        compare(d.X, d.y, "majority", "fnn-weighted", backend="python", stratify="yes")


def test_compare_grouped_uses_the_drawn_fold_sizes():
    from pybcv.comparison import compare
    d = _data()
    groups = np.repeat(np.arange(30), np.r_[np.full(10, 20), np.full(20, 5)])   # uneven groups
    res = compare(d.X, d.y, "majority", "fnn-weighted", backend="python", groups=groups,
                  tests="calibrated_f_5x2bcv")
    n_test = res.tables["bcv5x2"].sum(axis=(1, 2))
    assert n_test.sum() == 5 * d.n and np.isfinite(res["calibrated_f_5x2bcv"].pvalue)


# ------------------------------------------------------------------ the CLI
def _csv(tmp_path, n=120):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 2))
    lines = ["x1,x2,site,class"] + [f"{a:.4f},{b:.4f},s{i % 12},{'yes' if a + b > 0.5 else 'no'}"
                                     for i, (a, b) in enumerate(x)]
    p = tmp_path / "d.csv"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


def test_cli_stratify_and_groups(tmp_path, capsys):
    import json
    from pybcv.cli import main
    p = _csv(tmp_path)
    common = ["compare", "--csv", p, "--a", "majority", "--b", "tree", "--backend", "python",
              "--json"]
    assert main(common + ["--groups", "site"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "folds of whole groups of column 'site' (12 groups)" in out["data"]
    assert main(common + ["--stratify"]) == 0
    strat = json.loads(capsys.readouterr().out)
    assert "stratified" in strat["data"]
    # the groups column is not a predictor: same numbers as without it on the same folds
    from pybcv.comparison import compare
    from pybcv.datasets import load_csv
    d = load_csv(p, groups="site")
    assert d.X.shape[1] == 2 and sorted(set(d.groups)) == sorted(f"s{i}" for i in range(12))
    ref = compare(d.X, d.y, "majority", "tree", backend="python", groups=d.groups)
    assert out["tests"]["mcnemar_5x2bcv"]["pvalue"] == pytest.approx(ref["mcnemar_5x2bcv"].pvalue)


@pytest.mark.parametrize("extra,msg", [
    (["--groups", "nosuch"], "no groups column 'nosuch'"),
    (["--groups", "class"], "is the target column"),
    (["--groups", "site", "--stratify"], "cannot be combined"),
    (["--stratify", "--tests", "kfold_t"], "--stratify with --tests kfold_t: only the block-regularized"),
    (["--groups", "x1"], "--groups x1: groups: 120 distinct|at least 8"),
])
def test_cli_stratify_and_groups_errors(tmp_path, capsys, extra, msg):
    import re
    from pybcv.cli import main
    p = _csv(tmp_path)
    rc = main(["compare", "--csv", p, "--a", "majority", "--b", "tree", "--backend", "python",
               "--quiet"] + extra)
    err = capsys.readouterr().err
    if "x1" in extra:      # 120 distinct numbers are 120 groups: allowed
        assert rc == 0
        return
    assert rc == 2 and re.search(msg, err) and "Traceback" not in err, err


# ------------------------------------------------------------------ one seed, one partition
def _grouped_data(n=240):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + rng.normal(size=n) > 0, "yes", "no")
    groups = np.r_[np.zeros(40, int), np.repeat(np.arange(1, 21), 10)]   # one big group: uneven halves
    return X, y, groups


@pytest.mark.parametrize("kind", ["plain", "stratified", "grouped"])
def test_splitter_seed_gives_compares_folds_and_own_predictions_score_like_compare(kind):
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier
    from pybcv.comparison import compare, compare_predictions
    X, y, groups = _grouped_data()
    cv, kw = {"plain": (BlockRegularizedMx2CV(random_state=3), {}),
              "stratified": (StratifiedBlockRegularizedMx2CV(random_state=3), {"stratify": True}),
              "grouped": (GroupBlockRegularizedMx2CV(random_state=3), {"groups": groups})}[kind]
    splits = list(cv.split(X, y, groups=kw.get("groups")))
    lr, tree = LogisticRegression(), DecisionTreeClassifier(max_depth=2, random_state=0)
    pa = [lr.fit(X[tr], y[tr]).predict(X[te]) for tr, te in splits]
    pb = [tree.fit(X[tr], y[tr]).predict(X[te]) for tr, te in splits]
    own = compare_predictions(y, pa, pb, splits=splits)          # the grouped halves are not n/2
    ref = compare(X, y, LogisticRegression(), DecisionTreeClassifier(max_depth=2, random_state=0),
                  seed=3, backend="python", **kw)
    assert np.array_equal(own.tables["bcv5x2"], ref.tables["bcv5x2"])       # the same folds
    for k in ref.results:
        assert own[k].pvalue == pytest.approx(ref[k].pvalue), k              # the same fold sizes
    assert (kind == "grouped") == any("blocks of" in w for w in own.warnings)


def test_cli_folds_stratify_and_groups_are_compares_folds(tmp_path, capsys):
    import pandas as pd
    from pybcv.cli import main
    from pybcv.comparison import _draw_splits
    from pybcv.datasets import load_csv
    p = _csv(tmp_path)
    d = load_csv(p, groups="site")
    for extra, kw in ((["--groups", "site"], {"groups": d.groups}), (["--stratify"], {"stratify": True})):
        out = tmp_path / "f.csv"
        assert main(["folds", "--csv", p, "--seed", "2", "--out", str(out)] + extra) == 0
        f = pd.read_csv(out)
        ref = _draw_splits(d, ["mcnemar_5x2bcv"], 2, **kw)["bcv5x2"]
        assert [f.row[f.fold == i].tolist() for i in range(10)] == [te.tolist() for _, te in ref]
        # predictions on these folds are read by pybcv test with their own sizes
        pred = f.assign(y=d.y[f.row], pred_a=d.y[f.row], pred_b="yes")
        pred.to_csv(tmp_path / "p.csv", index=False)
        assert main(["test", "--predictions", str(tmp_path / "p.csv"), "--json"]) == 0, \
            capsys.readouterr().err
    capsys.readouterr()
    assert main(["folds", "--groups", "site", "--n", "40"]) == 2
    assert "give --csv" in capsys.readouterr().err


def test_a_dominant_group_and_a_rare_class_get_notes(capsys):
    """A group that unbalances the halves (walk27 B6: halves of 22 and 218 of
    240, silently) and a class with fewer records than blocks (B7) are named
    in the comparison's warnings, in the CLI's folds command, and a continuous
    y is refused by the stratified splitter."""
    from pybcv.comparison import compare
    from pybcv.partitions import StratifiedBlockRegularizedMx2CV
    d = _data()
    n = d.n
    big = np.r_[np.zeros(n - 40, int), np.arange(1, 41)]         # one group of n - 40 records
    res = compare(d.X, d.y, "majority", "fnn-weighted", backend="python", groups=big)
    assert any("group 0 alone has" in w and "unreliable" in w for w in res.warnings)
    even = compare(d.X, d.y, "majority", "fnn-weighted", backend="python",
                   groups=np.arange(n) // 6)
    assert not any("grouped BCV" in w for w in even.warnings)
    y = np.array([str(v) for v in d.y], dtype=object)
    y[:3] = "rare"
    res = compare(d.X, y, "majority", "fnn-weighted", backend="python", stratify=True)
    assert any("'rare' (3)" in w and "8 blocks" in w for w in res.warnings)
    with pytest.raises(ValueError, match="continuous"):
        StratifiedBlockRegularizedMx2CV(random_state=0).splits(n, y=np.linspace(0, 1, n))


def test_cli_folds_notes_a_dominant_group(tmp_path, capsys):
    from pybcv.cli import main
    rng = np.random.default_rng(0)
    lines = ["x1,grp,class"] + [f"{rng.normal():.3f},{'g0' if i < 200 else f'g{i}'},"
                                f"{'a' if i % 2 else 'b'}" for i in range(240)]
    p = tmp_path / "g.csv"
    p.write_text("\n".join(lines) + "\n")
    assert main(["folds", "--csv", str(p), "--groups", "grp", "--out", str(tmp_path / "f.csv")]) == 0
    assert "group 'g0' alone has 200 records" in capsys.readouterr().err


def test_object_groups_equal_in_python_are_one_group():
    """An outside audit: object-dtype groups were told apart by their text, so
    0 and 0.0 (one group to Python and pandas) were two, and a grouped BCV
    put records of one group on both sides of 8 of its 10 folds.  Text
    labels in an object array keep the folds of the same labels as str."""
    from pybcv.partitions import GroupBlockRegularizedMx2CV
    g = np.array([i // 4 for i in range(40)], dtype=object)
    g[1], g[5], g[9] = 0.0, 1.0, 2.0
    folds = list(GroupBlockRegularizedMx2CV(random_state=0).split(np.zeros((40, 1)), groups=g))
    for train, test in folds:
        assert not set(g[train].tolist()) & set(g[test].tolist())
    as_int = GroupBlockRegularizedMx2CV(random_state=0).split(np.zeros((40, 1)),
                                                              groups=np.arange(40) // 4)
    assert [t.tolist() for _, t in folds] == [t.tolist() for _, t in as_int]
    text = np.array(list("cabdefghij") * 4, dtype=object)
    assert [t.tolist() for _, t in GroupBlockRegularizedMx2CV(random_state=3).split(np.zeros((40, 1)), groups=text)] \
        == [t.tolist() for _, t in GroupBlockRegularizedMx2CV(random_state=3).split(np.zeros((40, 1)),
                                                                                    groups=text.astype(str))]


def test_masked_groups_are_refused_and_unhashable_ones_named():
    from pybcv.errors import ArgumentError
    from pybcv.partitions import GroupBlockRegularizedMx2CV
    g = np.ma.array(np.arange(40) // 4, mask=np.eye(40)[0])
    with pytest.raises(ArgumentError, match="groups has 1 masked entries"):
        list(GroupBlockRegularizedMx2CV(random_state=0).split(np.zeros((40, 1)), groups=g))
    lists = np.empty(40, dtype=object)
    lists[:] = [[i // 4] for i in range(40)]
    with pytest.raises(ArgumentError, match="must be labels .numbers or text., not lists"):
        list(GroupBlockRegularizedMx2CV(random_state=0).split(np.zeros((40, 1)), groups=lists))
