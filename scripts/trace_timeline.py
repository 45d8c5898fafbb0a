#!/usr/bin/env python3
"""Turn a kit-trace recording (tracefs text) into a timeline.

    trace_timeline.py TRACE [--json OUT.json] [--svg OUT.svg]
                      [--title TEXT] [--ms MS] [--summary]

TRACE's first line may name it, "# title: TEXT": the SVG's title.

TRACE is what guest/bin/kit-trace wrote between TRACE-BEGIN and
TRACE-END (scripts/trace cuts it out of the results channel): the
kernel's own text format, one event a line.  The events read:

  kit_mutex_step     the kit's counted steps: fast, spin, grab, slow (the
                     lock taken), sleep, watch, crowd, miss, handoff, wspin
  kit_mutex_unwatch  a spinner stopped watching the lock
  kit_mutex_unlock   a holder began to release it
  sched_switch       which task runs on each CPU
  sched_waking       who wakes a sleeping waiter, from which CPU
  contention_begin/end, 6.1's, are counted in the summary only: the kit's
                     steps say the same and more.

What is drawn, as the Chrome trace-event format has it
(https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
which Perfetto (ui.perfetto.dev) and chrome://tracing open:

  process 1 "CPUs", one track per CPU (tid = CPU number): complete
      events ("ph": "X") "hold" (the task running there holds the lock)
      and "spin" (it watches the lock, between watch and unwatch), and
      instant events ("ph": "i") "handoff" (an unlock gave the lock to a
      waiter) and "wake" (the task running there woke a waiter);
  process 2 "tasks waiting off their CPU", one track per task that slept
      on the lock: "sleep" from its leaving its CPU blocked (state S or
      D) after a sleep step to the sched_waking that wakes it, then
      "woken" until it runs again: woken, it waits for a CPU.

A task's span on a CPU ends when it leaves that CPU, so a track's spans
never overlap.  Spans still open at the end of the recording end there.
The window drawn is where every CPU recorded: the buffers are per CPU and
stop when full, each at its own time (a CPU that goes idle early ends
the window early too).  What happened before the window still counts: a
lock taken just before it shows as held from its start.  Before the
recording, a task's state is inferred only from its first records: first
seen woken, then taking the lock slowly, it was asleep on the lock; first
seen switched in, then taking it slowly, it was woken and waiting.
TRACE may be gzipped (.gz).

--svg draws the same with gnuplot (one row per CPU, then one per task
that waited off its CPU; a name ending in .png makes a PNG); --ms keeps
only the first MS milliseconds of the window in the SVG.  --summary
prints counts a test can check: spans by kind (a span, not a lock
operation: a hold cut by a switch is two), instants, and 6.1's
contention events in the window, and the window.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(
    r'^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S+\s+'
    r'(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s*(?P<args>.*)$')
ACQUIRED = ('fast', 'spin', 'grab', 'slow')
# the kinds of span, in the order the summary and the SVG's key list them
COLOURS = {'hold': '#2e7d32', 'spin': '#e65100', 'sleep': '#1565c0', 'woken': '#90caf9'}


def die(msg):
    print(f'trace_timeline: {msg}', file=sys.stderr)
    sys.exit(1)


def parse(path):
    """The events of a trace, in time order, ts in microseconds, and the
    title that scripts/trace wrote on its first line ("# title: ...")."""
    events, title = [], ''
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', errors='replace') as f:
        for raw in f:
            if raw.startswith('# title: '):
                title = raw[len('# title: '):].strip()
            m = LINE.match(raw.rstrip('\r\n'))
            if not m:
                continue
            e = m.groupdict()
            e['pid'] = int(e['pid'])
            e['cpu'] = int(e['cpu'])
            e['ts'] = round(float(e['ts']) * 1e6, 3)
            events.append(e)
    if not events:
        die(f'{path}: no trace events (is it kit-trace output?)')
    events.sort(key=lambda e: e['ts'])
    return events, title


def kv(args):
    """sched events' key=value arguments."""
    return dict(re.findall(r'(\w+)=(\S+)', args))


