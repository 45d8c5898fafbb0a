# Lab workload: the owner sleeps on a CPU that then goes offline.  Each
# round:
#   0.0 s  O, pinned to CPU 1, takes kit0 and sleeps 3 s holding it
#   0.3 s  CPUs 1-3 go offline: only CPU 0 is left, and O, asleep, still
#          points at CPU 1
#   then   B (this shell, on CPU 0: echo is built in) asks for kit0
# At stage 7 B sleeps until O unlocks.  At stage 6 B spins with preemption
# off on the one CPU that could run O's wake-up: the guest stalls, for 3 s
# or for good.  It starts 2 s after gdb lets the guest run, and repeats,
# the CPUs back online between rounds.
kit0=/sys/kernel/debug/kit_mutex/kit0
cpus() { for c in 1 2 3; do echo "$1" >/sys/devices/system/cpu/cpu$c/online; done; }
up() { cut -d" " -f1 /proc/uptime; }
busy0() { awk '$1 == "cpu0" { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
for round in 1 2 3; do
	sleep 2
	taskset 2 kit-hold kit0 3000 sleep &
	echo "round $round: O (pid $!) takes kit0 on CPU 1, asleep 3 s"
	sleep 0.3
	cpus 0
	echo "round $round: online CPUs: $(cat /sys/devices/system/cpu/online)"
	t0=$(up) b0=$(busy0)
	echo "round $round: B (pid $$) asks for kit0"
	echo "op 1" >$kit0
	t1=$(up) b1=$(busy0)
	echo "round $round: B got kit0 after $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s; CPU 0 busy $((b1 - b0)) ticks of 100 meanwhile"
	wait
	cpus 1
done
