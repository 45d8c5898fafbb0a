#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The tree and the builds: reproducible ids, clean stage commits, and a
# commit that is built is never built again.
. "$(dirname "$0")/lib/tap.sh"

plan 5
need_tree

test_expect_success "make tree run again changes nothing and prints the tarball version" '
	before=$(git -C "$KIT_TREE" rev-parse stage-5) &&
	"$KIT/tree" >"$SCRATCH/tree2.log" 2>&1 &&
	expect_grep "stages already applied \(linux-source-6.1 $(tarball_version)\)" "$SCRATCH/tree2.log" &&
	expect_eq "$before" "$(git -C "$KIT_TREE" rev-parse stage-5)" "stage-5 commit"
'

test_expect_success "every stage commit is by the fixed identity and credits upstream 0d66bf6d3514" '
	for c in $(git -C "$KIT_TREE" rev-list baseline..spinkit); do
		expect_eq "spinkit <spinkit@example.invalid>" \
			"$(git -C "$KIT_TREE" log -1 --format="%an <%ae>" "$c")" "author of $c" &&
		expect_eq "spinkit" "$(git -C "$KIT_TREE" log -1 --format="%cn" "$c")" "committer of $c" &&
		git -C "$KIT_TREE" log -1 --format=%B "$c" | grep -q 0d66bf6d3514 ||
			{ echo "$c does not credit 0d66bf6d3514"; exit 1; }
	done
'

test_expect_success "the kernel's checkpatch.pl passes on every stage commit" '
	"$KIT/checkpatch"
'

test_expect_success "a stage already built is not built again" '
	built 5 &&
	"$KIT/build" --stage 5 >"$SCRATCH/again.log" 2>&1 &&
	expect_grep "already built" "$SCRATCH/again.log" &&
	! grep -q "building" "$SCRATCH/again.log"
'

test_expect_success "no stage touches <linux/sched.h> or another widely included header" '
	changed=$(git -C "$KIT_TREE" diff --name-only baseline spinkit -- include/) &&
	expect_eq "include/linux/kit_mutex.h" "$changed" "headers changed by the series"
'

test_done
