#!/usr/bin/env python3
"""Turn scripts/bench-stages' raw.txt into stages.csv, a table and a plot.

Usage: scripts/bench-stages-report.py RESULTS_DIR

raw.txt has one line per run, key=value pairs:
  stage=3 w=busy mode=K tasks=4 ops=1234 cpu=97 fast=.. spin=.. tmin=.. tmax=.. worst_us=.. lost=0

The table has a row per stage and task count: with a busy owner, the kit
mutex's ops/s, CPU busy %, spin acquisitions and fairness (the fewest
operations one task did over the most, and the longest operation in ms),
then 6.1's mutex's ops/s and longest operation in the same boot, and the
kit/6.1 ratio of ops/s; the first row of each stage adds the sleep
workload's ops/s and CPU.  The plot (stages.png, stages.svg) draws
the ratio per stage, a line per task count: each stage's step toward
6.1's mutex.
"""
import csv
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

COLUMNS = ["stage", "workload", "tasks", "kit_ops", "kit_cpu", "kit_spin",
           "kit_tmin_over_tmax", "kit_worst_us", "m61_ops", "m61_cpu",
           "m61_worst_us", "kit_over_m61", "runs", "lost"]


def median(vals):
    return int(statistics.median(vals)) if vals else None


def main():
    if len(sys.argv) != 2:
        sys.exit("Usage: scripts/bench-stages-report.py RESULTS_DIR")
    out = Path(sys.argv[1])
    runs = defaultdict(list)
    for line in (out / "raw.txt").read_text().splitlines():
        kv = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "ops" in kv:
            runs[(int(kv["stage"]), kv["w"], int(kv["tasks"]), kv["mode"])].append(kv)
    if not runs:
        sys.exit(f"error: no results in {out / 'raw.txt'}")

    def med(key, name):
        return median([int(r[name]) for r in runs.get(key, []) if name in r])

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
            "kit_over_m61": f"{kit_ops / m_ops:.2f}" if kit_ops is not None and m_ops else "",
            "runs": len(runs[k]),
            "lost": sum(int(r.get("lost", 0)) for key in (k, m) for r in runs.get(key, [])),
        })
    with open(out / "stages.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)

    sleep = {r["stage"]: r for r in rows if r["workload"] == "sleep"}
    busy = [r for r in rows if r["workload"] == "busy"]
    def ms(us):
        return "" if us is None else f"{us / 1000:.0f}"

    def num(v):
        return "" if v is None else str(v)

    print(f"{'':11}  {' kit mutex, owner busy ':-^39}  {' 6.1 mutex ':-^16}  {'':7}   {' asleep ':-^12}")
    print(f"{'stage':>5} {'tasks':>5}  {'kit ops/s':>9} {'cpu%':>4} {'spins':>7} {'min/max':>7}"
          f" {'worst ms':>8}  {'ops/s':>7} {'worst ms':>8}  {'kit/6.1':>7}   {'ops/s':>7} {'cpu%':>4}")
    shown = set()
    for r in busy:
        line = (f"{r['stage']:>5} {r['tasks']:>5}  {num(r['kit_ops']):>9} {num(r['kit_cpu']):>4}"
                f" {num(r['kit_spin']):>7} {r['kit_tmin_over_tmax']:>7} {ms(r['kit_worst_us']):>8}"
                f"  {num(r['m61_ops']):>7} {ms(r['m61_worst_us']):>8}  {r['kit_over_m61']:>7}")
        s = sleep.get(r["stage"])
        if s and r["stage"] not in shown:
            line += f"   {num(s['kit_ops']):>7} {num(s['kit_cpu']):>4}"
        shown.add(r["stage"])
        print(line)
    lost = sum(r["lost"] for r in rows)
    print(f"lost updates over all runs: {lost}")
    plot(out, busy)
    return 1 if lost else 0


def plot(out, busy):
    if not shutil.which("gnuplot"):
        print("note: gnuplot is not installed, no plot (run: make deps)")
        return
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
    for term, ext in (("pngcairo noenhanced size 900,550", "png"),
                      ("svg noenhanced size 900,550", "svg")):
        script = "\n".join([
            f"set terminal {term}",
            f"set output 'stages.{ext}'",
            "set title 'kit mutex over 6.1 mutex, ops/s, busy owner, same boot (medians)'",
            "set xlabel 'stage'", "set ylabel 'kit / 6.1'",
            f"set xrange [-0.5:{last + 0.5}]", "set xtics 1", "set yrange [0:*]",
            "set key bottom right", "set grid",
            "plot " + ", ".join(plots) + ", 1 with lines dt 2 lc rgb 'gray' title '6.1 mutex'", ""])
        subprocess.run(["gnuplot"], input=script, text=True, cwd=out, check=True)


if __name__ == "__main__":
    sys.exit(main())
