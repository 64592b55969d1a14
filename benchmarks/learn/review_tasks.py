#!/usr/bin/env python3
"""Score a diff-review bench report by task and language.

Reads the JSON report of `ctxexpand bench` over a dataset made by
diff_dev.py and prints, per task (tests, cochange), language and ranker:
hit@1, hit@10, MRR, inc@16k (share of the answer files in the 16k bundle)
and found@16k (the share of instances with at least one answer file in
it: "a test the same commit changed is in the bundle").

  python3 benchmarks/learn/review_tasks.py report.json
"""
import json
import sys
from collections import defaultdict


def main():
    rep = json.load(open(sys.argv[1]))
    budgets = rep["budgets"]
    b16 = budgets.index(16000) if 16000 in budgets else len(budgets) - 1
    rows = defaultdict(lambda: defaultdict(list))
    for inst in rep["instances"]:
        if not inst.get("results"):
            continue
        task = inst["id"].rsplit("#", 1)[-1]
        for res in inst["results"]:
            s = res["scores"]
            gold = res.get("gold") or []
            found = any(budgets[b16] in (g.get("in_bundles") or []) for g in gold)
            v = (s["hit"][0], s["hit"][9], s["rr"], s["inc"][b16], 1.0 if found else 0.0)
            for lang in (inst["lang"], "all"):
                rows[(task, lang)][res["ranker"]].append(v)
    print("| task | lang | N | ranker | hit@1 | hit@10 | MRR | inc@16k | found@16k |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for (task, lang) in sorted(rows):
        for ranker, vs in rows[(task, lang)].items():
            n = len(vs)
            m = [sum(v[i] for v in vs) / n for i in range(5)]
            print(f"| {task} | {lang} | {n} | {ranker} | " + " | ".join(f"{x:.2f}" for x in m) + " |")


if __name__ == "__main__":
    main()
