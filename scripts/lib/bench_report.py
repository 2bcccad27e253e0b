#!/usr/bin/env python3
"""Turns c2d_bench's JSON (Google Benchmark) into the table scripts/bench prints, the
performance targets of docs/design.md (ratios measured in this run), and a gnuplot chart.

    bench_report.py RESULTS.json [--png FILE] [--emulated] [--compare OTHER.json]

Every number comes from this one run: medians over the repetitions (or the single run when
there was one repetition), speed-ups against the scalar backend of the same run.
"""
import argparse
import json
import re
import subprocess
import sys

from scene_report import log_tics  # plain tics on a log axis, no empty decade

WORKLOADS = [
    ("W1_collide", "W1 collide"),
    ("W1_probe", "W1 probe"),
    ("W2_pairs", "W2 pairs"),
    ("W2d_ordered", "W2d dense, in order"),
    ("W2d_shuffled", "W2d dense, shuffled"),
    ("W3_sweep", "W3 sweep"),
    ("W3d_sweep", "W3d dense sweep"),
    ("W4_scaling", "W4 scaling"),
]
# What each workload is, in one line (docs/design.md, "Workloads"); shown under the table and
# on the chart.
DESCRIPTIONS = {
    "W1_collide": "4096 balls x 256 pins, all pairs (c2d_batch_collide)",
    "W1_probe": "the same pairs through a boolean-only overlap loop of the backend's width, no culling (what culling must beat)",
    "W2_pairs": "1,048,576 random listed (ball, pin) pairs (c2d_batch_collide_pairs)",
    "W3_sweep": "4096 moving balls x 256 pins, earliest hit per ball (c2d_batch_sweep)",
    "W3d_sweep": "4096 moving balls x 64 pins on an 8 x 8 board: nearly every pair a sweep candidate",
    "W4_scaling": "W1 with N = 256 ... 65536 balls x 256 pins",
    "W2d_ordered": "1,048,576 listed pairs, 60% overlapping, in capsule order (a broad phase's output)",
    "W2d_shuffled": "the W2d pairs in random order",
}
# The chart's labels under each cluster of bars (gnuplot strings: \\n is a line break).
CHART_LABELS = {
    "W1_collide": "W1 collide\\n4096 balls x 256 pins,\\nall pairs",
    "W2_pairs": "W2 pairs\\n1M random listed\\n(ball, pin) pairs",
    "W2d_ordered": "W2d dense pairs\\n1M listed pairs, 6 in 10 hit,\\nin broad-phase order",
    "W3_sweep": "W3 sweep\\n4096 moving balls x 256 pins,\\nearliest hit per ball",
}
# The chart's clusters, those of them the run measured (the headline run has no W2).
BACKENDS = ["scalar_loop", "scalar", "sse2", "sse41", "avx2", "avx512", "neon", "chipmunk"]
# Peers: other libraries on the same pairs; their output bytes are their own.
PEERS = {"chipmunk"}
COLORS = {"scalar_loop": "#9e9e9e", "scalar": "#4d4d4d", "sse2": "#6baed6", "sse41": "#2171b5",
          "avx2": "#fd8d3c", "avx512": "#d94701", "neon": "#31a354",
          "chipmunk": "#8c6bb1"}

