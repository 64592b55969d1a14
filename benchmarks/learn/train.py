#!/usr/bin/python3
"""Train ctxexpand's learned file ranker from feature dumps.

The dumps come from `ctxexpand bench --dump-features DIR` over the training
split (benchmarks/data/train.jsonl): one gzip JSON record per fix commit with
every candidate file's features and whether the fix changed it (eval/dump.go).

Two models are trained and measured with cross-validation by repository
(no repository is ever in both the training and the test part of a fold):

  trees   gradient-boosted regression trees with a ranking objective
          (LambdaMART: XGBoost's rank:ndcg);
  linear  a linear model fitted on pairs (a changed file against an unchanged
          candidate of the same commit, logistic loss: RankNet with one layer)
          over standardised features.

Both are compared, on the same held-out commits, with the hand-weighted
ranker (the `hand` feature's order) and the BM25 baseline (the `bm25`
feature's order), scoring only the files the benchmark scores, as
`ctxexpand bench` does. The chosen model (--choose, default: the better
mean of hit@1, all@5 and MRR over the folds) is retrained on every
training commit, calibrated (Platt scaling of out-of-fold margins into the
probability that the commit changed the file) and written in rank/learn's
format.

Needs Debian's python3-xgboost, python3-sklearn and python3-numpy (apt).
Run from the repository root:

  /usr/bin/python3 benchmarks/learn/train.py --dumps DUMPDIR \
      --out rank/learn/default.json --report benchmarks/learn/cv.md
"""

import argparse
import gzip
import json
import math
import os
import sys
from collections import defaultdict

import numpy as np
import xgboost as xgb
from sklearn.linear_model import LogisticRegression

SEED = 7
FOLDS = 5
KS = (1, 3, 5, 10)

# LambdaMART settings. Shallow trees and a slow rate: the training split
# has a few thousand commits, and the model must carry to other repositories.
TREE_PARAMS = {
    "objective": "rank:ndcg",
    "eta": 0.05,
    "max_depth": 5,
    "min_child_weight": 5,
    "subsample": 0.8,
    "colsample_bytree": 0.8,
    "lambda": 2.0,
    "base_score": 0.0,
    "tree_method": "hist",
    "eval_metric": "ndcg@5",
    "seed": SEED,
    "nthread": 2,
}
TREE_ROUNDS = 300
ARGS_ROUNDS = [TREE_ROUNDS]  # --tree-rounds

# Pairs per commit for the linear model: every changed file against up to
# this many unchanged candidates (the hand-weighted ranker's best first,
# where the hard negatives are).
LINEAR_NEGATIVES = 60
LINEAR_C = 0.1

# Relevance grades. The benchmark scores the source files a fix changed
# (gold); the test files it changed are not scored, but they are part of
# what the change touches, and a bundle for a fix wants them above code
# the fix never went near. Training only on gold would teach the model
# that tests never change and put the seed's own tests after its callers.
# So LambdaMART sees graded relevance: gold above changed tests above the
# rest (gains 2^g - 1: 3, 1, 0); the linear model's pairs and the
# calibration count both as changed. Metrics count gold only.
GOLD = 2
TEST = 1


def load(dumps, exclude, allowed, tests):
    recs = []
    names = None
    for root, _, files in sorted((r, d, f) for d_ in dumps for r, d, f in os.walk(d_)):
        for f in sorted(files):
            if not f.endswith(".json.gz"):
                continue
            with gzip.open(os.path.join(root, f), "rt") as fh:
                r = json.load(fh)
            if r["repo"] in exclude or (allowed is not None and r["id"] not in allowed):
                continue
            if names is None:
                names = r["features"]
            elif r["features"] != names:
                sys.exit(f"{f}: features differ from the other dumps; dump again with one build")
            cands = r["candidates"] or []  # null: no candidates (nothing indexed)
            if not cands:
                X = np.zeros((0, len(names)), dtype=np.float32)
            else:
                X = np.array([[float(v) for v in c["x"]] for c in cands], dtype=np.float32)
            recs.append({
                "id": r["id"], "repo": r["repo"], "lang": r["lang"],
                "X": X,
                "y": np.array([GOLD if c["label"] else TEST if c["path"] in tests.get(r["id"], ()) else 0
                               for c in cands], dtype=np.float32),
                "scored": np.array([c["scored"] for c in cands], dtype=bool),
                "paths": [c["path"] for c in cands],
                "ngold": len(r["gold_files"]),
            })
    recs.sort(key=lambda r: r["id"])
    return names, recs


