#!/usr/bin/env python3
"""Check a file against the Chrome trace-event format, as viewers read it.

    trace_event_check.py FILE [--cpus N]

The format (the "Trace Event Format" document that chrome://tracing and
Perfetto follow): a JSON object with a "traceEvents" list (or a bare
list); every event has "name", "ph", "pid", "tid" and, but for metadata
("M"), a numeric "ts" in microseconds.  Checked here, for the phases the
kit writes and the ones a viewer would choke on:

  X   complete events: "dur", a number >= 0;
  B/E begin and end: every B closed by a later E on its track, in order;
  i/I instant events: "s", if present, one of g, p, t;
  M   metadata: process_name / thread_name with args.name;

and what a viewer draws badly: on one track (pid, tid), spans that
overlap without nesting.  With --cpus N: process 1's tracks are the CPUs,
exactly N of them, each named by a thread_name, and every span is on one.
Prints "ok: ..." and exits 0, or one line per problem and exits 1.
"""

import json
import sys

# The phases of the format.  Those the kit writes are checked closely
# (X, B, E, i, I, M); the others are only required to have what every
# event has.
KNOWN_PHASES = {'X', 'B', 'E', 'i', 'I', 'M', 'C', 'b', 'e', 'n', 's', 't', 'f',
                'P', 'O', 'N', 'D', 'R', 'c', 'S', 'T', 'F', 'v', 'V', '(', ')'}


def check(doc, cpus=None):
    problems = []
    events = doc.get('traceEvents') if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        return ['no traceEvents list']
    open_b = {}
    spans = {}
    names = {}
    for n, e in enumerate(events):
        where = f'event {n} ({e.get("name")!r}, ph {e.get("ph")!r})' if isinstance(e, dict) else f'event {n}'
        if not isinstance(e, dict):
            problems.append(f'{where}: not an object')
            continue
        ph = e.get('ph')
        # every event has a phase and a process; a name and a thread, but
        # for counters (per process) and the ends of spans (named by their
        # begin)
        needed = ['ph', 'pid'] + (['name'] if ph != 'E' else []) + \
            (['tid'] if ph not in ('C',) else [])
        for key in needed:
            if key not in e:
                problems.append(f'{where}: no "{key}"')
        if ph not in KNOWN_PHASES:
            problems.append(f'{where}: unknown phase')
            continue
        if ph != 'M' and not isinstance(e.get('ts'), (int, float)):
            problems.append(f'{where}: "ts" is not a number')
            continue
        track = (e.get('pid'), e.get('tid'))
        if ph == 'X':
            if not isinstance(e.get('dur'), (int, float)) or e['dur'] < 0:
                problems.append(f'{where}: "dur" missing or negative')
                continue
            spans.setdefault(track, []).append((e['ts'], e['ts'] + e['dur'], where))
        elif ph == 'B':
            open_b.setdefault(track, []).append((e['ts'], where))
        elif ph == 'E':
            if not open_b.get(track):
                problems.append(f'{where}: an end with no begin on track {track}')
            else:
                ts, bwhere = open_b[track].pop()
                if e['ts'] < ts:
                    problems.append(f'{where}: ends before its begin ({ts}) on track {track}')
                else:
                    spans.setdefault(track, []).append((ts, e['ts'], bwhere))
        elif ph in ('i', 'I'):
            if e.get('s', 't') not in ('g', 'p', 't'):
                problems.append(f'{where}: scope "s" not g, p or t')
        elif ph == 'M':
            args = e.get('args') if isinstance(e.get('args'), dict) else {}
            if e.get('name') in ('process_name', 'thread_name') and \
                    not isinstance(args.get('name'), str):
                problems.append(f'{where}: metadata without args.name')
            elif e.get('name') == 'thread_name':
                names[track] = args['name']
    for track, left in open_b.items():
        for ts, where in left:
            problems.append(f'{where}: a span never closed on track {track}')
    for track, ss in spans.items():
        # by start, the longer first: a span nests in one that starts with it
        ss.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for start, end, where in ss:
            while stack and stack[-1] <= start:
                stack.pop()
            if stack and end > stack[-1]:
                problems.append(f'{where}: overlaps the span before it on track {track} '
                                f'without nesting ({start}..{end})')
            stack.append(end)
    if cpus is not None:
        cpu_tracks = sorted(t for t in names if t[0] == 1)
        if len(cpu_tracks) != cpus:
            problems.append(f'{len(cpu_tracks)} CPU tracks named in process 1, not {cpus}')
        for track in spans:
            if track[0] == 1 and track not in names:
                problems.append(f'spans on an unnamed track {track}')
    return problems


def main():
    args = sys.argv[1:]
    cpus = None
    if '--cpus' in args:
        i = args.index('--cpus')
        cpus = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit('usage: trace_event_check.py FILE [--cpus N]')
    try:
        doc = json.load(open(args[0]))
    except (OSError, ValueError) as err:
        print(f'{args[0]}: not JSON: {err}')
        sys.exit(1)
    problems = check(doc, cpus)
    for p in problems[:20]:
        print(p)
    if problems:
        sys.exit(1)
    events = doc['traceEvents'] if isinstance(doc, dict) else doc
    print(f'ok: {len(events)} events, {sum(1 for e in events if e.get("ph") == "X")} spans')


if __name__ == '__main__':
    main()
