# Lab 9, checked: stop CPU 1 in the middle of its switch away from O, who
# goes to sleep holding kit0, then run CPU 0 alone while B asks for kit0.
# CPU 1's rq->curr is already the next task; O's on_cpu is still 1.
# Stage 9's helper reads on_cpu and spins; stage 8's reads rq->curr and
# answers 0 at once, so nothing spins.  Let go, the switch completes and
# B queues.
hbreak kit_ctl_hold
kit-run-for 20
delete
set $o = kit_ctl_locks[0].kit.owner
eval "hbreak finish_task_switch thread %d if prev == $o", $_thread
kit-run-for 5
delete
echo == CPU 1 is switching away from O, who sleeps holding kit0\n
kit-owner-running kit_ctl_locks[0].kit
set scheduler-locking on
thread 1
kit-spin-watch 3
set scheduler-locking off
kit-run-for 1
echo == a second later\n
kit-mutex kit_ctl_locks[0].kit
detach
