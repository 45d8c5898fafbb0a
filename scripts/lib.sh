# shellcheck shell=bash
# Shared by every spinkit script: where things live, how to talk, and the
# fixed identity that makes the kit's commits the same on every machine.
# Sourced, never run.
# shellcheck disable=SC2034 # the variables are for the sourcing scripts

KIT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The kernel tree, builds and run files live outside the checkout.
KIT_WORK_DEFAULT=$(cd "$KIT_ROOT/.." && pwd)/spinkit-work
KIT_WORK=${KIT_WORK:-$KIT_WORK_DEFAULT}
KIT_TARBALL=${KIT_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# Two kernel trees, one owner each.  KIT_TREE is the learner's: the kit
# creates it once (make tree) and from then on only reads it, unless the
# learner asks (HEAD=1 builds it as it is, bisect-exercise adds a branch).
# KIT_OWN_TREE is the kit's: stage builds, labs and tests check commits
# out there, so that they never move the learner's HEAD, index, branches
# or bisection.  It is a clone of its own, not a worktree: worktrees
# share branches, and a test's exercise-9 would be the learner's.
KIT_TREE=${KIT_TREE:-$KIT_WORK/linux}
# KIT_WORK's layout: what the kit writes there, named here only (scripts/
# clean removes from this list).  Build directories are beside their
# trees (build_dir_of).
KIT_OWN_TREE=$KIT_WORK/kit/linux     # the kit's tree: stages checked out
KIT_GRADE_TREE=$KIT_WORK/grade/linux # the kit's grading tree: submissions
KIT_IMAGES=$KIT_WORK/images          # kept kernels, by variant and commit
KIT_RUN=$KIT_WORK/run                # guests' records, boots, consoles
KIT_RESULTS=$KIT_WORK/results        # make bench, bench-stages: a run each
KIT_HANDOUTS_OUT=$KIT_WORK/handouts  # make handouts: HTML and PDF
KIT_HOST=$KIT_WORK/host              # host tools the kit compiles
KIT_INITRAMFS=$KIT_WORK/initramfs.cpio.gz
KIT_CONFIGS=$KIT_WORK/config         # configured .config per variant
KIT_STATS=$KIT_WORK/stats            # full-build file counts and logs
KIT_KVM_PROBE=$KIT_WORK/kvm-works    # the KVM probe's answer
KIT_TEST_SCRATCH=$KIT_WORK/test-scratch # a test file's logs, kept on failure
KIT_BENCH_SETUP=$KIT_WORK/bench-setup # scripts/bench-setup's fresh work dirs
KIT_CCACHE=$KIT_WORK/ccache          # the compiler cache (CCACHE_DIR moves it)
KIT_TEST_WORK_DEFAULT=$KIT_WORK/test # the test suite's own KIT_WORK
KIT_STAGES_DIR=$KIT_ROOT/stages
# stages/manifest.tsv is the one source of a stage's facts (its header says
# which); the newest stage is its last record with a patch (a student
# kit keeps the record of the assignment it gives, not its patch).
KIT_MANIFEST=$KIT_STAGES_DIR/manifest.tsv
KIT_LAST_STAGE=$(awk -F'\t' -v d="$KIT_STAGES_DIR" '/^[0-9]/ {
		if ((getline line < sprintf("%s/%02d-%s.patch", d, $1, $2)) > 0) n = $1 } END { print n }' "$KIT_MANIFEST")

# stage_field N FIELD: one field of stage N's record (a column name of the
# manifest's header); "-" is printed as nothing.
stage_field() {
	local v
	v=$(table_field "$KIT_MANIFEST" "$1" "$2") ||
		die "stages/manifest.tsv has no field $2 for stage $1" "see the header of stages/manifest.tsv"
	[ "$v" = - ] || echo "$v"
}

# table_field FILE KEY FIELD: FIELD of the record whose first column is
# KEY, in one of the kit's tables (stages/manifest.tsv, course/checks.tsv),
# whose header line "#NAME\tNAME..." names the columns; fails when there
# is no such record or field.
table_field() {
	awk -F'\t' -v key="$2" -v f="$3" '
		/^#[a-z_]+\t/ { for (i = 1; i <= NF; i++) if ("#" f == $i || f == $i) col = i; next }
		/^#/ || /^$/ { next }
		$1 == key && col { print $col; found = 1 }
		END { exit !found }' "$1"
}

# A stage's files, from its number and slug (the manifest's header); each
# fails, having said why, for a stage with no record.
stage_name() {
	local slug
	slug=$(stage_field "$1" slug) || return 1
	printf '%02d-%s' "$1" "$slug"
}
stage_patch() { local n; n=$(stage_name "$1") && echo "$KIT_STAGES_DIR/$n.patch"; }
stage_lab() { local n; n=$(stage_name "$1") && echo "$KIT_ROOT/labs/$n"; }
stage_handout() { local n; n=$(stage_name "$1") && echo "$KIT_ROOT/handouts/stage-$n.md"; }

# Reproducible commits: fixed names, dates taken from the patches.
export GIT_COMMITTER_NAME=spinkit GIT_COMMITTER_EMAIL=spinkit@example.invalid
export LANG=C LC_ALL=C TZ=UTC
# Reading a tree (git status, git diff) must not write its index: the
# learner's index is the learner's.
export GIT_OPTIONAL_LOCKS=0
KIT_BASELINE_DATE='2009-01-12T12:00:00+0000'

kit_prog=$(basename "$0")

say() { printf '%s: %s\n' "$kit_prog" "$*"; }
# die REASON [HINT]: one line on stderr, with the fix when there is one.
die() {
	if [ $# -gt 1 ]; then
		printf 'error: %s (%s)\n' "$1" "$2" >&2
	else
		printf 'error: %s\n' "$1" >&2
	fi
	exit 1
}

need_cmd() { # need_cmd COMMAND PACKAGE
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 is not installed" "run: make deps, or apt-get install $2"
}

# The Debian package version of the tarball, e.g. 6.1.192-3: commit ids
# depend on it, so it is printed wherever ids are.
tarball_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown
}

# The version the stage patches were tested on.
tested_version() { cat "$KIT_STAGES_DIR/TESTED-ON"; }

# stage_number ARG: validate a stage name (N or stage-N).
stage_number() {
	local s=${1#stage-}
	if [[ $s =~ ^(0|[1-9][0-9]?)$ ]] && [ "$s" -le "$KIT_LAST_STAGE" ]; then
		echo "$s"
		return
	fi
	die "no stage '$1'" "stages are 0 to $KIT_LAST_STAGE, e.g. STAGE=3"
}

# assignment_number ARG: a stage a student can write: 1 to the newest, or,
# in a student kit, the one whose skeleton it holds.
assignment_number() {
	if [[ ${1:-} =~ ^[1-9][0-9]?$ ]] && { [ "$1" -le "$KIT_LAST_STAGE" ] ||
		compgen -G "$KIT_ROOT/course/skeletons/$1-*.patch" >/dev/null; }; then
		echo "$1"
		return
	fi
	local top=$KIT_LAST_STAGE
	compgen -G "$KIT_ROOT/course/skeletons/$((top + 1))-*.patch" >/dev/null && top=$((top + 1))
	die "no assignment '${1:-}'" "this kit has assignments 1 to $top, e.g. STAGE=$top"
}

# student_kit_stage: in a student kit (course/STUDENT-KIT), the assignment
# it gives: the stage of its skeleton; nothing elsewhere.
student_kit_stage() {
	[ -f "$KIT_ROOT/course/STUDENT-KIT" ] || return 0
	find "$KIT_ROOT/course/skeletons" -maxdepth 1 -name '[0-9]*-skeleton.patch' -printf '%f\n' |
		sed 's/-.*//' | sort -n | tail -n 1
}

# Space the kit needs before a step, in MiB.
need_space() { # need_space DIR MIB WHAT
	local avail
	mkdir -p "$1"
	avail=$(df -Pm "$1" | awk 'NR==2 {print $4}')
	[ "$avail" -ge "$2" ] ||
		die "only ${avail} MiB free in $1, $3 needs $2 MiB" \
			"free some space or set KIT_WORK to another disk"
}

# stage_files N: the files assignment N's work may change, those where
# its skeleton differs from stage N (scripts/course.py files): not the
# grader's counters, 6.1's own mutex, a Makefile, nor a file the skeleton
# gives whole.  In a student kit (no stage N, no course.py), the list
# scripts/student-kit wrote beside the skeleton.  Fails, saying why, when
# there is none.
stage_files() {
	if [ -f "$KIT_ROOT/scripts/course.py" ] &&
		git -C "$KIT_OWN_TREE" rev-parse -q --verify "stage-$1" >/dev/null 2>&1; then
		python3 "$KIT_ROOT/scripts/course.py" --tree "$KIT_OWN_TREE" files "$1"
	elif [ -f "$KIT_ROOT/course/skeletons/$1-files" ]; then
		cat "$KIT_ROOT/course/skeletons/$1-files"
	else
		echo "error: no list of the files assignment $1 may change (make the student kit again: make student-kit)" >&2
		return 1
	fi
}

# tree_ready [TREE]: TREE (default: the learner's) is a kit tree.
tree_ready() {
	local t=${1:-$KIT_TREE}
	[ -d "$t/.git" ] && git -C "$t" rev-parse -q --verify baseline >/dev/null
}

require_tree() {
	tree_ready || die "no kernel tree in $KIT_TREE" "run: make tree"
	tree_ready "$KIT_OWN_TREE" || die "the kit's own tree $KIT_OWN_TREE is not set up" "run: make tree"
}

# The commit a stage tag names, or die with the fix.
stage_commit() {
	require_tree
	git -C "$KIT_OWN_TREE" rev-parse -q --verify "stage-$1^{commit}" ||
		die "stage-$1 is not in $KIT_OWN_TREE" "run: make tree"
}

# build_lock: hold the build lock (fd 9) until the script ends or
# build_unlock: one build, and one mover of the kit's own tree, at a
# time per KIT_WORK.  Waits, saying so.  Nothing to do when a caller holds
# it for us: KIT_BUILD_LOCKED names the KIT_WORK whose lock it holds, on
# a descriptor its children inherit (tests/lib/tap.sh: hold_build_lock).
build_lock() {
	[ "${KIT_BUILD_LOCKED:-}" = "$KIT_WORK" ] && return 0
	mkdir -p "$KIT_WORK"
	exec 9>"$KIT_WORK/build.lock"
	if ! flock -n 9; then
		say "waiting for another build in $KIT_WORK to finish"
		flock 9
	fi
}
build_unlock() { [ "${KIT_BUILD_LOCKED:-}" = "$KIT_WORK" ] || exec 9>&-; }

# kit_own_tree_at REV: check REV out in the kit's own tree, whatever a
# test or an interrupted run left there (a bisection, an am, edits): the
# tree is the kit's, and nobody's work is in it.  Hold the build lock.
kit_own_tree_at() {
	local t=$KIT_OWN_TREE gitdir
	gitdir=$(git -C "$t" rev-parse --absolute-git-dir)
	[ -f "$gitdir/BISECT_LOG" ] && git -C "$t" bisect reset >/dev/null 2>&1
	[ -d "$gitdir/rebase-apply" ] && git -C "$t" am --abort >/dev/null 2>&1
	if [ "$(git -C "$t" rev-parse -q --verify HEAD)" != "$(git -C "$t" rev-parse "$1^{commit}")" ] ||
		[ -n "$(git -C "$t" status --porcelain --untracked-files=no)" ]; then
		git -C "$t" checkout -q -f --detach "$1"
	fi
}

# kit_grade_tree: the path of the kit's grading tree, a third tree of the
# kit's own (KIT_WORK/grade/linux), made on first use as a clone of the
# kit's tree, with its stage tags: make grade PATCH= builds submissions
# there, and tests use it where they need a tree to edit.
kit_grade_tree() {
	local t=$KIT_GRADE_TREE
	if ! tree_ready "$t"; then
		rm -rf "$t"
		mkdir -p "$(dirname "$t")"
		git clone -q --no-checkout "$KIT_OWN_TREE" "$t" >&2
	fi
	git -C "$t" fetch -q --force "$KIT_OWN_TREE" 'refs/tags/*:refs/tags/*' >&2
	echo "$t"
}

# build_dir_of TREE VARIANT: a tree's build directory, beside it, so that
# from every build directory the tree is ../linux: ccache (CCACHE_BASEDIR)
# then finds the objects of one tree's build for the other's.
build_dir_of() {
	local dir
	dir=$(dirname "$1")/build
	[ "$(basename "$1")" = linux ] || dir=$dir-$(basename "$1")
	[ "$2" = default ] || dir=$dir-$2
	echo "$dir"
}

# kit_clean_paths [--all]: what make clean removes, from the layout above
# (make distclean, --all: also the kit's own trees, the compiler cache,
# results and the test suite's KIT_WORK).  Never the learner's tree.
kit_clean_paths() {
	local t v
	# (build directories beside a tree of yours outside KIT_WORK are yours)
	for t in "$KIT_TREE" "$KIT_OWN_TREE" "$KIT_GRADE_TREE"; do
		for v in default debug kcsan; do build_dir_of "$t" "$v"; done
	done | grep "^$KIT_WORK/"
	compgen -G "$KIT_WORK/build-*" || true
	printf '%s\n' "$KIT_IMAGES" "$KIT_RUN" "$KIT_INITRAMFS" "$KIT_HANDOUTS_OUT" "$KIT_HOST" \
		"$KIT_CONFIGS" "$KIT_STATS" "$KIT_TEST_SCRATCH" "$KIT_BENCH_SETUP"
	if [ "${1:-}" = --all ]; then
		printf '%s\n' "$KIT_OWN_TREE" "$KIT_OWN_TREE.partial" "$(dirname "$KIT_GRADE_TREE")" \
			"$KIT_CCACHE" "$KIT_RESULTS" "$KIT_KVM_PROBE" "$KIT_TEST_WORK_DEFAULT"
	fi
}

# learner_note STAGE: a stage build or boot says so when the learner's
# tree holds work of its own (edits, or a commit that is no stage: an
# assignment), which it does not include.
learner_note() {
	local n
	tree_ready || return 0
	n=$(git -C "$KIT_TREE" diff --name-only HEAD 2>/dev/null | wc -l)
	if [ "$n" -gt 0 ] && [ "$(git -C "$KIT_TREE" rev-parse HEAD)" = "$(stage_commit "$1")" ]; then
		say "note: this is the kit's clean stage-$1; your edits to $n file$([ "$n" -gt 1 ] && echo s) in $KIT_TREE are not in it (HEAD=1 builds and boots them, e.g. make run HEAD=1)"
	elif [ "$n" -gt 0 ] || ! git -C "$KIT_TREE" describe --tags --exact-match --match 'stage-*' HEAD >/dev/null 2>&1; then
		say "note: this is the kit's clean stage-$1, not your tree ($(head_label "$KIT_TREE")): HEAD=1 builds and boots yours, e.g. make run HEAD=1"
	fi
}

# ccache_env: the compiler cache's settings, for every kit build.  Paths
# under KIT_WORK are hashed relative to it, so that two trees, and two
# machines, share objects; KIT_CCACHE_REMOTE (file:DIR, http://HOST/ or
# redis://HOST, ccache's remote_storage) shares them across a class.
ccache_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$KIT_CCACHE}
	export CCACHE_BASEDIR=$KIT_WORK CCACHE_NOHASHDIR=1
	export CCACHE_MAXSIZE=${KIT_CCACHE_MAX:-2G}
	if [ -n "${KIT_CCACHE_REMOTE:-}" ]; then
		export CCACHE_REMOTE_STORAGE=$KIT_CCACHE_REMOTE
	fi
}

