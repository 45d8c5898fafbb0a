#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The GitLab CI template, its script lines run as GitLab's runner runs
# them (tests/lib/ci_replay.py: the job's variables, CI_PROJECT_DIR, no
# more), grades a submission with the pinned grader: the instructor's
# template repository at KIT_REF, set as a project variable would set it.
# Slow (a fresh workspace: trees and a build from the restored compiler
# cache), so it runs in make test-full; t9000 runs the GitHub template's.
# tier: full
# time limit: 1500 s
. "$(dirname "$0")/lib/tap.sh"

plan 1
need_tree

test_expect_success "the GitLab template, run as GitLab runs it, grades the kit's answer to assignment 2 with the pinned grader, full marks, JUnit report kept" '
	"$KIT/student-kit" "$SCRATCH/students" 2 >"$SCRATCH/students.out" &&
	tpl=$SCRATCH/template && cp -r "$SCRATCH/students" "$tpl" &&
	git -C "$tpl" init -q && git -C "$tpl" add -A &&
	git -C "$tpl" -c user.name=instructor -c user.email=i@example.invalid commit -q -m "assignment 2" &&
	git -C "$tpl" tag v1 &&
	ws=$SCRATCH/ws && git clone -q "$tpl" "$ws" &&
	python3 "$KIT/course.py" --tree "$KIT_OWN_TREE" solution 2 >"$ws/submission.patch" &&
	mkdir -p "$ws/spinkit-work" && ln -s "$CCACHE_DIR" "$ws/spinkit-work/ccache" &&
	python3 "$KIT_ROOT/tests/lib/ci_replay.py" gitlab "$KIT_ROOT/course/gitlab-ci.yml" \
		--workspace "$ws" --var KIT_REPO="$tpl" >"$SCRATCH/gitlab.out" 2>&1 ||
		{ tail -30 "$SCRATCH/gitlab.out"; exit 1; }
	expect_grep "^Score: ([0-9]+)/\\1$" "$SCRATCH/gitlab.out" &&
	test -s "$ws/results/junit.xml"
'

test_done
