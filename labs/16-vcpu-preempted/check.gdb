# Lab 16, checked: stop at B's call of kit_mutex_spin_on_owner(), while O
# holds kit0 running on CPU 1, and run B's vCPU 0 alone (scheduler-
# locking) until it spins: vCPU 1 stands still, preempted, but nobody has
# said so.  Then play the hypervisor and tell the guest that vCPU 1 is
# preempted, and run vCPU 0 alone again.  Stage 16's spin loop sees the
# report at its next turn and returns 0; stage 15 spins on.  After a
# second with all vCPUs running, stage 16's B sleeps on the wait list.
hbreak kit_mutex_spin_on_owner
kit-run-for 20
delete
echo == B asks for kit0, held by O, who runs on CPU 1\n
kit-owner-running kit_ctl_locks[0].kit
set scheduler-locking on
kit-run-to-spin 2
echo == the host preempts vCPU 1 while B spins, and says so\n
kit-vcpu-preempted 1
kit-run-to-return 2
set scheduler-locking off
kit-vcpu-preempted none
kit-run-for 1
echo == a second later, all vCPUs running\n
kit-mutex kit_ctl_locks[0].kit
detach
