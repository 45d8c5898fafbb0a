# shellcheck shell=sh
# KCSAN lab workload: two tasks on kit0 on two vCPUs, so that while one
# holds the lock the other usually spins, reading the owner, and the
# holder writes it at each lock and unlock.  KCSAN watches only a sample
# of the accesses, so the rounds run 4 s each; it prints what it finds
# on the console as it goes.  2000 loops in each critical section, as
# make bench.
f=/sys/kernel/debug/sched/features
grep -qw NO_OWNER_SPIN $f 2>/dev/null && echo OWNER_SPIN >$f
# From stage 16 on, spinners also read the set of vCPUs reported
# preempted: in round 3 a writer keeps changing it (vCPU 1, then 0).
p=/sys/kernel/debug/kit_mutex/preempted
for round in 1 2 3; do
	writer=""
	if [ $round = 3 ] && [ -w $p ]; then
		(while :; do echo 1 >$p; echo 0 >$p; done) &
		writer=$!
	fi
	test-kit-mutex K 2 4 -l 2000 | sed -n "s/^result: /round $round: /p"
	[ -z "$writer" ] || { kill $writer; wait $writer 2>/dev/null; echo >$p; echo "round $round: preempted rewritten throughout"; }
done
