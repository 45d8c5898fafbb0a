# Lab workload (lab 16): a locker finds the lock held by a task that runs.
# Each round:
#   0.0 s  O, pinned to CPU 1, takes kit0 and keeps it 10 s, running
#          (mdelay(), which counts the clock: the time its vCPU stands
#          still under gdb counts too)
#   0.3 s  B (this shell, pinned to CPU 0: echo is built in) asks for
#          kit0; O runs, so B spins, unless it hears that CPU 1's vCPU
#          is preempted
# Round 2 lists CPU 1 in the kit's "preempted" file (stage 16 on): the
# guest is told that CPU 1's vCPU is preempted, though under TCG it
# runs.  Rounds 1 and 3 list none.  The console says how long B waited,
# and how busy CPU 0 was meanwhile.
# It starts 2 s after gdb lets the guest run, and repeats.
kit0=/sys/kernel/debug/kit_mutex/kit0
preempted=/sys/kernel/debug/kit_mutex/preempted
up() { cut -d" " -f1 /proc/uptime; }
busy0() { awk '$1 == "cpu0" { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
taskset -p 1 $$ >/dev/null
for round in 1 2 3; do
	sleep 2
	list=$([ "$round" = 2 ] && echo 1)
	if [ -e $preempted ]; then
		echo "$list" >$preempted
		echo "round $round: vCPUs reported preempted: ${list:-none}"
	else
		echo "round $round: no vCPU can be reported preempted before stage 16"
	fi
	taskset 2 kit-hold kit0 10000 busy &
	echo "round $round: O (pid $!) takes kit0 on CPU 1, running 10 s"
	sleep 0.3
	echo "round $round: B (pid $$) asks for kit0"
	t0=$(up) b0=$(busy0)
	echo "op 1" >$kit0
	t1=$(up) b1=$(busy0)
	echo "round $round: B got kit0 after $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s; CPU 0 busy $((b1 - b0)) ticks of 100 meanwhile"
	wait
done
if [ -e $preempted ]; then echo >$preempted; fi
