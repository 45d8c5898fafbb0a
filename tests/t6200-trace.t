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
# The kernels are t4000's builds.
# time limit: 600 s
. "$(dirname "$0")/lib/tap.sh"

plan 3
need_tree

# trace_stage N: make trace, as handout 26 prints it, into SCRATCH/N
trace_stage() {
	make -s -C "$KIT_ROOT" KIT_WORK="$KIT_WORK" trace STAGE="$1" \
		TRACE_ARGS="--out $SCRATCH/stage$1" >"$SCRATCH/stage$1.out" 2>&1 ||
		{ cat "$SCRATCH/stage$1.out"; return 1; }
	cat "$SCRATCH/stage$1.out"
}
# count N KIND: the summary's count of KIND on stage N
count() { sed -n "s/^$2=\([0-9]*\).*/\1/p" "$SCRATCH/stage$1/summary.txt"; }

test_expect_success "make trace STAGE=13: a trace-event file with one track per CPU, its spans closed, and an SVG" '
	trace_stage 13 &&
	python3 "$KIT_ROOT/tests/lib/trace_event_check.py" "$SCRATCH/stage13/trace.json" --cpus 2 &&
	python3 -c "import sys, xml.etree.ElementTree as ET; assert ET.parse(sys.argv[1]).getroot().tag.endswith(\"svg\")" \
		"$SCRATCH/stage13/trace.svg" &&
	grep -q "stage-13 (" "$SCRATCH/stage13/trace.svg" &&
	[ "$(count 13 hold)" -gt 20 ] &&
	expect_grep "timeline: .*/trace.json \(open it in https://ui.perfetto.dev" "$SCRATCH/stage13.out"
'

test_expect_success "make trace STAGE=5: tasks spin and sleep, and the kit emits 6.1 contention events with the spin flag" '
	trace_stage 5 &&
	[ "$(count 5 spin)" -gt 0 ] && [ "$(count 5 sleep)" -gt 0 ] && [ "$(count 5 hold)" -gt 0 ] &&
	[ "$(sed -n "s/.*contention_begin_spin=\([0-9]*\).*/\1/p" "$SCRATCH/stage5/summary.txt")" -gt 0 ] &&
	python3 "$KIT_ROOT/tests/lib/trace_event_check.py" "$SCRATCH/stage5/trace.json" --cpus 2
'

test_expect_success "make trace STAGE=2: no spin loop yet: tasks sleep and hold, and never spin" '
	trace_stage 2 &&
	[ "$(count 2 sleep)" -gt 0 ] && [ "$(count 2 hold)" -gt 0 ] &&
	[ "$(count 2 spin)" = 0 ] &&
	expect_grep "contention_begin=[1-9][0-9]* contention_begin_spin=0 " "$SCRATCH/stage2/summary.txt"
'

test_done
