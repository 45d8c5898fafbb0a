#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# scripts/bisect-test speaks git bisect run's language: 128 for a mode it
# does not know, 0 for a tree with no kernel (the Btrfs-only history of
# 2.6.29) or 125 if asked to skip it, 0 for a good kernel.  Bad verdicts,
# a BUG on the console among them, are met in real bisections in t8100.
. "$(dirname "$0")/lib/tap.sh"

need_tree
plan 3

test_expect_success "an unknown mode stops the bisection (exit 128) and names the modes" '
	rc=0
	(cd "$KIT_TREE" && "$KIT/bisect-test" nosuchmode) 2>"$SCRATCH/mode.err" || rc=$?
	expect_eq 128 "$rc" "exit status" &&
	expect_grep "use spins, torture, lost or perf" "$SCRATCH/mode.err"
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

# The tree is put back on the kit's branch afterwards, whatever happened.
restore() { git -C "$KIT_TREE" checkout -q -f spinkit; }
trap restore EXIT

test_expect_success "stage-5 passes locktorture: good" '
	git -C "$KIT_TREE" checkout -q --detach stage-5 &&
	rc=0 &&
	(cd "$KIT_TREE" && BISECT_TIMEOUT=180 "$KIT/bisect-test" torture) >"$SCRATCH/good.out" 2>&1 || rc=$?
	cat "$SCRATCH/good.out"
	expect_eq 0 "$rc" "exit status"
'

test_done