# Targets (docs/design.md, "Performance targets"): ratios of throughput measured in the same
# run, so a verdict means the same on every CPU. Each rule: (label, faster side, reference
# side, minimum ratio of G pairs/s); a side is (workload, backend or "*" for every SIMD
# backend, N or None). Rules whose sides were not measured are listed as such.
SIMD = ("sse2", "sse41", "avx2", "avx512", "neon")
RATIO_TARGETS = [
    ("W1: the scalar backend vs a plain scalar loop", ("W1_collide", "scalar", None),
     ("W1_collide", "scalar_loop", None), 1.0),
    ("W1: culling pays, SIMD backend vs its boolean-only probe", ("W1_collide", "*", None),
     ("W1_probe", "*", None), 1.25),
    ("W3: sweep cost per pair within 3x of W1's, same backend", ("W3_sweep", "*", None),
     ("W1_collide", "*", None), 1 / 3),
    ("W2d in order: AVX-512 vs the scalar backend", ("W2d_ordered", "avx512", None),
     ("W2d_ordered", "scalar", None), 6.0),
    ("W2d in order: AVX2 vs the scalar backend", ("W2d_ordered", "avx2", None),
     ("W2d_ordered", "scalar", None), 4.0),
    ("W2d in order: SSE2 vs the scalar backend", ("W2d_ordered", "sse2", None),
     ("W2d_ordered", "scalar", None), 2.5),
]

# W8 (bench/freeze.c): issue 42's cost cliffs of the frozen index. Each case's CPU time over
# awake100's (nothing frozen, every ball awake) of the same part and N, in this run; a target
# holds for the frame and separately for its collide and sweep parts.
W8_CASES = [
    ("awake100", "every ball awake, nothing frozen (the reference)", None),
    ("asleep", "0% awake, every ball frozen", 1e-4),
    ("crater10", "10% awake, one crater-shaped region", 0.10),
    ("scattered10", "10% awake, scattered at random", 0.15),
    ("boulder1", "1% awake, a radius-20 boulder frozen in the pile", 0.05),
    ("tiny", "1% awake; 1% of the balls frozen tiny and thawed first", 0.02),
    ("tinyall", "1% awake; every ball frozen tiny and thawed first", 0.02),
    ("churn1", "a spread 1% thawed, awake for the frame, frozen again", 0.02),
    ("radius05", "1% awake at radius 0.5, the rest frozen at 0.5 (defect 3's reference)", None),
    ("radius0", "as radius05, the rest frozen at radius 0", None),
    ("radius1e-6", "as radius05, the rest frozen at radius 1e-6", None),
    ("radius05thawed", "as radius05, after every ball was frozen at radius 0 and thawed", None),
]
# Issue 42's defect 3: these cases against radius05 of the same part and N, target <= 2x.
W8_DEFECT3 = ["radius0", "radius1e-6", "radius05thawed"]
W8_PARTS = ["collide", "sweep", "frame"]
TIME_UNITS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def w8_collect(data):
    """{(part, case, n): median CPU ms} and {(part, case, n): median entry} of W8's cases."""
    ms, entries = {}, {}
    for e in data["benchmarks"]:
        parts = [p for p in e["run_name"].split("/") if not re.match(r"^[a-z_]+:", p)]
        if len(parts) != 3 or not parts[0].startswith("W8_") or e.get("error_occurred"):
            continue
        kind = e.get("aggregate_name") if e.get("run_type") == "aggregate" else "single"
        key = (parts[0][3:], parts[1], int(parts[2]))
        if kind == "median" or (kind == "single" and key not in entries):
            ms[key] = e["cpu_time"] * TIME_UNITS.get(e.get("time_unit", "ns"), 1e-6)
            entries[key] = e
    return ms, entries


def fmt_ratio(x):
    if x == 0:
        return "0x"
    return f"{x:.3f}x" if x >= 0.01 else f"{x:.1e}x"


