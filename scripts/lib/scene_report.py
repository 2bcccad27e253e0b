#!/usr/bin/env python3
"""The scene sections of the benchmark report (docs/design.md, workloads W5 and W6) from a
Google Benchmark JSON run of c2d_bench: ms per frame (CPU time; wall time for the two-thread
runs), contacts per frame beside Chipmunk2D's, and the ratio targets checked in the same run.
With a chart path and gnuplot, also a chart of W5 ms/frame against N (log axes).

    python3 scripts/lib/scene_report.py [--pinned] run.json [w5-chart.png]

--pinned: the run was pinned to one core, so two-thread frames measure nothing: the table has
no two-thread column and the two-thread target is reported as not measured (scripts/bench
--no-pin measures it).

Prints nothing when the run has no W5, W6 or W7 benchmark (e.g. scripts/bench --filter W1).
"""
import json
import math
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
        # the headline run measures one size: the other sizes are in --full
        lines.append(f"{label}: not measured" + ("" if "not measured" in label else
                                                 " in this run (scripts/bench --full)"))
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
    # Two threads on one pinned core measure nothing: no column then (scripts/bench --no-pin).
    threads = not pinned and any(k[0] == "W5" and k[1] == "threads2" for k in runs)
    lines.append("W5 scenes: N balls against N/16 pins at W1's density, ms per frame (CPU"
                 + ("; 2 threads: wall clock)" if threads else ")"))
    lines.append(f"{'N / M':<16}{'variant':<11}{'scene ' + best:>13}{'scalar':>9}{'all-pairs':>11}"
                 + (f"{'2 threads':>11}" if threads else "")
                 + f"{'cm tree':>10}{'cm hash':>10}{'box2d':>9}"
                 + f"{'  contacts (ours / Chipmunk / Box2D)'}")
    for n in sizes:
        for v in VARIANTS:
            s, hits = get("scene", v, best, n)
            if s is None:
                continue
            sc = get("scene", v, "scalar", n)[0]
            a = get("allpairs", v, best, n)[0]
            t2 = f"{ms(get('threads2', v, best, n)[0]):>11}" if threads else ""
            cb, chits = get("chipmunk_bbtree", v, "", n)
            ch = get("chipmunk_hash", v, "", n)[0]
            bx, bhits = get("box2d", v, "", n)
            c = " / ".join("-" if h is None else f"{h:.0f}" for h in (hits, chits, bhits))
            lines.append(f"{f'{n} / {n // 16}':<16}{v:<11}{ms(s):>13}{ms(sc):>9}{ms(a):>11}"
                         f"{t2}{ms(cb):>10}{ms(ch):>10}{ms(bx):>9}  {c}")
    if pinned:
        lines.append("(two threads: not measured, the run is pinned to one core; "
                     "scripts/bench --no-pin measures them)")
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
    for n in sizes:  # no target: information beside the Chipmunk ones
        r = ratio(get("box2d", "uniform", "", n)[0], get("scene", "uniform", best, n)[0])
        if r:
            lines.append(f"W5 scene vs Box2D 2.4.1 (contact finding: Step(0)) at ({n}, {n // 16}):"
                         f" {r:.1f}x")
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
    # The brute force (all pairs) of the scene rows runs on the best backend only: name it in
    # the header. Every backend runs it at a smaller size, listed under the table.
    order = ["scalar", "sse2", "sse41", "avx2", "avx512", "neon"]
    brute_backends = sorted({k[3] for k in keys if k[1] == "brute"},
                            key=lambda b: order.index(b) if b in order else 99)
    best = brute_backends[-1] if brute_backends else ""
    box2d_lines = []
    lines.append("W6 balls against balls: pile (about 6 contacts a ball) and gas (about 0.1), "
                 "ms per frame (CPU)")
    lines.append(f"{'balls':<10}{'variant':<9}{'scene':>9}{'sweep':>9}{('brute ' + best).strip():>14}"
                 f"{'cm tree':>10}{'cm hash':>10}{'box2d':>9}{'  contacts (ours / Chipmunk / Box2D)'}")
    for n in sizes:
        for v in ("pile", "gas"):
            s, hits = runs.get(("W6", "scene", v, "scene", n), (None, None))
            sw = runs.get(("W6", "sweep", v, "scene", n), (None, None))[0]
            br = runs.get(("W6", "brute", v, best, n), (None,))[0]
            cb, chits = runs.get(("W6", "chipmunk_bbtree", v, "chipmunk_bbtree", n), (None, None))
            ch = runs.get(("W6", "chipmunk_hash", v, "chipmunk_hash", n), (None, None))[0]
            bx, bhits = runs.get(("W6", "box2d", v, "box2d", n), (None, None))
            c = " / ".join("-" if h is None else f"{h:.0f}" for h in (hits, chits, bhits))
            lines.append(f"{n:<10}{v:<9}{ms(s):>9}{ms(sw):>9}{ms(br):>14}{ms(cb):>10}{ms(ch):>10}"
                         f"{ms(bx):>9}  {c}")
            if s and bx:
                box2d_lines.append(f"W6 {v}: scene vs Box2D 2.4.1 at {n} balls: {bx / s:.1f}x")
    for n in sorted({k[4] for k in keys if k[1] == "brute"} - set(sizes)):
        for v in ("pile", "gas"):
            cells = [f"{b} {ms(runs[('W6', 'brute', v, b, n)][0])}" for b in brute_backends
                     if ("W6", "brute", v, b, n) in runs]
            if cells:
                lines.append(f"brute force, {v}, {n} balls, ms per frame: " + ", ".join(cells))
    lines.extend(box2d_lines)
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


