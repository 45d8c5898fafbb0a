# Lab workload: a queue forms behind a sleeping holder, then a newcomer
# finds the lock held by a running owner with a waiter queued.  Each round:
#   0.0 s  H takes kit0 and sleeps 2 s holding it
#   0.3 s  A asks: H sleeps, so A queues; at 2 s it gets kit0 and keeps it
#          3 s, running (busy)
#   0.6 s  C asks, and queues behind A
#   3.0 s  B (this shell: echo is built in) asks, while A runs and C waits
# It starts 2 s after gdb lets the guest run, and repeats so that you can
# watch again.  H and A run on CPU 1, C on CPU 2, and B on CPU 0: A never
# shares its CPU with B, which would stop B's spinning (the owner would
# not be running).
kit0=/sys/kernel/debug/kit_mutex/kit0
taskset -p 1 $$ >/dev/null
for round in 1 2 3; do
	sleep 2
	echo "round $round: H takes kit0, asleep"
	taskset 2 kit-hold kit0 2000 sleep &
	sleep 0.3
	taskset 2 kit-hold kit0 3000 busy &
	echo "round $round: A (pid $!) asks for kit0, to keep it 3 s running"
	sleep 0.3
	taskset 4 sh -c "echo \"round $round: C (pid \$\$) asks for kit0\"
		echo 'op 1' >$kit0; echo 'round $round: C got kit0'" &
	sleep 2.4
	echo "round $round: B (pid $$) asks for kit0"
	echo "op 1" >$kit0
	echo "round $round: B got kit0"
	wait
done