def add_relative(names, recs):
    """Appends, for every feature, its value over the largest value of that
    feature among the same commit's candidates (0 where that is not above 0)."""
    for r in recs:
        X = r["X"]
        if len(X) == 0:
            r["X"] = np.zeros((0, 2 * len(names)), dtype=np.float32)
            continue
        mx = X.max(axis=0)
        safe = np.where(mx > 0, mx, 1.0)
        rel = np.where(mx > 0, X / safe, 0.0).astype(np.float32)
        r["X"] = np.concatenate([X, rel], axis=1)
    return names + [n + "_rel" for n in names]


def order(scores, paths):
    """Indexes best first: score descending, then path."""
    return sorted(range(len(paths)), key=lambda i: (-scores[i], paths[i]))


def metrics(rec, scores):
    idx = [i for i in order(scores, rec["paths"]) if rec["scored"][i]]
    ys = [1 if rec["y"][i] == GOLD else 0 for i in idx]
    out = {}
    first = next((k for k, y in enumerate(ys) if y > 0), None)
    out["mrr"] = 0.0 if first is None else 1.0 / (first + 1)
    for k in KS:
        found = sum(ys[:k])
        out[f"hit@{k}"] = 1.0 if found > 0 else 0.0
        out[f"all@{k}"] = 1.0 if found >= rec["ngold"] else 0.0
        out[f"rec@{k}"] = found / rec["ngold"]
    return out


def mean_metrics(rows):
    if not rows:
        return {}
    keys = [k for k in rows[0].keys() if not k.startswith("_")]
    return {k: sum(r[k] for r in rows) / len(rows) for k in keys}


def trainable(recs):
    return [r for r in recs if len(r["y"]) > 0 and r["y"].max() == GOLD]


def fit_trees(recs, names, rounds=None):
    rounds = rounds or ARGS_ROUNDS[0]
    recs = trainable(recs)
    X = np.concatenate([r["X"] for r in recs])
    y = np.concatenate([r["y"] for r in recs])
    d = xgb.DMatrix(X, label=y, feature_names=names)
    d.set_group([len(r["y"]) for r in recs])
    return xgb.train(TREE_PARAMS, d, num_boost_round=rounds)


def predict_trees(model, rec, names):
    if len(rec["y"]) == 0:
        return np.zeros(0)
    return model.predict(xgb.DMatrix(rec["X"], feature_names=names), output_margin=True)


def fit_linear(recs):
    recs = trainable(recs)
    X = np.concatenate([r["X"] for r in recs]).astype(np.float64)
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-9] = 1.0
    hand = None
    diffs = []
    for r in recs:
        Z = (r["X"].astype(np.float64) - mean) / scale
        pos = np.where(r["y"] > 0)[0]
        neg = np.where(r["y"] == 0)[0]
        hand_col = r.get("hand")
        if hand_col is not None:
            neg = neg[np.argsort(-hand_col[neg], kind="stable")]
        neg = neg[:LINEAR_NEGATIVES]
        for p in pos:
            for n in neg:
                diffs.append(Z[p] - Z[n])
    D = np.array(diffs)
    Xp = np.concatenate([D, -D])
    yp = np.concatenate([np.ones(len(D)), np.zeros(len(D))])
    lr = LogisticRegression(C=LINEAR_C, fit_intercept=False, max_iter=2000)
    lr.fit(Xp, yp)
    return {"w": lr.coef_[0], "mean": mean, "scale": scale}


def predict_linear(model, rec):
    if len(rec["y"]) == 0:
        return np.zeros(0)
    Z = (rec["X"].astype(np.float64) - model["mean"]) / model["scale"]
    return Z @ model["w"]


