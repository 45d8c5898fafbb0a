#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Every kit function and kit file a handout names still exists, and every
# kernel file it names is in a stage or in the 6.1 tree (which this test
# needs, so it is not in the check tier with t7000); a stage's handout,
# lab and assignment name only kit code that stage has, or an earlier one.
# time limit: 300 s
. "$(dirname "$0")/lib/tap.sh"

plan 2
need_tree

# A kit name is resolvable if a stage patch or a kit file mentions it; the
# 2009 files the seed patched, and 3.15's MCS lock file, are history,
# named on purpose.
HISTORY="kernel/mutex.c kernel/mutex.h kernel/mutex-debug.c kernel/mutex-debug.h kernel/sched.c kernel/sched_features.h kernel/locking/mcs_spinlock.c"
test_expect_success "every kit function and kit file a handout names still exists" '
	corpus=$(cat "$KIT_ROOT"/stages/*.patch "$KIT_ROOT"/labs/gdb/kit.py "$KIT_ROOT"/guest/*.c) &&
	for md in "$KIT_ROOT"/handouts/*.md; do
		for name in $(grep -o "\bkit_[a-z_]*\b" "$md" | sort -u); do
			grep -q "\b$name\b" <<<"$corpus" || { echo "$(basename "$md") names $name, which no kit code has"; exit 1; }
		done
		for path in $(grep -oE "\b(scripts|guest|labs|stages|config|tests)/[A-Za-z0-9_./-]*[A-Za-z0-9]" "$md" | sort -u); do
			[ -e "$KIT_ROOT/$path" ] || { echo "$(basename "$md") names $path, which does not exist"; exit 1; }
		done
		for path in $(grep -oE "\b(kernel|include)/[A-Za-z0-9_./-]*\.[ch]\b" "$md" | sort -u); do
			case " $HISTORY " in *" $path "*) continue ;; esac
			grep -q "^diff --git a/$path " "$KIT_ROOT"/stages/*.patch ||
				[ -e "$KIT_OWN_TREE/$path" ] ||
				{ echo "$(basename "$md") names $path, which neither the stages nor the tree have"; exit 1; }
		done
	done
'

# names_ahead STAGE FILE: the kit_ names FILE uses that no stage up to
# STAGE has, nor the guest programs; gdb's $kit_ functions are the gdb
# scripts', which know every stage.
names_ahead() {
	local corpus s name
	corpus=$(for s in $(seq 0 "$1"); do cat "$(stage_patch "$s")"; done
		cat "$KIT_ROOT"/guest/*.c)
	grep -oP "(?<![\$\w])kit_[a-z_0-9]+\b" "$2" | sort -u | while read -r name; do
		grep -q "\b$name\b" <<<"$corpus" || echo "$name"
	done
}

test_expect_success "a stage's handout, lab and assignment name only kit code of that stage or an earlier one" '
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		slug=$(stage_field "$s" slug) && nn=$(printf %02d "$s") &&
		for f in "$KIT_ROOT/handouts/stage-$nn-$slug.md" "$KIT_ROOT/labs/$nn-$slug/README.md" \
			"$KIT_ROOT/labs/$nn-$slug/INSTRUCTOR.md" "$KIT_ROOT/course/ASSIGNMENT-$s.md"; do
			[ -f "$f" ] || continue
			ahead=$(names_ahead "$s" "$f")
			[ -z "$ahead" ] || { echo "${f#"$KIT_ROOT"/} (stage $s) names what comes later: $ahead"; exit 1; }
		done
	done &&
	echo "stage 0 queues on kit_osq_lock()" >"$SCRATCH/ahead.md" &&
	[ "$(names_ahead 0 "$SCRATCH/ahead.md")" = kit_osq_lock ] ||
		{ echo "names_ahead misses a name from stage 11 in a stage-0 text"; exit 1; }
'

test_done
