# Lab 14, checked: stop at B's call of kit_mutex_spin_on_owner(), while O
# holds kit0 running on CPU 1.  Then play the hypervisor: preempt vCPU 1
# (under scheduler-locking only B's vCPU 0 runs) and tell the guest so.
# Stage 14 stops spinning and queues B at once; stage 13 spins on an
# owner that cannot run.  After a second with all vCPUs running, B is
# still on the wait list (stage 14) or still spinning (stage 13).
hbreak kit_mutex_spin_on_owner
kit-run-for 20
delete
echo == B asks for kit0, held by O, who runs on CPU 1\n
kit-owner-running kit_ctl_locks[0].kit
echo == the host preempts vCPU 1, and says so: vCPU 0 runs alone\n
kit-vcpu-preempted 1
set scheduler-locking on
kit-run-to-spin 2
set scheduler-locking off
kit-vcpu-preempted none
kit-run-for 1
echo == a second later, all vCPUs running\n
kit-mutex kit_ctl_locks[0].kit
detach
