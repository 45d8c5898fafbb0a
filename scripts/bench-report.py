#!/usr/bin/env python3
"""The benchmarks' reports: raw.txt into CSV files, a table and plots.

Usage: scripts/bench-report.py RESULTS_DIR            (scripts/bench)
       scripts/bench-report.py --stages RESULTS_DIR   (scripts/bench-stages)

scripts/bench's raw.txt has one line per run, key=value pairs:
  smp=2 feature=OWNER_SPIN mode=K tasks=8 rep=1 ops=1234 cpu=97 fast=.. spin=.. lost=0
and becomes bench.csv, ratios.csv, a table, bench.png and bench.svg.

scripts/bench-stages' raw.txt:
  stage=3 w=busy mode=K tasks=4 ops=1234 cpu=97 fast=.. spin=.. tmin=.. tmax=.. worst_us=.. lost=0
becomes stages.csv and a table with a row per stage and task count: with
a busy owner, the kit mutex's ops/s, CPU busy %, spin acquisitions and
fairness (the fewest operations one task did over the most, and the
longest operation in ms), then 6.1's mutex's ops/s and longest operation
in the same boot, and the kit/6.1 ratio of ops/s; the first row of each
stage adds the sleep workload's ops/s and CPU.  stages.png and
stages.svg draw the ratio per stage, a line per task count: each stage's
step toward 6.1's mutex.
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
STAGE_COLUMNS = ["stage", "workload", "tasks", "kit_ops", "kit_cpu", "kit_spin",
                 "kit_tmin_over_tmax", "kit_worst_us", "m61_ops", "m61_cpu",
                 "m61_worst_us", "kit_over_m61", "runs", "lost"]


def read_raw(path, key):
    """The runs of raw.txt, a list per KEY(run) (run: its key=value pairs)."""
    runs = defaultdict(list)
    for line in path.read_text().splitlines():
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "ops" in kv:
            runs[key(kv)].append(kv)
    return runs


def median_of(runs, name):
    vals = [int(r[name]) for r in runs if name in r]
    return int(statistics.median(vals)) if vals else ""


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--stages":
        return stages_report(Path(sys.argv[2]))
    if len(sys.argv) != 2:
        sys.exit("Usage: scripts/bench-report.py [--stages] RESULTS_DIR")
    return bench_report(Path(sys.argv[1]))


def gnuplot(out, stem, size, settings, plots):
    """Draw PLOTS into OUT/STEM.png and .svg (PNG: weasyprint cannot draw
    gnuplot's SVG point markers in the handouts)."""
    if not shutil.which("gnuplot"):
        print("note: gnuplot is not installed, no plot (run: make deps)")
        return
    for term, ext in ((f"pngcairo noenhanced size {size}", "png"),
                      (f"svg noenhanced size {size}", "svg")):
        script = "\n".join([f"set terminal {term}", f"set output '{stem}.{ext}'"]
                           + settings + ["plot " + ", ".join(plots), ""])
        subprocess.run(["gnuplot"], input=script, text=True, cwd=out, check=True)


def lost_updates(rows):
    """The last line of a report, and the exit status: 1 if any run lost
    an update (two tasks were inside the lock at once)."""
    lost = sum(r["lost"] for r in rows)
    print(f"lost updates over all runs: {lost}")
    return 1 if lost else 0


def bench_report(out):
    runs = read_raw(out / "raw.txt",
                    lambda r: (int(r["smp"]), r["mode"], int(r["tasks"]), r["feature"]))
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
    plot(out, rows)
    return lost_updates(rows)


def plot(out, rows):
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
    gnuplot(out, "bench", "1000,650", [
        "set title 'test-kit-mutex: ops/s, median with min-max, spinning on and off'",
        "set xlabel 'tasks'", "set ylabel 'ops/s'", "set logscale x 2",
        "set key outside right", "set grid"], plots)



def stages_report(out):
    runs = read_raw(out / "raw.txt",
                    lambda r: (int(r["stage"]), r["w"], int(r["tasks"]), r["mode"]))
    if not runs:
        sys.exit(f"error: no results in {out / 'raw.txt'}")

    def med(key, name):
        return median_of(runs.get(key, []), name)

    def fairness(key):
        """median over the runs of the fewest ops of a task / the most"""
        vals = [int(r["tmin"]) / int(r["tmax"]) for r in runs.get(key, [])
                if int(r.get("tmax", 0))]
        return f"{statistics.median(vals):.2f}" if vals else ""

    rows = []
    for stage, w, tasks in sorted({k[:3] for k in runs}):
        k, m = (stage, w, tasks, "K"), (stage, w, tasks, "M")
        kit_ops, m_ops = med(k, "ops"), med(m, "ops")
        rows.append({
            "stage": stage, "workload": w, "tasks": tasks,
            "kit_ops": kit_ops, "kit_cpu": med(k, "cpu"), "kit_spin": med(k, "spin"),
            "kit_tmin_over_tmax": fairness(k), "kit_worst_us": med(k, "worst_us"),
            "m61_ops": m_ops, "m61_cpu": med(m, "cpu"), "m61_worst_us": med(m, "worst_us"),
            "kit_over_m61": f"{kit_ops / m_ops:.2f}" if kit_ops != "" and m_ops else "",
            "runs": len(runs[k]),
            "lost": sum(int(r.get("lost", 0)) for key in (k, m) for r in runs.get(key, [])),
        })
    with open(out / "stages.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=STAGE_COLUMNS)
        w.writeheader()
        w.writerows(rows)

    sleep = {r["stage"]: r for r in rows if r["workload"] == "sleep"}
    busy = [r for r in rows if r["workload"] == "busy"]
    def ms(us):
        return "" if us == "" else f"{us / 1000:.0f}"

    print(f"{'':11}  {' kit mutex, owner busy ':-^39}  {' 6.1 mutex ':-^16}  {'':7}   {' asleep ':-^12}")
    print(f"{'stage':>5} {'tasks':>5}  {'kit ops/s':>9} {'cpu%':>4} {'spins':>7} {'min/max':>7}"
          f" {'worst ms':>8}  {'ops/s':>7} {'worst ms':>8}  {'kit/6.1':>7}   {'ops/s':>7} {'cpu%':>4}")
    shown = set()
    for r in busy:
        line = (f"{r['stage']:>5} {r['tasks']:>5}  {r['kit_ops']:>9} {r['kit_cpu']:>4}"
                f" {r['kit_spin']:>7} {r['kit_tmin_over_tmax']:>7} {ms(r['kit_worst_us']):>8}"
                f"  {r['m61_ops']:>7} {ms(r['m61_worst_us']):>8}  {r['kit_over_m61']:>7}")
        s = sleep.get(r["stage"])
        if s and r["stage"] not in shown:
            line += f"   {s['kit_ops']:>7} {s['kit_cpu']:>4}"
        shown.add(r["stage"])
        print(line)
    plot_stages(out, busy)
    return lost_updates(rows)


def plot_stages(out, busy):
    plots = []
    for tasks in sorted({r["tasks"] for r in busy}):
        points = [r for r in busy if r["tasks"] == tasks and r["kit_over_m61"]]
        if not points:
            continue
        dat = out / f"stages-t{tasks}.dat"
        with open(dat, "w") as f:
            for r in points:
                f.write(f"{r['stage']} {r['kit_over_m61']}\n")
        plots.append(f"'{dat.name}' using 1:2 with linespoints lw 2 pt 7 title '{tasks} tasks'")
    if not plots:
        print("note: no ratio to plot")
        return
    last = max(r["stage"] for r in busy)
    gnuplot(out, "stages", "900,550", [
        "set title 'kit mutex over 6.1 mutex, ops/s, busy owner, same boot (medians)'",
        "set xlabel 'stage'", "set ylabel 'kit / 6.1'",
        f"set xrange [-0.5:{last + 0.5}]", "set xtics 1", "set yrange [0:*]",
        "set key bottom right", "set grid"],
        plots + ["1 with lines dt 2 lc rgb 'gray' title '6.1 mutex'"])


if __name__ == "__main__":
    sys.exit(main())
