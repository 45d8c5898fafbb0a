# Lab workload: the owner goes to sleep holding the lock, and a locker
# asks soon after.  Each round:
#   0.0 s  O, pinned to CPU 1, takes kit0 and sleeps 6 s holding it
#   0.3 s  B (this shell, pinned to CPU 0: echo is built in) asks for
#          kit0; O is long asleep, so B sleeps too, until O unlocks
# gdb can stop CPU 1 in the middle of its switch away from O and let
# CPU 0 run alone: B then asks while CPU 1 has picked its next task but
# has not finished switching to it.
# It starts 2 s after gdb lets the guest run, and repeats.
kit0=/sys/kernel/debug/kit_mutex/kit0
taskset -p 1 $$ >/dev/null
for round in 1 2 3; do
	sleep 2
	taskset 2 kit-hold kit0 6000 sleep &
	echo "round $round: O (pid $!) takes kit0 on CPU 1, asleep 6 s"
	sleep 0.3
	echo "round $round: B (pid $$) asks for kit0"
	echo "op 1" >$kit0
	echo "round $round: B got kit0"
	wait
done
