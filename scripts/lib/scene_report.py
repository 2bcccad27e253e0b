#!/usr/bin/env python3
"""The scene sections of the benchmark report (docs/design.md, workloads W5 and W6) from a
Google Benchmark JSON run of c2d_bench: ms per frame (CPU time; wall time for the two-thread
runs), contacts per frame beside Chipmunk2D's, and the ratio targets checked in the same run.
With a chart path and gnuplot, also a chart of W5 ms/frame against N (log axes).

    python3 scripts/lib/scene_report.py [--pinned] run.json [w5-chart.png]

--pinned: the run was pinned to one core, so its two-thread frames measure nothing (the
two-thread target is then reported as not measured; scripts/bench --no-pin measures it).

Prints nothing when the run has no W5 or W6 benchmark (e.g. scripts/bench --filter W1).
"""
import json
import re
import subprocess
import sys

VARIANTS = ["uniform", "clustered", "mixed", "floor"]
SCALE = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def load(path):
    """{(workload, kind, variant, backend, n): (ms, contacts)} for the W5 and W6 runs.

    W5: W5_<kind>/<variant>[/<backend>]/<N>; W6: W6_<variant>[_brute|_sweep]/<backend>/<N>."""
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            continue
        name = re.sub(r"/(min_time|real_time).*$", "", b.get("run_name", b["name"]))
        parts = name.split("/")
        head = parts[0]
        if head.startswith("W5_"):
            kind, variant = head[3:], parts[1]
            backend = parts[2] if len(parts) == 4 else ""
            key = ("W5", kind, variant, backend, int(parts[-1]))
        elif head.startswith("W6_"):
            variant, _, kind = head[3:].partition("_")
            backend = parts[1]
            kind = kind or ("scene" if backend == "scene" else backend)
            key = ("W6", kind, variant, backend, int(parts[-1]))
        else:
            continue
        wall = key[1].startswith("threads")
        runs[key] = (b["real_time" if wall else "cpu_time"] * SCALE[b["time_unit"]], b.get("hits"))
    return runs


def ms(v):
    return "-" if v is None else (f"{v:.3g}" if v < 100 else f"{v:.0f}")


def verdict(label, ratio, minimum, lines, at_most=False):
    if ratio is None:
        lines.append(f"{label}: not measured" + ("" if "not measured" in label else " in this run"))
        return True
    met = ratio <= minimum if at_most else ratio >= minimum
    want = f"<= {minimum}x" if at_most else f">= {minimum}x"
    lines.append(f"{label} ({want}): {ratio:.2f}x: {'met' if met else 'MISSED'}")
    return met


