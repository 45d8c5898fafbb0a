# Lab 15, checked: lab 8's race, with B asleep on the wait list instead of
# spinning.  B spins on A; gdb sets B's need-resched flag and runs B's
# vCPU alone until B has queued and slept.  Then CPU 0 alone: A unlocks,
# which wakes B (its vCPU is held), and C takes kit0.  Then every vCPU
# runs, until B calls kit_mutex_spin_on_owner() while it is first on the
# wait list: on stage 15 it does at once, woken first and spinning on C,
# a running owner; on stage 14 it asks for a handoff and sleeps again,
# and no waiter ever calls the helper.
hbreak kit_ctl_hold
kit-run-for 20
delete
kit-spin-watch 5
echo == B spins on A\n
set $bpid = $lx_current().pid
set scheduler-locking on
set $b = $_thread
kit-need-resched
kit-run-for 2
echo == B's vCPU alone, told to reschedule: B sleeps on kit0's wait list\n
kit-mutex kit_ctl_locks[0].kit
thread 1
hbreak kit_ctl_hold
kit-run-for 10
delete
echo == CPU 0 alone: A unlocked and woke B, C took kit0\n
kit-mutex kit_ctl_locks[0].kit
set scheduler-locking off
hbreak kit_mutex_spin_on_owner if $lx_current().pid == $bpid && $kit_waiters(lock) > 0 && ((struct kit_mutex_waiter *)lock->wait_list.next)->task->pid == $bpid
kit-run-for 5
delete
echo == all vCPUs: B, first on the wait list, calls the helper\n
printf "B watches kit0's owner: %d; B is pid %d\n", (long)owner == (lock->owner.counter & ~3L), $bpid
detach
