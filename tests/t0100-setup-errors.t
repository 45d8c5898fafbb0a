#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Bad input gets a one-line error with the fix and a non-zero exit, and
# leaves nothing half-done behind.
# time limit: 600 s
. "$(dirname "$0")/lib/tap.sh"

plan 9

# fails_with PATTERN CMD...: CMD exits non-zero and says PATTERN on stderr.
fails_with() {
	local pattern=$1 rc=0
	shift
	"$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
	cat "$SCRATCH/err"
	[ "$rc" -ne 0 ] || { echo "Expected a non-zero exit from: $*"; return 1; }
	expect_grep "$pattern" "$SCRATCH/err"
}

test_expect_success "STAGE=99 names the valid stages" '
	fails_with "^error: no stage .99. \(stages are 0 to $KIT_LAST_STAGE," make -s -C "$KIT_ROOT" kernel STAGE=99
'

test_expect_success "an unknown option to a script prints its usage" '
	fails_with "^error: unknown option .--bogus." "$KIT/boot" --bogus
'

test_expect_success "SMP=0 is refused before anything boots" '
	fails_with "^error: SMP=0 is not a vCPU count" "$KIT/boot" --smp 0 --dry-run
'

test_expect_success "a missing tarball says which package installs it" '
	fails_with "no kernel tarball at .*run: make deps" \
		env KIT_WORK="$SCRATCH/w1" KIT_TARBALL="$SCRATCH/none.tar.xz" "$KIT/tree"
'

# A tiny tarball stands in for Debian's: the stages cannot apply to it.
make_fake_tarball() {
	mkdir -p "$SCRATCH/fake/linux-source-6.1" &&
	echo "not a kernel" >"$SCRATCH/fake/linux-source-6.1/README" &&
	tar -C "$SCRATCH/fake" -cJf "$SCRATCH/fake.tar.xz" linux-source-6.1
}

test_expect_success "a stage that does not apply names the tested and found versions" '
	make_fake_tarball &&
	mkdir -p "$SCRATCH/w2/kit/linux.partial" && echo junk >"$SCRATCH/w2/kit/linux.partial/junk" &&
	fails_with "does not apply to linux-source-6.1 .* \(tested on $(tested_version)\)" \
		env KIT_WORK="$SCRATCH/w2" KIT_TARBALL="$SCRATCH/fake.tar.xz" "$KIT/tree" &&
	# the interrupted extraction left behind was replaced, not reused
	test ! -e "$SCRATCH/w2/kit/linux.partial" &&
	git -C "$SCRATCH/w2/kit/linux" rev-parse -q --verify baseline &&
	# no learner tree is made from a kit tree whose stages did not apply
	test ! -e "$SCRATCH/w2/linux"
'

test_expect_success "re-running after a failed apply fails the same way, cleanly" '
	fails_with "does not apply" \
		env KIT_WORK="$SCRATCH/w2" KIT_TARBALL="$SCRATCH/fake.tar.xz" "$KIT/tree" &&
	test ! -d "$SCRATCH/w2/kit/linux/.git/rebase-apply"
'

test_expect_success "make tree after a kit update applies the stages again in the kit's tree, and leaves yours alone" '
	need_tree &&
	tree_state "$KIT_TREE" >"$SCRATCH/before" &&
	series=$(git -C "$KIT_OWN_TREE" rev-parse --absolute-git-dir)/spinkit-series &&
	# pretend stages/ changed, so that the stages are applied again
	rm "$series" &&
	"$KIT/tree" >"$SCRATCH/update.log" 2>&1 &&
	expect_grep "applying stages/ on baseline" "$SCRATCH/update.log" &&
	test -f "$series" &&
	tree_state "$KIT_TREE" >"$SCRATCH/after" &&
	diff -u "$SCRATCH/before" "$SCRATCH/after"
'

if [ "$(id -u)" -ne 0 ]; then
	skip_test "a disk too full for the tree is refused before extracting" "needs root to mount a small tmpfs"
else
test_expect_success "a disk too full for the tree is refused before extracting" '
	mkdir -p "$SCRATCH/full" &&
	mount -t tmpfs -o size=2m tmpfs "$SCRATCH/full" &&
	{ fails_with "only [0-9]+ MiB free in .*needs 8000 MiB" \
		env KIT_WORK="$SCRATCH/full/w" "$KIT/tree"; rc=$?; } ;
	umount "$SCRATCH/full"
	exit $rc
'
fi

test_expect_success "make gdb with no guest listening says how to start one" '
	fails_with "no gdbstub listens on port 1 .*make qemu-gdb" make -s -C "$KIT_ROOT" gdb GDBPORT=1
'

test_done
