# Lab 5, checked: clear OWNER_SPIN from gdb, in memory, and a contender
# sleeps although the owner runs; then set it again.  The kernel must be
# running (paging on) before its memory can be written: flip the bit once
# the first holder has the lock.
hbreak kit_ctl_hold
kit-run-for 20
delete
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
set var sysctl_sched_features = sysctl_sched_features & ~(1U << __SCHED_FEAT_OWNER_SPIN)
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
kit-run-for 1
echo == NO_OWNER_SPIN, the owner runs\n
kit-owner-running kit_ctl_locks[0].kit
kit-mutex kit_ctl_locks[0].kit
set var sysctl_sched_features = sysctl_sched_features | (1U << __SCHED_FEAT_OWNER_SPIN)
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
detach
