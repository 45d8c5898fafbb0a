#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# After the whole suite, the learner's kit is as t0050 found it: the same
# HEAD, branches, tags, stashes, worktrees, index, uncommitted edits and
# bisection, and the same guests, still running.  What t0050 planted on
# a throwaway machine is taken away afterwards.
# time limit: 120 s
. "$(dirname "$0")/lib/tap.sh"

plan 2

if [ ! -f "$LEARNER_STATE_FILE" ]; then
	skip_test "the learner's kit is as it was before the suite" "t0050 did not run before"
else
	test_expect_success "the learner's kit is as it was before the suite: tree, and guests still running" '
		learner_state >"$SCRATCH/after" &&
		diff -u "$LEARNER_STATE_FILE" "$SCRATCH/after"
	'
fi
rm -f "$LEARNER_STATE_FILE"

if [ ! -f "$LEARNER_PLANTS" ]; then
	skip_test "what t0050 planted is taken away" "nothing was planted (not CI)"
else
	# These commands undo t0050's own plants on a throwaway machine,
	# after the check above: no learner's work is in them.
	test_expect_success "what t0050 planted is taken away: the guest stopped, the tree clean" '
		session=$(sed -n "s/^session //p" "$LEARNER_PLANTS") &&
		kill -- -"$session" 2>/dev/null
		for _ in $(seq 50); do [ -f "$LEARNER_GUESTS/last" ] || break; sleep 0.2; done
		if grep -qx tree "$LEARNER_PLANTS"; then
			t=$LEARNER_TREE &&
			git -C "$t" bisect reset >/dev/null 2>&1 &&
			git -C "$t" worktree remove --force "$KIT_LEARNER_WORK/linux-try" &&
			git -C "$t" tag -d my-try >/dev/null &&
			git -C "$t" update-ref -d refs/heads/exercise-9 &&
			git -C "$t" stash drop -q &&
			cp "$KIT_WORK/test-learner-kit_mutex.c" "$t/kernel/locking/kit_mutex.c" &&
			test -z "$(git -C "$t" status --porcelain --untracked-files=no)"
		fi &&
		rm -f "$LEARNER_PLANTS" "$KIT_WORK/test-learner-kit_mutex.c"
	'
fi

test_done
