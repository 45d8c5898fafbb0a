# Lab workload (labs 8, 12 and 15): the lock passes from one owner to another while a third
# task spins.  Each round:
#   0.0 s  A, pinned to CPU 0, takes kit0 and keeps it 3 s, running (busy)
#   0.3 s  C, pinned to CPU 0, is started; it can run only when A's hold
#          is over (A does not give up CPU 0 inside the kernel), and then
#          asks for kit0 and keeps it 0.5 s, running
#   1.0 s  B (this shell, pinned to CPU 1: echo is built in) asks for
#          kit0, and spins on A
# Left alone, B sees A unlock and takes kit0 before C can ask: the kernel
# keeps the race short.  gdb can stop CPU 1 while CPU 0 hands the lock
# from A to C, and B then finds an owner that is neither A nor NULL.
# It starts 2 s after gdb lets the guest run, and repeats.
kit0=/sys/kernel/debug/kit_mutex/kit0
taskset -p 2 $$ >/dev/null
up() { cut -d" " -f1 /proc/uptime; }
for round in 1 2 3; do
	sleep 2
	taskset 1 kit-hold kit0 3000 busy &
	echo "round $round: A (pid $!) takes kit0 on CPU 0 for 3 s, running"
	sleep 0.3
	taskset 1 sh -c "kit-hold kit0 500 busy; echo \"round $round: C (pid \$\$) had kit0\"" &
	echo "round $round: C (pid $!) waits for CPU 0"
	sleep 0.7
	t0=$(up)
	echo "round $round: B (pid $$) asks for kit0"
	echo "op 1" >$kit0
	t1=$(up)
	echo "round $round: B got kit0 after $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
	wait
done
