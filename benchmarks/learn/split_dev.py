#!/usr/bin/env python3
"""Split a dev set off the training split: commits the shipped model never saw.

The shipped model was trained on the instances that `ctxexpand bench
--per-repo 40` (and, for some repositories, `--per-repo 70`) selects from
benchmarks/data/train.jsonl. This script recomputes both selections the
way eval.Filter's PerRepo does (the i-th of n kept is the floor(i*len/n)-th
of a repository's instances, in dataset order), leaves them out, and takes
up to --per-repo of the rest of each repository, spread the same way.

Those commits come from the training repositories, so they measure other
commits of known code, not unseen repositories (the cross-validation by
repository does that); they are big enough to see a 0.03 difference, which
the 120-instance dev split is not. Never train on them: train.py's
--exclude takes this file.

  python3 benchmarks/learn/split_dev.py --per-repo 25 \
      benchmarks/data/train.jsonl > benchmarks/data/dev-train.jsonl
"""
import argparse
import json
import sys
from collections import OrderedDict


def spread(idx, n):
    if len(idx) <= n:
        return list(idx)
    return [idx[j * len(idx) // n] for j in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("train")
    ap.add_argument("--per-repo", type=int, default=25)
    ap.add_argument("--trained", default="40,70",
                    help="per-repo counts the shipped model's dumps used")
    args = ap.parse_args()
    rows = [json.loads(l) for l in open(args.train) if l.strip()]
    by_repo = OrderedDict()
    for i, r in enumerate(rows):
        by_repo.setdefault(r["repo"], []).append(i)
    out = []
    for repo, idx in by_repo.items():
        seen = set()
        for n in (int(x) for x in args.trained.split(",")):
            seen.update(spread(idx, n))
        rest = [i for i in idx if i not in seen]
        out.extend(spread(rest, args.per_repo))
    for i in sorted(out):
        sys.stdout.write(json.dumps(rows[i], ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"{len(out)} instances from {len(by_repo)} repositories", file=sys.stderr)


if __name__ == "__main__":
    main()
