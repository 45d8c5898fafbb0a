#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Each lab's scripted gdb path passes on its own stage, and fails on the
# stage named in its wrong-stage file: the checks can fail.
. "$(dirname "$0")/lib/tap.sh"

plan 12
need_tree

for dir in "$KIT_ROOT"/labs/0[0-5]-*/; do
	lab=$(basename "$dir" | sed 's/^0*\([0-9]\)-.*/\1/')
	wrong=$(cat "$dir/wrong-stage")
	test_expect_success "lab $lab ($(basename "$dir")): its gdb check passes on stage-$lab" '
		"$KIT/lab" '"$lab"' --check
	'
	test_expect_success "lab $lab: the same check fails on stage-$wrong" '
		! "$KIT/lab" '"$lab"' --check --stage '"$wrong"'
	'
done

test_done
