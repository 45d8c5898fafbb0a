# Lab workload (lab 13): a sleeping waiter behind a sleeping owner, then a
# locker that finds the lock free.  Each round:
#   0.0 s  A, pinned to CPU 1, takes kit0 and keeps it 2 s, asleep
#   0.3 s  B, pinned to CPU 2, asks for kit0: A sleeps, so B does not spin;
#          it queues on the wait list, sets the waiters flag and sleeps
#   2.0 s  A unlocks: the flag sends it to the slow path, which wakes B;
#          B takes kit0, leaves the list empty, clears the flag, lets go
#   then   C, pinned to CPU 2, takes kit0, free, and lets it go
# This shell stays on CPU 0 and prints kit0's state line while B waits
# and after C.  It starts 2 s after gdb lets the guest run, and repeats.
kit0=/sys/kernel/debug/kit_mutex/kit0
taskset -p 1 $$ >/dev/null
for round in 1 2 3 4 5; do
	sleep 2
	taskset 2 kit-hold kit0 2000 sleep &
	echo "round $round: A (pid $!) holds kit0 on CPU 1, asleep, 2 s"
	sleep 0.3
	taskset 4 sh -c "echo 'op 1' >$kit0" &
	sleep 0.2
	echo "round $round: B (pid $!) on CPU 2 waits: $(cat $kit0)"
	wait
	taskset 4 sh -c "echo 'op 1' >$kit0"
	echo "round $round: C took and released kit0: $(cat $kit0)"
done
