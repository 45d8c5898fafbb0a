#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The kit's Python parts on small inputs made here, no kernel: the grade's
# result files are what Gradescope and JUnit readers take (scores add up,
# a failure carries its reason and its evidence, a capped grade says so),
# the benchmark report turns a raw.txt into its CSV with the medians of
# the runs, and the CI replay (tests/lib/ci_replay.py) runs a workflow's
# steps with the runner's environment only and adds up as the reporter.
# tier: check
# time limit: 120 s
. "$(dirname "$0")/lib/tap.sh"

plan 6

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

test_done
