#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The learner's kit is the learner's: before the suite, note what is in
# their tree (HEAD, branches, tags, stashes, worktrees, index, edits, a
# bisection) and which of their guests run; t9990 checks, after every
# other test, that all of it is exactly as it was.  The suite works in a
# KIT_WORK of its own (tests/lib/tap.sh), so nothing of it should move.
# On a throwaway machine (CI=true) there is first something to lose: a
# guest started by `make run`, with its gdbstub, running through the
# whole suite, and in the learner's tree an uncommitted edit, a stash, a
# branch (exercise-9), a tag, a worktree and a bisection under way.
# time limit: 1500 s
. "$(dirname "$0")/lib/tap.sh"

plan 3

if [ "${CI:-}" != true ]; then
	skip_test "make run boots a guest of the learner's" \
		"not CI: the learner's kit may be a real learner's, so it is only looked at"
	skip_test "the learner's tree gets an edit, a stash, a branch, a tag, a worktree and a bisection" \
		"not CI, as above"
elif [ -f "$LEARNER_PLANTS" ]; then
	skip_test "make run boots a guest of the learner's" "planted by an earlier run that did not reach t9990; kept"
	skip_test "the learner's tree gets an edit, a stash, a branch, a tag, a worktree and a bisection" "as above"
else
# As a learner starts it, from a terminal that stays open: its console
# reads a pipe that nothing writes to (for 2 hours at most), and its
# output goes to a file.  One vCPU: an idle TCG guest still costs the
# suite some CPU for as long as it runs.  In a session of its own, which t9990 ends.
# A cold build comes first.
test_timeout 1400
test_expect_success "make run, as the learner types it, boots a guest of the learner's with its gdbstub" '
	setsid bash -c "sleep 7200 | KIT_WORK=\"$KIT_LEARNER_WORK\" make -s -C \"$KIT_ROOT\" run SMP=1" \
		>"$KIT_WORK/test-learner-run.log" 2>&1 </dev/null &
	echo "session $!" >"$LEARNER_PLANTS" &&
	# up: make run printed where gdb attaches, after writing the record
	for _ in $(seq 1200); do
		grep -q "attach gdb from another terminal" "$KIT_WORK/test-learner-run.log" && break
		kill -0 "$(sed -n "s/^session //p" "$LEARNER_PLANTS")" 2>/dev/null || break
		sleep 1
	done &&
	{ [ -f "$LEARNER_GUESTS/last" ] || { tail -20 "$KIT_WORK/test-learner-run.log"; exit 1; }; } &&
	expect_grep "attach gdb from another terminal with:  make gdb GDBPORT=[0-9]+" "$KIT_WORK/test-learner-run.log"
'

test_expect_success "the learner's tree gets an edit, a stash, a branch, a tag, a worktree and a bisection" '
	t=$LEARNER_TREE &&
	! git -C "$t" rev-parse -q --verify refs/heads/exercise-9 >/dev/null ||
		{ echo "exercise-9 exists already: not a fresh machine"; exit 1; }
	c=$t/kernel/locking/kit_mutex.c &&
	cp "$c" "$KIT_WORK/test-learner-kit_mutex.c" &&
	echo "/* a learner'"'"'s edit, stashed */" >>"$c" &&
	git -C "$t" stash -q &&
	echo "/* a learner'"'"'s edit, not committed */" >>"$c" &&
	git -C "$t" branch exercise-9 stage-3 &&
	git -C "$t" tag my-try stage-2 &&
	git -C "$t" worktree add -q --detach "$KIT_LEARNER_WORK/linux-try" stage-1 &&
	git -C "$t" bisect start --no-checkout stage-5 stage-0 >/dev/null &&
	echo "tree" >>"$LEARNER_PLANTS"
'
fi

test_expect_success "the learner's tree and guests are written down for t9990" '
	learner_state >"$LEARNER_STATE_FILE" &&
	sed "s/^/# /" "$LEARNER_STATE_FILE"
'

test_done
