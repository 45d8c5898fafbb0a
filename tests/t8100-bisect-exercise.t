#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Bisection exercises: the same SEED gives the same commits; the checker
# knows right from wrong; and a real `git bisect run` with scripts/bisect-test
# finds the planted commit for two bugs of different kinds (a crash and a
# silent performance regression), once across the
# Btrfs-style merge of a kernel-less history and once across a range that
# does not build (that one in make test-full only).
# time limit: 1800 s
. "$(dirname "$0")/lib/tap.sh"

need_tree
# it checks commits out in the kit's own tree
hold_build_lock
plan 9

# Exercises are made in the kit's own tree, never in yours: KIT_TREE
# points the kit's commands there, and the commands an exercise prints
# name it, so that running them as printed stays there too.
tree=$KIT_OWN_TREE
export KIT_TREE=$tree
# Seeds whose bisections meet each trap (git bisect's choices depend on the
# history's shape: with seed 9 it checks out a kernel-less commit, with
# seed 4 two commits that do not build).
seed_btrfs=9
seed_broken=4
# The exercise branches are the kit tree's, removed at the end and before.
cleanup() {
	git -C "$tree" bisect reset >/dev/null 2>&1
	for s in $seed_btrfs $seed_broken 8 10; do
		git -C "$tree" update-ref -d "refs/heads/exercise-$s" 2>/dev/null
		git -C "$tree" config --remove-section "exercise.$s" 2>/dev/null
	done
	true
}
trap cleanup EXIT
cleanup

# answer SEED: the full id of the planted commit, from the instructor's key.
answer() {
	git -C "$tree" rev-parse "$("$KIT/bisect-exercise" key "$1" |
		sed -n 's/^  answer: *\([0-9a-f]*\) .*/\1/p')"
}

# printed NAME FROM TO: the indented lines of exercise NAME's printout
# between the line starting FROM and the one starting TO, as a script.
printed() {
	sed -n "/^$2/,/^$3/p" "$SCRATCH/$1.make" | sed -n 's/^  //p'
}

# bisect_run NAME: run the "Begin:" lines exercise NAME printed, exactly as
# printed, then its "git bisect log" and LOG check lines, then "Finish
# with"; NAME.run is the bisection, NAME.grade the check, NAME.first the
# commit found.
bisect_run() {
	local name=$1 cd_line
	printed "$name" Begin: Then >"$SCRATCH/$name.begin"
	cd_line=$(head -n 1 "$SCRATCH/$name.begin")
	(bash -e "$SCRATCH/$name.begin") >"$SCRATCH/$name.run" 2>&1
	{ echo "$cd_line"; printed "$name" Then Finish | grep -v "COMMIT=<"; } >"$SCRATCH/$name.check"
	(bash -e "$SCRATCH/$name.check") >"$SCRATCH/$name.grade" 2>&1
	{ echo "$cd_line"; sed -n "s/^Finish with: //p" "$SCRATCH/$name.make"; } >"$SCRATCH/$name.finish"
	(bash -e "$SCRATCH/$name.finish") >/dev/null 2>&1
	sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$SCRATCH/$name.run" >"$SCRATCH/$name.first"
	grep -E "bisect-test: |first bad|only 'skip'ped" "$SCRATCH/$name.run"
	cat "$SCRATCH/$name.grade"
}

# found_and_graded NAME SEED: the bisection NAME found the planted commit of
# exercise SEED, the checker graded its log right, and the bisection ended.
found_and_graded() {
	expect_eq "$(answer "$2")" "$(cat "$SCRATCH/$1.first")" "the first bad commit found" &&
	expect_grep "^Answer right" "$SCRATCH/$1.grade" &&
	test ! -f "$(git -C "$tree" rev-parse --absolute-git-dir)/BISECT_LOG"
}

test_expect_success "every edit of the catalogue fits every stage it can meet" '
	"$KIT/bisect-exercise" verify >"$SCRATCH/verify.out" &&
	expect_grep "[0-9]+ edits fit their stages" "$SCRATCH/verify.out"
'

test_expect_success "the catalogue has seven bugs, a flaky one, a CPU waster and a debug-only one among them" '
	"$KIT/bisect-exercise" list >"$SCRATCH/list.out" &&
	expect_eq 7 "$(wc -l <"$SCRATCH/list.out")" "bugs listed" &&
	expect_grep "sleeper-spin +silent waste" "$SCRATCH/list.out" &&
	expect_grep "flaky" "$SCRATCH/list.out" &&
	expect_grep "debug build only" "$SCRATCH/list.out"
'

