#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# After the whole suite, the learner's tree is as t0050 found it: the
# same HEAD, branches, index, uncommitted edits and bisection.  What
# t0050 planted on a throwaway machine is taken away afterwards.
# time limit: 120 s
. "$(dirname "$0")/lib/tap.sh"

plan 2
plants=$KIT_WORK/test-learner-plants

if [ ! -f "$LEARNER_STATE_FILE" ]; then
	skip_test "the learner's tree is as it was before the suite" "t0050 did not run before"
else
	test_expect_success "the learner's tree is as it was before the suite: HEAD, branches, index, edits, bisection" '
		learner_state >"$SCRATCH/after" &&
		diff -u "$LEARNER_STATE_FILE" "$SCRATCH/after"
	'
fi
rm -f "$LEARNER_STATE_FILE"

if [ ! -f "$plants" ]; then
	skip_test "what t0050 planted is taken away" "nothing was planted (not CI)"
else
	# These commands undo t0050's own plants on a throwaway machine,
	# after the check above: no learner's work is in them.
	test_expect_success "what t0050 planted is taken away" '
		git -C "$KIT_TREE" bisect reset >/dev/null 2>&1 &&
		git -C "$KIT_TREE" update-ref -d refs/heads/exercise-9 &&
		cp "$plants.kit_mutex.c" "$KIT_TREE/kernel/locking/kit_mutex.c" &&
		rm -f "$plants" "$plants.kit_mutex.c" &&
		test -z "$(git -C "$KIT_TREE" status --porcelain --untracked-files=no)"
	'
fi

test_done
