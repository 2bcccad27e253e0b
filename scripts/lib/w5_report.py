#!/usr/bin/env python3
"""W5 (scenes) report from a Google Benchmark JSON run of c2d_bench --benchmark_filter=W5_:
a markdown table of ms per frame (CPU time, median of repetitions if any) and contacts per
frame, the ratios the targets name, and (with gnuplot) a chart of ms/frame against N.

    python3 scripts/lib/w5_report.py run.json [chart.png]
"""
import json
import re
import subprocess
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = re.sub(r"/(min_time|real_time).*$", "", b["run_name"] if "run_name" in b else b["name"])
        parts = name.split("/")
        if not parts[0].startswith("W5_"):
            continue
        kind, variant, n = parts[0][3:], parts[1], int(parts[-1])
        backend = parts[2] if len(parts) == 4 else ""
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        t = b["real_time" if kind == "threads2" else "cpu_time"] * scale
        runs[(kind, variant, backend, n)] = (t, b.get("hits"))
    return runs


def main():
    runs = load(sys.argv[1])
    backends = sorted({k[2] for k in runs if k[0] == "scene" and k[2] != "scalar"})
    best = backends[0] if backends else "scalar"
    sizes = sorted({k[3] for k in runs})
    variants = ["uniform", "clustered", "mixed", "floor"]

    def get(kind, variant, backend, n):
        return runs.get((kind, variant, backend, n), (None, None))

    def ms(v):
        return "-" if v is None else (f"{v:.3g}" if v < 100 else f"{v:.0f}")

    print(f"| N balls / M pins | variant | scene {best} | scene scalar | all-pairs {best} | "
          "Chipmunk bbtree | Chipmunk hash | contacts (scene / Chipmunk) | scene vs all-pairs | "
          "scene vs faster Chipmunk |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        for v in variants:
            s, hits = get("scene", v, best, n)
            sc, _ = get("scene", v, "scalar", n)
            a, _ = get("allpairs", v, best, n)
            cb, chits = get("chipmunk_bbtree", v, "", n)
            ch, _ = get("chipmunk_hash", v, "", n)
            fast = min([x for x in (cb, ch) if x is not None], default=None)
            r1 = f"{a / s:.1f}x" if a and s else "-"
            r2 = f"{fast / s:.1f}x" if fast and s else "-"
            c = f"{hits:.0f} / {chits:.0f}" if hits is not None and chits is not None else "-"
            print(f"| {n} / {n // 16} | {v} | {ms(s)} | {ms(sc)} | {ms(a)} | {ms(cb)} | {ms(ch)} | "
                  f"{c} | {r1} | {r2} |")
    print()
    print("Per doubling of N (uniform, best backend), relative to linear:")
    for lo, hi in zip(sizes, sizes[1:]):
        a, _ = get("scene", "uniform", best, lo)
        b, _ = get("scene", "uniform", best, hi)
        if a and b:
            steps = (hi // lo).bit_length() - 1
            print(f"- {lo} -> {hi}: {(b / a) ** (1 / steps) / 2:.2f}x linear")
    print()
    print("Hostile variants against uniform (best backend):")
    for n in sizes:
        u, _ = get("scene", "uniform", best, n)
        cells = [f"{v} {get('scene', v, best, n)[0] / u:.2f}x" for v in variants[1:]
                 if u and get("scene", v, best, n)[0]]
        print(f"- {n}: " + ", ".join(cells))
    if len(sys.argv) > 2:
        series = [("scene", best), ("scene", "scalar"), ("allpairs", best),
                  ("chipmunk_bbtree", ""), ("chipmunk_hash", "")]
        lines = []
        for kind, backend in series:
            pts = [(n, get(kind, "uniform", backend, n)[0]) for n in sizes]
            lines.append("\n".join(f"{n} {t}" for n, t in pts if t) + "\ne")
        titles = [f"{k} {b}".strip().replace("_", " ") for k, b in series]
        plot = ", ".join(f"'-' with linespoints title '{t}'" for t in titles)
        script = (f"set terminal pngcairo size 800,500\nset output '{sys.argv[2]}'\n"
                  "set logscale xy\nset xlabel 'N balls (M = N/16 pins)'\n"
                  "set ylabel 'ms per frame (CPU)'\nset key left top\nset grid\n"
                  "set title 'W5 uniform: a frame of N balls against N/16 pins'\n"
                  f"plot {plot}\n" + "\n".join(lines) + "\n")
        subprocess.run(["gnuplot"], input=script.encode(), check=True)


if __name__ == "__main__":
    main()
