#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Course mode, and the grader graded.  For each stage (make test: a
# sample of them, tests/lib/tap.sh; make test-full: all): the kit's own
# answer scores full marks (it builds, boots, passes torture, loses no
# update, spins where it is due and only there, and passes its lab); the
# untouched skeleton passes every required check of a working kernel,
# fails every check of the stage's own, and scores at most 40%; and the
# catalogue of student mistakes (scripts/mistakes.py) fails the check
# each names, at most 70% (make test: one mistake).  A
# skeleton made of stage N-1's files with TODOs in comments (course.py
# base N: prev) is a kernel that behaves as stage N-1, whose answer the
# stage before graded in full: it is graded --quick, the stage's own
# checks with the build, the boot and the BUG check, some 20 s less a
# stage.  One made of stage N's files with the answer cut out (this) is
# graded in full.  A prev skeleton that only adds comments, for a stage
# with no guest check of its own (its own checks are checkpatch and the
# lab), is not graded at all, but the newest stage's: its kernel is stage
# N-1's, whose answer the stage before graded in full (stage 0, which is
# no assignment: t4000 boots it and tortures it), and t6000 shows lab N's
# check failing on stage N-1, its wrong stage; one such grade shows the
# scoring.  Then course.py verify proves the skeletons and the mistakes
# fit the stages, the student kit holds no answer line, the assignment's
# printed commands run as printed, every target of its make help has its
# script, a submission outside its files or one that does not apply
# scores 0 with the reason, and the result files have the keys course
# tools read.  (The CI templates, run as their runners run them, are
# t9100's, in make test-full.)
# Nothing here touches your tree: the answers are graded in the kit's
# tree, submissions in the kit's grading tree, assignments in a scratch
# learner's tree.
# time limit: 7200 s
# time limit, full: 12600 s
. "$(dirname "$0")/lib/tap.sh"

need_tree
# it checks commits out in the kit's own tree
hold_build_lock
plan $((2 * KIT_LAST_STAGE + 6))
# The CI templates run make in a clone of the kit: it must find this
# KIT_WORK, its trees and its compiler cache.
export KIT_WORK
course() { python3 "$KIT/course.py" --tree "$KIT_OWN_TREE" "$@"; }
# skeleton_scored RESULTS: the skeleton passed every check of a working
# kernel (the build and the boot, "works", and the "required" ones),
# failed every check of the stage's own ("stage"), and scored at most
# 40%; a quick grade ran the basic ones, and no torture.
skeleton_scored() {
	python3 - "$1" <<-"PY"
	import json, sys
	r = json.load(open(sys.argv[1]))
	bad = [t["name"] for t in r["tests"]
	       if (t["status"] == "passed") != (t["tags"] != ["stage"])]
	assert not bad, "the skeleton scores wrongly on: " + ", ".join(bad)
	total = sum(t["max_score"] for t in r["tests"])
	assert r["score"] * 100 <= 40 * total, "the skeleton scores %s of %s" % (r["score"], total)
	assert any(t["tags"] == ["stage"] for t in r["tests"]), "no check of the stage's own"
	names = {t["name"] for t in r["tests"]}
	assert {"builds", "boots", "no kernel BUG or WARNING"} <= names, "no basic checks"
	quick = "quick" in r["output"]
	assert quick != ("locktorture: SUCCESS, Fail: 0" in names), "torture in a quick grade, or none in a full one"
	print("# skeleton: %s grade, %d checks, %.0f of %.0f points" % ("quick" if quick else "full", len(names), r["score"], total))
	PY
}
# comment_only N: stage N's skeleton changes only comments (and blank
# lines) in the files it starts from: each file, before and after the
# skeleton's diff, is the same code.
comment_only() {
	local d=$SCRATCH/comments-$1 f files
	rm -rf "$d" && mkdir -p "$d/before" &&
	course skeleton "$1" >"$d/skeleton.diff" &&
	files=$(sed -n "s|^+++ b/||p" "$d/skeleton.diff") &&
	for f in $files; do
		mkdir -p "$d/before/$(dirname "$f")" &&
		git -C "$KIT_OWN_TREE" show "stage-$(($1 - 1)):$f" >"$d/before/$f" || return 1
	done &&
	cp -r "$d/before" "$d/after" &&
	(cd "$d/after" && patch -s -p1 <"$d/skeleton.diff") &&
	for f in $files; do
		c_code "$d/before/$f" >"$d/before.c" && c_code "$d/after/$f" >"$d/after.c" || return 1
		if ! cmp -s "$d/before.c" "$d/after.c"; then
			echo "# stage $1's skeleton changes the code of $f"
			return 1
		fi
	done
}
# skeleton_ungraded N BASE: stage N's skeleton, made from BASE (course.py
# base N), needs no grade of its own (see the top of this file).
skeleton_ungraded() {
	local own
	[ "$1" -lt "$KIT_LAST_STAGE" ] &&
	[ "$2" = prev ] &&
	own=$("$KIT/grade" "$1" --own-steps) && [ -z "$(echo "$own" | tr -d " ")" ] &&
	[ "$(stage_field "$1" lab_fails)" = $(($1 - 1)) ] &&
	comment_only "$1"
}