test_expect_success "the same SEED gives the same commit ids twice, another SEED others" '
	"$KIT/bisect-exercise" make 8 >"$SCRATCH/make8.out" &&
	first=$(git -C "$tree" rev-parse exercise-8) &&
	bug=$("$KIT/bisect-exercise" key 8 | sed -n "s/^  bug: *\([a-z-]*\) .*/\1/p") &&
	if [ "$bug" = spin-off ]; then other_bug=double-holder; else other_bug=spin-off; fi &&
	! "$KIT/bisect-exercise" make 8 --bug $other_bug >/dev/null 2>"$SCRATCH/other8.err" &&
	expect_grep "exercise-8 exists .* and is not this exercise" "$SCRATCH/other8.err" &&
	git -C "$tree" update-ref -d refs/heads/exercise-8 &&
	"$KIT/bisect-exercise" make 8 >/dev/null &&
	expect_eq "$first" "$(git -C "$tree" rev-parse exercise-8)" "tip of exercise-8 made again" &&
	expect_eq 32 "$(git -C "$tree" rev-list --count --first-parent baseline..exercise-8)" "commits on the main line" &&
	"$KIT/bisect-exercise" make 10 --bug lost-wakeup >"$SCRATCH/make10.out" &&
	other=$(git -C "$tree" rev-parse exercise-10) &&
	test "$other" != "$first" &&
	# a flaky bug asks for tries: the variable goes before git, which runs the test
	# (with KIT_WORK too when it is not the default)
	expect_grep "^  BISECT_TRIES=5 (KIT_WORK=[^ ]+ )?git bisect run /.*/scripts/bisect-test lost$" "$SCRATCH/make10.out"
'

test_expect_success "the checker takes the planted commit and rejects its neighbours" '
	right=$(answer 8) &&
	! grep "${right:0:7}" "$SCRATCH/make8.out" &&
	"$KIT/bisect-exercise" check 8 "$right" >"$SCRATCH/right.out" &&
	expect_grep "^right:" "$SCRATCH/right.out" &&
	! "$KIT/bisect-exercise" check 8 "$right^" >"$SCRATCH/parent.out" &&
	expect_grep "^wrong: .* does not have the bug yet" "$SCRATCH/parent.out" &&
	child=$(git -C "$tree" rev-list --reverse --first-parent "$right..exercise-8" | sed -n 1p) &&
	! "$KIT/bisect-exercise" check 8 "$child" >"$SCRATCH/child.out" &&
	expect_grep "^wrong: .* has the bug, but so does an older commit" "$SCRATCH/child.out"
'

test_expect_success "a crash bug behind a merged kernel-less history: exercise made, its start line without checkout" '
	"$KIT/bisect-exercise" make $seed_btrfs --bug preempt-leak --trap btrfs >"$SCRATCH/btrfs.make" &&
	cat "$SCRATCH/btrfs.make" &&
	expect_grep "^  git bisect start --no-checkout [0-9a-f]{12} [0-9a-f]{12}$" "$SCRATCH/btrfs.make" &&
	side=$(git -C "$tree" rev-list --max-parents=0 "exercise-$seed_btrfs" | grep -v "$(git -C "$tree" rev-list --max-parents=0 baseline)") &&
	test -n "$side" &&
	expect_eq tools "$(git -C "$tree" ls-tree --name-only "$side")" "the side root holds only tools/"
'

# --no-checkout: bisect-test looks at a kernel-less commit without checking
# it out, which would delete the whole kernel tree and cost a full rebuild.
test_expect_success "the printed commands, run as printed, find it, calling the kernel-less commits good" '
	bisect_run btrfs &&
	found_and_graded btrfs $seed_btrfs &&
	expect_grep "no kernel in this tree, so no kernel regression either: good" "$SCRATCH/btrfs.run" &&
	expect_grep "BUG: (scheduling while atomic|sleeping function)" "$SCRATCH/btrfs.run" &&
	expect_grep " 0 wrong" "$SCRATCH/btrfs.grade"
'

test_expect_success "a silent performance bug behind a range that does not build: exercise made" '
	"$KIT/bisect-exercise" make $seed_broken --bug spin-off --trap broken-range >"$SCRATCH/broken.make" &&
	cat "$SCRATCH/broken.make"
'

if [ -z "$KIT_TEST_FULL" ]; then
	skip_test "the printed commands, run as printed, find it, skipping what does not build" \
		"make test bisects across the Btrfs trap; make test-full across this one too"
else test_expect_success "the printed commands, run as printed, find it, skipping what does not build" '
	bisect_run broken &&
	found_and_graded broken $seed_broken &&
	expect_grep "does not build, cannot judge \\(125\\)" "$SCRATCH/broken.run" &&
	expect_grep "kit [0-9]+ vs 6.1 [0-9]+ ops/s: [0-9]+% < [0-9]+%: bad" "$SCRATCH/broken.run" &&
	expect_grep "skip .* right: it does not build" "$SCRATCH/broken.grade"
'
fi

test_expect_success "a log that calls an unbuildable commit bad is graded as a guess" '
	broken=$(git -C "$tree" log --format=%H --grep="^ramfs: call the show_options" "exercise-$seed_broken") &&
	test -n "$broken" &&
	printf "git bisect start\ngit bisect bad %s\n" "$broken" >"$SCRATCH/guess.log" &&
	! "$KIT/bisect-exercise" check $seed_broken --log "$SCRATCH/guess.log" >"$SCRATCH/guess.grade" &&
	cat "$SCRATCH/guess.grade" &&
	expect_grep "guessed: this commit does not build" "$SCRATCH/guess.grade" &&
	expect_grep "did not end" "$SCRATCH/guess.grade"
'

test_done
