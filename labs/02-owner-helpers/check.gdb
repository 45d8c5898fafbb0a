# Lab 2, checked: a watchpoint on owner shows both ends of the window in
# which the lock is held and owner is NULL; then race 1 is driven: vCPU 1
# is frozen inside the window while vCPU 2 alone runs into the lock.
# The helpers must exist (an error ends the script at once, not after
# the watchpoint below has waited in vain).
info line kit_mutex_set_owner
# at boot, __kit_mutex_init() writes owner too: start once the guest runs
hbreak kit_ctl_write
kit-run-for 20
delete
watch -l kit_ctl_locks[0].kit.owner
kit-run-for 20
echo == owner written\n
bt 1
kit-mutex kit_ctl_locks[0].kit
kit-run-for 10
echo == owner cleared\n
bt 1
kit-mutex kit_ctl_locks[0].kit
delete
# Race 1: stop vCPU 1 (thread 2) as it starts to take a free kit0...
hbreak kit_mutex_lock if $_thread == 2 && lock == &kit_ctl_locks[0].kit && lock->count.counter == 1
kit-run-for 20
delete
set scheduler-locking on
# ...and run it alone through the fast path, up to the owner's write
# (kit_mutex_set_owner() is inline: advance stops where it begins).
advance kit_mutex_set_owner
echo == race 1: vCPU 1 holds kit0 and has not written owner\n
kit-mutex kit_ctl_locks[0].kit
# Now vCPU 2 (thread 3) alone, while vCPU 1 stays in the window.
thread 3
hbreak __kit_mutex_lock_slowpath if $_thread == 3
kit-run-for 10
echo == race 1: vCPU 2 finds kit0 taken by nobody it can name\n
kit-mutex kit_ctl_locks[0].kit
delete
kit-run-for 2
echo == race 1: vCPU 2's task sleeps, queued behind an owner it cannot see\n
kit-mutex kit_ctl_locks[0].kit
thread 2
set scheduler-locking off
kit-run-for 3
echo == race 1: vCPU 1 wrote owner, unlocked and woke the waiter\n
kit-mutex kit_ctl_locks[0].kit
detach
