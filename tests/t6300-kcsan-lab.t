#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The KCSAN lab (labs/kcsan, make lab-kcsan): on stage 5's KCSAN build,
# two tasks contend for kit0, and KCSAN, which watches a sample of every
# instrumented access, reports no data race in the kit mutex, since the
# owner's accesses are marked.  The lab's check then makes them plain in
# a copy of the kit's tree and needs KCSAN's report of the spinner's read
# in the lock slow path against the holder's store: the check fails when
# KCSAN sees no race there, so it can fail.  On stage 17, with a writer
# changing kit_preempted throughout a round, KCSAN stays quiet too (the
# lab says why).  The commands run as the README prints them.  The first
# KCSAN build compiles every file (about 150 s on 2 cores); the plain
# copy's, stage 17's and the suite's learner tree's find the rest in the
# compiler cache.
# time limit: 900 s
. "$(dirname "$0")/lib/tap.sh"

plan 4
need_tree

# as the lab's README prints them (learner_make: tests/lib/tap.sh)
test_expect_success "make lab-kcsan: stage 5, its owner accesses marked, and KCSAN quiet" '
	learner_make lab lab-kcsan &&
	expect_grep "the KCSAN lab on stage-5.s KCSAN build" "$SCRATCH/lab.out" &&
	expect_grep "^  guest: round 3: ops=" "$SCRATCH/lab.out" &&
	expect_grep "KCSAN reported no data race in the kit mutex" "$SCRATCH/lab.out"
'

test_expect_success "make lab-kcsan-check: stage 5 quiet, its owner race reported once the accesses are plain" '
	learner_make check lab-kcsan-check &&
	expect_grep "KCSAN reported no data race in the kit mutex" "$SCRATCH/check.out" &&
	expect_grep "^BUG: KCSAN: data-race in __kit_mutex_lock_common" "$SCRATCH/check.out" &&
	expect_grep "^value changed: 0x0*0 -> 0x" "$SCRATCH/check.out" &&
	expect_grep "KCSAN lab check passed on stage-5" "$SCRATCH/check.out"
'

test_expect_success "make lab-kcsan STAGE=17: kit_preempted rewritten while tasks spin, and KCSAN quiet" '
	learner_make s17 lab-kcsan STAGE=17 &&
	expect_grep "guest: round 3: preempted rewritten throughout" "$SCRATCH/s17.out" &&
	expect_grep "KCSAN reported no data race in the kit mutex" "$SCRATCH/s17.out"
'

test_expect_success "make lab-kcsan HEAD=1: the learner tree of the suite, built with KCSAN and booted" '
	learner_make head lab-kcsan HEAD=1 &&
	expect_grep "the KCSAN lab on your tree at .*KCSAN build" "$SCRATCH/head.out" &&
	expect_grep "^  guest: round 1: ops=" "$SCRATCH/head.out"
'

test_done
