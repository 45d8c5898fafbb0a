#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The edit, build, boot loop on the learner's own tree (HEAD=1), as the
# README shows it: an edit to kit_mutex.c is built, booted and seen in
# the guest's console; one file touched rebuilds in well under a minute;
# and a stage target, the tree still edited, builds and boots the kit's
# clean stage and says so; an image says what was asked for, not who
# built it first.  It runs on a tree of the kit's own, the
# grading tree (KIT_WORK/grade/linux), so that yours is never touched; its
# build directory then serves t9000's grading too.
# time limit: 1200 s
. "$(dirname "$0")/lib/tap.sh"

plan 6
need_tree
# it moves the kit's grading tree
hold_build_lock
last=$KIT_LAST_STAGE
built "$last" || { echo "Bail out! stage $last does not build"; exit 1; }

if ! learner=$(kit_grade_tree) || ! git -C "$learner" checkout -q -f -B spinkit "stage-$last"; then
	echo "Bail out! cannot set up the grading tree as a learner's"
	exit 1
fi
# Every make below works on that tree, as `make ... KIT_TREE=` would.
export KIT_TREE=$learner
kmake() { make -s -C "$KIT_ROOT" "$@"; }
# type_in_guest: the guest's shell is the console; type poweroff into it
# every few seconds until it takes (characters typed before it runs are
# lost).
type_in_guest() {
	for _ in $(seq 40); do sleep 5; echo "poweroff -f"; done
}
c=$learner/kernel/locking/kit_mutex.c
# edit_kit_mutex LINE: the learner's edit, LINE added to __kit_mutex_init().
edit_kit_mutex() {
	ADD=$1 awk '{ print } /^\tdebug_kit_mutex_init\(lock, name, key\);$/ { print ENVIRON["ADD"] }' \
		"$c" >"$c.new" && mv "$c.new" "$c"
}
learner_line=$'\tpr_info("kit: a learner was here: %s\\n", name);'
newest=$("$KIT/build" --stage "$last" --print-dir)
newest_sum=$(sha1sum <"$newest/bzImage")

test_expect_success "make kernel HEAD=1 on an unedited tree at stage-$last takes stage-$last's image" '
	kmake kernel HEAD=1 >"$SCRATCH/clean.out" 2>&1 &&
	cat "$SCRATCH/clean.out" &&
	expect_grep "already built: your tree at [0-9a-f]{12} \\(stage-$last\\)$" "$SCRATCH/clean.out"
'

# One image serves every request for its commit, whoever built it first:
# after bisect-test (or HEAD=1) built stage-$last in a learner's tree, the
# image was filed as "your tree at ... (stage-$last)", and a stage boot
# said so.  The banner names what was asked for.
test_expect_success "an image first built as your tree boots as stage-$last when the stage is asked for, and as your tree when HEAD=1 is" '
	cp "$newest/label" "$SCRATCH/label" &&
	echo "your tree at 000000000000 (stage-$last)" >"$newest/label" &&
	guest as-stage --stage "$last" --cmd true &&
	guest as-head --head --cmd true
	rc=$?
	cp "$SCRATCH/label" "$newest/label" &&
	expect_eq 0 "$rc" "the boots" &&
	expect_grep "^spinkit: Linux 6\\.1.*, stage-$last \\([0-9a-f]{12}\\), [0-9]+ CPUs" "$SCRATCH/as-stage.log" &&
	expect_grep "^spinkit: Linux 6\\.1.*, your tree at [0-9a-f]{12} \\(stage-$last\\), [0-9]+ CPUs" "$SCRATCH/as-head.log"
'

test_expect_success "an edit to kit_mutex.c: make run HEAD=1 builds and boots it, and the guest prints its line" '
	edit_kit_mutex "$learner_line" &&
	grep -q "a learner was here" "$c" &&
	start=$(date +%s) &&
	kmake kernel HEAD=1 >"$SCRATCH/edit-build.out" 2>&1 &&
	echo "# first build of the edited tree: $(($(date +%s) - start)) s" &&
	type_in_guest | timeout 300 make -s -C "$KIT_ROOT" run HEAD=1 >"$SCRATCH/edit-run.out" 2>&1
	tr -d "\\r" <"$SCRATCH/edit-run.out" >"$SCRATCH/edit-run.log" &&
	expect_grep "kit: a learner was here: " "$SCRATCH/edit-run.log" &&
	expect_grep "^spinkit: Linux 6\\.1.*, your tree at [0-9a-f]{12} \\(stage-$last\\) \\+ 1 file changed, [0-9]+ CPUs" "$SCRATCH/edit-run.log"
'

test_expect_success "the build of the edit is not filed under stage-$last: its image is untouched" '
	expect_eq "$newest_sum" "$(sha1sum <"$newest/bzImage")" "stage-$last bzImage" &&
	edits=$("$KIT/build" --head --print-dir) &&
	case "$edits" in */edits-*) ;; *) echo "edits image dir: $edits"; false ;; esac &&
	test -f "$edits/bzImage"
'

test_expect_success "one file touched again rebuilds in under a minute" '
	sed -i "s|a learner was here|a learner came back|" "$c" &&
	start=$(date +%s) &&
	kmake kernel HEAD=1 >"$SCRATCH/rebuild.out" 2>&1 &&
	took=$(($(date +%s) - start)) &&
	echo "# one-file rebuild: $took s" &&
	[ "$took" -lt 60 ] || { echo "Expected a one-file rebuild under 60 s, took $took s"; false; }
'

test_expect_success "make run, the tree still edited, boots the clean stage-$last and says so" '
	type_in_guest | timeout 300 make -s -C "$KIT_ROOT" run >"$SCRATCH/stage-run.out" 2>&1
	tr -d "\\r" <"$SCRATCH/stage-run.out" >"$SCRATCH/stage-run.log" &&
	expect_grep "note: this is the kit.s clean stage-$last; your edits to 1 file in .* are not in it \\(HEAD=1 builds and boots them" "$SCRATCH/stage-run.log" &&
	expect_grep "^spinkit: Linux 6\\.1.*, stage-$last \\([0-9a-f]{12}\\), [0-9]+ CPUs" "$SCRATCH/stage-run.log" &&
	! grep "a learner" "$SCRATCH/stage-run.log"
'

test_done
