# Lab 5, checked: clear OWNER_SPIN from gdb, in memory, and a locker
# asks kit_mutex_spin_on_owner() while the owner runs, never turns in its
# loop (no 'pause' reached), and sleeps; set it again, and the next
# locker of a busy round spins.  The wait list a second later would
# not tell: a spinner that ignores the bit gives up by itself within
# about 100 ms (RCU sets need_resched(), lab 3 step 4) and queues too.
# The kernel must be running (paging on) before its memory can be
# written: flip the bit once the first holder has the lock.
hbreak kit_ctl_hold
kit-run-for 20
delete
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
set var sysctl_sched_features = sysctl_sched_features & ~(1U << __SCHED_FEAT_OWNER_SPIN)
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
echo == NO_OWNER_SPIN, the owner runs\n
kit-spin-watch 1
kit-owner-running kit_ctl_locks[0].kit
kit-mutex kit_ctl_locks[0].kit
set var sysctl_sched_features = sysctl_sched_features | (1U << __SCHED_FEAT_OWNER_SPIN)
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
echo == OWNER_SPIN again, until the next busy round\n
kit-spin-watch 30
detach
