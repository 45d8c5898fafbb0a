#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# scripts/bisect-test speaks git bisect run's language: 128 for a mode it
# does not know, 0 for a tree with no kernel (the Btrfs-only history of
# 2.6.29) or 125 if asked to skip it, 0 for a good kernel.  The cpu mode
# tells a spinner that burns CPU on a sleeping owner (stage 3's naive
# helper) from one that stops (stage 5), and --guest maps a learner's own
# command to good, skip and bad, with the kernel's alarms still applied.
# More bad verdicts are met in real bisections in t8100.  Everything runs
# in the kit's own tree.
# time limit: 900 s
. "$(dirname "$0")/lib/tap.sh"

need_tree
# it checks commits out in the kit's own tree
hold_build_lock
plan 7
tree=$KIT_OWN_TREE

# judge REV NAME ARGS...: bisect-test ARGS at REV of the kit's tree; its
# output in NAME.out, its status in NAME.rc.
judge() {
	local rev=$1 name=$2 rc=0
	shift 2
	git -C "$tree" checkout -q --detach "$rev" &&
	(cd "$tree" && BISECT_TIMEOUT=180 "$KIT/bisect-test" "$@") >"$SCRATCH/$name.out" 2>&1 || rc=$?
	echo "$rc" >"$SCRATCH/$name.rc"
	cat "$SCRATCH/$name.out"
}

test_expect_success "an unknown mode stops the bisection (exit 128) and names the modes" '
	rc=0
	(cd "$tree" && "$KIT/bisect-test" nosuchmode) 2>"$SCRATCH/mode.err" || rc=$?
	expect_eq 128 "$rc" "exit status" &&
	expect_grep "use spins, torture, lost, perf, cpu or --guest" "$SCRATCH/mode.err"
'

test_expect_success "a history holding only a subdirectory is good, or 125 with BISECT_NO_KERNEL=skip" '
	side=$SCRATCH/btrfs-only &&
	mkdir -p "$side/fs/btrfs" &&
	echo "int btrfs;" >"$side/fs/btrfs/super.c" &&
	git -C "$side" init -q &&
	git -C "$side" add . &&
	git -C "$side" -c user.name=t -c user.email=t@t commit -q -m "Btrfs: only me" &&
	rc=0 &&
	(cd "$side" && "$KIT/bisect-test" torture) >"$SCRATCH/side.out" 2>&1 || rc=$?
	expect_eq 0 "$rc" "exit status" &&
	expect_grep "no kernel in this tree, so no kernel regression either: good" "$SCRATCH/side.out" &&
	rc=0 &&
	(cd "$side" && BISECT_NO_KERNEL=skip "$KIT/bisect-test" torture) >"$SCRATCH/skip.out" 2>&1 || rc=$?
	expect_eq 125 "$rc" "exit status with BISECT_NO_KERNEL=skip" &&
	expect_grep "no kernel in this tree, cannot judge" "$SCRATCH/skip.out"
'

test_expect_success "stage-5 passes locktorture: good" '
	judge stage-5 torture torture &&
	expect_eq 0 "$(cat "$SCRATCH/torture.rc")" "exit status"
'

test_expect_success "cpu mode: stage-5 stops spinning on a sleeping owner, as 6.1 does: good" '
	judge stage-5 cpu5 cpu &&
	expect_eq 0 "$(cat "$SCRATCH/cpu5.rc")" "exit status" &&
	expect_grep "kit [0-9]+% vs 6.1 [0-9]+%: good" "$SCRATCH/cpu5.out"
'

test_expect_success "cpu mode: stage-3 spins through the owner's sleep: bad" '
	judge stage-3 cpu3 cpu &&
	expect_eq 1 "$(cat "$SCRATCH/cpu3.rc")" "exit status" &&
	expect_grep "more than [0-9]+ points above: bad" "$SCRATCH/cpu3.out"
'

test_expect_success "--guest: status 0 is good, 125 is skip, 3 is bad" '
	judge stage-5 g0 --guest "kit-stat spin >/dev/null" &&
	expect_eq 0 "$(cat "$SCRATCH/g0.rc")" "status 0" &&
	judge stage-5 g125 --guest "exit 125" &&
	expect_eq 125 "$(cat "$SCRATCH/g125.rc")" "status 125" &&
	judge stage-5 g3 --guest "exit 3" &&
	expect_eq 1 "$(cat "$SCRATCH/g3.rc")" "status 3" &&
	expect_grep "your command failed \\(status 3" "$SCRATCH/g3.out"
'

test_expect_success "--guest: a kernel alarm on the console is bad, though the command passed" '
	judge stage-5 galarm --guest "echo \"WARNING: planted by t8000\" >/dev/kmsg" &&
	expect_eq 1 "$(cat "$SCRATCH/galarm.rc")" "exit status" &&
	expect_grep "the kernel says .*WARNING: planted by t8000" "$SCRATCH/galarm.out"
'

test_done
