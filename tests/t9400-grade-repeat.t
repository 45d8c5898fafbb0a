#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The grade does not depend on luck: the kit's answer to every stage,
# graded five times in a row, scores full marks five times.  The timing
# checks (throughput, CPU shares, the queue) are the ones that could
# waver on a busy host; each run prints its figures, so that a margin
# that came close shows here before it fails a student.  85 grades, 25
# to 90 s each, and a build per stage: 4720 s for 70 at stop 41, so make
# test-full only (with KIT_TEST_SAMPLE and no KIT_TEST_FULL, the sampled
# stages only).
# tier: full
# time limit: 7200 s
. "$(dirname "$0")/lib/tap.sh"

need_tree
# it checks commits out in the kit's own tree
hold_build_lock
GRADE_REPEATS=${GRADE_REPEATS:-5}
plan "$KIT_LAST_STAGE"

for n in $(seq 1 "$KIT_LAST_STAGE"); do
	if ! sampled "$n"; then
		skip_test "stage $n: the answer graded $GRADE_REPEATS times" "$not_sampled"
		continue
	fi
	test_timeout $((GRADE_REPEATS * 150))
	test_expect_success "stage $n: the kit's answer, graded $GRADE_REPEATS times in a row, scores full marks each time" '
		kit_own_tree_at stage-'"$n"' &&
		for i in $(seq 1 "$GRADE_REPEATS"); do
			out=$SCRATCH/answer-'"$n"'-$i
			"$KIT/grade" '"$n"' --tree "$KIT_OWN_TREE" --results "$out" >"$out.out" 2>&1
			rc=$?
			# the figures behind the timing checks, run by run
			figures=$(grep -E "^(PERF_PCT|CPU_K|CPU_M|QUEUE_K_OPS|QUEUE_M_OPS|PREEMPT_NONE|PREEMPT_ALL|OFFLINE_BUSY|OFFLINE_WAITED|HANDOFF_SHARE|HANDOFF_WORST_US|FOUR_CROWD_CROWD|FOUR_ONCE_WATCH|FOUR_ONCE_SLOWPATH)=" \
				"$out/guest-results.txt" 2>/dev/null | tr "\n" " ")
			echo "# run $i: $(sed -n "s/^Score: //p" "$out.out") ${figures:+($figures)}"
			[ "$rc" -eq 0 ] || { grep " FAIL: " "$out.out"; exit 1; }
		done
	'
done

test_done
