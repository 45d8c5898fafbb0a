#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The course CI templates, their steps run as their runners run them
# (tests/lib/ci_replay.py: the job's environment only, step outputs, the
# actions played from their sources), grade with the pinned grader: the
# instructor's template repository, made from a student kit and tagged
# v1.  GitHub Classroom's reporter adds up every check's points: the
# untouched skeleton of assignment 3 earns partial credit.  GitLab's job
# grades the kit's answer to assignment 2: full marks, the JUnit report
# kept.  Each runs in a fresh workspace (trees, and a build from the
# restored compiler cache), so this file is in make test-full.
# tier: full
# time limit: 2400 s
. "$(dirname "$0")/lib/tap.sh"

plan 2
need_tree

# template_repo N DIR: the template repository an instructor makes from
# the student kit of assignment N, its grader pinned at the tag v1.
template_repo() {
	"$KIT/student-kit" "$SCRATCH/kit-$1" "$1" >"$SCRATCH/kit-$1.out" &&
	rm -rf "$2" && cp -r "$SCRATCH/kit-$1" "$2" &&
	git -C "$2" init -q && git -C "$2" add -A &&
	git -C "$2" -c user.name=instructor -c user.email=i@example.invalid commit -q -m "assignment $1" &&
	git -C "$2" tag v1
}

test_expect_success "the Classroom template, run as GitHub runs it, grades with the pinned grader: partial credit, check by check, and the results kept" '
	template_repo 3 "$SCRATCH/template3" &&
	ws=$SCRATCH/gh && git clone -q "$SCRATCH/template3" "$ws" &&
	: >"$ws/submission.patch" &&
	python3 "$KIT_ROOT/tests/lib/ci_replay.py" github "$KIT_ROOT/course/github-classroom.yml" \
		--workspace "$ws" --repo your-org/spinkit-assignment="$SCRATCH/template3" \
		--cache spinkit-work/ccache="$CCACHE_DIR" >"$SCRATCH/classroom.out" 2>&1 ||
		{ tail -30 "$SCRATCH/classroom.out"; exit 1; }
	read -r got most < <(sed -n "s/^Points \([0-9]*\)\/\([0-9]*\)$/\1 \2/p" "$SCRATCH/classroom.out") &&
	echo "# the skeleton of assignment 3 through the Classroom template: $got/$most" &&
	{ [ "$got" -gt 0 ] && [ "$got" -lt "$most" ] ||
		{ echo "Expected partial credit, got $got/$most"; tail -30 "$SCRATCH/classroom.out"; exit 1; }; } &&
	expect_grep "^-- Keep the results: ok$" "$SCRATCH/classroom.out" &&
	test -s "$ws/results/results.json" && test -s "$ws/results/junit.xml"
'

test_expect_success "the GitLab template, run as GitLab runs it, grades the kit's answer to assignment 2 with the pinned grader: full marks, JUnit report kept" '
	template_repo 2 "$SCRATCH/template2" &&
	ws=$SCRATCH/gl && git clone -q "$SCRATCH/template2" "$ws" &&
	python3 "$KIT/course.py" --tree "$KIT_OWN_TREE" solution 2 >"$ws/submission.patch" &&
	mkdir -p "$ws/spinkit-work" && ln -s "$CCACHE_DIR" "$ws/spinkit-work/ccache" &&
	python3 "$KIT_ROOT/tests/lib/ci_replay.py" gitlab "$KIT_ROOT/course/gitlab-ci.yml" \
		--workspace "$ws" --var KIT_REPO="$SCRATCH/template2" >"$SCRATCH/gitlab.out" 2>&1 ||
		{ tail -30 "$SCRATCH/gitlab.out"; exit 1; }
	expect_grep "^Score: ([0-9]+)/\\1$" "$SCRATCH/gitlab.out" &&
	test -s "$ws/results/junit.xml"
'

test_done
