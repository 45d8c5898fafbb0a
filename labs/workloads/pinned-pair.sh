# Lab workload: two tasks take and release kit0 once a second each, one
# pinned to vCPU 1 and the other to vCPU 2, so that gdb can freeze one
# task (by freezing its vCPU) while the other runs on.
# Half a second apart, so that they seldom meet unless gdb makes them.
for mask in 2 4; do
	taskset "$mask" sh -c 'while :; do
		echo "op 1" >/sys/kernel/debug/kit_mutex/kit0
		sleep 1
	done' &
	sleep 0.5
done
echo "two tasks on kit0, pinned to vCPUs 1 and 2"
sleep 600
