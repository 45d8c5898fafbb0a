#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The kit's Python parts on small inputs made here, no kernel: the grade's
# result files are what Gradescope and JUnit readers take (scores add up,
# a failure carries its reason and its evidence, a capped grade says so),
# the benchmark report turns a raw.txt into its CSV with the medians of
# the runs, and the CI replay (tests/lib/ci_replay.py) runs a workflow's
# steps with the runner's environment only and adds up as the reporter;
# a tracefs recording becomes a timeline whose spans are what happened
# (scripts/trace_timeline.py), and the trace-event check that t6200
# trusts rejects what a viewer would choke on.
# tier: check
# time limit: 120 s
. "$(dirname "$0")/lib/tap.sh"

plan 9

printf "ERROR: trailing whitespace\n#12: FILE: kernel/locking/kit_mutex.c:40:\n" >"$SCRATCH/checkpatch.out"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	builds 10 10 3 "" works "" \
	"spins under contention" 10 0 1 "no acquisition by spinning" stage "" \
	"checkpatch on your diff" 5 0 0 "1 findings" stage "$SCRATCH/checkpatch.out" \
	"lab 3's gdb check" 10 10 8 "" stage "" >"$SCRATCH/checks"

test_expect_success "grade_report.py: results.json has Gradescope's keys, and the scores add up" '
	python3 "$KIT/grade_report.py" --checks "$SCRATCH/checks" --stage 3 --seconds 42 --out "$SCRATCH" &&
	python3 - "$SCRATCH/results.json" <<-"PY"
	import json, sys
	r = json.load(open(sys.argv[1]))
	assert set(r) >= {"score", "execution_time", "output", "tests"}, r.keys()
	assert r["score"] == 20.0 and r["execution_time"] == 42, r
	t = r["tests"]
	assert [x["max_score"] for x in t] == [10.0, 10.0, 5.0, 10.0], t
	assert sum(x["score"] for x in t) == r["score"]
	assert t[1]["output"].startswith("FAIL: no acquisition by spinning"), t[1]
	assert t[1]["tags"] == ["stage"] and t[0]["tags"] == ["works"]
	# the evidence itself, not a path on the grader
	assert "ERROR: trailing whitespace" in t[2]["output"], t[2]
	assert "checkpatch.out" not in t[2]["output"], t[2]
	PY
'

test_expect_success "grade_report.py: classroom.json is what the Classroom reporter adds up: max_score, and each test's score" '
	python3 - "$SCRATCH/classroom.json" <<-"PY"
	import json, sys
	r = json.load(open(sys.argv[1]))
	assert r["version"] == 1 and r["status"] == "fail" and r["max_score"] == 35, r
	# the reporter (notify-classroom.js) sums tests[].score against max_score
	assert sum(t["score"] for t in r["tests"]) == 20, r["tests"]
	assert [t["status"] for t in r["tests"]] == ["pass", "fail", "fail", "pass"], r["tests"]
	PY
'

test_expect_success "grade_report.py: junit.xml parses, counts the failure and gives its reason" '
	python3 - "$SCRATCH/junit.xml" <<-"PY"
	import sys
	import xml.etree.ElementTree as ET
	suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
	assert suite.get("tests") == "4" and suite.get("failures") == "2", suite.attrib
	cases = suite.findall("testcase")
	fails = [c for c in cases if c.find("failure") is not None]
	assert [c.get("name") for c in fails] == ["spins under contention", "checkpatch on your diff"]
	assert fails[0].find("failure").get("message") == "no acquisition by spinning"
	assert "trailing whitespace" in fails[1].find("failure").text
	PY
'

# As scripts/grade caps a broken kernel: a required check (no points)
# failed, and the points of every check but the build and the boot are
# set to 0, with the reason, before the report.
test_expect_success "grade_report.py: a capped grade says so, a failed required check is a failure worth nothing, and the tests add up" '
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n" \
		builds 5 5 3 "" works "" boots 5 5 9 "" works "" \
		"no kernel BUG or WARNING" 0 0 1 "the kernel says: BUG: sleeping function called from invalid context" required "" \
		"no lost update (3 runs)" 0 0 2 "" required "" \
		"spins under contention" 15 0 1 "OK, but not counted: the kernel does not work" stage "" >"$SCRATCH/capped" &&
	mkdir -p "$SCRATCH/cap" &&
	python3 "$KIT/grade_report.py" --checks "$SCRATCH/capped" --stage 3 --seconds 1 --out "$SCRATCH/cap" \
		--capped "capped at the build'"'"'s and the boot'"'"'s points: no kernel BUG" &&
	python3 - "$SCRATCH/cap" <<-"PY"
	import json, sys
	import xml.etree.ElementTree as ET
	r = json.load(open(sys.argv[1] + "/results.json"))
	t = r["tests"]
	assert r["score"] == 10.0 == sum(x["score"] for x in t), r
	assert sum(x["max_score"] for x in t) == 25.0, t
	assert "capped at the build" in r["output"] and "GRADE_CAP=0" in r["output"], r["output"]
	assert [x["status"] for x in t] == ["passed", "passed", "failed", "passed", "passed"], t
	assert t[4]["output"].startswith("OK, but not counted"), t[4]
	assert t[2]["output"].startswith("FAIL: the kernel says: BUG:") and "required" in t[2]["output"], t[2]
	assert t[3]["output"].startswith("OK (required"), t[3]
	suite = ET.parse(sys.argv[1] + "/junit.xml").getroot().find("testsuite")
	assert suite.get("failures") == "1", suite.attrib
	c = json.load(open(sys.argv[1] + "/classroom.json"))
	assert c["status"] == "fail" and c["max_score"] == 25, c
	PY