def log_tics(values):
    """Tics at 1, 2 and 5 times the powers of ten that span `values`, plainly labelled (gnuplot
    writes "1x10^6" by default), and a range that ends near the data (no empty decade)."""
    lo, hi = min(values) / 1.5, max(values) * 1.5
    tics = [m * 10.0 ** e for e in range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
            for m in (1, 2, 5) if lo <= m * 10.0 ** e <= hi]
    return lo, hi, ", ".join(f'"{t:g}" {t:g}' for t in tics)


def chart(runs, best, sizes, path):
    """Left (two sizes or more): W5 uniform, ms per frame against N. Right: every variant at one
    size (65536 when measured), bars for the scene, the all-pairs call, Chipmunk2D and Box2D."""
    series = [("scene", best), ("scene", "scalar"), ("allpairs", best), ("chipmunk_bbtree", ""),
              ("chipmunk_hash", ""), ("box2d", "")]
    names = {"scene": "scene", "allpairs": "all-pairs", "chipmunk_bbtree": "Chipmunk tree",
             "chipmunk_hash": "Chipmunk hash", "box2d": "Box2D"}
    colors = ["#d94701", "#4d4d4d", "#fd8d3c", "#8c6bb1", "#54278f", "#2b8cbe"]
    script = ["set terminal pngcairo size {w},560 font ',10' noenhanced", f"set output '{path}'",
              "set key outside top center horizontal", "set grid ytics",
              "set ylabel 'ms per frame (CPU; lower is faster)'"]
    panels = 0
    values = []
    # Left: against N, uniform.
    lines, blocks = [], []
    for (kind, backend), color in zip(series, colors):
        pts = [(n, runs.get(("W5", kind, "uniform", backend, n), (None,))[0]) for n in sizes]
        pts = [(n, t) for n, t in pts if t]
        if len(pts) >= 2:
            blocks.append("\n".join(f"{n} {t}" for n, t in pts) + "\ne")
            lines.append(f"'-' with linespoints lw 2 pt 7 lc rgb '{color}' "
                         f"title '{(names[kind] + ' ' + backend).strip()}'")
            values += [t for _, t in pts]
    if lines:
        panels += 1
        lo, hi, tics = log_tics(values)
        script += ["set title 'W5 uniform: N balls against N/16 pins'", "set logscale xy",
                   f"set xrange [{sizes[0] / 1.5}:{sizes[-1] * 1.5}]",
                   "set xtics (" + ", ".join(f'"{n}" {n}' for n in sizes) + ")",
                   f"set yrange [{lo}:{hi}]", f"set ytics ({tics})",
                   "set xlabel 'N balls (M = N/16 pins)'", "plot " + ", ".join(lines)]
        script += blocks
        script += ["unset logscale", "unset xlabel", "unset xrange", "unset yrange"]
    # Right: the variants at one size.
    n = 65536 if 65536 in sizes else sizes[-1]
    cols = [(kind, backend) for kind, backend in series
            if any(("W5", kind, v, backend, n) in runs for v in VARIANTS)]
    rows, values = [], []
    for v in VARIANTS:
        cells = [runs.get(("W5", kind, v, backend, n), (None,))[0] for kind, backend in cols]
        if any(cells):
            rows.append(f'"{v}" ' + " ".join(f"{c:.6g}" if c else "?" for c in cells))
            values += [c for c in cells if c]
    if rows and cols:
        panels += 1
        lo, hi, tics = log_tics(values)
        missing = [(names[k] + " " + b).strip() for k, b in cols
                   if any(("W5", k, v, b, n) not in runs for v in VARIANTS)]
        script += [f"set title 'W5 variants at {n} balls x {n // 16} pins'",
                   "set style data histograms", "set style histogram clustered gap 1",
                   "set style fill solid 0.85 border -1", "set logscale y",
                   "set datafile missing '?'", f"set yrange [{lo}:{hi}]", f"set ytics ({tics})",
                   "set xtics scale 0", "set xlabel " + ("'" + ", ".join(missing)
                                                         + ": uniform only'" if missing else "''"),
                   "$bars << EOD", *rows, "EOD",
                   "plot " + ", ".join(f"$bars using {i + 2}:xtic(1) lc rgb '{colors[series.index(c)]}' "
                                       f"title '{(names[c[0]] + ' ' + c[1]).strip()}'"
                                       for i, c in enumerate(cols))]
    if panels == 0:
        return
    script[0] = script[0].format(w=700 * panels)
    body = "\n".join(script[2:])
    text = "\n".join(script[:2]) + f"\nset multiplot layout 1,{panels}\n" + body + "\nunset multiplot\n"
    subprocess.run(["gnuplot"], input=text.encode(), check=True)