def w8_table(data, stat):
    """W8's table: ms and ratio per part, target and verdict; [] when W8 did not run."""
    ms, entries = w8_collect(data)
    if not ms:
        return []
    lines = [f"W8 frozen balls (bench/freeze.c): CPU ms a call ({stat}) and the ratio to awake100",
             "of the same part and N in this run; target for the collide part, the sweep part and",
             "the frame alike (issue 42).", ""]
    cw = max(12, max(len(c) for c, _, _ in W8_CASES) + 1)  # the case column
    header = (f"{'case':<{cw}}{'N':>8}{'awake':>8}{'collide ms':>12}{'ratio':>9}{'sweep ms':>11}"
              f"{'ratio':>9}{'frame ms':>11}{'ratio':>9}  target")
    lines.append(header)
    lines.append("-" * (len(header) + 10))
    sizes = sorted({k[2] for k in ms})
    for n in sizes:
        for case, _, target in W8_CASES:
            if not any((part, case, n) in ms for part in W8_PARTS):
                continue
            cells, worst, missing = [], 0.0, False
            awake = next((entries[(p, case, n)].get("awake") for p in W8_PARTS
                          if (p, case, n) in entries), None)
            for part in W8_PARTS:
                t, ref = ms.get((part, case, n)), ms.get((part, "awake100", n))
                if t is None or not ref:
                    cells.append(f"{'-':>{11 if part != 'collide' else 12}}{'-':>9}")
                    missing = True
                    continue
                ratio = t / ref
                worst = max(worst, ratio)
                width = 12 if part == "collide" else 11
                cells.append(f"{t:>{width}.4g}{fmt_ratio(ratio):>9}")
            verdict = ""
            if target is not None:
                verdict = f"<= {target:g}x: " + ("not measured" if missing else
                                                  "met" if worst <= target else "MISSED")
            shown = f"{awake:,.0f}" if awake is not None else "?"
            lines.append(f"{case:<{cw}}{n:>8}{shown:>8}" + "".join(cells) + "  " + verdict)
        for case in W8_DEFECT3:
            ratios = [ms[(p, case, n)] / ms[(p, "radius05", n)] for p in W8_PARTS
                      if (p, case, n) in ms and ms.get((p, "radius05", n))]
            if len(ratios) == len(W8_PARTS):
                lines.append(f"{case:<{cw}}{n:>8}  / radius05: collide {ratios[0]:.2f}x, sweep "
                             f"{ratios[1]:.2f}x, frame {ratios[2]:.2f}x  <= 2x: "
                             + ("met" if max(ratios) <= 2.0 else "MISSED"))
        churn, ref = ms.get(("churn", "churn1", n)), ms.get(("frame", "awake100", n))
        if churn is not None:
            extra = f", {fmt_ratio(churn / ref)} of awake100's frame" if ref else ""
            lines.append(f"{'':<{cw}}{'':>8}{'':>8}  churn1's thaw + freeze alone: "
                         f"{churn:.4g} ms{extra}")
        lines.append("")
    for case, what, _ in W8_CASES:
        if any(k[1] == case for k in ms):
            lines.append(f"  {case}: {what}")
    lines.append("  moves for the sweeps: a fixed random move per ball, length <= 0.1")
    return lines


def load(path):
    with open(path) as f:
        return json.load(f)


def run_key(entry):
    """(workload, backend, circles or None) from a run name such as
    W4_scaling/avx512/16384/min_time:0.100 (Google Benchmark appends settings)."""
    parts = [p for p in entry["run_name"].split("/") if not re.match(r"^[a-z_]+:", p)]
    workload, backend = parts[0], parts[1]
    n = int(parts[2]) if len(parts) > 2 else None
    return workload, backend, n


def collect(data):
    """{key: {"median": entry, "cv": entry, "min": entry, "max": entry}}; a single
    repetition gives its one iteration entry as the median."""
    runs = {}
    for e in data["benchmarks"]:
        if e["run_name"].startswith(("W5_", "W6_", "W7_", "W8_")):  # frames, not pairs
            continue
        if e.get("error_occurred"):
            runs.setdefault(run_key(e), {})["error"] = e.get("error_message", "error")
            continue
        kind = e.get("aggregate_name") if e.get("run_type") == "aggregate" else "single"
        runs.setdefault(run_key(e), {})[kind] = e
    for r in runs.values():
        if "median" not in r and "single" in r:
            r["median"] = r["single"]
    return runs


def gpairs(entry):
    return entry["items_per_second"] / 1e9