def load_baseline(path, names):
    """A shipped model in rank/learn's format, bound to the dumps' feature
    names: a function from a commit's record to the model's margins."""
    with open(path) as fh:
        m = json.load(fh)
    missing = [f for f in m["features"] if f not in names]
    if missing:
        sys.exit(f"--baseline {path}: the dumps lack features {', '.join(missing)}")
    cols = [names.index(f) for f in m["features"]]
    bias = float(m.get("bias", 0.0))
    if m["kind"] == "linear":
        lin = {k: np.array(m[f], dtype=np.float64) for k, f in (("w", "weights"), ("mean", "mean"), ("scale", "scale"))}
        return lambda rec: bias + predict_linear(lin, {"y": rec["y"], "X": rec["X"][:, cols]})
    trees = [tuple(np.array(t[k], dtype=dt) for k, dt in
                   (("f", np.int64), ("t", np.float32), ("l", np.int64), ("r", np.int64), ("v", np.float64)))
             for t in m["trees"]]

    def margins(rec):
        if len(rec["y"]) == 0:
            return np.zeros(0)
        X = rec["X"][:, cols].astype(np.float32)
        rows = np.arange(len(X))
        out = np.full(len(X), bias)
        for f, th, l, r, v in trees:
            i = np.zeros(len(X), dtype=np.int64)
            while True:  # every row one level down at a time, as Model.Margin walks
                inner = f[i] >= 0
                if not inner.any():
                    break
                fi = np.where(inner, f[i], 0)
                go_left = X[rows, fi] < th[i]
                i = np.where(inner, np.where(go_left, l[i], r[i]), i)
            out += v[i]
        return out
    return margins


def paired(rows_a, rows_b, key, seed=SEED, n=2000):
    """Mean of a - b per commit, its 95% bootstrap interval, wins, losses."""
    d = np.array([a[key] - b[key] for a, b in zip(rows_a, rows_b)])
    if len(d) == 0:
        return 0.0, 0.0, 0.0, 0, 0
    rng = np.random.default_rng(seed)
    means = np.array([d[rng.integers(0, len(d), len(d))].mean() for _ in range(n)])
    return float(d.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5)), int((d > 0).sum()), int((d < 0).sum())


def folds(recs):
    """Repositories split into FOLDS groups of about equal commit counts,
    Go and Rust spread evenly (greedy, largest first, deterministic)."""
    by_repo = defaultdict(int)
    lang = {}
    for r in recs:
        by_repo[r["repo"]] += 1
        lang[r["repo"]] = r["lang"]
    sizes = [0] * FOLDS
    assign = {}
    for l in ("go", "rust"):
        repos = sorted((n, repo) for repo, n in by_repo.items() if lang[repo] == l)
        for n, repo in reversed(repos):
            k = min(range(FOLDS), key=lambda i: (sizes[i], i))
            assign[repo] = k
            sizes[k] += n
    return assign


def platt(margins, labels):
    lr = LogisticRegression(C=1e6, max_iter=1000)
    lr.fit(np.asarray(margins).reshape(-1, 1), np.asarray(labels))
    return float(lr.coef_[0][0]), float(lr.intercept_[0])


def tree_file(booster, names):
    """Converts an XGBoost booster into rank/learn's tree format."""
    trees = []
    for text in booster.get_dump(dump_format="json", with_stats=True):
        root = json.loads(text)
        nodes = []  # breadth first, so children follow parents

        def mean_value(n):
            if "leaf" in n:
                return float(n["leaf"]), float(n["cover"])
            total, cover = 0.0, 0.0
            for c in n["children"]:
                v, cv = mean_value(c)
                total += v * cv
                cover += cv
            return total / cover if cover > 0 else 0.0, cover

        queue = [root]
        index = {}
        while queue:
            n = queue.pop(0)
            index[n["nodeid"]] = len(nodes)
            nodes.append(n)
            for c in n.get("children", []):
                queue.append(c)
        t = {"f": [], "t": [], "l": [], "r": [], "v": []}
        for n in nodes:
            v, _ = mean_value(n)
            t["v"].append(float(f"{v:.6g}"))
            if "leaf" in n:
                t["f"].append(-1)
                t["t"].append(0)
                t["l"].append(0)
                t["r"].append(0)
                continue
            split = n["split"]
            t["f"].append(names.index(split))
            # Thresholds are 32-bit floats: written as the shortest text
            # that reads back as the same 32-bit float.
            t["t"].append(float(str(np.float32(n["split_condition"]))))
            t["l"].append(index[n["yes"]])
            t["r"].append(index[n["no"]])
        trees.append(t)
    return trees