# evict_images [KEEP]: keep the kept kernels under KIT_IMAGES_MAX MiB
# (2048): the stage images stay, and KEEP (the one just built), and those
# running guests use; the others go, least recently used first.  Each
# image's "used" file is touched when it is built or booted.
evict_images() {
	local budget=${KIT_IMAGES_MAX:-2048} keep=${1:-} total stages busy dir size
	[[ $budget =~ ^[0-9]+$ ]] || die "KIT_IMAGES_MAX=$budget is not a number of MiB" "e.g. KIT_IMAGES_MAX=2048"
	total=$(du -sm "$KIT_IMAGES" 2>/dev/null | cut -f1)
	[ "${total:-0}" -gt "$budget" ] || return 0
	stages=$(git -C "$KIT_OWN_TREE" tag -l 'stage-*' --format='%(objectname)' 2>/dev/null)
	# (no guest running: no record, and nothing busy)
	busy=$(cat "$KIT_RUN"/guests/[0-9]* 2>/dev/null | sed -n 's/^images=//p' || true)
	while read -r dir; do
		[ "$total" -gt "$budget" ] || break
		size=$(du -sm "$dir" | cut -f1)
		say "evicting $dir ($(cat "$dir/label" 2>/dev/null || basename "$dir"), $size MiB, last used $(date -r "$dir/used" '+%F %R' 2>/dev/null || echo never)): kept kernels over ${budget} MiB"
		rm -rf "$dir"
		total=$((total - size))
	done < <(for dir in "$KIT_IMAGES"/*/*/; do
			dir=${dir%/}
			[ -f "$dir/bzImage" ] || continue
			[ "$dir" != "$keep" ] || continue
			grep -qx "$(basename "$dir")" <<<"$stages" && continue
			grep -qxF "$dir" <<<"$busy" && continue
			echo "$(stat -c %Y "$dir/used" 2>/dev/null || echo 0) $dir"
		done | sort -n | cut -d' ' -f2-)
}

