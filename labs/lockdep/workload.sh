# Lockdep lab workload: one lock order, then the other, never at once.
# Round 1: task A takes kit0, then kit1, keeps both 100 ms, lets go.
# Round 2, once A has gone: task B takes kit1, then kit0.  No deadlock can
# happen, since A and B never run together; lockdep reports the one that
# could, if they did.
for round in 1 2; do
	if [ $round = 1 ]; then first=kit0 second=kit1; else first=kit1 second=kit0; fi
	kit-nest $first $second 100 &
	pid=$!
	wait $pid
	echo "round $round: pid $pid took $first, then $second, and let go"
done
echo "round 3: debug_locks $(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats) (0: lockdep has reported, and stopped)"
