# shellcheck shell=bash
# Shared by every spinkit script: where things live, how to talk, and the
# fixed identity that makes the kit's commits the same on every machine.
# Sourced, never run.
# shellcheck disable=SC2034 # the variables are for the sourcing scripts

KIT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The kernel tree, builds and run files live outside the checkout.
KIT_WORK=${KIT_WORK:-$(cd "$KIT_ROOT/.." && pwd)/spinkit-work}
KIT_TARBALL=${KIT_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
KIT_TREE=${KIT_TREE:-$KIT_WORK/linux}
KIT_IMAGES=$KIT_WORK/images
KIT_RUN=$KIT_WORK/run
KIT_STAGES_DIR=$KIT_ROOT/stages
KIT_LAST_STAGE=5

# Reproducible commits: fixed names, dates taken from the patches.
export GIT_COMMITTER_NAME=spinkit GIT_COMMITTER_EMAIL=spinkit@example.invalid
export LANG=C LC_ALL=C TZ=UTC
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
	case "$s" in
	[0-9]) [ "$s" -le "$KIT_LAST_STAGE" ] && { echo "$s"; return; } ;;
	esac
	die "no stage '$1'" "stages are 0 to $KIT_LAST_STAGE, e.g. STAGE=3"
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

tree_ready() { [ -d "$KIT_TREE/.git" ] && git -C "$KIT_TREE" rev-parse -q --verify baseline >/dev/null; }

require_tree() {
	tree_ready || die "no kernel tree in $KIT_TREE" "run: make tree"
}

# The commit a stage tag names, or die with the fix.
stage_commit() {
	require_tree
	git -C "$KIT_TREE" rev-parse -q --verify "stage-$1^{commit}" ||
		die "stage-$1 is not in $KIT_TREE" "run: make tree"
}

# A tree we may move: no local changes, no bisection under way.
require_clean_tree() {
	if [ -n "$(git -C "$KIT_TREE" status --porcelain --untracked-files=no)" ]; then
		die "$KIT_TREE has local changes" \
			"commit or stash them (git -C $KIT_TREE stash), then run again"
	fi
	if [ -f "$KIT_TREE/.git/BISECT_LOG" ]; then
		die "a git bisect is under way in $KIT_TREE" \
			"finish it with: git -C $KIT_TREE bisect reset"
	fi
}
