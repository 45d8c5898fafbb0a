# Lab 17, checked: a task that holds kit0 locks it again.  gdb stops it
# as the second lock enters the slow path, shows kit0 held by that very
# task, and finishes the call, while the workload sends the task a
# signal.  Stage 17's second lock returns -4 (-EINTR): its own task in
# the owner word, without PICKUP, is not a handoff.  Stage 16's, woken
# first on the wait list, takes it for one, and returns 0.
hbreak __kit_mutex_lock_interruptible_slowpath
kit-run-for 20
delete
echo == N asks for kit0 again, holding it\n
kit-mutex kit_ctl_locks[0].kit
printf "kit0's owner is the caller: %d\n", ((struct task_struct *)(kit_ctl_locks[0].kit.owner.counter & ~7L))->pid == $lx_current().pid
finish
echo == the second lock has returned\n
detach