# listening PORT: something listens on the local TCP port.  Read from
# /proc/net/tcp, never probed by connecting: QEMU halts a guest when a
# client connects to its gdbstub, and a probe would freeze someone's guest.
listening() {
	awk -v p=":$(printf '%04X' "$1")" '$2 ~ p "$" && $4 == "0A" { f = 1 } END { exit !f }' \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# guest_record [--port N | FILE]: the record file of a guest with a
# gdbstub (scripts/boot writes them), the last one started by default.
# Dies with the fix when there is none or its QEMU has gone.
guest_record() {
	local rec
	case "${1:-}" in
	--port) rec=$KIT_RUN/guests/$2 ;;
	"") rec=$KIT_RUN/guests/last ;;
	*) rec=$1 ;;
	esac
	[ -f "$rec" ] || die "no guest with a gdbstub is running${2:+ on port $2}" \
		"start one with: make qemu-gdb (or make run), then make gdb"
	kill -0 "$(record_field "$rec" pid)" 2>/dev/null ||
		die "the guest of $rec has ended" "start one with: make qemu-gdb (or make run)"
	echo "$rec"
}

# console_text LOG: a guest's console log (scripts/boot --log) as plain
# lines: no carriage returns, no printk timestamps.
console_text() { tr -d '\r' <"$1" | sed 's/^\[ *[0-9.]*\] //'; }

