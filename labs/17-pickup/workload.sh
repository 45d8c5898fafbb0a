# Lab workload (lab 17): a task that holds kit0 locks it again.  Each
# round, with the OWNER_SPIN feature off (so that the second lock sleeps
# at once rather than spin on its own task):
#   0.0 s  N, pinned to CPU 1, takes kit0, then asks for it again,
#          interruptibly (kit-nest kit0: the debugfs command "nest"), and
#          sleeps on kit0's wait list, the first waiter, its own
#   1.0 s  this shell, on CPU 0, prints N's state and kit0, and sends N a
#          signal: it wakes first on the wait list, with its own task in
#          kit0's owner word
#   2.0 s  the console's line on how N's second lock ended: interrupted
#          (EINTR) on stage 17, taken on stages 14 to 16
# It starts 2 s after gdb lets the guest run, and repeats.
kit=/sys/kernel/debug/kit_mutex
features=/sys/kernel/debug/sched/features
taskset -p 1 $$ >/dev/null
for round in 1 2 3; do
	sleep 2
	echo NO_OWNER_SPIN >$features
	taskset 2 kit-nest kit0 &
	echo "round $round: N (pid $!) takes kit0 on CPU 1, and asks for it again"
	sleep 1
	echo "round $round: N is in state $(cut -d' ' -f3 /proc/$!/stat); kit0: $(cat $kit/kit0)"
	kill $!
	echo "round $round: a signal for N"
	sleep 1
	echo "round $round: $(dmesg | grep 'kit0: .* again' | tail -n 1 | sed 's/.*kit_mutex: //')"
	echo OWNER_SPIN >$features
	wait
done
