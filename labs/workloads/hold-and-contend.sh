# Lab workload: a holder keeps kit0 for 3 s, on the CPU in odd rounds and
# asleep in even ones, while a second task asks for it.  It starts 2 s
# after gdb lets the guest run, and repeats so that you can watch again.
for round in 1 2 3 4 5 6; do
	sleep 2
	how="busy"
	[ $((round % 2)) -eq 0 ] && how="sleep"
	echo "round $round: holder takes kit0 ($how)"
	kit-hold kit0 3000 "$how" &
	sleep 0.3
	echo "round $round: locker asks for kit0"
	echo "op 1" >/sys/kernel/debug/kit_mutex/kit0
	wait
done
