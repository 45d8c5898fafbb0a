# shellcheck shell=bash
# TAP for spinkit's tests, in the manner of git's t/test-lib.sh: each test
# is a sentence and an &&-chained body; a failure prints the body's output
# as "# " diagnostics.  Guest runs keep their console logs in the test's
# scratch directory, which is removed when every test of the file passed.
#
# Sourced by tests/tNNNN-*.t, never run.
# shellcheck disable=SC2034 # variables are for the test files

set -uo pipefail
TEST_NAME=$(basename "$0" .t)
# The suite works in a KIT_WORK of its own, never the learner's: the
# learner's tree, run directory (their guests) and kept kernels are out
# of its reach.  KIT_LEARNER_WORK is the learner's, which t0050 and t9990
# alone look at; the compiler cache is the one shared thing, passed in
# explicitly.  (lib.sh is read twice: first for the learner's defaults.)
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
export KIT_LEARNER_WORK=${KIT_LEARNER_WORK:-$KIT_WORK}
export KIT_LEARNER_TREE=${KIT_LEARNER_TREE:-$KIT_TREE}
export KIT_WORK=${KIT_TEST_WORK:-$KIT_TEST_WORK_DEFAULT}
export CCACHE_DIR=${CCACHE_DIR:-$KIT_LEARNER_WORK/ccache}
unset KIT_TREE KIT_BUILD_LOCKED
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"
KIT=$KIT_ROOT/scripts
SCRATCH=$KIT_TEST_SCRATCH/$TEST_NAME
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"

# Samples: make test runs a sample of each slow proof, make test-full
# (scripts/run-tests --full, which sets KIT_TEST_FULL=1) the whole of it.
# The stages sampled are the first assignment, the seed's spin loop and
# the newest stage, which holds every stage's code (KIT_TEST_SAMPLE
# changes them).
KIT_TEST_FULL=${KIT_TEST_FULL:-}
KIT_TEST_SAMPLE=${KIT_TEST_SAMPLE:-1 3 $KIT_LAST_STAGE}
# sampled STAGE: this run proves STAGE's part of a slow proof.
sampled() { [ -n "$KIT_TEST_FULL" ] || [[ " $KIT_TEST_SAMPLE " == *" $1 "* ]]; }
# not_sampled: the reason a skipped part gives.
not_sampled="make test samples stages $KIT_TEST_SAMPLE; make test-full runs every stage"

tap_count=0
tap_failed=0

plan() { echo "1..$1"; }

# Each test runs under a time limit of its own, TEST_TIMEOUT seconds (900,
# or what test_timeout set for it): a hang is reported as that test's
# "not ok N - SENTENCE # TIMEOUT N seconds", as kselftest's runner does,
# and the file goes on with the next test.  The body runs in a process
# group of its own, so that the limit stops everything it started (QEMU
# too), and so does a signal that stops the file.
TEST_TIMEOUT=${TEST_TIMEOUT:-900}
next_timeout=""
body_pid="" timer_pid=""
# test_timeout SECONDS: the limit of the next test only.
test_timeout() { next_timeout=$1; }
# stop_group PGID: TERM, and KILL 10 s later, to a process group.
stop_group() {
	kill -TERM -- -"$1" 2>/dev/null || return 0
	for _ in $(seq 50); do
		kill -0 -- -"$1" 2>/dev/null || return 0
		sleep 0.2
	done
	kill -KILL -- -"$1" 2>/dev/null
	return 0
}
trap '[ -z "$timer_pid" ] || kill -- -"$timer_pid" 2>/dev/null
	[ -z "$body_pid" ] || stop_group "$body_pid"; exit 143' TERM INT

# test_expect_success "SENTENCE" 'BODY': run BODY in a subshell.  Lines
# the body prints that start with "# " (measured figures) are shown even
# when it passes.
# Each result is followed by the test's wall time, "# time: N s": the
# suite's budget is spent test by test, and this says where.
test_expect_success() {
	local name=$1 body=$2 out start limit=${next_timeout:-$TEST_TIMEOUT} rc=0
	next_timeout=""
	tap_count=$((tap_count + 1))
	out=$SCRATCH/test-$tap_count.out
	start=$(date +%s)
	rm -f "$SCRATCH/timed-out"
	set -m
	(eval "$body") >"$out" 2>&1 &
	body_pid=$!
	# the limit: TERM to the body's group, KILL 10 s later if it is still there
	(sleep "$limit" && touch "$SCRATCH/timed-out" && kill -TERM -- -"$body_pid" &&
		sleep 10 && kill -KILL -- -"$body_pid") >/dev/null 2>&1 &
	timer_pid=$!
	set +m
	wait "$body_pid" || rc=$?
	# what a stopped body left running goes too (TERM, then KILL)
	if [ -e "$SCRATCH/timed-out" ]; then stop_group "$body_pid"; fi
	kill -- -"$timer_pid" 2>/dev/null
	body_pid="" timer_pid=""
	if [ "$rc" -eq 0 ] && [ ! -e "$SCRATCH/timed-out" ]; then
		echo "ok $tap_count - $name"
		echo "# time: $(($(date +%s) - start)) s"
		# a passing test's "# " lines are its figures: shown, as TAP comments
		grep '^# ' "$out"
	else
		tap_failed=$((tap_failed + 1))
		if [ -e "$SCRATCH/timed-out" ]; then
			echo "not ok $tap_count - $name # TIMEOUT $limit seconds"
		else
			echo "not ok $tap_count - $name"
		fi
		echo "# time: $(($(date +%s) - start)) s"
		sed 's/^/#   /' "$out" | tail -40
		echo "#   (test output: $out)"
	fi
}

# skip_test "SENTENCE" REASON: a test that cannot run here, and why.
skip_test() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count - $1 # SKIP $2"
}