class Timeline:
    def __init__(self, events):
        self.spans = []         # (track_pid, tid, name, start, end, args)
        self.instants = []      # (tid, name, ts, args)
        self.names = {}         # task pid -> comm
        self.contention = {'begin': 0, 'end': 0, 'begin_spin': 0}
        cpus = sorted({e['cpu'] for e in events})
        first = {c: min(e['ts'] for e in events if e['cpu'] == c) for c in cpus}
        last = {c: max(e['ts'] for e in events if e['cpu'] == c) for c in cpus}
        self.start = max(first.values())
        self.end = min(last.values())
        if self.end <= self.start:
            die('the CPUs recorded no common window')
        self.cpus = cpus
        self.build(events)

    def build(self, events):
        running = {}            # cpu -> pid
        held = {}               # pid -> [lock, ...]
        watching = {}           # pid -> lock
        asleep = {}             # pid -> since when, off its CPU after a sleep step
        woken = {}              # pid -> since when, woken and waiting for a CPU
        wants_sleep = set()     # pids between a sleep step and leaving their CPU
        open_span = {}          # cpu -> (name, pid, start)

        def state(pid):
            if pid in watching:
                return 'spin'
            if held.get(pid):
                return 'hold'
            return None

        def settle(cpu, ts):
            pid = running.get(cpu)
            want = state(pid) if pid is not None else None
            cur = open_span.get(cpu)
            if cur and (cur[0], cur[1]) == (want, pid):
                return
            if cur:
                self.span(1, cpu, cur[0], cur[2], ts, {'task': cur[1]})
                del open_span[cpu]
            if want:
                open_span[cpu] = (want, pid, ts)

        self.infer_before(events, asleep, woken)
        for e in events:
            cpu, pid, ts, ev = e['cpu'], e['pid'], e['ts'], e['event']
            inside = self.start <= ts <= self.end
            if ev == 'sched_switch':
                a = kv(e['args'])
                prev, nxt = int(a.get('prev_pid', -1)), int(a.get('next_pid', -1))
                if prev in wants_sleep:
                    wants_sleep.discard(prev)
                    # S or D: it blocked; R: preempted, or woken already
                    if a.get('prev_state', 'R')[:1] in ('S', 'D'):
                        asleep[prev] = ts
                if nxt in asleep:
                    self.span(2, nxt, 'sleep', asleep.pop(nxt), ts, {'task': nxt})
                if nxt in woken:
                    self.span(2, nxt, 'woken', woken.pop(nxt), ts, {'task': nxt})
                if nxt:
                    self.names.setdefault(nxt, a.get('next_comm', '?'))
                running[cpu] = nxt
                settle(cpu, ts)
                continue
            running[cpu] = pid
            self.names.setdefault(pid, e['comm'].strip())
            if ev == 'sched_waking':
                wakee = int(kv(e['args']).get('pid', -1))
                if wakee in asleep:
                    self.span(2, wakee, 'sleep', asleep.pop(wakee), ts, {'task': wakee})
                    woken[wakee] = ts
                    self.instant(cpu, 'wake', ts, {'task': pid, 'woken': wakee})
            elif ev == 'kit_mutex_step':
                parts = e['args'].split()
                lock, step = (parts + ['', ''])[:2]
                if step in ACQUIRED:
                    watching.pop(pid, None)
                    wants_sleep.discard(pid)
                    held.setdefault(pid, []).append(lock)
                elif step == 'watch':
                    watching[pid] = lock
                elif step == 'sleep':
                    wants_sleep.add(pid)
                elif step == 'handoff':
                    self.instant(cpu, 'handoff', ts, {'task': pid})
            elif ev == 'kit_mutex_unwatch':
                watching.pop(pid, None)
            elif ev == 'kit_mutex_unlock':
                lock = e['args'].split()[0] if e['args'].split() else ''
                locks = held.get(pid, [])
                if lock in locks:
                    # the innermost hold of that lock
                    del locks[len(locks) - 1 - locks[::-1].index(lock)]
            elif ev == 'contention_begin' and inside:
                self.contention['begin'] += 1
                if 'SPIN' in e['args']:
                    self.contention['begin_spin'] += 1
            elif ev == 'contention_end' and inside:
                self.contention['end'] += 1
            settle(cpu, ts)
        for cpu, (name, pid, start) in open_span.items():
            self.span(1, cpu, name, start, self.end, {'task': pid})
        for pid, start in asleep.items():
            self.span(2, pid, 'sleep', start, self.end, {'task': pid})
        for pid, start in woken.items():
            self.span(2, pid, 'woken', start, self.end, {'task': pid})

    @staticmethod
    def infer_before(events, asleep, woken):
        """A task's state before the recording, where its first records
        tell it: first seen woken, with a lock then taken slowly, it was
        asleep on the lock; first seen switched in, with a lock then taken
        slowly, it had been woken and waited for a CPU.  A task first seen
        running tells nothing: it is left alone."""
        first, first_step = {}, {}
        for e in events:
            ev, ts = e['event'], e['ts']
            if ev == 'sched_switch':
                a = kv(e['args'])
                first.setdefault(int(a.get('prev_pid', -1)), 'running')
                first.setdefault(int(a.get('next_pid', -1)), 'switched in')
            elif ev == 'sched_waking':
                first.setdefault(e['pid'], 'running')
                first.setdefault(int(kv(e['args']).get('pid', -1)), 'woken')
            else:
                first.setdefault(e['pid'], 'running')
                if ev == 'kit_mutex_step':
                    first_step.setdefault(e['pid'], e['args'].split()[-1])
        t0 = events[0]['ts']
        for pid, step in first_step.items():
            if step not in ('slow', 'wspin'):
                continue
            if first.get(pid) == 'woken':
                asleep[pid] = t0
            elif first.get(pid) == 'switched in':
                woken[pid] = t0

    def span(self, track, tid, name, start, end, args):
        """A span, cut to the window (the state before it counts too)."""
        start, end = max(start, self.start), min(end, self.end)
        if end > start:
            self.spans.append((track, tid, name, start, end, args))

    def instant(self, tid, name, ts, args):
        if self.start <= ts <= self.end:
            self.instants.append((tid, name, ts, args))

    def waiting_tasks(self):
        """The tasks with a track of their own: those that waited off their CPU."""
        return sorted({s[1] for s in self.spans if s[0] == 2})

    def chrome(self):
        out = [{'name': 'process_name', 'ph': 'M', 'pid': 1, 'tid': 0,
                'args': {'name': 'CPUs'}},
               {'name': 'process_name', 'ph': 'M', 'pid': 2, 'tid': 0,
                'args': {'name': 'tasks waiting off their CPU'}}]
        for cpu in self.cpus:
            out.append({'name': 'thread_name', 'ph': 'M', 'pid': 1, 'tid': cpu,
                        'args': {'name': f'CPU {cpu}'}})
        for pid in self.waiting_tasks():
            out.append({'name': 'thread_name', 'ph': 'M', 'pid': 2, 'tid': pid,
                        'args': {'name': f'{self.names.get(pid, "?")} {pid}'}})
        for track, tid, name, start, end, args in self.spans:
            args = dict(args, comm=self.names.get(args['task'], '?'))
            out.append({'name': name, 'cat': 'kit_mutex', 'ph': 'X', 'pid': track,
                        'tid': tid, 'ts': round(start - self.start, 3),
                        'dur': round(end - start, 3), 'args': args})
        for tid, name, ts, args in self.instants:
            out.append({'name': name, 'cat': 'kit_mutex', 'ph': 'i', 's': 't',
                        'pid': 1, 'tid': tid, 'ts': round(ts - self.start, 3),
                        'args': args})
        return {'traceEvents': out, 'displayTimeUnit': 'ms',
                'otherData': {'window_us': round(self.end - self.start, 3)}}

    def summary(self):
        lines = [f'window_us={self.end - self.start:.0f}', f'cpus={len(self.cpus)}']
        for kind in COLOURS:
            s = [x for x in self.spans if x[2] == kind]
            lines.append(f'{kind}={len(s)} {kind}_us={sum(x[4] - x[3] for x in s):.0f}')
        for kind in ('handoff', 'wake'):
            lines.append(f'{kind}={sum(1 for x in self.instants if x[1] == kind)}')
        c = self.contention
        lines.append(f'contention_begin={c["begin"]} contention_begin_spin={c["begin_spin"]} '
                     f'contention_end={c["end"]}')
        return '\n'.join(lines)

    def svg(self, path, title, ms):
        """Draw with gnuplot: a row per CPU, then a row per task that waited
        off its CPU."""
        limit = ms * 1000 if ms else self.end - self.start
        rows = [(1, c, f'CPU {c}') for c in self.cpus] + \
               [(2, p, f'{self.names.get(p, "?")} {p}') for p in self.waiting_tasks()]
        y = {(t, i): len(rows) - n for n, (t, i, _) in enumerate(rows)}
        with tempfile.TemporaryDirectory() as tmp:
            self.plot(path, title, limit, rows, y, tmp)

    def plot(self, path, title, limit, rows, y, tmp):
        """svg()'s gnuplot run, its data files in the directory tmp."""
        data = {}
        for track, tid, name, start, end, _ in self.spans:
            a, b = (start - self.start) / 1000, min(end - self.start, limit) / 1000
            if a < limit / 1000:
                data.setdefault(name, []).append(f'{(a + b) / 2} {y[(track, tid)]} {a} {b} '
                                                 f'{y[(track, tid)] - 0.35} {y[(track, tid)] + 0.35}')
        ticks = ', '.join(f'"{label}" {y[(t, i)]}' for t, i, label in rows)
        plots = []
        for name in COLOURS:
            f = os.path.join(tmp, f'{name}.dat')
            with open(f, 'w') as out:
                out.write('\n'.join(data.get(name, ['-1 -1 -1 -1 -1 -1'])) + '\n')
            plots.append(f"'{f}' using 1:2:3:4:5:6 with boxxyerror fs solid 1.0 noborder "
                         f"lc rgb '{COLOURS[name]}' title '{name}'")
        marks = os.path.join(tmp, 'marks.dat')
        with open(marks, 'w') as out:
            for tid, name, ts, _ in self.instants:
                if ts - self.start < limit:
                    out.write(f'{(ts - self.start) / 1000} {y[(1, tid)] + 0.5} 0 -0.15 '
                              f'{0 if name == "wake" else 1}\n')
            out.write('-1 -1 0 0 0\n')
        plots.append(f"'{marks}' using 1:2:3:4:($5 == 0 ? 0x6a1b9a : 0xc62828) with vectors "
                     f"nohead lw 1 lc rgb variable title 'wake (purple tick), handoff (red tick)'")
        script = f"""
set terminal {'pngcairo' if path.endswith('.png') else 'svg'} size 900,{140 + 34 * len(rows)} font 'sans,11' background '#ffffff'
set output '{path}'
set title "{title}"
set xlabel 'ms'
set xrange [0:{limit / 1000}]
set yrange [0.5:{len(rows) + 0.6}]
set ytics ({ticks}) nomirror
set grid xtics
set key outside bottom center horizontal
set lmargin 22
plot {', '.join(plots)}
"""
        try:
            subprocess.run(['gnuplot'], input=script, text=True, check=True,
                           capture_output=True)
        except FileNotFoundError:
            die('gnuplot is missing: sudo apt-get install gnuplot-nox (make deps)')
        except subprocess.CalledProcessError as err:
            die(f'gnuplot failed: {err.stderr.strip()}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('trace')
    ap.add_argument('--json')
    ap.add_argument('--svg')
    ap.add_argument('--title', default='', help="the SVG's (default: the trace's own)")
    ap.add_argument('--ms', type=float, default=0)
    ap.add_argument('--summary', action='store_true')
    opts = ap.parse_args()
    events, title = parse(opts.trace)
    tl = Timeline(events)
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump(tl.chrome(), f)
    if opts.svg:
        tl.svg(opts.svg, (opts.title or title).replace('"', "'"), opts.ms)
    if opts.summary:
        print(tl.summary())


if __name__ == '__main__':
    main()
