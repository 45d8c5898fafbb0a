# Lab 4, checked: while the owner runs (round 1), the locker spins in
# the helper, in the scheduler; when the owner sleeps with the lock held (round
# 2), the helper sees that it is not rq->curr and returns 0, and the
# locker sleeps on the wait list.
hbreak kit_ctl_hold
kit-run-for 20
delete
hbreak kit_mutex_spin_on_owner
kit-run-for 5
delete
echo == the locker spins on the running owner\n
kit-spinners
kit-owner-running kit_ctl_locks[0].kit
hbreak kit_ctl_hold
kit-run-for 20
delete
hbreak kit_mutex_spin_on_owner
kit-run-for 5
echo == the locker asks the scheduler about the sleeping owner\n
kit-owner-running kit_ctl_locks[0].kit
delete
finish
kit-run-for 1
echo == a second later\n
kit-mutex kit_ctl_locks[0].kit
kit-spinners
# Race 3, the stale owner: round 3's holder keeps kit0 busy on its CPU.
# Stop the locker as it is about to spin on the owner it read.
hbreak kit_mutex_spin_on_owner
kit-run-for 20
delete
echo == race 3: the spinner holds the owner it read\n
print owner->pid
kit-owner-running kit_ctl_locks[0].kit
set scheduler-locking on
set $spinner = $_thread
# The owner's vCPU alone: the hold ends and the lock is released (no
# other kit lock is in use there).
eval "thread %d", owner->thread_info.cpu + 1
hbreak kit_mutex_unlock
continue
delete
finish
echo == race 3: the owner released kit0; the spinner's pointer is stale\n
kit-mutex kit_ctl_locks[0].kit
# The spinner alone: it compares, never dereferences, and goes on.
eval "thread %d", $spinner
print owner == kit_ctl_locks[0].kit.owner
finish
advance kit_mutex_set_owner
echo == race 3: the spinner took kit0 with its cmpxchg\n
kit-mutex kit_ctl_locks[0].kit
set scheduler-locking off
delete
detach
