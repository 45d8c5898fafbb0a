#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The tree and the builds: reproducible ids, clean stage commits, and a
# commit that is built is never built again.
# time limit: 1500 s
. "$(dirname "$0")/lib/tap.sh"

plan 5
need_tree

test_expect_success "make tree run again changes nothing and prints the tarball version" '
	last=stage-$KIT_LAST_STAGE &&
	before=$(git -C "$KIT_OWN_TREE" rev-parse $last) &&
	"$KIT/tree" >"$SCRATCH/tree2.log" 2>&1 &&
	expect_grep "stages already applied \(linux-source-6.1 $(tarball_version)\)" "$SCRATCH/tree2.log" &&
	expect_eq "$before" "$(git -C "$KIT_OWN_TREE" rev-parse $last)" "$last commit" &&
	expect_eq "$before" "$(git -C "$KIT_TREE" rev-parse $last)" "$last in your tree"
'

test_expect_success "every stage commit is by the fixed identity and credits upstream 0d66bf6d3514" '
	for c in $(git -C "$KIT_OWN_TREE" rev-list baseline..stage-$KIT_LAST_STAGE); do
		expect_eq "spinkit <spinkit@example.invalid>" \
			"$(git -C "$KIT_OWN_TREE" log -1 --format="%an <%ae>" "$c")" "author of $c" &&
		expect_eq "spinkit" "$(git -C "$KIT_OWN_TREE" log -1 --format="%cn" "$c")" "committer of $c" &&
		git -C "$KIT_OWN_TREE" log -1 --format=%B "$c" | grep -q 0d66bf6d3514 ||
			{ echo "$c does not credit 0d66bf6d3514"; exit 1; }
	done
'

test_expect_success "the kernel's checkpatch.pl passes on every stage commit" '
	"$KIT/checkpatch"
'

test_expect_success "a stage already built is not built again" '
	built $KIT_LAST_STAGE &&
	"$KIT/build" --stage $KIT_LAST_STAGE >"$SCRATCH/again.log" 2>&1 &&
	expect_grep "already built" "$SCRATCH/again.log" &&
	! grep -q "building" "$SCRATCH/again.log"
'

test_expect_success "no stage touches <linux/sched.h> or another widely included header" '
	changed=$(git -C "$KIT_OWN_TREE" diff --name-only baseline stage-$KIT_LAST_STAGE -- include/) &&
	expect_eq "include/linux/kit_mutex.h" "$changed" "headers changed by the series"
'

test_done
