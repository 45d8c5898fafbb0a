#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Bisection exercises: the same SEED gives the same commits; the checker
# knows right from wrong; and a real `git bisect run` with scripts/bisect-test
# finds the planted commit for two bugs of different kinds (a crash and a
# silent performance regression), once across the
# Btrfs-style merge of a kernel-less history and once across a range that
# does not build.
. "$(dirname "$0")/lib/tap.sh"

need_tree
plan 9

tree=$KIT_TREE
# Seeds whose bisections meet each trap (git bisect's choices depend on the
# history's shape: with seed 9 it checks out a kernel-less commit, with
# seed 4 two commits that do not build).
seed_btrfs=9
seed_broken=4
# The exercise branches are made in the kit's tree and removed at the end;
# the tree goes back to the kit's branch whatever happened.
cleanup() {
	git -C "$tree" bisect reset spinkit >/dev/null 2>&1
	git -C "$tree" checkout -q -f spinkit
	for s in $seed_btrfs $seed_broken 8 10; do
		git -C "$tree" branch -q -D "exercise-$s" >/dev/null 2>&1
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

# bisect_run NAME [START-OPTION] TEST...: start the bisection the exercise
# printed, run it to the end, keep its output and log; NAME.first is the
# commit it found.
bisect_run() {
	local name=$1 good bad opts=()
	shift
	if [ "$1" = --no-checkout ]; then
		opts=(--no-checkout)
		shift
	fi
	good=$(sed -n 's/^  git bisect start \([0-9a-f]*\) \([0-9a-f]*\)$/\2/p' "$SCRATCH/$name.make")
	bad=$(sed -n 's/^  git bisect start \([0-9a-f]*\) \([0-9a-f]*\)$/\1/p' "$SCRATCH/$name.make")
	git -C "$tree" bisect start "${opts[@]}" "$bad" "$good" >/dev/null &&
	(cd "$tree" && git bisect run "$@") >"$SCRATCH/$name.run" 2>&1
	git -C "$tree" bisect log >"$SCRATCH/$name.log"
	git -C "$tree" bisect reset spinkit >/dev/null 2>&1
	sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$SCRATCH/$name.run" >"$SCRATCH/$name.first"
	grep -E "bisect-test: |first bad|only 'skip'ped" "$SCRATCH/$name.run"
}

# found_and_graded NAME SEED: the bisection NAME found the planted commit of
# exercise SEED, and the checker grades its log right (NAME.grade).
found_and_graded() {
	expect_eq "$(answer "$2")" "$(cat "$SCRATCH/$1.first")" "the first bad commit found" &&
	"$KIT/bisect-exercise" check "$2" --log "$SCRATCH/$1.log" >"$SCRATCH/$1.grade" &&
	cat "$SCRATCH/$1.grade" &&
	expect_grep "^Answer right" "$SCRATCH/$1.grade"
}

test_expect_success "every edit of the catalogue fits every stage it can meet" '
	"$KIT/bisect-exercise" verify >"$SCRATCH/verify.out" &&
	expect_grep "[0-9]+ edits fit their stages" "$SCRATCH/verify.out"
'

test_expect_success "the catalogue has six bugs, a flaky one and a debug-only one among them" '
	"$KIT/bisect-exercise" list >"$SCRATCH/list.out" &&
	expect_eq 6 "$(wc -l <"$SCRATCH/list.out")" "bugs listed" &&
	expect_grep "flaky" "$SCRATCH/list.out" &&
	expect_grep "debug build only" "$SCRATCH/list.out"
'

test_expect_success "the same SEED gives the same commit ids twice, another SEED others" '
	"$KIT/bisect-exercise" make 8 >"$SCRATCH/make8.out" &&
	first=$(git -C "$tree" rev-parse exercise-8) &&
	git -C "$tree" branch -q -D exercise-8 &&
	"$KIT/bisect-exercise" make 8 >/dev/null &&
	expect_eq "$first" "$(git -C "$tree" rev-parse exercise-8)" "tip of exercise-8 made again" &&
	expect_eq 32 "$(git -C "$tree" rev-list --count --first-parent baseline..exercise-8)" "commits on the main line" &&
	"$KIT/bisect-exercise" make 10 >/dev/null &&
	other=$(git -C "$tree" rev-parse exercise-10) &&
	test "$other" != "$first"
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

test_expect_success "a crash bug behind a merged kernel-less history: exercise made" '
	"$KIT/bisect-exercise" make $seed_btrfs --bug preempt-leak --trap btrfs >"$SCRATCH/btrfs.make" &&
	cat "$SCRATCH/btrfs.make" &&
	side=$(git -C "$tree" rev-list --max-parents=0 "exercise-$seed_btrfs" | grep -v "$(git -C "$tree" rev-list --max-parents=0 baseline)") &&
	test -n "$side" &&
	expect_eq tools "$(git -C "$tree" ls-tree --name-only "$side")" "the side root holds only tools/"
'

# --no-checkout: bisect-test looks at a kernel-less commit without checking
# it out, which would delete the whole kernel tree and cost a full rebuild.
test_expect_success "git bisect run finds it, calling the kernel-less commits good" '
	bisect_run btrfs --no-checkout "$KIT/bisect-test" lost &&
	found_and_graded btrfs $seed_btrfs &&
	expect_grep "no kernel in this tree, so no kernel regression either: good" "$SCRATCH/btrfs.run" &&
	expect_grep "BUG: (scheduling while atomic|sleeping function)" "$SCRATCH/btrfs.run" &&
	expect_grep " 0 wrong" "$SCRATCH/btrfs.grade"
'

test_expect_success "a silent performance bug behind a range that does not build: exercise made" '
	"$KIT/bisect-exercise" make $seed_broken --bug spin-off --trap broken-range >"$SCRATCH/broken.make" &&
	cat "$SCRATCH/broken.make"
'

test_expect_success "git bisect run finds it, skipping what does not build" '
	bisect_run broken "$KIT/bisect-test" perf &&
	found_and_graded broken $seed_broken &&
	expect_grep "does not build, cannot judge \\(125\\)" "$SCRATCH/broken.run" &&
	expect_grep "kit [0-9]+ vs 6.1 [0-9]+ ops/s: [0-9]+% < 75%: bad" "$SCRATCH/broken.run" &&
	expect_grep "skip .* right: it does not build" "$SCRATCH/broken.grade"
'

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