'

test_expect_success "ci_replay.py: a run step sees the runner's environment only, its output reaches the reporter, which adds up tests[].score" '
	mkdir -p "$SCRATCH/ws" &&
	cat >"$SCRATCH/wf.yml" <<-"YML" &&
	env:
	  GREETING: hello
	jobs:
	  grade:
	    steps:
	      - uses: actions/checkout@v4
	      - id: grade
	        run: test "$GREETING" = hello && test -z "${SECRET:-}" && echo "result=$(base64 -w0 <result.json)" >>"$GITHUB_OUTPUT"
	      - if: always()
	        uses: classroom-resources/autograding-grading-reporter@v1
	        env:
	          GRADE_RESULTS: ${{ steps.grade.outputs.result }}
	        with:
	          runners: grade
	YML
	echo "{\"version\": 1, \"status\": \"fail\", \"max_score\": 30, \"tests\": [{\"score\": 10}, {\"score\": 5}]}" >"$SCRATCH/ws/result.json" &&
	SECRET=leaked python3 "$KIT_ROOT/tests/lib/ci_replay.py" github "$SCRATCH/wf.yml" --workspace "$SCRATCH/ws" >"$SCRATCH/replay.out" 2>&1 ||
		{ cat "$SCRATCH/replay.out"; exit 1; }
	expect_grep "^Points 15/30$" "$SCRATCH/replay.out"
'

test_expect_success "bench-report.py: raw.txt becomes bench.csv with each point's median, min and max" '
	mkdir -p "$SCRATCH/bench" &&
	for ops in 100 300 200; do
		for feat in OWNER_SPIN NO_OWNER_SPIN; do
			echo "smp=2 feature=$feat mode=K tasks=2 rep=1 ops=$ops cpu=90 fast=1 spin=5 grab=0 slow=1 sleep=0 lost=0"
		done
	done >"$SCRATCH/bench/raw.txt" &&
	python3 "$KIT/bench-report.py" "$SCRATCH/bench" >"$SCRATCH/bench.out" 2>&1 &&
	head -1 "$SCRATCH/bench/bench.csv" | grep -q "^smp,mode,tasks,feature,runs,median_ops,min_ops,max_ops" &&
	expect_grep "^2,K,2,OWNER_SPIN,3,200,100,300," "$SCRATCH/bench/bench.csv"
'

# A recording as tracefs prints it: CPU 0's task 10 holds the lock from
# before the window; 11 spins on CPU 1 and takes it; 12 sleeps on CPU 0
# (20 us), is woken by 11, waits 9 us for its CPU, takes the lock and
# releases it.  The window is where both CPUs recorded: 1.000010 to
# 1.000120.
cat >"$SCRATCH/trace.txt" <<'TRACE'
# title: two CPUs, three tasks
 a-10 [000] ...1. 1.000000: kit_mutex_step: 0xffff1 fast
 b-11 [001] ...1. 1.000010: kit_mutex_step: 0xffff1 watch
 b-11 [001] ...1. 1.000020: contention_begin: 0xffff1 (flags=SPIN|MUTEX)
 a-10 [000] ...1. 1.000050: kit_mutex_unlock: 0xffff1
 b-11 [001] ...1. 1.000055: kit_mutex_unwatch: 0xffff1
 b-11 [001] ...1. 1.000056: kit_mutex_step: 0xffff1 spin
 b-11 [001] ...1. 1.000056: contention_end: 0xffff1 (ret=0)
 c-12 [000] ...1. 1.000060: kit_mutex_step: 0xffff1 sleep
 c-12 [000] d..2. 1.000061: sched_switch: prev_comm=c prev_pid=12 prev_prio=120 prev_state=D ==> next_comm=swapper/0 next_pid=0 next_prio=120
 b-11 [001] ...1. 1.000080: kit_mutex_unlock: 0xffff1
 b-11 [001] d..2. 1.000081: sched_waking: comm=c pid=12 prio=120 target_cpu=000
 <idle>-0 [000] d..2. 1.000090: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=c next_pid=12 next_prio=120
 c-12 [000] ...1. 1.000095: kit_mutex_step: 0xffff1 slow
 c-12 [000] ...1. 1.000120: kit_mutex_unlock: 0xffff1
 b-11 [001] ...1. 1.000130: kit_mutex_step: 0xffff1 fast
