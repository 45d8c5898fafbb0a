# Lab workload: one task takes and releases kit0 once every 2 s.
for round in 1 2 3 4 5 6 7 8; do
	sleep 2
	echo "round $round: op on kit0"
	echo "op 1" >/sys/kernel/debug/kit_mutex/kit0
done