def order(key):
    workload, backend, n = key
    w = [x for x, _ in WORKLOADS].index(workload) if workload in dict(WORKLOADS) else 99
    b = BACKENDS.index(backend) if backend in BACKENDS else 99
    return (w, n or 0, b)


def fmt_ns(ns):
    return f"{ns:.3f}" if ns < 10 else f"{ns:.1f}"


def table(runs):
    lines = []
    header = f"{'workload':<22}{'backend':<13}{'ns/pair':>9}{'G pairs/s':>11}{'vs scalar':>11}{'spread':>9}"
    lines.append(header)
    lines.append("-" * len(header))
    last_group = None
    for key in sorted(runs, key=order):
        workload, backend, n = key
        r = runs[key]
        label = dict(WORKLOADS).get(workload, workload)
        if n is not None:
            label += f" N={n}"
        group = (workload, n)
        shown = label if group != last_group else ""
        if last_group is not None and group != last_group and workload != last_group[0]:
            lines.append("")
        last_group = group
        if "median" not in r:
            lines.append(f"{shown:<22}{backend:<13}  {r.get('error', 'no result')}")
            continue
        g = gpairs(r["median"])
        scalar = runs.get((workload, "scalar", n), {}).get("median")
        speedup = f"{g / gpairs(scalar):.1f}x" if scalar else "-"
        if scalar and g / gpairs(scalar) < 10:
            speedup = f"{g / gpairs(scalar):.2f}x"
        cv = r.get("cv")
        spread = f"±{100 * cv['cpu_time']:.1f}%" if cv else "-"
        lines.append(f"{shown:<22}{backend:<13}{fmt_ns(1 / g):>9}{g:>11.3f}{speedup:>11}{spread:>9}")
    return "\n".join(lines)


def same_bytes(runs, compare_runs=None):
    """One line per workload: do all backends (and the other run) report the same output?"""
    groups = {}
    for (workload, backend, n), r in runs.items():
        if "median" in r and backend not in PEERS:
            groups.setdefault((workload, n), []).append((backend, r["median"]))
    other = {}
    if compare_runs:
        for (workload, backend, n), r in compare_runs.items():
            if "median" in r and backend not in PEERS:
                other.setdefault((workload, n), set()).add(r["median"]["checksum"])
    ok, notes = True, []
    for (workload, n), entries in sorted(groups.items(), key=lambda g: order((g[0][0], "", g[0][1]))):
        sums = {e["checksum"] for _, e in entries}
        hits = {e["hits"] for _, e in entries}
        short = workload.startswith("W2d") or workload.endswith("_probe")
        name = (workload if short else workload.split("_")[0]) + (f"/{n}" if n else "")
        if len(sums) != 1 or len(hits) != 1:
            ok = False
            notes.append(f"{name}: DIFFERENT outputs: " +
                         ", ".join(f"{b} hits={e['hits']:.0f} sum={e['checksum']:.0f}"
                                   for b, e in entries))
        elif compare_runs and (workload, n) in other and other[(workload, n)] != sums:
            ok = False
            notes.append(f"{name}: checksum differs from the compared run")
        else:
            notes.append(f"{name} {int(next(iter(hits)))}")
    return ok, notes


