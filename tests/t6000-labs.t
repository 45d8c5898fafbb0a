#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Each lab's scripted gdb path passes on its own stage, and fails on the
# stage its record names (lab_fails in stages/manifest.tsv): the checks
# can fail.  That lab N's
# check passes on stage N is t9000's to show when there is an assignment
# N: the kit's answer to it, stage N, scores full marks only if it does.
# Running the same check on the same kernel here too would cost some 20 s
# a lab; here it runs for the labs without an assignment (lab 0).  make
# test runs the wrong-stage check for lab 0 and the labs of the stages it
# samples (tests/lib/tap.sh), which it also grades; make test-full for
# every lab.  Lab 3's
# README, typed as a learner would (step 1, then race 2 from a fresh
# boot), runs and shows what it promises; so does lab 7's stage-6 run,
# and lab 9's answers' claim that lab 7's check passes on stage 9.
# time limit: 1200 s
. "$(dirname "$0")/lib/tap.sh"

mapfile -t labs < <(for s in $(seq 0 "$KIT_LAST_STAGE"); do stage_lab "$s"; done)
lab_number() { basename "$1" | sed 's/^0*\([0-9][0-9]*\)-.*/\1/'; }
has_assignment() { [ -f "$KIT_ROOT/course/ASSIGNMENT-$1.md" ]; }
graded=0
for dir in "${labs[@]}"; do
	has_assignment "$(lab_number "$dir")" && graded=$((graded + 1))
done
plan $((${#labs[@]} * 2 - graded + 4))
need_tree

for dir in "${labs[@]}"; do
	lab=$(lab_number "$dir")
	wrong=$(stage_field "$lab" lab_fails)
	if ! has_assignment "$lab"; then
		test_expect_success "lab $lab ($(basename "$dir")): its gdb check passes on stage-$lab" '
			"$KIT/lab" '"$lab"' --check
		'
	fi
	if [ "$lab" -gt 0 ] && ! sampled "$lab"; then
		skip_test "lab $lab: the same check fails on stage-$wrong" "$not_sampled"
		continue
	fi
	# as a learner types it (lab 6's README prints it for stage 5)
	test_expect_success "lab $lab: the same check fails on stage-$wrong: make lab-check LAB=$lab STAGE=$wrong" '
		! make -s -C "$KIT_ROOT" KIT_WORK="$KIT_WORK" lab-check LAB='"$lab"' STAGE='"$wrong"' \
			>"$SCRATCH/wrong-'"$lab"'.out" 2>&1 &&
		cat "$SCRATCH/wrong-'"$lab"'.out" &&
		grep -q "check FAILED on stage-'"$wrong"': expected a line matching" "$SCRATCH/wrong-'"$lab"'.out"
	'
done

readme=$(echo "$KIT_ROOT"/labs/03-*/README.md)
line_of() { grep -n "$1" "$readme" | head -n 1 | cut -d: -f1; }
race2=$(line_of '^1\. Let the holder')-$(($(line_of '^2\. Step the loop') - 1)),$(line_of '^## Race 2')-$(line_of '^## Questions')
test_expect_success "lab 3's README, step 1 then race 2, typed in order: no gdb error, and the queue it promises" '
	"$KIT/lab" 3 --walk '"$race2"' >"$SCRATCH/walk.out" &&
	grep -A5 "README:[0-9]*: (gdb) kit-mutex" "$SCRATCH/walk.out" >"$SCRATCH/walk.mutex" &&
	grep -q "^waiters: 2$" "$SCRATCH/walk.mutex" &&
	grep -q "^  (being queued: its task is not recorded yet)$" "$SCRATCH/walk.mutex"
'
test_expect_success "the same walk on stage-2 stops at the first command the stage lacks" '
	! "$KIT/lab" 3 --walk '"$race2"' --stage 2 >"$SCRATCH/walk2.out" &&
	grep -q "Function \"kit_mutex_spin_on_owner_naive\" not defined" "$SCRATCH/walk2.out"
'

# Lab 7's README, and stage 7's handout, print a command that runs the
# lab's workload on stage 6 without gdb.  Whichever way a round goes there
# (lab 7, "The same on stage 6"), the guest shows it: a round in which
# CPU 0 was busy for O's whole sleep, or a stall the watchdogs report.
readme7=$(echo "$KIT_ROOT"/labs/07-*/README.md)
test_expect_success "lab 7's stage-6 command, run as printed: CPU 0 spins through the owner's sleep, or the guest stalls" '
	cmd=$(sed -n "s/^\(scripts\/boot --stage 6 .*\)$/\1/p" "$readme7") &&
	test -n "$cmd" &&
	# stage 7'"'"'s handout prints the same line
	grep -qxF "$cmd" "$(stage_handout 7)" &&
	{ (cd "$KIT_ROOT" && bash -c "$cmd") >"$SCRATCH/lab7-stage6.out" 2>&1 || true; } &&
	grep -E "^round|stalls|soft lockup|error:" "$SCRATCH/lab7-stage6.out" &&
	grep -q "^round 1: B (pid [0-9]*) asks for kit0" "$SCRATCH/lab7-stage6.out" &&
	{ grep -E -q "rcu_sched detected stalls|soft lockup - CPU#0" "$SCRATCH/lab7-stage6.out" ||
		# or a round in which CPU 0 was busy 80% of B'"'"'s wait, or more
		awk '"'"'/^round [0-9]+: B got kit0 after/ { w = $7 * 100; if ($12 + 0 >= 0.8 * w) n++ } END { exit !n }'"'"' \
			"$SCRATCH/lab7-stage6.out"; }
'

# Stage 9 dropped stage 7's online test: lab 9's instructor notes say, and
# print the command that shows, that lab 7's check still passes there.
test_expect_success "lab 7's check passes on stage 9, as lab 9's answers print it" '
	cmd=$(grep -o "make lab-check LAB=7 STAGE=9" "$KIT_ROOT"/labs/09-*/INSTRUCTOR.md) &&
	test -n "$cmd" &&
	(cd "$KIT_ROOT" && $cmd KIT_WORK="$KIT_WORK") >"$SCRATCH/lab7-stage9.out" 2>&1 ||
		{ cat "$SCRATCH/lab7-stage9.out"; exit 1; }
	grep -q "lab 7 check passed on stage-9" "$SCRATCH/lab7-stage9.out"
'

test_done