TRACE

test_expect_success "trace_timeline.py: holds, spins, sleeps and wake-ups as the recording has them, a valid trace-event file" '
	python3 "$KIT/trace_timeline.py" "$SCRATCH/trace.txt" --json "$SCRATCH/trace.json" \
		--svg "$SCRATCH/trace.svg" --ms 0 --summary >"$SCRATCH/summary" &&
	expect_grep "^window_us=110$" "$SCRATCH/summary" &&
	expect_grep "^hold=3 hold_us=89$" "$SCRATCH/summary" &&
	expect_grep "^spin=1 spin_us=45$" "$SCRATCH/summary" &&
	expect_grep "^sleep=1 sleep_us=20$" "$SCRATCH/summary" &&
	expect_grep "^woken=1 woken_us=9$" "$SCRATCH/summary" &&
	expect_grep "^wake=1$" "$SCRATCH/summary" &&
	expect_grep "^contention_begin=1 contention_begin_spin=1 contention_end=1$" "$SCRATCH/summary" &&
	python3 "$KIT_ROOT/tests/lib/trace_event_check.py" "$SCRATCH/trace.json" --cpus 2 &&
	expect_grep "two CPUs, three tasks" "$SCRATCH/trace.svg"
'

# Task 13 counts a sleep, but the lock is free by then: it takes it, and
# is later preempted (state R), holding it.  It never slept.
cat >"$SCRATCH/preempted.txt" <<'TRACE'
 d-13 [000] ...1. 2.000000: kit_mutex_step: 0xffff1 sleep
 x-15 [001] ...1. 2.000000: kit_mutex_step: 0xffff2 fast
 d-13 [000] ...1. 2.000002: kit_mutex_step: 0xffff1 slow
 d-13 [000] d..2. 2.000010: sched_switch: prev_comm=d prev_pid=13 prev_prio=120 prev_state=R+ ==> next_comm=e next_pid=14 next_prio=120
 e-14 [000] ...1. 2.000020: kit_mutex_step: 0xffff2 watch
 x-15 [001] ...1. 2.000030: kit_mutex_unlock: 0xffff2
TRACE

test_expect_success "trace_timeline.py: a task preempted after its sleep step, the lock taken, is not drawn asleep" '
	python3 "$KIT/trace_timeline.py" "$SCRATCH/preempted.txt" --summary >"$SCRATCH/summary2" &&
	expect_grep "^sleep=0 sleep_us=0$" "$SCRATCH/summary2" &&
	expect_grep "^hold=2 hold_us=28$" "$SCRATCH/summary2"
'

test_expect_success "trace_event_check.py: rejects a span with no duration, overlapping spans, an unclosed begin, a CPU missing" '
	python3 - "$SCRATCH" "$KIT_ROOT/tests/lib/trace_event_check.py" <<-"PY"
	import json, os, subprocess, sys
	check = sys.argv[2]
	name = lambda pid, tid, n: {"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": n}}
	good = [name(1, 0, "CPU 0"), name(1, 1, "CPU 1"),
	        {"name": "hold", "ph": "X", "pid": 1, "tid": 0, "ts": 0, "dur": 5},
	        {"name": "spin", "ph": "X", "pid": 1, "tid": 0, "ts": 5, "dur": 5}]
	bad = {
	    "no dur": good + [{"name": "hold", "ph": "X", "pid": 1, "tid": 1, "ts": 0}],
	    "overlap": good + [{"name": "spin", "ph": "X", "pid": 1, "tid": 0, "ts": 3, "dur": 4}],
	    "unclosed": good + [{"name": "hold", "ph": "B", "pid": 1, "tid": 1, "ts": 1}],
	    "cpu missing": good[1:],
	}
	def run(events):
	    path = os.path.join(sys.argv[1], "t.json")
	    json.dump({"traceEvents": events}, open(path, "w"))
	    return subprocess.run([sys.executable, check, path, "--cpus", "2"], capture_output=True, text=True)
	assert run(good).returncode == 0, run(good).stdout
	for why, events in bad.items():
	    r = run(events)
	    assert r.returncode == 1 and r.stdout.strip(), (why, r.stdout)
	PY
'

test_done