def targets(runs, stat="median"):
    """One line per ratio target and backend: the ratio of this run and the verdict."""
    out, all_met = [], True
    backends = sorted({k[1] for k in runs if k[1] in SIMD}, key=BACKENDS.index)

    def median(side, backend):
        workload, b, n = side
        return runs.get((workload, backend if b == "*" else b, n), {}).get("median")

    def best_ratio(fast, ref, backend):
        a, b = runs.get((fast[0], backend if fast[1] == "*" else fast[1], fast[2]), {}), \
            runs.get((ref[0], backend if ref[1] == "*" else ref[1], ref[2]), {})
        if "max" in a and "min" in b:
            return gpairs(a["max"]) / gpairs(b["min"])
        return None

    for label, fast, ref, minimum in RATIO_TARGETS:
        per_backend = backends if "*" in (fast[1], ref[1]) else [None]
        want = f">= {minimum:.2f}x" if minimum >= 1 else f"<= {1 / minimum:.0f}x the cost"
        lines = []
        for backend in per_backend:
            a, b = median(fast, backend), median(ref, backend)
            name = backend or fast[1]
            if a is None or b is None:
                lines.append(f"    {name:<8} not measured in this run")
                continue
            ratio = gpairs(a) / gpairs(b)
            shown = f"{ratio:.2f}x" if minimum >= 1 else f"{1 / ratio:.2f}x the cost"
            if ratio >= minimum:
                verdict = "met"
            else:
                all_met = False
                verdict = "MISSED"
                best = best_ratio(fast, ref, backend)
                if best is not None and best >= minimum:
                    verdict += " (the best repetitions meet it: noise?)"
            lines.append(f"    {name:<8} {stat} {shown}: {verdict}")
        if all(line.endswith("not measured in this run") for line in lines):
            out.append(f"{label} ({want}): not measured in this run")
            continue
        out.append(f"{label} ({want}):")
        out.extend(lines)
    return out, all_met


