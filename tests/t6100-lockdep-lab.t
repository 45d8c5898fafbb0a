#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The lockdep lab (labs/lockdep, make lab-lockdep): on the newest stage's
# debug build, one task takes kit0 then kit1, and after it another takes
# kit1 then kit0; lockdep reports the possible deadlock, naming both
# locks and the task, though none happened.  On the same stage with the
# lockdep annotation of the lock slow path (its mutex_acquire()) taken
# out, lockdep knows nothing of the kit mutexes and the check fails: the
# lab's check can fail.  The first debug build is t4000's (make test
# builds the newest stage's); the second, of a scratch clone beside which
# ccache finds the first one's objects, recompiles one file.
# time limit: 1200 s
. "$(dirname "$0")/lib/tap.sh"

plan 2
need_tree
newest=$KIT_LAST_STAGE

# as the lab's README prints it
test_expect_success "make lab-lockdep-check: lockdep reports kit0 and kit1 taken in both orders on stage-$newest" '
	learner_make ok lab-lockdep-check &&
	grep -q "^WARNING: possible circular locking dependency detected" "$SCRATCH/ok.out" &&
	grep -q "lockdep lab check passed on stage-'"$newest"'" "$SCRATCH/ok.out"
'

test_expect_success "stage-$newest without mutex_acquire() in the lock slow path: lockdep reports nothing of kit0 and kit1, and the check fails" '
	mkdir -p "$SCRATCH/unannotated" &&
	git clone -q --shared --no-checkout "$KIT_OWN_TREE" "$SCRATCH/unannotated/linux" &&
	git -C "$SCRATCH/unannotated/linux" checkout -q "stage-'"$newest"'" &&
	c="$SCRATCH/unannotated/linux/kernel/locking/kit_mutex.c" &&
	grep -q "^	mutex_acquire(&lock->dep_map, subclass, 0, ip);$" "$c" &&
	sed -i "/^	mutex_acquire(&lock->dep_map, subclass, 0, ip);$/d" "$c" &&
	! grep -q "mutex_acquire(&lock->dep_map, subclass" "$c" &&
	! "$KIT/lab-lockdep" --check --head --tree "$SCRATCH/unannotated/linux" >"$SCRATCH/bad.out" 2>&1 &&
	cat "$SCRATCH/bad.out" &&
	grep -q "lockdep lab check FAILED on .*: no circular-dependency report" "$SCRATCH/bad.out"
'

test_done