def w5(runs, lines, targets, pinned):
    def get(kind, variant, backend, n):
        return runs.get(("W5", kind, variant, backend, n), (None, None))

    backends = sorted({k[3] for k in runs if k[0] == "W5" and k[1] == "scene" and k[3] != "scalar"})
    best = backends[0] if backends else "scalar"
    sizes = sorted({k[4] for k in runs if k[0] == "W5"})
    if not sizes:
        return best, sizes
    lines.append("W5 scenes: N balls against N/16 pins at W1's density, ms per frame (CPU)")
    lines.append(f"{'N / M':<16}{'variant':<11}{'scene ' + best:>13}{'scalar':>9}{'all-pairs':>11}"
                 f"{'2 threads':>11}{'cm tree':>10}{'cm hash':>10}{'  contacts (ours / Chipmunk)'}")
    for n in sizes:
        for v in VARIANTS:
            s, hits = get("scene", v, best, n)
            if s is None:
                continue
            sc = get("scene", v, "scalar", n)[0]
            a = get("allpairs", v, best, n)[0]
            t2 = get("threads2", v, best, n)[0]
            cb, chits = get("chipmunk_bbtree", v, "", n)
            ch = get("chipmunk_hash", v, "", n)[0]
            c = f"{hits:.0f} / {chits:.0f}" if hits is not None and chits is not None else "-"
            lines.append(f"{f'{n} / {n // 16}':<16}{v:<11}{ms(s):>13}{ms(sc):>9}{ms(a):>11}"
                         f"{ms(t2):>11}{ms(cb):>10}{ms(ch):>10}  {c}")
    lines.append("")

    def ratio(num, den):
        return num / den if num and den else None

    s65 = get("scene", "uniform", best, 65536)[0]
    targets.append(("W5 scene vs all-pairs at (65536, 4096)",
                    ratio(get("allpairs", "uniform", best, 65536)[0], s65), 50, False))
    s262 = get("scene", "uniform", best, 262144)[0]
    chip = [x for x in (get("chipmunk_bbtree", "uniform", "", 262144)[0],
                        get("chipmunk_hash", "uniform", "", 262144)[0]) if x]
    targets.append(("W5 scene vs the faster Chipmunk index at (262144, 16384)",
                    ratio(min(chip) if chip else None, s262), 20, False))
    for lo, hi in zip(sizes, sizes[1:]):
        a, b = get("scene", "uniform", best, lo)[0], get("scene", "uniform", best, hi)[0]
        steps = (hi // lo).bit_length() - 1
        per = (b / a) ** (1 / steps) / 2 if a and b else None
        targets.append((f"W5 growth per doubling {lo} -> {hi}, relative to linear", per, 1.3, True))
    for n in sizes:
        u = get("scene", "uniform", best, n)[0]
        for v in VARIANTS[1:]:
            targets.append((f"W5 {v} vs uniform at {n}", ratio(get("scene", v, best, n)[0], u),
                            2, True))
    two = None if pinned else ratio(s262, get("threads2", "uniform", best, 262144)[0])
    targets.append(("W5 two threads vs one at (262144, 16384) (wall time"
                    + (", not measured: pinned to one core; use --no-pin)" if pinned else ")"),
                    two, 1.6, False))
    return best, sizes


def w6(runs, lines, targets):
    keys = [k for k in runs if k[0] == "W6"]
    if not keys:
        return
    sizes = sorted({k[4] for k in keys if k[1] == "scene"})
    brute_backends = sorted({k[3] for k in keys if k[1] == "brute"})
    lines.append("W6 balls against balls: pile (about 6 contacts a ball) and gas (about 0.1), "
                 "ms per frame (CPU)")
    lines.append(f"{'balls':<10}{'variant':<9}{'scene':>9}{'sweep':>9}{'brute':>12}{'cm tree':>10}"
                 f"{'cm hash':>10}{'  contacts (ours / Chipmunk)'}")
    for n in sizes:
        for v in ("pile", "gas"):
            s, hits = runs.get(("W6", "scene", v, "scene", n), (None, None))
            sw = runs.get(("W6", "sweep", v, "scene", n), (None, None))[0]
            brute = [(b, runs[("W6", "brute", v, b, n)][0]) for b in brute_backends
                     if ("W6", "brute", v, b, n) in runs]
            br = f"{ms(brute[-1][1])} {brute[-1][0]}" if brute else "-"
            cb, chits = runs.get(("W6", "chipmunk_bbtree", v, "chipmunk_bbtree", n), (None, None))
            ch = runs.get(("W6", "chipmunk_hash", v, "chipmunk_hash", n), (None, None))[0]
            c = f"{hits:.0f} / {chits:.0f}" if hits is not None and chits is not None else "-"
            lines.append(f"{n:<10}{v:<9}{ms(s):>9}{ms(sw):>9}{br:>12}{ms(cb):>10}{ms(ch):>10}  {c}")
    lines.append("")
    for v in ("pile", "gas"):
        n = 262144
        s = runs.get(("W6", "scene", v, "scene", n), (None,))[0]
        chip = [runs[k][0] for k in (("W6", "chipmunk_bbtree", v, "chipmunk_bbtree", n),
                                     ("W6", "chipmunk_hash", v, "chipmunk_hash", n)) if k in runs]
        targets.append((f"W6 {v}: scene vs the faster Chipmunk index at {n} balls",
                        min(chip) / s if chip and s else None, 10, False))
    n = 16384
    scalar = runs.get(("W6", "brute", "pile", "scalar", n), (None,))[0]
    simd = [runs[k][0] for k in runs if k[:3] == ("W6", "brute", "pile") and k[4] == n
            and k[3] != "scalar"]
    targets.append((f"W6 brute force, best backend vs scalar at {n} balls",
                    scalar / min(simd) if scalar and simd else None, 8, False))


def chart(runs, best, sizes, path):
    series = [("scene", best), ("scene", "scalar"), ("allpairs", best), ("chipmunk_bbtree", ""),
              ("chipmunk_hash", "")]
    blocks, titles = [], []
    for kind, backend in series:
        pts = [(n, runs.get(("W5", kind, "uniform", backend, n), (None,))[0]) for n in sizes]
        pts = [(n, t) for n, t in pts if t]
        if pts:
            blocks.append("\n".join(f"{n} {t}" for n, t in pts) + "\ne")
            titles.append(f"{kind} {backend}".strip().replace("_", " "))
    if not blocks:
        return
    plot = ", ".join(f"'-' with linespoints title '{t}'" for t in titles)
    script = (f"set terminal pngcairo size 800,500\nset output '{path}'\n"
              "set logscale xy\nset xlabel 'N balls (M = N/16 pins)'\n"
              "set ylabel 'ms per frame (CPU)'\nset key outside right top\nset grid\n"
              "set title 'W5 uniform: a frame of N balls against N/16 pins'\n"
              f"plot {plot}\n" + "\n".join(blocks) + "\n")
    subprocess.run(["gnuplot"], input=script.encode(), check=True)


def main():
    args = sys.argv[1:]
    pinned = "--pinned" in args
    args = [a for a in args if a != "--pinned"]
    runs = load(args[0])
    if not runs:
        return 0
    lines, targets = [], []
    best, sizes = w5(runs, lines, targets, pinned)
    w6(runs, lines, targets)
    lines.append("Scene targets (docs/design.md; ratios in this run):")
    for label, ratio, minimum, at_most in targets:
        verdict("  " + label, ratio, minimum, lines, at_most)
    print("\n".join(lines))
    if len(args) > 1 and sizes:
        chart(runs, best, sizes, args[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
