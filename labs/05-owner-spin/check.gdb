# Lab 5, checked: clear OWNER_SPIN from gdb, in memory, and a contender
# sleeps although the owner runs; set it again and it spins.
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
set var sysctl_sched_features = sysctl_sched_features & ~(1U << __SCHED_FEAT_OWNER_SPIN)
print (sysctl_sched_features >> __SCHED_FEAT_OWNER_SPIN) & 1
hbreak kit_ctl_hold
kit-run-for 20
kit-run-for 1
echo == NO_OWNER_SPIN, the owner runs\n
kit-owner-running kit_ctl_locks[0].kit
kit-mutex kit_ctl_locks[0].kit
set var sysctl_sched_features = sysctl_sched_features | (1U << __SCHED_FEAT_OWNER_SPIN)
kit-run-for 20
kit-run-for 20
kit-run-for 1
echo == OWNER_SPIN again, the owner runs\n
kit-owner-running kit_ctl_locks[0].kit
kit-spinners
delete
detach