# result_of FILE KEY: the value a guest reported as KEY on its results
# channel (scripts/boot --results; guest/bin/kit-check), the last time.
result_of() { tr -d '\r' <"$1" 2>/dev/null | sed -n "s/^$2=//p" | tail -n 1; }

# record_field FILE NAME: one field of a guest record.
record_field() { sed -n "s/^$2=//p" "$1"; }

# what_label --stage N | --commit REV | --head TREE: what a build of that
# request holds, in words, as the build, the boot banner and gdb say it:
# "stage-5 (836ef5d21107)", "commit 1a2b3c4 subject", "your tree at
# 836ef5d21107 (stage-5)".  It describes what was asked for, whoever
# built the image first: one image serves every request for its commit.
what_label() {
	case "$1" in
	--stage) echo "stage-$2 ($(git -C "$KIT_OWN_TREE" rev-parse --short=12 "stage-$2"))" ;;
	--commit) echo "commit $(git -C "$KIT_OWN_TREE" log -1 --format='%h %s' "$2")" ;;
	--head)
		if [ "$(cd "$2" && pwd -P)" = "$(cd "$KIT_TREE" 2>/dev/null && pwd -P)" ]; then
			echo "your tree at $(head_label "$2")"
		else
			echo "$2 at $(head_label "$2")"
		fi ;;
	esac
}

# head_label TREE: what a build of TREE as it is now holds, in words, e.g.
# "1a2b3c4d5e6f (stage-5) + 2 files changed".
head_label() {
	local label tag n
	label=$(git -C "$1" rev-parse --short=12 HEAD)
	tag=$(git -C "$1" describe --tags --exact-match --match 'stage-*' HEAD 2>/dev/null || true)
	[ -n "$tag" ] && label="$label ($tag)"
	n=$(git -C "$1" diff --name-only HEAD | wc -l)
	[ "$n" -gt 0 ] && label="$label + $n file$([ "$n" -gt 1 ] && echo s) changed"
	echo "$label"
}
