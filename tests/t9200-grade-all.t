#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# make grade-all grades a class: a folder of five submissions to
# assignment 2 (the kit's answer, the untouched skeleton, the answer with
# a catalogue bug, one that changes 6.1's mutex, one that does not
# apply) becomes one CSV with a row each and every student's result
# files; run again, it grades nobody twice.  Slow (three real grades), so
# it runs in make test-full.
# tier: full
# time limit: 1500 s
. "$(dirname "$0")/lib/tap.sh"

plan 2
need_tree
hold_build_lock

sub=$SCRATCH/submissions
mkdir -p "$sub"
course() { python3 "$KIT/course.py" --tree "$KIT_OWN_TREE" "$@"; }

test_expect_success "make grade-all STAGE=2: five submissions, one CSV, each student's results; the answer full marks, the others less" '
	course solution 2 >"$sub/ada.patch" &&
	: >"$sub/bob.patch" &&
	course solution 2 --bug double-holder >"$sub/cy.patch" &&
	printf "%s\n" "diff --git a/kernel/locking/mutex.c b/kernel/locking/mutex.c" \
		"--- a/kernel/locking/mutex.c" "+++ b/kernel/locking/mutex.c" "@@ -1,1 +1,2 @@" \
		"+/* faster */" " // SPDX-License-Identifier: GPL-2.0-only" >"$sub/dee.patch" &&
	printf "%s\n" "diff --git a/kernel/locking/kit_mutex.c b/kernel/locking/kit_mutex.c" \
		"--- a/kernel/locking/kit_mutex.c" "+++ b/kernel/locking/kit_mutex.c" "@@ -1,1 +1,2 @@" \
		"+/* mine */" " no such line" >"$sub/eve.patch" &&
	start=$(date +%s) &&
	make -s -C "$KIT_ROOT" grade-all STAGE=2 SUBMISSIONS="$sub" RESULTS="$SCRATCH/class" >"$SCRATCH/all.out" 2>&1 ||
		{ tail -20 "$SCRATCH/all.out"; exit 1; }
	echo "# five submissions in $(($(date +%s) - start)) s: $(tail -n 1 "$SCRATCH/all.out")" &&
	csv=$SCRATCH/class/grades.csv &&
	expect_eq 6 "$(wc -l <"$csv")" "lines of grades.csv (a header and five students)" &&
	python3 - "$csv" <<-"PY"
	import csv, sys
	rows = {r["student"]: r for r in csv.DictReader(open(sys.argv[1]))}
	score = {s: int(r["score"]) for s, r in rows.items()}
	total = int(rows["ada"]["total"])
	assert score["ada"] == total, rows["ada"]
	assert 0 < score["bob"] < total and 0 <= score["cy"] < total, score
	assert score["dee"] == 0 and score["eve"] == 0, score
	print("# scores: " + ", ".join("%s %d" % (s, score[s]) for s in sorted(score)) + " of %d" % total)
	PY
	for s in ada bob cy dee eve; do test -s "$SCRATCH/class/$s/results.json" || exit 1; done
'

test_expect_success "run again, grade-all grades nobody twice and writes the same CSV" '
	cp "$SCRATCH/class/grades.csv" "$SCRATCH/before.csv" &&
	"$KIT/grade-all" 2 "$sub" --out "$SCRATCH/class" >"$SCRATCH/again.out" 2>&1 &&
	expect_eq 5 "$(grep -c ": graded already" "$SCRATCH/again.out")" "students not graded again" &&
	cmp "$SCRATCH/before.csv" "$SCRATCH/class/grades.csv"
'

test_done
