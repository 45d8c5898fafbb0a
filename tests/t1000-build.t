#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The tree and the builds: reproducible ids, clean stage commits, and a
# commit that is built is never built again.
# time limit: 1500 s
. "$(dirname "$0")/lib/tap.sh"

plan 8
need_tree

test_expect_success "make tree run again changes nothing and prints the tarball version" '
	last=stage-$KIT_LAST_STAGE &&
	before=$(git -C "$KIT_OWN_TREE" rev-parse $last) &&
	"$KIT/tree" >"$SCRATCH/tree2.log" 2>&1 &&
	expect_grep "stages already applied \(linux-source-6.1 $(tarball_version)\)" "$SCRATCH/tree2.log" &&
	expect_eq "$before" "$(git -C "$KIT_OWN_TREE" rev-parse $last)" "$last commit" &&
	expect_eq "$before" "$(git -C "$KIT_TREE" rev-parse $last)" "$last in your tree"
'

# Stages 0-5 follow the seed; each later one, the upstream commit it replays.
test_expect_success "every stage commit is by the fixed identity and credits its upstream commit: the seed, 0d66bf6d3514, up to stage 5" '
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		c=$(git -C "$KIT_OWN_TREE" rev-parse "stage-$s") &&
		expect_eq "spinkit <spinkit@example.invalid>" \
			"$(git -C "$KIT_OWN_TREE" log -1 --format="%an <%ae>" "$c")" "author of stage-$s" &&
		expect_eq "spinkit" "$(git -C "$KIT_OWN_TREE" log -1 --format="%cn" "$c")" "committer of stage-$s" &&
		git -C "$KIT_OWN_TREE" log -1 --format=%B "$c" >"$SCRATCH/msg" &&
		up=$(sed -n "s|^Link: https://git.kernel.org/torvalds/c/\([0-9a-f]\{12\}\)$|\1|p" "$SCRATCH/msg") &&
		{ [ -n "$up" ] || { echo "stage-$s has no Link: to its upstream commit"; exit 1; }; } &&
		{ [ "$s" -gt 5 ] || expect_eq 0d66bf6d3514 "$up" "the upstream commit of stage-$s"; } &&
		{ grep -qE "$up( \(|, )\"" "$SCRATCH/msg" || { echo "stage-$s does not cite $up with its subject"; exit 1; }; } || exit 1
	done &&
	expect_eq "$(($KIT_LAST_STAGE + 1))" "$(git -C "$KIT_OWN_TREE" rev-list --count baseline..stage-$KIT_LAST_STAGE)" "stage commits"
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
	changed=$(git -C "$KIT_OWN_TREE" diff --name-only baseline stage-$KIT_LAST_STAGE -- include/ | tr "\n" " ") &&
	expect_eq "include/linux/kit_mutex.h include/trace/events/kit_mutex.h " "$changed" "headers changed by the series" &&
	# and the trace events header is included by kit files alone
	users=$(git -C "$KIT_OWN_TREE" grep -l "trace/events/kit_mutex.h" stage-$KIT_LAST_STAGE | sed "s/^stage-[0-9]*://" | tr "\n" " ") &&
	expect_eq "kernel/locking/kit_mutex_stat.h kernel/locking/kit_mutex_trace.c " "$users" "files that include trace/events/kit_mutex.h"
'

test_expect_success "kept kernels past KIT_IMAGES_MAX go, least recently used first; stage images stay" '
	w=$SCRATCH/evict && mkdir -p "$w/kit" &&
	git -C "$w/kit" init -q linux &&
	for c in one two three; do
		git -C "$w/kit/linux" -c user.name=t -c user.email=t@t commit -q --allow-empty -m $c || exit 1
	done &&
	git -C "$w/kit/linux" tag stage-0 HEAD~2 &&
	for c in $(git -C "$w/kit/linux" rev-list HEAD); do
		d=$w/images/default/$c && mkdir -p "$d" &&
		head -c 2M /dev/zero >"$d/bzImage" && echo "commit $c" >"$d/label" && touch "$d/used" || exit 1
	done &&
	old=$w/images/default/$(git -C "$w/kit/linux" rev-parse HEAD~1) &&
	new=$w/images/default/$(git -C "$w/kit/linux" rev-parse HEAD) &&
	stage=$w/images/default/$(git -C "$w/kit/linux" rev-parse stage-0) &&
	touch -d "2 days ago" "$old/used" "$stage/used" &&
	# in a shell of its own under set -euo pipefail, as scripts/build runs
	# it (a test body ignores set -e), and with no guest running
	KIT_WORK=$w KIT_IMAGES_MAX=5 bash -c "set -euo pipefail; . \"$KIT/lib.sh\"; evict_images; echo evicted" \
		>"$SCRATCH/evict.out" &&
	expect_grep "^evicted$" "$SCRATCH/evict.out" &&
	cat "$SCRATCH/evict.out" &&
	test ! -e "$old" && test -d "$new" && test -d "$stage" &&
	expect_grep "evicting .*$(basename "$old") .*kept kernels over 5 MiB" "$SCRATCH/evict.out"
'

test_expect_success "a second machine fills its compiler cache from the first one's remote (KIT_CCACHE_REMOTE)" '
	r=$SCRATCH/remote && mkdir -p "$r/shared" "$r/src" &&
	echo "int kit_answer(void) { return 42; }" >"$r/src/x.c" &&
	for m in one two; do
		(KIT_WORK=$r KIT_CCACHE_REMOTE=file:$r/shared CCACHE_DIR=$r/$m && . "$KIT/lib.sh" &&
			ccache_env && cd "$r/src" && rm -f x.o && ccache gcc -c x.c -o x.o &&
			ccache --print-stats | sed -n "s/^remote_storage_hit\t//p" >"$r/$m.hits") || exit 1
	done &&
	expect_eq 0 "$(cat "$r/one.hits")" "remote hits on the first machine" &&
	expect_eq 1 "$(cat "$r/two.hits")" "remote hits on the second machine"
'

test_expect_success "the first build of another stage, once one is built, takes at most 45 s" '
	built $KIT_LAST_STAGE &&
	other=$((KIT_LAST_STAGE - 1)) &&
	d=$("$KIT/build" --stage $other --print-dir) &&
	rm -rf "$d" &&
	"$KIT/build" --stage $KIT_LAST_STAGE >/dev/null 2>&1 &&
	start=$(date +%s) &&
	"$KIT/build" --stage $other >"$SCRATCH/switch.log" 2>&1 &&
	took=$(($(date +%s) - start)) &&
	echo "# first build of stage-$other after stage-$KIT_LAST_STAGE: $took s" &&
	[ "$took" -le 45 ] || { echo "Expected at most 45 s, took $took s"; tail -5 "$SCRATCH/switch.log"; false; }
'

test_done
