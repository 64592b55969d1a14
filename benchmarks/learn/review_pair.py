#!/usr/bin/env python3
"""Pair two diff-review bench reports, instance by instance.

Reads two JSON reports of `ctxexpand bench` over the same review dataset
(made by diff_dev.py), run by two builds, and prints for the instances
both scored, overall and per language: each metric's mean in A and in B,
the mean difference B - A with a 95% bootstrap interval (2,000 resamples,
seed 7), and how many instances B won and lost. Metrics: hit@1, hit@3,
hit@10, MRR, inc@16k (share of the answer files in the 16k bundle) and
found@16k (at least one answer file in it).

  python3 benchmarks/learn/review_pair.py main.json branch.json [RANKER]

RANKER is the ranker's name in both reports (default ctxexpand).
"""
import json
import random
import sys

METRICS = ("hit1", "hit3", "hit10", "mrr", "inc16", "found16")


def scores(path, ranker):
    rep = json.load(open(path))
    b16 = rep["budgets"].index(16000)
    out = {}
    for inst in rep["instances"]:
        for res in inst.get("results") or []:
            if res["ranker"] != ranker or not res.get("scores"):
                continue
            s = res["scores"]
            found = any(16000 in (g.get("in_bundles") or []) for g in res.get("gold") or [])
            out[inst["id"]] = (inst["lang"], {
                "hit1": s["hit"][0], "hit3": s["hit"][2], "hit10": s["hit"][9],
                "mrr": s["rr"], "inc16": s["inc"][b16], "found16": 1.0 if found else 0.0,
            })
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ranker = sys.argv[3] if len(sys.argv) > 3 else "ctxexpand"
    a, b = scores(sys.argv[1], ranker), scores(sys.argv[2], ranker)
    ids = sorted(set(a) & set(b))
    groups = {"all": ids}
    for i in ids:
        groups.setdefault(a[i][0], []).append(i)
    rng = random.Random(7)
    for name, members in groups.items():
        n = len(members)
        print(f"{name} N={n}")
        for m in METRICS:
            d = [b[i][1][m] - a[i][1][m] for i in members]
            boot = sorted(sum(rng.choice(d) for _ in d) / n for _ in range(2000))
            wins, losses = sum(v > 0 for v in d), sum(v < 0 for v in d)
            ma = sum(a[i][1][m] for i in members) / n
            mb = sum(b[i][1][m] for i in members) / n
            print(f"  {m:8s} {ma:.3f} -> {mb:.3f}  {sum(d) / n:+.3f} [{boot[50]:+.3f}, {boot[1949]:+.3f}] {wins}/{losses}")


if __name__ == "__main__":
    main()