def cv(names, recs, choose, baseline=None):
    assign = folds(recs)
    hand_i, bm25_i = names.index("hand"), names.index("bm25")
    for r in recs:
        r["hand"] = r["X"][:, hand_i] if len(r["y"]) else np.zeros(0)
    rows = defaultdict(list)  # (ranker, lang) -> metric dicts
    oof = {"trees": ([], []), "linear": ([], [])}
    per_fold = defaultdict(list)
    for k in range(FOLDS):
        train = [r for r in recs if assign[r["repo"]] != k]
        test = [r for r in recs if assign[r["repo"]] == k]
        if not test:
            continue
        trees = fit_trees(train, names)
        linear = fit_linear(train)
        fold_rows = defaultdict(list)
        for r in test:
            scores = {
                "bm25": r["X"][:, bm25_i] if len(r["y"]) else np.zeros(0),
                "hand": r["hand"],
                "trees": predict_trees(trees, r, names),
                "linear": predict_linear(linear, r),
            }
            if baseline is not None:
                scores["shipped"] = baseline(r)
            for name in ("trees", "linear"):
                oof[name][0].extend(scores[name].tolist())
                oof[name][1].extend((r["y"] > 0).astype(int).tolist())
            for name, s in scores.items():
                m = metrics(r, s)
                m["_id"] = r["id"]
                for lang in ("all", r["lang"]):
                    rows[(name, lang)].append(m)
                fold_rows[name].append(m)
        for name, ms in fold_rows.items():
            per_fold[name].append(mean_metrics(ms))
        print(f"fold {k}: {len(test)} test commits from {len({r['repo'] for r in test})} repositories", file=sys.stderr)
    return rows, oof, per_fold, assign


def headline(m):
    return (m["hit@1"] + m["all@5"] + m["mrr"]) / 3