# expect_eq EXPECTED GOT WHAT: the evidence, not just the verdict.
expect_eq() {
	[ "$1" = "$2" ] && return 0
	echo "Expected $3 == '$1', got '$2'"
	return 1
}

# expect_grep PATTERN FILE: FILE has a line matching PATTERN (ERE).
expect_grep() {
	grep -Eq -- "$1" "$2" && return 0
	echo "Expected a line matching /$1/ in $2; its last lines:"
	tail -15 "$2"
	return 1
}

# learner_make NAME ARGS...: make ARGS in the kit, as a learner types it,
# in the suite's KIT_WORK; its output in SCRATCH/NAME.out, and printed
# (on failure too, as the evidence).
learner_make() {
	local name=$1
	shift
	make -s -C "$KIT_ROOT" KIT_WORK="$KIT_WORK" "$@" >"$SCRATCH/$name.out" 2>&1 ||
		{ cat "$SCRATCH/$name.out"; return 1; }
	cat "$SCRATCH/$name.out"
}

# c_code FILE (- for standard input): the C in FILE without its comments
# and blank lines, for comparing code while comments change.
c_code() { gcc -w -fpreprocessed -dD -E -P -x c "$1"; }

# guest LOGNAME [scripts/boot options] --cmd SCRIPT: boot quietly, keep the
# console in $SCRATCH/LOGNAME.log and the results channel (kit-check's
# KEY=value lines) in $SCRATCH/LOGNAME.results; return the guest's status.
guest() {
	local name=$1
	shift
	"$KIT/boot" --quiet --timeout "${GUEST_TIMEOUT:-180}" \
		--log "$SCRATCH/$name.log" --results "$SCRATCH/$name.results" "$@"
}

# result LOGNAME KEY: what guest LOGNAME's oracle reported as KEY (the
# last time); results LOGNAME KEY: every time, one a line.
result() { result_of "$SCRATCH/$1.results" "$2"; }
results() { tr -d '\r' <"$SCRATCH/$1.results" | sed -n "s/^$2=//p"; }
# expect_result LOGNAME KEY EXPECTED WHAT: the guest reported KEY, as
# EXPECTED (an empty value is a value: a key never reported is not).
expect_result() {
	if ! tr -d '\r' <"$SCRATCH/$1.results" | grep -q "^$2="; then
		echo "Expected $4 ($2) in $SCRATCH/$1.results: the guest never reported it"
		return 1
	fi
	expect_eq "$3" "$(result "$1" "$2")" "$4"
}

# built STAGE [--debug]: build a stage's kernel if needed (quietly).
built() {
	local stage=$1
	shift
	"$KIT/build" --stage "$stage" "$@" >"$SCRATCH/build-$stage$*.log" 2>&1 || {
		tail -20 "$SCRATCH/build-$stage$*.log"
		return 1
	}
}

# tree_state TREE: a fingerprint of everything in a kernel tree that is
# its owner's: HEAD, branches, tags, stashes, worktrees, the index,
# uncommitted edits and a bisection under way.
tree_state() {
	local git_dir
	git_dir=$(git -C "$1" rev-parse --absolute-git-dir)
	git -C "$1" rev-parse HEAD
	git -C "$1" symbolic-ref -q HEAD || echo "detached HEAD"
	git -C "$1" for-each-ref --format='%(refname) %(objectname)' refs/heads refs/tags refs/bisect refs/stash
	echo "stashes $(git -C "$1" stash list | sha1sum)"
	git -C "$1" worktree list --porcelain
	echo "edits $(git -C "$1" diff HEAD | sha1sum)"
	echo "index $(git -C "$1" diff --cached | sha1sum)"
	echo "bisect $(cat "$git_dir/BISECT_LOG" "$git_dir/BISECT_START" 2>/dev/null | sha1sum)"
}

# The learner's: their tree, and their guests (KIT_LEARNER_WORK).
LEARNER_TREE=$KIT_LEARNER_TREE
LEARNER_GUESTS=$KIT_LEARNER_WORK/run/guests
# learner_state: the learner's tree (when there is one) and the guests
# they have running: each record, and whether its QEMU still runs.
learner_state() {
	local rec
	if tree_ready "$LEARNER_TREE"; then tree_state "$LEARNER_TREE"; else echo "no tree at $LEARNER_TREE"; fi
	for rec in "$LEARNER_GUESTS"/[0-9]*; do
		[ -f "$rec" ] || continue
		echo "guest $(basename "$rec"): $(sha1sum <"$rec" | cut -c1-12), QEMU $(kill -0 "$(record_field "$rec" pid)" 2>/dev/null && echo running || echo gone)"
	done
	return 0
}
# Where t0050 leaves the fingerprint for t9990, outside any scratch dir,
# and what it planted on a throwaway machine.
LEARNER_STATE_FILE=$KIT_WORK/test-learner-state
LEARNER_PLANTS=$KIT_WORK/test-learner-plants

# hold_build_lock: for a test file that moves the kit's own tree (a
# checkout, a bisection): it holds the build lock until it ends, and the
# kit's scripts it runs take the lock as theirs.
hold_build_lock() {
	build_lock
	export KIT_BUILD_LOCKED=$KIT_WORK
}

# The tests that need a kernel tree get one, built the way `make tree` does.
need_tree() {
	"$KIT/tree" >"$SCRATCH/tree.log" 2>&1 || {
		echo "Bail out! the kernel tree could not be set up (see $SCRATCH/tree.log)"
		exit 1
	}
}

test_done() {
	if [ "$tap_failed" -eq 0 ]; then
		rm -rf "$SCRATCH"
		exit 0
	fi
	echo "# $tap_failed of $tap_count failed; logs kept in $SCRATCH"
	exit 1
}
