#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The learner's tree is the learner's: before the suite, note what is in
# it (HEAD, branches, index, edits, a bisection); t9990 checks, after
# every other test, that all of it is exactly as it was.  On a
# throwaway machine (CI=true) the tree first gets learner state of each
# kind, so that there is something to lose: an uncommitted edit, a branch
# of its own (exercise-9) and a bisection under way.
# time limit: 300 s
. "$(dirname "$0")/lib/tap.sh"

plan 2
need_tree
plants=$KIT_WORK/test-learner-plants

if [ "${CI:-}" != true ]; then
	skip_test "the learner's tree gets an edit, a branch and a bisection" \
		"not CI: the tree may be a real learner's, so it is only looked at"
elif [ -f "$plants" ]; then
	skip_test "the learner's tree gets an edit, a branch and a bisection" \
		"planted by an earlier run that did not reach t9990; kept"
else
test_expect_success "on a throwaway machine the learner's tree gets an edit, a branch and a bisection" '
	! git -C "$KIT_TREE" rev-parse -q --verify refs/heads/exercise-9 >/dev/null ||
		{ echo "exercise-9 exists already: not a fresh machine"; exit 1; }
	c=$KIT_TREE/kernel/locking/kit_mutex.c &&
	cp "$c" "$plants.kit_mutex.c" &&
	echo "/* a learner'"'"'s edit, not committed */" >>"$c" &&
	git -C "$KIT_TREE" branch exercise-9 stage-3 &&
	git -C "$KIT_TREE" bisect start --no-checkout stage-5 stage-0 >/dev/null &&
	echo planted >"$plants"
'
fi

test_expect_success "the learner's tree state is written down for t9990" '
	learner_state >"$LEARNER_STATE_FILE" &&
	sed "s/^/# /" "$LEARNER_STATE_FILE"
'

test_done