def w7(path, lines):
    """W7, the game frame (bench/frame.c): ms per frame and the split over the loop's stages."""
    with open(path) as f:
        data = json.load(f)
    rows = []
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b.get("run_name", b["name"])
        if not name.startswith("W7_frame/") or b.get("error_occurred"):
            continue
        stages = [b.get(k, 0.0) for k in ("contacts_ms", "resolve_ms", "push_out_ms", "move_ms")]
        total = sum(stages) or 1.0
        rows.append((int(name.split("/")[2]), name.split("/")[1],
                     b["cpu_time"] * SCALE[b["time_unit"]], [100.0 * x / total for x in stages],
                     b.get("contacts"), b.get("hits")))
    if not rows:
        return
    lines.append("W7 game frame: the README's loop (examples/pachinko.c) on its pin board, after "
                 "90 warm-up frames; ms per frame (CPU) and each stage's share of it")
    lines.append(f"  {'balls':>8} {'backend':8} {'ms/frame':>9} {'contacts':>9} {'resolve':>8} "
                 f"{'push-out':>9} {'move':>6} {'contacts/frame':>15} {'sweep hits':>11}")
    for n, backend, cpu, share, contacts, hits in sorted(rows):
        lines.append(f"  {n:8d} {backend:8} {ms(cpu):>9} {share[0]:8.0f}% {share[1]:7.0f}% "
                     f"{share[2]:8.0f}% {share[3]:5.0f}% {contacts or 0:15.0f} {hits or 0:11.0f}")
    lines.append("")


def main():
    args = sys.argv[1:]
    pinned = "--pinned" in args
    args = [a for a in args if a != "--pinned"]
    runs = load(args[0])
    lines, targets = [], []
    w7(args[0], lines)
    if not runs:
        print("\n".join(lines))
        return 0
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
