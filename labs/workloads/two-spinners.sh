# Lab workload (labs 10 and 11): two spinners on one running owner.
# Each round:
#   0.0 s  A, pinned to CPU 0, takes kit0 and keeps it 4 s, running
#   0.3 s  B, pinned to CPU 1, and C, pinned to CPU 2, ask for kit0 one
#          right after the other: A runs, so both spin
# B and C each do one short operation under kit0 ("op 1") and let go.  Left alone, they do not
# spin for long: once A is preempted, or their own CPU has other work,
# they stop and sleep until A unlocks.  The round ends with the spin
# loop's counters: how often a spinner started to watch the owner, and how
# often it did so while another spinner watched already.  This shell
# stays on CPU 3, out of the way.  It starts 2 s after gdb lets the guest
# run, and repeats.
kit0=/sys/kernel/debug/kit_mutex/kit0
taskset -p 8 $$ >/dev/null
for round in 1 2 3 4 5; do
	sleep 2
	echo reset >/sys/kernel/debug/kit_mutex/stats
	taskset 1 kit-hold kit0 4000 busy &
	echo "round $round: A (pid $!) holds kit0 on CPU 0, running, 4 s"
	sleep 0.3
	taskset 2 sh -c "echo 'op 1' >$kit0" &
	b=$!
	taskset 4 sh -c "echo 'op 1' >$kit0" &
	echo "round $round: B (pid $b) on CPU 1 and C (pid $!) on CPU 2 ask for kit0"
	wait
	echo "round $round: spinners started watching $(kit-stat watch) times, $(kit-stat crowd) of them beside another"
done
