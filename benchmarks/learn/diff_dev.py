#!/usr/bin/env python3
"""Make the diff-review dev set from fix commits of the training repositories.

Each commit of the input (dataset lines with gold_files and test_files)
gives at most two review instances, both of kind "diff", whose tree is the
fix's parent with part of the fix applied as an uncommitted change:

  tests     the fix's source changes (every gold file) are the diff; the
            answer is the test files the same commit changed that already
            existed at the parent (a reviewer asks which tests exercise
            the change; a test the fix adds cannot be found before it
            exists).
  cochange  one source file's change is the diff (the first, by path, of
            the gold files that existed at the parent); the answer is the
            other gold files that existed at the parent (the code that
            changes with it).

The query is empty: a review is asked by its diff alone. IDs are the
commit's with "#tests" or "#cochange" appended. Repositories named by
--exclude (one owner/name per line, # comments) are left out.

  python3 benchmarks/learn/diff_dev.py --repos /work/bench/repos \
      benchmarks/data/dev-train.jsonl > benchmarks/data/diff-dev.jsonl

Needs each repository's git directory, with full history, at
REPOS/OWNER+NAME/repo (see ../shared/bench/README.md).
"""
import argparse
import json
import os
import subprocess
import sys


def exists_at(git_dir, commit, paths):
    """The subset of paths that exist in commit's tree."""
    if not paths:
        return set()
    out = subprocess.run(
        ["git", "-C", git_dir, "ls-tree", "-r", "--name-only", commit, "--"] + sorted(paths),
        capture_output=True, text=True, check=True).stdout
    return set(l for l in out.splitlines() if l)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset")
    ap.add_argument("--repos", required=True, help="directory of OWNER+NAME/repo git directories")
    ap.add_argument("--exclude", action="append", default=[], help="file of owner/name lines to leave out")
    args = ap.parse_args()
    excluded = set()
    for f in args.exclude:
        for line in open(f):
            line = line.split("#", 1)[0].strip()
            if line:
                excluded.add(line)
    kept = skipped = 0
    for line in open(args.dataset):
        if not line.strip():
            continue
        d = json.loads(line)
        if d["repo"] in excluded:
            continue
        git_dir = os.path.join(args.repos, d["repo"].replace("/", "+"), "repo")
        if not os.path.isdir(git_dir):
            print(f"{d['repo']}: no repository at {git_dir}; skipped", file=sys.stderr)
            skipped += 1
            continue
        gold = sorted(d["gold_files"])
        at_base = exists_at(git_dir, d["base"], gold + d.get("test_files", []))
        base = {k: d[k] for k in ("repo", "lang", "commit", "base", "date", "subject", "n_source_files_at_base")}
        tests = sorted(t for t in d.get("test_files", []) if t in at_base)
        if gold and tests:
            inst = dict(base, id=d["id"] + "#tests", kind="diff", query="",
                        diff_files=gold, gold_files=tests, test_files=[])
            print(json.dumps(inst, sort_keys=True))
            kept += 1
        old = [g for g in gold if g in at_base]
        if len(old) >= 2:
            inst = dict(base, id=d["id"] + "#cochange", kind="diff", query="",
                        diff_files=old[:1], gold_files=old[1:], test_files=[])
            print(json.dumps(inst, sort_keys=True))
            kept += 1
    print(f"{kept} instances ({skipped} commits without a repository)", file=sys.stderr)


if __name__ == "__main__":
    main()
