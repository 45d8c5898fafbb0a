# Lab workload (lab 14): three tasks take turns at kit0, each keeping it
# 1 ms at a time, asleep.  Each round, for 5 s, each task writes
# "op 1 1000" to kit0 over and over: lock, one update, 1 ms asleep,
# unlock, and at once lock again.  The owner sleeps, so nobody spins:
# the other two queue on the wait list.  An unlock wakes the first
# waiter, but the task that unlocked asks again while that waiter is
# still being woken, and takes the free lock first.  On stage 14 the
# waiter, woken at the head of the list, asks for a handoff, and the
# next unlock gives it the lock.
# This shell stays on CPU 0 and prints each round's figures: per task,
# the fewest and the most operations, and the longest single operation.
# It starts 2 s after gdb lets the guest run, and repeats.
kit0=/sys/kernel/debug/kit_mutex/kit0
taskset -p 1 $$ >/dev/null
for round in 1 2 3 4 5; do
	sleep 2
	echo reset >/sys/kernel/debug/kit_mutex/stats
	echo "round $round: three tasks take kit0 for 1 ms each, asleep, for 5 s"
	test-kit-mutex K 3 5 -l 1 -s 1000 -L kit0 |
		sed -n "s/^per task/round $round: per task/p"
	echo "round $round: locks handed off: $(kit-stat handoff 2>/dev/null || echo "none before stage 14")"
done
