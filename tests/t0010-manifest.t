#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# stages/manifest.tsv and the files agree: every record has its patch,
# lab, handout and assignment, every such file has a record, the patches
# credit the upstream commits their records name, and the indexes that
# list the stages (stages/README.md, labs/README.md) list each one under
# its own name, and each stage's handout, lab and assignment name its own
# number; the overview handout's table is made from the manifest.  No
# kernel is built.
# tier: check
# time limit: 120 s
. "$(dirname "$0")/lib/tap.sh"

plan 9

# Each check is a function, so that the last test can run it on a broken
# manifest.
records_well_formed() (
	steps=" $(sed -n "s/^step4\{0,1\}_cmd \([A-Z0-9]*\) .*/\1/p" "$KIT/grade" | tr "\n" " ") " &&
	{ [ "$steps" != "  " ] || { echo "no step_cmd lines in scripts/grade: where are its guest steps?"; exit 1; }; } &&
	n=0 &&
	while IFS=$'\t' read -r stage slug upstream release fails own title extra; do
		where="stage $stage ($slug)" &&
		expect_eq "$n" "$stage" "the stage number of record $((n + 1))" &&
		[[ $slug =~ ^[a-z0-9]+(-[a-z0-9]+)*$ ]] || { echo "$where: slug \"$slug\" is not lower-case words joined by -"; exit 1; }
		[[ $upstream =~ ^(-|[0-9a-f]{12}(,[0-9a-f]{12})*)$ ]] || { echo "$where: upstream \"$upstream\""; exit 1; }
		[[ $release =~ ^~?[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || { echo "$where: release \"$release\""; exit 1; }
		[[ $fails =~ ^[0-9]+$ ]] && [ "$fails" != "$stage" ] && [ "$fails" -le "$KIT_LAST_STAGE" ] ||
			{ echo "$where: lab_fails \"$fails\" is not another stage"; exit 1; }
		for s in ${own//,/ }; do
			[ "$s" = - ] || [[ $steps == *" $s "* ]] || { echo "$where: own step $s is not one of scripts/grade's:$steps"; exit 1; }
		done
		[ -n "$title" ] && [ -z "$extra" ] || { echo "$where: not 7 fields"; exit 1; }
		n=$((n + 1))
	done < <(grep "^[0-9]" "$KIT_MANIFEST") &&
	expect_eq "$n" "$((KIT_LAST_STAGE + 1))" "records"
)

records_have_files() (
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		for f in "$(stage_patch "$s")" "$(stage_handout "$s")" \
			"$(stage_lab "$s")"/{README.md,INSTRUCTOR.md,check.gdb,check.expect,workload.sh}; do
			test -f "$f" || { echo "stage $s: no ${f#"$KIT_ROOT"/}"; exit 1; }
		done
		[ "$s" -eq 0 ] || test -f "$KIT_ROOT/course/ASSIGNMENT-$s.md" ||
			{ echo "stage $s: no course/ASSIGNMENT-$s.md"; exit 1; }
	done
)

files_have_records() (
	cd "$KIT_ROOT" &&
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		stage_patch "$s"; stage_lab "$s"; stage_handout "$s"
		[ "$s" -eq 0 ] || echo "$KIT_ROOT/course/ASSIGNMENT-$s.md"
	done | sed "s#^$KIT_ROOT/##" | sort >"$SCRATCH/expected" &&
	printf "%s\n" stages/*.patch labs/[0-9]*/ handouts/stage-*.md course/ASSIGNMENT-*.md |
		sed "s#/\$##" | sort >"$SCRATCH/found" &&
	diff -u "$SCRATCH/expected" "$SCRATCH/found"
)

patches_credit_upstream() (
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		p=$(stage_patch "$s") &&
		expect_eq 1 "$(grep -c "^From [0-9a-f]\{40\} " "$p")" "commits in ${p#"$KIT_ROOT"/}" &&
		message=$(sed -n "/^Subject:/,/^---$/p" "$p") &&
		for id in $(stage_field "$s" upstream | tr , " "); do
			grep -q "$id" <<<"$message" || { echo "stage $s: its commit message does not name $id"; exit 1; }
		done || exit 1
	done
)

indexes_list_stages() (
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		name=$(stage_name "$s")
		grep -q "^| $s | \`$name.patch\` |" "$KIT_STAGES_DIR/README.md" ||
			{ echo "stages/README.md: no row \"| $s | \`$name.patch\` |\""; exit 1; }
		grep -q "^| \[$s\]($name/README.md) | $s |" "$KIT_ROOT/labs/README.md" ||
			{ echo "labs/README.md: no row \"| [$s]($name/README.md) | $s |\""; exit 1; }
	done
	if ! grep -q "^\`\`\`{.include manifest=\"stages\"}" "$KIT_ROOT/handouts/00-overview.md"; then
		echo "handouts/00-overview.md: its table of stages is not made from the manifest"
		exit 1
	fi
)

# A stage's own files name its own number: the handout's title and the
# stage its diffs come from, the lab's title, make commands and check,
# the assignment's title, make commands and branches.  A renumbering that
# moved the files but left a number behind shows here.
files_name_their_stage() (
	bad=0
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		h=$(stage_handout "$s") l=$(stage_lab "$s") a=$KIT_ROOT/course/ASSIGNMENT-$s.md
		while IFS="|" read -r what re f; do
			[ "$s" -gt 0 ] || [ "$f" != "$a" ] || continue
			while read -r n; do
				echo "${f#"$KIT_ROOT"/}: $what names stage $n; the file is stage $s's"
				bad=1
			done < <(grep -oE "$re" "$f" | sed -E "s/$re/\\1/" | grep -vx "$s")
		done <<-EOF
			an include of a diff|[{]\\.include stage="([0-9]+)"|$h
			the title|^title: "Stage ([0-9]+):|$h
			the title|^# Lab ([0-9]+)[:,]|$l/README.md
			a make command|LAB=([0-9]+)|$l/README.md
			the header|^# Lab ([0-9]+)[:,]|$l/check.gdb
			the title|^# Lab ([0-9]+)[:,]|$l/INSTRUCTOR.md
			the header|^# what lab ([0-9]+)'s|$l/check.expect
			the title|^# Assignment ([0-9]+):|$a
			a make command|STAGE=([0-9]+)|$a
			a branch|assignment-([0-9]+)|$a
		EOF
	done
	exit "$bad"
)

test_expect_success "every record has 7 fields: stage numbers 0, 1, ... in order, a slug, 12-digit upstream ids, a stage its lab fails on, known grade steps, a title" '
	records_well_formed
'

test_expect_success "every record has its patch, lab, handout and (from stage 1) assignment" '
	records_have_files
'

test_expect_success "every stage patch, lab, stage handout and assignment belongs to a record (nothing left behind by a rename)" '
	files_have_records
'

test_expect_success "each patch is one commit whose message credits the upstream commits its record names" '
	patches_credit_upstream
'

test_expect_success "the indexes name every stage by its files: stages/README.md its patch, labs/README.md its lab; the overview includes the manifest" '
	indexes_list_stages
'

test_expect_success "each stage's handout, lab and assignment name their own stage number (titles, includes, make commands, branches)" '
	files_name_their_stage
'

# The grade's checks: course/checks.tsv and scripts/grade name the same
# ones, and each record is well formed.
test_expect_success "course/checks.tsv and scripts/grade name the same checks, each with points, stages, a step and an own rule" '
	used=$(grep -oE "^[[:space:]]*(else |if .*then )?check [a-z0-9]+ " "$KIT/grade" | sed "s/.*check \([a-z0-9]*\) /\1/" | sort -u) &&
	listed=$(grep "^[a-z]" "$KIT_ROOT/course/checks.tsv" | cut -f1 | sort) &&
	diff -u <(echo "$listed") <(echo "$used") &&
	while IFS=$'"'"'\t'"'"' read -r id points first last step own name extra; do
		[[ $points =~ ^[0-9]+$ && $first =~ ^[0-9]+$ && $last =~ ^(-|[0-9]+)$ && $step =~ ^[A-Z0-9]+$ ]] &&
		[[ $own =~ ^(floor|always|step|never)$ ]] && [ -n "$name" ] && [ -z "$extra" ] &&
		{ [ "$own" != never ] || [ "$points" = 0 ]; } ||
			{ echo "course/checks.tsv: a bad record for $id (a check that is never a stage'"'"'s own is worth 0)"; exit 1; }
	done < <(grep "^[a-z]" "$KIT_ROOT/course/checks.tsv")
'

# What a skeleton can score: it works as the stage before did, so it
# passes the build, the boot, every required check and, with a comment
# added, checkpatch; the stage's own checks are what it lacks.
test_expect_success "at every stage the build, the boot and checkpatch are at most 40% of the points, the stage's own checks the rest" '
	for n in $(seq 1 "$KIT_LAST_STAGE"); do
		"$KIT/grade" "$n" --checks >"$SCRATCH/checks-$n" || exit 1
		total=$(sed -n "s/^ *\([0-9]*\)  total$/\1/p" "$SCRATCH/checks-$n") &&
		free=$(awk "/  (works  |stage     checkpatch)/ { s += \$1 } END { print s + 0 }" "$SCRATCH/checks-$n") &&
		echo "# stage $n: a skeleton with a comment can score $free of $total" &&
		{ [ $((100 * free)) -le $((40 * total)) ] ||
			{ echo "stage $n: $free of $total points need no work"; cat "$SCRATCH/checks-$n"; exit 1; }; } || exit 1
	done
'

# A test that cannot fail is a defect: each check above fails on a
# manifest with a record too many, or with a slug that drifted.
test_expect_success "a record with no files, a slug that drifted from its files, and a file that names another stage, are caught" '
	KIT_MANIFEST=$SCRATCH/manifest.tsv &&
	cp "$KIT_STAGES_DIR/manifest.tsv" "$KIT_MANIFEST" &&
	printf "%s\t%s\t-\t9.9\t0\t-\ta stage with nothing\n" "$((KIT_LAST_STAGE + 1))" ghost >>"$KIT_MANIFEST" &&
	! records_well_formed && KIT_LAST_STAGE=$((KIT_LAST_STAGE + 1)) && ! records_have_files &&
	cp "$KIT_STAGES_DIR/manifest.tsv" "$KIT_MANIFEST" && KIT_LAST_STAGE=$((KIT_LAST_STAGE - 1)) &&
	records_well_formed &&
	sed -i "s/\tspin-loop\t/\tspin-loops\t/" "$KIT_MANIFEST" &&
	! records_have_files && ! files_have_records && ! indexes_list_stages &&
	cp "$KIT_STAGES_DIR/manifest.tsv" "$KIT_MANIFEST" &&
	root=$SCRATCH/root && mkdir -p "$root" && cp -r "$KIT_ROOT/handouts" "$KIT_ROOT/course" "$root" &&
	ln -sfn "$KIT_ROOT/labs" "$root/labs" &&
	KIT_ROOT=$root files_name_their_stage &&
	sed -i "s/assignment-3-start/assignment-2-start/" "$root/course/ASSIGNMENT-3.md" &&
	! KIT_ROOT=$root files_name_their_stage
'

test_done