for n in $(seq 1 "$KIT_LAST_STAGE"); do
	if ! sampled "$n"; then
		skip_test "stage $n: answer, skeleton and bugs graded" "$not_sampled"
		continue
	fi
	test_expect_success "stage $n: the kit's answer scores full marks, the skeleton passes the required checks and scores at most 40%" '
		kit_own_tree_at stage-'"$n"' &&
		"$KIT/grade" '"$n"' --tree "$KIT_OWN_TREE" >"$SCRATCH/answer-'"$n"'.out" 2>&1 ||
			{ cat "$SCRATCH/answer-'"$n"'.out"; exit 1; }
		cat "$SCRATCH/answer-'"$n"'.out" &&
		total=$(sed -n "s/^Score: \\([0-9]*\\)\\/\\([0-9]*\\)$/\\2/p" "$SCRATCH/answer-'"$n"'.out") &&
		expect_grep "^Score: $total/$total$" "$SCRATCH/answer-'"$n"'.out" &&
		: >"$SCRATCH/empty.patch" &&
		base=$(course base '"$n"') &&
		# a skeleton with the answer cut out is not comments only
		if [ "$base" = this ] && comment_only '"$n"'; then
			echo "comment_only passes stage '"$n"''"'"'s skeleton, which cuts code out"; exit 1
		fi &&
		if skeleton_ungraded '"$n"' "$base"; then
			echo "# skeleton: stage $(('"$n"' - 1))'"'"'s files and comments, no guest check of its own: not graded"
		else
			quick=$(echo "$base" | sed -n "s/^prev$/--quick/p") &&
			! "$KIT/grade" '"$n"' $quick --patch "$SCRATCH/empty.patch" --results "$SCRATCH/skeleton-'"$n"'" \
				>"$SCRATCH/skeleton-'"$n"'.out" 2>&1 &&
			cat "$SCRATCH/skeleton-'"$n"'.out" &&
			skeleton_scored "$SCRATCH/skeleton-'"$n"'/results.json"
		fi
	'
done

# The catalogue of student mistakes (scripts/mistakes.py): each, made in
# the kit's answer at the first stage it fits, fails the check it names,
# and scores at most 70%.  make test grades one, a sample: the last first
# made at stage 3, the seed's spin loop; make test-full every mistake.
# caught N NAME CHECK: mistake NAME graded as assignment N failed CHECK.
caught() {
	local out=$SCRATCH/mistake-$2 name
	course solution "$1" --mistake "$2" >"$out.patch" &&
	! "$KIT/grade" "$1" --patch "$out.patch" --results "$out" >"$out.out" 2>&1 || return 1
	if [ "$3" = lab ]; then name="lab $1 (gdb)"; else name=$(table_field "$KIT_ROOT/course/checks.tsv" "$3" name); fi
	python3 - "$out/results.json" "$name" "$2" <<-"PY"
	import json, sys
	r = json.load(open(sys.argv[1]))
	named = [t for t in r["tests"] if t["name"].startswith(sys.argv[2])]
	assert named, "no check %r in the results" % sys.argv[2]
	total = sum(t["max_score"] for t in r["tests"])
	failed = [t["name"] for t in r["tests"] if t["status"] == "failed"]
	print("# %s: %.0f/%.0f, failed: %s" % (sys.argv[3], r["score"], total, "; ".join(failed)))
	assert named[0]["status"] == "failed", "%r passed: %s" % (sys.argv[2], named[0]["output"][:300])
	assert r["score"] * 100 <= 70 * total, "scores %.0f of %.0f" % (r["score"], total)
	PY
}
for n in $(seq 1 "$KIT_LAST_STAGE"); do
	list=$SCRATCH/mistakes-$n
	if [ -n "$KIT_TEST_FULL" ]; then
		course mistakes "$n" --first >"$list"
	elif [ "$n" = 3 ]; then
		course mistakes "$n" --first | tail -n 1 >"$list"
	else
		skip_test "stage $n: mistakes fail the checks they name" "make test grades one mistake of stage 3; make test-full every one"
		continue
	fi
	if [ ! -s "$list" ]; then
		skip_test "stage $n: mistakes fail the checks they name" "none is first made at stage $n"
		continue
	fi
	test_timeout $(($(wc -l <"$list") * 300))
	test_expect_success "stage $n: $(cut -f1,2 "$list" | sed "s/\t/ fails /" | paste -sd, | sed "s/,/, /g"), at most 70%" '
		while IFS=$'"'"'\t'"'"' read -r m check _; do
			caught '"$n"' "$m" "$check" ||
				{ echo "mistake $m is not caught by $check:"; grep -E " FAIL: |^Score" "$SCRATCH/mistake-$m.out"; exit 1; }
		done <"$SCRATCH/mistakes-'"$n"'"
	'
