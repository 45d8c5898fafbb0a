#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# make gradescope writes an autograder bundle that works as Gradescope
# runs it: unpacked into a directory laid out as /autograder (source/,
# submission/, results/), setup.sh run once in source/, then
# run_autograder for a submission, with PATH and HOME only.  The kit's
# answer to assignment 1 scores full marks in results.json; a submission
# with no patch still gets a results.json.  The compiler cache is seeded
# (the image would build it cold), so it runs in make test-full.
# tier: full
# time limit: 1800 s
. "$(dirname "$0")/lib/tap.sh"

plan 2
need_tree

ag=$SCRATCH/autograder
test_expect_success "the bundle: setup.sh, then run_autograder on the kit's answer to assignment 1, full marks in results/results.json" '
	make -s -C "$KIT_ROOT" gradescope STAGE=1 DEST="$SCRATCH/bundle" >"$SCRATCH/bundle.out" 2>&1 &&
	test -x "$SCRATCH/bundle/setup.sh" && test -x "$SCRATCH/bundle/run_autograder" &&
	mkdir -p "$ag/submission" "$ag/spinkit-work" && cp -r "$SCRATCH/bundle" "$ag/source" &&
	cp "$ag/source/run_autograder" "$ag/run_autograder" &&
	ln -s "$CCACHE_DIR" "$ag/spinkit-work/ccache" &&
	python3 "$KIT/course.py" --tree "$KIT_OWN_TREE" solution 1 >"$ag/submission/submission.patch" &&
	(cd "$ag/source" && env -i PATH="$PATH" HOME="$HOME" bash ./setup.sh) >"$SCRATCH/setup.out" 2>&1 ||
		{ tail -20 "$SCRATCH/setup.out"; exit 1; }
	env -i PATH="$PATH" HOME="$HOME" "$ag/run_autograder" >"$SCRATCH/run.out" 2>&1 &&
	python3 - "$ag/results/results.json" <<-"PY"
	import json, sys
	r = json.load(open(sys.argv[1]))
	total = sum(t["max_score"] for t in r["tests"])
	assert total > 0 and r["score"] == total, r["output"]
	print("# Gradescope: " + r["output"])
	PY
'

test_expect_success "a submission with no patch still gets a results.json: score 0 and what to upload" '
	rm -rf "$ag/submission" "$ag/results" && mkdir -p "$ag/submission" &&
	env -i PATH="$PATH" HOME="$HOME" "$ag/run_autograder" >"$SCRATCH/none.out" 2>&1 &&
	grep -q "No submission.patch" "$ag/results/results.json"
'

test_done
