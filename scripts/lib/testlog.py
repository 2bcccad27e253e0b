#!/usr/bin/env python3
"""Reads Meson's testlog.json files (one JSON object per test) for scripts/test.

  testlog.py count FILE...      prints "PASSED FAILED" (a missing file counts as one failure;
                                skipped tests count as neither)
  testlog.py failures FILE...   prints every failed test in full: name, result, command and
                                its output
"""
import json
import sys

GOOD = ("OK", "EXPECTEDFAIL")


def records(paths):
    for path in paths:
        try:
            with open(path) as f:
                for line in f:
                    if line.strip():
                        yield path, json.loads(line)
        except OSError:
            yield path, None


def main():
    mode, paths = sys.argv[1], sys.argv[2:]
    if mode == "count":
        passed = failed = 0
        for _, rec in records(paths):
            if rec is None:
                failed += 1
            elif rec.get("result") in GOOD:
                passed += 1
            elif rec.get("result") != "SKIP":
                failed += 1
        print(passed, failed)
    elif mode == "failures":
        for path, rec in records(paths):
            if rec is None:
                print(f"---- {path}: no test log (the suite did not run)")
                continue
            if rec.get("result") in GOOD + ("SKIP",):
                continue
            print(f"---- {rec.get('name')}: {rec.get('result')} "
                  f"(exit {rec.get('returncode')}, {float(rec.get('duration', 0)):.1f} s)")
            print(f"command: {rec.get('command')}")
            for key in ("stdout", "stderr"):
                text = rec.get(key)
                if text:
                    print(text.rstrip("\n"))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
