#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Every shell script of the kit passes shellcheck.
# tier: check
. "$(dirname "$0")/lib/tap.sh"

plan 2

test_expect_success "host scripts, tests and CI pass shellcheck" '
	cd "$KIT_ROOT" &&
	shellcheck -x $(find scripts -maxdepth 1 -type f ! -name "*.tmpl" ! -name "*.py") tests/*.t tests/lib/*.sh tests/lib/run-test .ci/run
'

test_expect_success "guest scripts pass shellcheck as POSIX sh (busybox)" '
	cd "$KIT_ROOT" &&
	shellcheck -s sh guest/init guest/profile guest/bin/*
'

test_done
