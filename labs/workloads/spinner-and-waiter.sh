# Lab workload: a holder keeps kit0 3 s, on the CPU in odd rounds and
# asleep in even ones; a locker asks for it 0.3 s in, and a late
# locker 0.6 s in.  Each task has a vCPU of its own, so that gdb can
# freeze one task by freezing its vCPU:
#   vCPU 1  the holder
#   vCPU 2  the locker (it spins: nothing else wants its CPU)
#   vCPU 3  the late locker, sharing its CPU with a busy loop: the
#           scheduler tick soon tells it to give the CPU up, so that it
#           stops spinning and queues on kit0's wait list.
# It starts 2 s after gdb lets the guest run, and repeats so that you can
# watch again.
kit=/sys/kernel/debug/kit_mutex/kit0
for round in 1 2 3 4 5 6; do
	sleep 2
	how="busy"
	[ $((round % 2)) -eq 0 ] && how="sleep"
	echo "round $round: holder takes kit0 ($how, vCPU 1)"
	taskset 2 kit-hold kit0 3000 "$how" &
	# The late locker's delay runs on its own vCPU, so that it comes
	# even when gdb lets vCPU 3 alone run.
	taskset 8 sh -c "sleep 0.6
		echo 'round $round: late locker asks for kit0 (vCPU 3, with a busy loop)'
		sh -c 'while :; do :; done' &
		echo 'op 1' >$kit
		kill \$!" &
	sleep 0.3
	echo "round $round: locker asks for kit0 (vCPU 2)"
	taskset 4 sh -c "echo 'op 1' >$kit"
	wait
done
