#!/usr/bin/env python3
"""Turn scripts/bench's raw.txt into bench.csv, ratios.csv, a table and plots.

Usage: scripts/bench-report.py RESULTS_DIR

raw.txt has one line per run, key=value pairs:
  smp=2 feature=OWNER_SPIN mode=K tasks=8 rep=1 ops=1234 cpu=97 fast=.. spin=.. lost=0
"""
import csv
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

COLUMNS = ["smp", "mode", "tasks", "feature", "runs", "median_ops", "min_ops",
           "max_ops", "median_cpu", "median_spin", "median_slow", "lost"]
RATIO_COLUMNS = ["smp", "mode", "tasks", "spin_median", "nospin_median", "ratio"]


def read_raw(path):
    runs = defaultdict(list)
    for line in path.read_text().splitlines():
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "ops" not in kv:
            continue
        key = (int(kv["smp"]), kv["mode"], int(kv["tasks"]), kv["feature"])
        runs[key].append(kv)
    return runs


def median_of(runs, name):
    vals = [int(r[name]) for r in runs if name in r]
    return int(statistics.median(vals)) if vals else ""


def main():
    if len(sys.argv) != 2:
        sys.exit("Usage: scripts/bench-report.py RESULTS_DIR")
    out = Path(sys.argv[1])
    runs = read_raw(out / "raw.txt")
    if not runs:
        sys.exit(f"error: no benchmark results in {out / 'raw.txt'}")

    rows = []
    for key in sorted(runs):
        smp, mode, tasks, feature = key
        ops = [int(r["ops"]) for r in runs[key]]
        rows.append({
            "smp": smp, "mode": mode, "tasks": tasks, "feature": feature,
            "runs": len(ops), "median_ops": int(statistics.median(ops)),
            "min_ops": min(ops), "max_ops": max(ops),
            "median_cpu": median_of(runs[key], "cpu"),
            "median_spin": median_of(runs[key], "spin"),
            "median_slow": median_of(runs[key], "slow"),
            "lost": sum(int(r.get("lost", 0)) for r in runs[key]),
        })
    with open(out / "bench.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)

    by = {(r["smp"], r["mode"], r["tasks"], r["feature"]): r for r in rows}
    ratios = []
    for (smp, mode, tasks, feature), r in sorted(by.items()):
        if feature != "OWNER_SPIN":
            continue
        other = by.get((smp, mode, tasks, "NO_OWNER_SPIN"))
        if not other:
            continue
        ratio = r["median_ops"] / other["median_ops"] if other["median_ops"] else 0
        ratios.append({"smp": smp, "mode": mode, "tasks": tasks,
                       "spin_median": r["median_ops"],
                       "nospin_median": other["median_ops"],
                       "ratio": f"{ratio:.2f}"})
    with open(out / "ratios.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=RATIO_COLUMNS)
        w.writeheader()
        w.writerows(ratios)

    print(f"{'vCPUs':>5} {'lock':>4} {'tasks':>5} {'OWNER_SPIN ops/s (min-max)':>28}"
          f" {'NO_OWNER_SPIN ops/s (min-max)':>31} {'ratio':>6} {'cpu% on/off':>12} {'spins':>7}")
    for q in ratios:
        a = by[(q["smp"], q["mode"], q["tasks"], "OWNER_SPIN")]
        b = by[(q["smp"], q["mode"], q["tasks"], "NO_OWNER_SPIN")]
        lock = "kit" if q["mode"] == "K" else ("6.1" if q["mode"] == "M" else "vfs")
        print(f"{q['smp']:>5} {lock:>4} {q['tasks']:>5}"
              f" {a['median_ops']:>9} ({a['min_ops']}-{a['max_ops']})".ljust(50)
              + f" {b['median_ops']:>9} ({b['min_ops']}-{b['max_ops']})".ljust(32)
              + f" {q['ratio']:>6} {str(a['median_cpu']) + '/' + str(b['median_cpu']):>12}"
              f" {a['median_spin']!s:>7}")
    lost = sum(r["lost"] for r in rows)
    print(f"lost updates over all runs: {lost}")

    plot(out, rows)
    return 1 if lost else 0


def plot(out, rows):
    if not shutil.which("gnuplot"):
        print("note: gnuplot is not installed, no plot (run: make deps)")
        return
    series = sorted({(r["smp"], r["mode"], r["feature"]) for r in rows})
    # one colour per (vCPUs, lock): solid with spinning, dashed without
    palette = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"]
    pairs = sorted({(smp, mode) for smp, mode, _ in series})
    plots = []
    for smp, mode, feature in series:
        colour = palette[pairs.index((smp, mode)) % len(palette)]
        name = f"s{smp}{mode}{feature}"
        dat = out / f"{name}.dat"
        with open(dat, "w") as f:
            for r in rows:
                if (r["smp"], r["mode"], r["feature"]) == (smp, mode, feature):
                    f.write(f"{r['tasks']} {r['median_ops']} {r['min_ops']} {r['max_ops']}\n")
        lock = {"K": "kit mutex", "M": "6.1 mutex", "V": "VFS"}[mode]
        dash = 1 if feature == "OWNER_SPIN" else 2
        plots.append(f"'{dat.name}' using 1:2:3:4 with yerrorlines dt {dash} lw 2 "
                     f"lc rgb '{colour}' title '{smp} vCPUs, {lock}, {feature}'")
    for term, ext in (("pngcairo noenhanced size 1000,650", "png"),
                      ("svg noenhanced size 1000,650", "svg")):
        script = "\n".join([
            f"set terminal {term}",
            f"set output 'bench.{ext}'",
            "set title 'test-kit-mutex: ops/s, median with min-max, spinning on and off'",
            "set xlabel 'tasks'", "set ylabel 'ops/s'", "set logscale x 2",
            "set key outside right", "set grid",
            "plot " + ", ".join(plots), ""])
        subprocess.run(["gnuplot"], input=script, text=True, cwd=out, check=True)


if __name__ == "__main__":
    sys.exit(main())