def chart(runs, png, title, stat):
    """Left: G pairs/s by workload and backend (log scale); right: W4 ns/pair against N."""
    backends = [b for b in BACKENDS if any(k[1] == b for k in runs)]
    clusters = [w for w in CHART_LABELS if any(k[0] == w for k in runs)]
    backends = [b for b in backends if any(k[0] in clusters and k[1] == b for k in runs)]
    rows = []
    tics = []
    missing = {}  # backend: the clusters without its bar
    for i, workload in enumerate(clusters):
        cells = []
        for b in backends:
            r = runs.get((workload, b, None), {}).get("median")
            cells.append(f"{gpairs(r):.6g}" if r else "?")
            if not r:
                missing.setdefault(b, []).append(workload.split("_")[0])
        rows.append(f'"{workload}" ' + " ".join(cells))
        tics.append(f'"{CHART_LABELS[workload]}" {i}')
    # A missing bar is a gap in its cluster: one line under the panel says which and why
    # (per-cluster captions overlapped their neighbours).
    note = "; ".join(f"{b}: not in {', '.join(w)}" for b, w in missing.items())
    w4_backends = [b for b in backends if any(k[0] == "W4_scaling" and k[1] == b for k in runs)]
    sizes = sorted({k[2] for k in runs if k[0] == "W4_scaling"})
    w4 = []
    for n in sizes:
        cells = []
        for b in w4_backends:
            r = runs.get(("W4_scaling", b, n), {}).get("median")
            cells.append(f"{1 / gpairs(r):.6g}" if r else "?")
        w4.append(f"{n} " + " ".join(cells))
    w4_values = [float(c) for row in w4 for c in row.split()[1:] if c != "?"]
    if w4_values:
        w4_lo, w4_hi, w4_tics = log_tics(w4_values)
    bars = ", ".join(f"$bars using {i + 2} lc rgb '{COLORS.get(b, '#000000')}' title '{b}'"
                     for i, b in enumerate(backends))
    lines = ", ".join(f"$w4 using 1:{i + 2} with linespoints lw 2 pt 7 "
                      f"lc rgb '{COLORS.get(b, '#000000')}' title '{b}'"
                      for i, b in enumerate(w4_backends))
    has_bars = any(c != "?" for row in rows for c in row.split()[1:])
    panels = int(has_bars) + int(bool(w4 and w4_backends))
    if panels == 0:
        return
    script = f"""
set terminal pngcairo size {max(750, 260 * len(clusters)) * panels},700 font ",10" noenhanced
set output '{png}'
set datafile missing '?'
$bars << EOD
{chr(10).join(rows)}
EOD
$w4 << EOD
{chr(10).join(w4)}
EOD
set multiplot layout 1,{panels} title "{title}\\n"
"""
    if has_bars:
        script += f"""
set title 'throughput per backend ({stat}; higher is better)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set ylabel 'G circle-capsule pairs / s'
set grid ytics
set xtics ({", ".join(tics)}) scale 0
set xrange [-0.6:{len(rows) - 0.4}]
set xlabel "{'no bar = not measured (' + note + ')' if note else ''}" offset 0,-2.5
set bmargin 8
set key outside top center horizontal
set tmargin 6
plot {bars}
unset style
"""
    if w4 and w4_backends:
        script += f"""
set title 'W4 scaling: W1 with N balls x 256 pins (lower is faster; flat is good)'
set style data linespoints
unset xlabel
set xtics auto scale default
set autoscale x
set logscale x 2
set logscale y
set xlabel 'circles N'
set ylabel 'ns / pair'
set yrange [{w4_lo}:{w4_hi}]
set ytics ({w4_tics})
set grid ytics
set bmargin 6
set key outside top center horizontal
set tmargin 6
plot {lines}
"""
    script += "unset multiplot\n"
    done = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if done.returncode != 0:
        raise OSError("gnuplot failed: " + done.stderr.strip())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("--png")
    ap.add_argument("--title", default="libcollide2d")
    ap.add_argument("--emulated", action="store_true")
    ap.add_argument("--compare", help="another run's JSON whose checksums must match")
    a = ap.parse_args()

    data = load(a.json)
    runs = collect(data)
    if not runs:  # e.g. --w8: only W8's table (frames of W5-W7: scene_report.py)
        _, w8_entries = w8_collect(data)
        w8_reps = max((e.get("repetitions", 1) for e in w8_entries.values()), default=1)
        w8 = w8_table(data, "median of %d repetitions" % w8_reps if w8_reps > 1
                      else "one repetition")
        if w8:
            print("\n".join(w8).rstrip())
            return 0
        sys.exit("no benchmark results in " + a.json)
    ctx = data.get("context", {})
    arch = ctx.get("c2d_arch", "?")
    reps = max((r["median"].get("repetitions", 1) for r in runs.values() if "median" in r),
               default=1)
    stat = "median of %d repetitions" % reps if reps > 1 else "one repetition (no median)"

    if a.emulated:
        print("*** EMULATED: aarch64 under qemu-user. The timings below are meaningless; ***")
        print("*** this run only shows that the benchmark builds, runs and agrees.       ***")
    print(f"ns/pair and G pairs/s: {stat}; vs scalar: against the scalar backend in this run;")
    print("spread: coefficient of variation of the CPU time over the repetitions.\n")
    print(table(runs))
    print()
    for workload, label in WORKLOADS:
        if any(k[0] == workload for k in runs):
            print(f"{label.split(',')[0]}: {DESCRIPTIONS.get(workload, label)}")

    ok, notes = same_bytes(runs, collect(load(a.compare)) if a.compare else None)
    print()
    what = "identical on every backend" + (" and to " + a.compare if a.compare else "")
    print(f"outputs (hits per frame, FNV checksum): {what}: {'yes' if ok else 'NO'}")
    print("  " + "; ".join(notes))

    if not a.emulated:
        caveat = "" if reps > 1 else " - one short repetition: indicative only, noise can flip these"
        cpu = ctx.get("cpu_model", "?")
        print(f"\ntargets (docs/design.md), ratios within this run on {cpu} ({arch}), one core{caveat}:")
        lines, _ = targets(runs, "median" if reps > 1 else "measured")
        for line in lines:
            print("  " + line)

    w8 = w8_table(data, "median of %d repetitions" % reps if reps > 1 else "one repetition")
    if w8:
        print()
        print("\n".join(w8).rstrip())

    if a.png:
        title = a.title + (" - EMULATED under qemu, timings meaningless" if a.emulated else "")
        try:
            chart(runs, a.png, title.replace('"', "'"), "median" if reps > 1 else "one run")
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"\nchart not written: {e}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