def report(rows, per_fold, recs, assign, out, seen=None):
    lines = []
    rankers = [n for n in ("bm25", "hand", "shipped", "linear", "trees") if rows[(n, "all")]]
    langs = ["all", "go", "rust"]
    n = {l: len([r for r in recs if l == "all" or r["lang"] == l]) for l in langs}
    repos = {l: len({r["repo"] for r in recs if l == "all" or r["lang"] == l}) for l in langs}
    lines.append("# Cross-validation of the learned ranker by repository\n")
    lines.append(f"{FOLDS} folds over the training split's repositories (no repository in both parts "
                 "of a fold); every commit is scored once, by the models trained without its "
                 "repository. Only the files the benchmark scores are ranked; gold files that are "
                 "not candidates count as misses. `hand` is the hand-weighted ranker's order and "
                 "`bm25` the baseline's, on the same candidates. Training grades relevance: "
                 "gold source files above the test files the fix changed above the rest; the "
                 "metrics count gold files only.\n")
    for l in langs:
        lines.append(f"\n### {l.capitalize() if l != 'all' else 'All'} (N={n[l]}, {repos[l]} repositories)\n")
        lines.append("| ranker | hit@1 | hit@3 | hit@5 | hit@10 | rec@5 | all@5 | MRR |")
        lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name in rankers:
            m = mean_metrics(rows[(name, l)])
            if not m:
                continue
            lines.append(f"| {name} | {m['hit@1']:.3f} | {m['hit@3']:.3f} | {m['hit@5']:.3f} | {m['hit@10']:.3f} | "
                         f"{m['rec@5']:.3f} | {m['all@5']:.3f} | {m['mrr']:.3f} |")
    lines.append("\n### Per fold (all languages): hit@1 / all@5 / MRR\n")
    lines.append("| fold | " + " | ".join(rankers) + " |")
    lines.append("| --- |" + " ---: |" * len(rankers))
    for k in range(len(per_fold["hand"])):
        cells = []
        for name in rankers:
            m = per_fold[name][k]
            cells.append(f"{m['hit@1']:.2f} / {m['all@5']:.2f} / {m['mrr']:.2f}")
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    ref = "shipped" if "shipped" in rankers else "hand"
    groups = [("all", lambda r: True), ("go", lambda r: r["lang"] == "go"), ("rust", lambda r: r["lang"] == "rust")]
    if seen is not None and ref == "shipped":
        groups.append(("repositories the shipped model never saw", lambda r: r["repo"] not in seen))
    by_id = {r["id"]: r for r in recs}
    lines.append(f"\n### Paired differences against `{ref}` (held-out commits; 95% bootstrap interval, 2,000 resamples; wins/losses)\n")
    lines.append("| ranker | group | N | hit@1 | all@5 | MRR |")
    lines.append("| --- | --- | ---: | --- | --- | --- |")
    for name in ("linear", "trees"):
        for g, keep in groups:
            a = [m for m in rows[(name, "all")] if keep(by_id[m["_id"]])]
            b = [m for m in rows[(ref, "all")] if keep(by_id[m["_id"]])]
            if not a:
                continue
            cells = []
            for key in ("hit@1", "all@5", "mrr"):
                d, lo, hi, w, los = paired(a, b, key)
                cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {w}/{los}")
            lines.append(f"| {name} | {g} | {len(a)} | " + " | ".join(cells) + " |")
    lines.append("\nFolds: " + "; ".join(
        f"{k}: " + ", ".join(sorted(repo for repo, f in assign.items() if f == k)) for k in range(FOLDS)) + "\n")
    text = "\n".join(lines) + "\n"
    if out:
        with open(out, "w") as fh:
            fh.write(text)
    print(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dumps", required=True, action="append",
                    help="directory of feature dumps (ctxexpand bench --dump-features); repeatable")
    ap.add_argument("--dataset", action="append", default=[],
                    help="use only the dumps of this dataset's instances (repeatable; default: every dump)")
    ap.add_argument("--exclude-repo", action="append", default=[], help="leave this repository out (repeatable)")
    ap.add_argument("--relative", action="store_true", help="add each feature over its largest value among the commit's candidates (experiment)")
    ap.add_argument("--lang", choices=("go", "rust"), help="train and cross-validate on this language's commits only")
    ap.add_argument("--exclude", action="append", default=["benchmarks/data/dev-train.jsonl"],
                    help="leave out the instances of this dataset (repeatable; dev-train.jsonl always)")
    ap.add_argument("--out", help="write the chosen model here (rank/learn/default.json)")
    ap.add_argument("--report", help="write the cross-validation tables here")
    ap.add_argument("--choose", choices=("best", "trees", "linear"), default="best")
    ap.add_argument("--no-test-grade", action="store_true",
                    help="train on gold files only (changed test files count as unchanged)")
    ap.add_argument("--no-cv", action="store_true", help="skip cross-validation (calibration then uses training margins)")
    ap.add_argument("--tree-rounds", type=int, default=TREE_ROUNDS, help="boosting rounds of the trees model")
    ap.add_argument("--baseline", help="a shipped model (rank/learn JSON) to score on the held-out commits beside the new ones, with paired differences")
    ap.add_argument("--seen-by-baseline", help="repository list (owner/name first on each line) the baseline was trained on: "
                    "the paired differences also show the other repositories alone")
    ap.add_argument("--tree-depth", type=int, default=TREE_PARAMS["max_depth"], help="depth of each tree")
    args = ap.parse_args()
    TREE_PARAMS["max_depth"] = args.tree_depth
    ARGS_ROUNDS[0] = args.tree_rounds

    allowed = None
    tests = {}  # instance id -> the test files its fix changed
    if args.dataset:
        allowed = set()
        for d in args.dataset:
            with open(d) as fh:
                for l in fh:
                    if l.strip():
                        inst = json.loads(l)
                        allowed.add(inst["id"])
                        if not args.no_test_grade:
                            tests[inst["id"]] = set(inst.get("test_files") or [])
    held = set()  # dev sets: never trained on (dev-train.jsonl is a part of train.jsonl)
    for d in args.exclude:
        if os.path.exists(d):
            with open(d) as fh:
                held.update(json.loads(l)["id"] for l in fh if l.strip())
        elif d != "benchmarks/data/dev-train.jsonl":
            sys.exit(f"--exclude {d}: no such file")
    if allowed is not None:
        allowed -= held
    names, recs = load(args.dumps, set(args.exclude_repo), allowed, tests)
    if held:
        recs = [r for r in recs if r["id"] not in held]
    if args.lang:
        recs = [r for r in recs if r["lang"] == args.lang]
    if args.relative:
        names = add_relative(names, recs)
    if not recs:
        sys.exit("no dumps found")
    print(f"{len(recs)} commits from {len({r['repo'] for r in recs})} repositories, "
          f"{sum(len(r['y']) for r in recs)} candidates, {len(trainable(recs))} with a changed file among them",
          file=sys.stderr)
    kind = args.choose
    oof = None
    if not args.no_cv:
        baseline = load_baseline(args.baseline, names) if args.baseline else None
        seen = None
        if args.seen_by_baseline:
            with open(args.seen_by_baseline) as fh:
                seen = {l.split()[0] for l in fh if l.strip() and not l.startswith("#")}
        rows, oof, per_fold, assign = cv(names, recs, args.choose, baseline)
        report(rows, per_fold, recs, assign, args.report, seen)
        if kind == "best":
            kind = max(("trees", "linear"), key=lambda k: headline(mean_metrics(rows[(k, "all")])))
    elif kind == "best":
        kind = "trees"
    if not args.out:
        return
    for r in recs:
        r["hand"] = r["X"][:, names.index("hand")] if len(r["y"]) else np.zeros(0)
    meta = {
        "trained_on": f"{len(recs)} commits of {len({r['repo'] for r in recs})} repositories",
        "chosen_by": "cross-validation by repository" if not args.no_cv else "given",
        "relevance": "gold source files 2, changed test files 1, the rest 0" if tests else "gold source files 1, the rest 0",
    }
    importance = []
    if kind == "trees":
        booster = fit_trees(recs, names)
        model = {"version": 1, "kind": "trees", "features": names, "bias": 0.0, "trees": tree_file(booster, names)}
        gain = booster.get_score(importance_type="total_gain")
        total = sum(gain.values()) or 1.0
        importance = sorted(((v / total, k) for k, v in gain.items()), reverse=True)
        meta["params"] = {k: v for k, v in TREE_PARAMS.items() if k not in ("nthread",)}
        meta["rounds"] = ARGS_ROUNDS[0]
        fit_margins = lambda r: predict_trees(booster, r, names)
    else:
        lin = fit_linear(recs)
        model = {"version": 1, "kind": "linear", "features": names, "bias": 0.0,
                 "weights": [round(float(w), 7) for w in lin["w"]],
                 "mean": [round(float(m), 7) for m in lin["mean"]],
                 "scale": [round(float(s), 7) for s in lin["scale"]]}
        meta["pairs_negatives"] = LINEAR_NEGATIVES
        meta["C"] = LINEAR_C
        fit_margins = lambda r: predict_linear(lin, r)
        total = sum(abs(w) for w in lin["w"]) or 1.0
        importance = sorted(((abs(w) / total, n) for w, n in zip(lin["w"], names)), reverse=True)
    if oof is not None:
        a, b = platt(*oof[kind])
        meta["calibration"] = "Platt scaling of out-of-fold margins"
    else:
        m, y = [], []
        for r in recs:
            m.extend(fit_margins(r).tolist())
            y.extend((r["y"] > 0).astype(int).tolist())
        a, b = platt(m, y)
        meta["calibration"] = "Platt scaling of training margins"
    model["calib_a"], model["calib_b"] = round(a, 7), round(b, 7)
    # Self-checks: candidates with the margins the trainer computed, which
    # rank/learn's tests require the Go evaluator to reproduce.
    checks = []
    step = max(1, len(recs) // 20)
    for r in recs[::step][:20]:
        if len(r["y"]) == 0:
            continue
        m = fit_margins(r)
        i = int(np.argmax(m))
        checks.append({"x": [float(v) for v in r["X"][i]], "margin": round(float(m[i]), 6)})
    meta["checks"] = checks
    model["meta"] = meta
    with open(args.out, "w") as fh:
        json.dump(model, fh, separators=(",", ":"))
        fh.write("\n")
    if args.report and importance:
        with open(args.report, "a") as fh:
            what = "share of the total split gain" if kind == "trees" else "share of the summed |weight| (standardised features)"
            fh.write(f"\n### The shipped model: {kind}, trained on all {len(recs)} commits\n\n")
            fh.write(f"Features by importance ({what}), the first 20:\n\n| feature | share |\n| --- | ---: |\n")
            for share, name in importance[:20]:
                fh.write(f"| {name} | {share:.3f} |\n")
    print(f"wrote the {kind} model to {args.out} ({os.path.getsize(args.out)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
