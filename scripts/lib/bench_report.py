#!/usr/bin/env python3
"""Turns c2d_bench's JSON (Google Benchmark) into the table scripts/bench prints, the checks
of DESIGN.md section 7, and a gnuplot chart.

    bench_report.py RESULTS.json [--png FILE] [--emulated] [--compare OTHER.json]

Every number comes from this one run: medians over the repetitions (or the single run when
there was one repetition), speed-ups against the scalar backend of the same run.
"""
import argparse
import json
import re
import subprocess
import sys

WORKLOADS = [
    ("W1_collide", "W1 collide"),
    ("W2_pairs", "W2 pairs"),
    ("W3_sweep", "W3 sweep"),
    ("W3d_sweep", "W3d dense sweep"),
    ("W4_scaling", "W4 scaling"),
    ("W2d_ordered", "W2d dense, in order"),
    ("W2d_shuffled", "W2d dense, shuffled"),
]
BACKENDS = ["scalar_loop", "scalar", "sse2", "sse41", "avx2", "avx512", "neon", "chipmunk"]
# Peers: other libraries on the same pairs; their output bytes are their own.
PEERS = {"chipmunk"}
COLORS = {"scalar_loop": "#9e9e9e", "scalar": "#4d4d4d", "sse2": "#6baed6", "sse41": "#2171b5",
          "avx2": "#fd8d3c", "avx512": "#d94701", "neon": "#31a354",
          "chipmunk": "#8c6bb1"}

# DESIGN.md section 7, for the x86-64 machine class it names (AMD EPYC Zen 5, one core).
W1_TARGETS = [("avx512", 0.08), ("avx2", 0.20), ("sse2", 0.50), ("scalar", 3.0)]
W3_TARGET_GPAIRS = 2.0
# W2d in order: speed-up over the scalar backend of the same run.
W2D_TARGETS = [("avx512", 6.0), ("avx2", 4.0), ("sse2", 2.5)]


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
        name = (workload if workload.startswith("W2d") else workload.split("_")[0]) + (f"/{n}" if n else "")
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


def targets(runs, arch, stat="median"):
    out = []
    if arch != "x86_64":
        return ["not checked: DESIGN.md section 7 sets them for x86-64 (AMD EPYC Zen 5)"], True
    all_met = True
    scalar = runs.get(("W1_collide", "scalar", None), {}).get("median")
    for backend, limit in W1_TARGETS:
        r = runs.get(("W1_collide", backend, None), {})
        if "median" not in r:
            out.append(f"W1 {backend:<7} <= {limit:<5} ns/pair   n/a (backend not available here)")
            continue
        ns = 1 / gpairs(r["median"])
        best = 1 / gpairs(r["max"]) if "max" in r else ns
        ratio = f", {gpairs(r['median']) / gpairs(scalar):.1f}x scalar" if scalar and backend != "scalar" else ""
        verdict = "met" if ns <= limit else "MISSED"
        if ns > limit:
            all_met = False
            if best <= limit:
                verdict += f" (best repetition {best:.3f} meets it: noise?)"
        out.append(f"W1 {backend:<7} <= {limit:<5} ns/pair   {stat} {fmt_ns(ns)}{ratio}: {verdict}")
    w3 = [(gpairs(r["median"]), b, r) for (w, b, n), r in runs.items()
          if w == "W3_sweep" and "median" in r]
    if w3:
        g, b, r = max(w3)
        best = gpairs(r["max"]) if "max" in r else g
        verdict = "met" if g >= W3_TARGET_GPAIRS else "MISSED"
        if g < W3_TARGET_GPAIRS:
            all_met = False
            if best >= W3_TARGET_GPAIRS:
                verdict += f" (best repetition {best:.2f} meets it: noise?)"
        out.append(f"W3 best    >= {W3_TARGET_GPAIRS:<5} G pairs/s {stat} {g:.2f} ({b}): {verdict}")
    w2d_scalar = runs.get(("W2d_ordered", "scalar", None), {}).get("median")
    for backend, want in W2D_TARGETS if w2d_scalar else []:
        r = runs.get(("W2d_ordered", backend, None), {})
        if "median" not in r:
            out.append(f"W2d {backend:<7} >= {want}x scalar   n/a (backend not available here)")
            continue
        x = gpairs(r["median"]) / gpairs(w2d_scalar)
        verdict = "met" if x >= want else "MISSED"
        all_met &= x >= want
        out.append(f"W2d {backend:<7} >= {want}x scalar   {stat} {x:.2f}x: {verdict}")
    return out, all_met


def chart(runs, png, title, stat):
    """Left: G pairs/s by workload and backend (log scale); right: W4 ns/pair against N."""
    backends = [b for b in BACKENDS if any(k[1] == b for k in runs)]
    rows = []
    for workload, label in WORKLOADS[:3]:
        cells = []
        for b in backends:
            r = runs.get((workload, b, None), {}).get("median")
            cells.append(f"{gpairs(r):.6g}" if r else "?")
        rows.append(f'"{label}" ' + " ".join(cells))
    w4_backends = [b for b in backends if any(k[0] == "W4_scaling" and k[1] == b for k in runs)]
    sizes = sorted({k[2] for k in runs if k[0] == "W4_scaling"})
    w4 = []
    for n in sizes:
        cells = []
        for b in w4_backends:
            r = runs.get(("W4_scaling", b, n), {}).get("median")
            cells.append(f"{1 / gpairs(r):.6g}" if r else "?")
        w4.append(f"{n} " + " ".join(cells))
    bars = ", ".join(f"$bars using {i + 2}:xtic(1) lc rgb '{COLORS.get(b, '#000000')}' title '{b}'"
                     for i, b in enumerate(backends))
    lines = ", ".join(f"$w4 using 1:{i + 2} with linespoints lw 2 pt 7 "
                      f"lc rgb '{COLORS.get(b, '#000000')}' title '{b}'"
                      for i, b in enumerate(w4_backends))
    has_bars = any(c != "?" for row in rows for c in row.split()[2:])
    panels = int(has_bars) + int(bool(w4 and w4_backends))
    if panels == 0:
        return
    script = f"""
set terminal pngcairo size {750 * panels},620 font ",10" noenhanced
set output '{png}'
set datafile missing '?'
$bars << EOD
{chr(10).join(rows)}
EOD
$w4 << EOD
{chr(10).join(w4)}
EOD
set multiplot layout 1,{panels} title "{title}"
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
set key top left
plot {bars}
unset style
"""
    if w4 and w4_backends:
        script += f"""
set title 'W4 scaling: 256 capsules x N circles (flat is good)'
set style data linespoints
set logscale x 2
set logscale y
set xlabel 'circles N'
set ylabel 'ns / pair'
set grid ytics
set key top right
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
    if not runs:
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

    ok, notes = same_bytes(runs, collect(load(a.compare)) if a.compare else None)
    print()
    what = "identical on every backend" + (" and to " + a.compare if a.compare else "")
    print(f"outputs (hits per frame, FNV checksum): {what}: {'yes' if ok else 'NO'}")
    print("  " + "; ".join(notes))

    if not a.emulated:
        caveat = "" if reps > 1 else " - one short repetition: indicative only, noise can flip these"
        print(f"\nDESIGN.md section 7 targets (one core){caveat}:")
        lines, _ = targets(runs, arch, "median" if reps > 1 else "measured")
        for line in lines:
            print("  " + line)

    if a.png:
        title = a.title + (" - EMULATED under qemu, timings meaningless" if a.emulated else "")
        try:
            chart(runs, a.png, title.replace('"', "'"), "median" if reps > 1 else "one run")
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"\nchart not written: {e}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
