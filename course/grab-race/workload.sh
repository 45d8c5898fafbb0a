# The grab race's workload (scripts/grade; check.gdb says what gdb does
# with it).  Each round, on kit0, with a vCPU for each side so that gdb
# can freeze one side by freezing its vCPU:
#   vCPU 1  the holder keeps kit0 3 s, busy; once it has it, a second
#           locker is started there, which runs only when the holder
#           gives the CPU back, and then asks for kit0 at once
#   vCPU 2  a locker asks for kit0 0.3 s into the hold, and spins on the
#           running holder (or sleeps, before stage 3)
# Both lockers do one "op" that sleeps 0.3 s between reading and writing
# the lock's counter: if both are inside at once, an update is lost.
kit=/sys/kernel/debug/kit_mutex/kit0
for round in 1 2 3; do
	sleep 2
	echo reset >$kit
	echo "round $round"
	taskset 2 kit-hold kit0 3000 busy &
	until grep -q ' holder=[1-9]' $kit; do sleep 0.05; done
	taskset 2 sh -c "echo 'op 1 300000' >$kit" &
	sleep 0.3
	taskset 4 sh -c "echo 'op 1 300000' >$kit" &
	wait
	cat $kit
done