done

test_expect_success "course.py verify: every skeleton fits its stage, every mistake of the catalogue its stages, at least 3 a stage" '
	course verify >"$SCRATCH/verify.out" &&
	cat "$SCRATCH/verify.out" &&
	expect_grep "^course: [0-9]+ mistakes fit their stages, at least 3 a stage$" "$SCRATCH/verify.out"
'

test_expect_success "a student kit for assignment 3 holds no line of the answers to stages 3 on, no later stage's handout, and no key" '
	"$KIT/student-kit" "$SCRATCH/students" 3 >"$SCRATCH/students.out" &&
	for s in $(seq 3 "$KIT_LAST_STAGE"); do course answer $s; done >"$SCRATCH/answers" &&
	test -s "$SCRATCH/answers" &&
	python3 - "$SCRATCH/answers" "$SCRATCH/students" <<-"PY" &&
	import os, sys
	answers = set(open(sys.argv[1]).read().splitlines())
	leaks = []
	for top, _, names in os.walk(sys.argv[2]):
	    for name in names:
	        path = os.path.join(top, name)
	        for line in open(path, errors="replace"):
	            text = line.strip().lstrip("+-").strip()
	            if text in answers:
	                leaks.append(f"{path}: {text}")
	print("\n".join(leaks))
	sys.exit(1 if leaks else 0)
	PY
	test -z "$(find "$SCRATCH/students" -name INSTRUCTOR.md)" &&
	test -z "$(find "$SCRATCH/students/stages" -name "0[3-9]-*.patch" -o -name "[1-9][0-9]-*.patch")" &&
	test -z "$(find "$SCRATCH/students/handouts" -name "stage-0[4-9]-*.md" -o -name "stage-[1-9][0-9]-*.md")" &&
	expect_eq 3 "$(grep "^[0-9]" "$SCRATCH/students/stages/manifest.tsv" | tail -1 | cut -f1)" \
		"the last record in the student kit (the assignment'"'"'s)" &&
	expect_eq 2 "$(cd "$SCRATCH/students" && bash -c ". scripts/lib.sh && echo \$KIT_LAST_STAGE")" \
		"the newest stage of the student kit" &&
	test ! -e "$SCRATCH/students/scripts/bisect_exercise.py" &&
	test ! -e "$SCRATCH/students/scripts/mistakes.py" &&
	test -f "$SCRATCH/students/course/skeletons/3-skeleton.patch"
'

# A learner's tree of its own for the assignment, so that yours is untouched.
learner=$SCRATCH/w/linux
mkdir -p "$SCRATCH/w"
git clone -q --no-checkout "$KIT_OWN_TREE" "$learner" && git -C "$learner" checkout -q -b spinkit stage-5

test_expect_success "every target the student kit's make help lists runs scripts the kit has; make test is not one" '
	targets=$(make -s -C "$SCRATCH/students" help | sed -n "s/^  \([a-z][a-z-]*\) *- .*/\1/p") &&
	test -n "$targets" &&
	for t in $targets; do
		for sc in $(make -n -C "$SCRATCH/students" "$t" STAGE=3 LAB=0 2>/dev/null | grep -o "scripts/[A-Za-z_.-]*" | sort -u); do
			test -e "$SCRATCH/students/$sc" || { echo "make $t runs $sc, which the student kit has not"; exit 1; }
		done
	done &&
	! grep -qx test <<<"$targets" && ! make -s -C "$SCRATCH/students" test >/dev/null 2>&1
'

test_expect_success "make assignment in the student kit makes the branch; its printed switch and diff run as printed" '
	(cd "$SCRATCH/students" && KIT_TREE="$learner" make -s assignment STAGE=3) >"$SCRATCH/assign.out" 2>&1 &&
	cat "$SCRATCH/assign.out" &&
	switch=$(sed -n "s/^  \\(git -C .* switch assignment-3\\)$/\\1/p" "$SCRATCH/assign.out") &&
	test -n "$switch" && bash -c "$switch" &&
	expect_eq "refs/heads/assignment-3" "$(git -C "$learner" symbolic-ref HEAD)" "HEAD after the printed switch" &&
	expect_eq "$(git -C "$learner" rev-parse stage-2)" "$(git -C "$learner" rev-parse HEAD^)" "the skeleton commit'"'"'s parent" &&
	git -C "$learner" grep -q "TODO(stage 3)" HEAD &&
	# the hand-in line, as printed, once there is work to hand in
	echo "/* my work */" >>"$learner/kernel/locking/kit_mutex.c" &&
	hand_in=$(sed -n "s/^  \(git -C .* diff assignment-3-start >submission.patch\)$/\1/p" "$SCRATCH/assign.out") &&
	test -n "$hand_in" && (cd "$SCRATCH" && bash -c "$hand_in") &&
	grep -q "^+/\* my work \*/" "$SCRATCH/submission.patch" &&
	# the same skeleton, whether made from the stages or taken from the export
	full=$(KIT_TREE="$learner" "$KIT/assignment" 3 2>&1) &&
	echo "$full" | grep -q "exists already, with your work on it"
