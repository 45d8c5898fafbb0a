#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# make trace: one contention episode recorded by the kernel's own tracer
# in the guest (the kit mutex's events, 6.1's lock:contention_begin/end,
# sched_switch and sched_waking), carried to the host on the results
# channel, and drawn.  On stage 13 the timeline is a file a trace viewer
# opens: checked against the trace-event format (required fields, spans
# closed and nested on each track, one track per CPU) by
# tests/lib/trace_event_check.py, whose own test (t0020) shows it
# rejects what breaks that; the SVG is one.  On stage 5 tasks both spin
# and sleep; on stage 2, which has no spin loop yet, they only sleep:
# neither a spin span nor 6.1's contention_begin with the spin flag.
# The stages' kernels are t4000's builds; HEAD=1 builds the suite's
# learner tree as t2100 left it (its compiler cache warm).
# time limit: 600 s
. "$(dirname "$0")/lib/tap.sh"

plan 4
need_tree

# trace NAME MAKE-ARGS...: make trace as handout 26 prints it; the results
# directory is the one it names ("timeline: DIR/trace.json"), in
# SCRATCH/NAME.dir
trace() {
	local name=$1
	shift
	learner_make "$name" trace "$@" || return 1
	sed -n "s|.*timeline: \(.*\)/trace.json .*|\1|p" "$SCRATCH/$name.out" >"$SCRATCH/$name.dir"
	[ -s "$SCRATCH/$name.dir" ] && [ -f "$(cat "$SCRATCH/$name.dir")/summary.txt" ]
}
# count NAME KIND: the summary's count of KIND
count() { sed -n "s/^$2=\([0-9]*\).*/\1/p" "$(cat "$SCRATCH/$1.dir")/summary.txt"; }

test_expect_success "make trace STAGE=13 TRACE_ARGS=\"--tasks 8 --ms 3\": a trace-event file with one track per CPU, its spans closed, and an SVG" '
	trace s13 STAGE=13 TRACE_ARGS="--tasks 8 --ms 3" &&
	d=$(cat "$SCRATCH/s13.dir") &&
	python3 "$KIT_ROOT/tests/lib/trace_event_check.py" "$d/trace.json" --cpus 2 &&
	python3 -c "import sys, xml.etree.ElementTree as ET; assert ET.parse(sys.argv[1]).getroot().tag.endswith(\"svg\")" \
		"$d/trace.svg" &&
	grep -q "stage-13 (.*8 tasks on 2 vCPUs" "$d/trace.svg" &&
	[ "$(count s13 hold)" -gt 20 ] &&
	expect_grep "timeline: .*/trace.json \(open it in https://ui.perfetto.dev" "$SCRATCH/s13.out"
'

test_expect_success "make trace STAGE=5: tasks spin and sleep, and the kit emits 6.1 contention events with the spin flag" '
	trace s5 STAGE=5 &&
	[ "$(count s5 spin)" -gt 0 ] && [ "$(count s5 sleep)" -gt 0 ] && [ "$(count s5 hold)" -gt 0 ] &&
	[ "$(sed -n "s/.*contention_begin_spin=\([0-9]*\).*/\1/p" "$(cat "$SCRATCH/s5.dir")/summary.txt")" -gt 0 ] &&
	python3 "$KIT_ROOT/tests/lib/trace_event_check.py" "$(cat "$SCRATCH/s5.dir")/trace.json" --cpus 2
'

test_expect_success "make trace STAGE=2: no spin loop yet: tasks sleep and hold, and never spin" '
	trace s2 STAGE=2 &&
	[ "$(count s2 sleep)" -gt 0 ] && [ "$(count s2 hold)" -gt 0 ] &&
	[ "$(count s2 spin)" = 0 ] &&
	expect_grep "contention_begin=[1-9][0-9]* contention_begin_spin=0 " "$(cat "$SCRATCH/s2.dir")/summary.txt"
'

test_expect_success "make trace HEAD=1: the learner tree of the suite, named as such" '
	trace head HEAD=1 &&
	grep -q "your tree at" "$(cat "$SCRATCH/head.dir")/trace.txt" &&
	[ "$(count head hold)" -gt 0 ]
'

test_done
