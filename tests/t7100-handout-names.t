#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Every kit function and kit file a handout names still exists, and every
# kernel file it names is in a stage or in the 6.1 tree (which this test
# needs, so it is not in the check tier with t7000).
# time limit: 300 s
. "$(dirname "$0")/lib/tap.sh"

plan 1
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

test_done