'

# outside_patch FILE STAGE: a diff that adds a comment at the top of FILE
# as stage STAGE has it.
outside_patch() {
	local d=$SCRATCH/outside
	rm -rf "$d" && mkdir -p "$d/a/$(dirname "$1")" "$d/b/$(dirname "$1")" &&
	git -C "$KIT_OWN_TREE" show "stage-$2:$1" >"$d/a/$1" &&
	{ echo "/* a student was here */"; cat "$d/a/$1"; } >"$d/b/$1" &&
	{ (cd "$d" && git diff --no-index --no-prefix "a/$1" "b/$1"); [ $? -eq 1 ]; }
}
# score_zero DIR REASON: results.json and junit.xml in DIR, score 0, REASON said.
score_zero() {
	python3 - "$1" "$2" <<-"PY"
	import json, sys, xml.etree.ElementTree as ET
	r = json.load(open(sys.argv[1] + "/results.json"))
	assert r["score"] == 0.0, r
	assert sys.argv[2] in json.dumps(r), "no %r in %s" % (sys.argv[2], r)
	suite = ET.parse(sys.argv[1] + "/junit.xml").getroot().find("testsuite")
	assert int(suite.get("failures")) >= 1, suite.attrib
	print("# " + r["tests"][0]["output"].splitlines()[0][:150])
	PY
}
test_expect_success "a submission that changes 6.1's mutex is refused, one that does not apply too: score 0, the reason, both result files" '
	outside_patch kernel/locking/mutex.c 2 >"$SCRATCH/outside.patch" &&
	! "$KIT/grade" 2 --patch "$SCRATCH/outside.patch" --results "$SCRATCH/outside" >"$SCRATCH/outside.out" 2>&1 &&
	score_zero "$SCRATCH/outside" "kernel/locking/mutex.c, which assignment 2 does not let you change" &&
	printf "%s\n" "diff --git a/kernel/locking/kit_mutex.c b/kernel/locking/kit_mutex.c" \
		"--- a/kernel/locking/kit_mutex.c" "+++ b/kernel/locking/kit_mutex.c" "@@ -1,2 +1,3 @@" \
		"+/* a student was here */" " a line that no version of the file has" " nor this one" \
		>"$SCRATCH/stale.patch" &&
	! "$KIT/grade" 2 --patch "$SCRATCH/stale.patch" --results "$SCRATCH/stale" >"$SCRATCH/stale.out" 2>&1 &&
	score_zero "$SCRATCH/stale" "does not apply to the skeleton of stage 2"
'

test_expect_success "results.json has Gradescope's keys and JUnit XML its elements, both from the same checks" '
	"$KIT/grade" 1 --patch "$SCRATCH/empty.patch" --results "$SCRATCH/results" --fail-fast >/dev/null 2>&1
	python3 - "$SCRATCH/results" <<-"PY"
	import json, sys, xml.etree.ElementTree as ET
	d = sys.argv[1]
	r = json.load(open(d + "/results.json"))
	top = {"score", "execution_time", "output", "visibility", "stdout_visibility",
	       "extra_data", "tests", "leaderboard"}
	test = {"score", "max_score", "name", "number", "output", "tags", "visibility", "extra_data", "status"}
	assert set(r) <= top, set(r) - top
	assert r["tests"], "no tests"
	for t in r["tests"]:
	    assert set(t) <= test, set(t) - test
	    assert isinstance(t["score"], float) and isinstance(t["max_score"], float)
	    assert 0 <= t["score"] <= t["max_score"]
	assert r["score"] == sum(t["score"] for t in r["tests"])
	suite = ET.parse(d + "/junit.xml").getroot().find("testsuite")
	cases = suite.findall("testcase")
	assert len(cases) == len(r["tests"]) == int(suite.get("tests"))
	fails = sum(1 for c in cases if c.find("failure") is not None)
	assert fails == int(suite.get("failures")) == sum(t["status"] == "failed" for t in r["tests"])
	print("# %d checks, %d failed, score %.0f" % (len(cases), fails, r["score"]))
	PY
'

test_done
