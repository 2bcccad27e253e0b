"""The table of scripts/compare: median CPU time per benchmark on each side, and ref / HEAD.

Usage: compare_report.py DIR REF HEAD, where DIR holds ref-N.json and head-N.json (Google
Benchmark's JSON, one file per round). A benchmark is compared when both sides ran it in every
round; its ratio is the median over rounds of ref's time / HEAD's time in the same round (the
rounds alternate, so a busy spell slows both sides of a pair alike).
"""
import glob
import json
import os
import re
import statistics
import sys

# The speed issue's targets (issue 17), as (name pattern, least speed-up over the ref). They
# are the scene's on its best backend: the scalar backend's rows are shown without one.
TARGETS = [
    (r"^W5_scene/uniform/(?!scalar/)[a-z0-9]+/(65536|262144)$", 4.0),
    (r"^W5_scene/uniform/(?!scalar/)[a-z0-9]+/1048576$", 3.0),
    (r"^W6_(pile|gas)/scene/262144$", 1.6),
    (r"^W6_pile_sweep/scene/262144$", 3.0),
    (r"^W5_sweep/uniform/(?!scalar/)[a-z0-9]+/65536$", 3.0),
    (r"^W7_frame/[a-z0-9]+/65536$", 2.0),
]

# Within HEAD's run: the best SIMD backend over the scalar backend on the W6 pile.
BACKEND_TARGET = ("W6_pile_backend/", "/262144", 2.5)


def times(path):
    """{benchmark name: CPU time in ms} of one JSON file (iterations only, no aggregates)."""
    with open(path) as f:
        data = json.load(f)
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    out = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        out[b["name"]] = b["cpu_time"] * scale.get(b.get("time_unit", "ns"), 1e-6)
    return out


def main():
    folder, ref, head = sys.argv[1], sys.argv[2], sys.argv[3]
    rounds = sorted(int(re.search(r"(\d+)\.json$", p).group(1))
                    for p in glob.glob(os.path.join(folder, "ref-*.json")))
    pairs = [(times(os.path.join(folder, f"ref-{r}.json")),
              times(os.path.join(folder, f"head-{r}.json"))) for r in rounds]
    names = [n for n in pairs[0][1] if all(n in a and n in b for a, b in pairs)]
    only_head = [n for n in pairs[0][1] if n not in pairs[0][0]]
    print(f"\n{'benchmark':46} {ref + ' ms':>12} {head + ' ms':>12} {'speed-up':>9}  target")
    for n in names:
        a = statistics.median(p[0][n] for p in pairs)
        b = statistics.median(p[1][n] for p in pairs)
        ratio = statistics.median(p[0][n] / p[1][n] for p in pairs if p[1][n] > 0)
        verdict = ""
        for pattern, least in TARGETS:
            if re.search(pattern, n):
                verdict = f">= {least:g}x: {'met' if ratio >= least else 'MISSED'}"
        print(f"{n:46} {a:12.3f} {b:12.3f} {ratio:8.2f}x  {verdict}")
    if only_head:
        print(f"\nonly in HEAD (no ratio): {', '.join(only_head)}")
    prefix, suffix, least = BACKEND_TARGET
    head_med = {n: statistics.median(p[1][n] for p in pairs if n in p[1]) for n in pairs[0][1]}
    scalar = head_med.get(f"{prefix}scalar{suffix}")
    simd = {n: t for n, t in head_med.items()
            if n.startswith(prefix) and n.endswith(suffix) and "/scalar/" not in n}
    if scalar and simd:
        best = min(simd, key=simd.get)
        ratio = scalar / simd[best]
        print(f"\nW6 pile, best SIMD backend over scalar in HEAD ({best.split('/')[1]}): "
              f"{ratio:.2f}x, >= {least:g}x: {'met' if ratio >= least else 'MISSED'}")
    if not names:
        print("no benchmark ran on both sides (check --filter)")


if __name__ == "__main__":
    main()
