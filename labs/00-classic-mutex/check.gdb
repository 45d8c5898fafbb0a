# Lab 0, checked: fast path, slow path, the wait list and the wake-up.
hbreak kit_ctl_hold
kit-run-for 20
echo == holder in its critical section\n
kit-mutex kit_ctl_locks[0].kit
delete
hbreak __kit_mutex_lock_slowpath
kit-run-for 10
echo == locker entered the slow path\n
kit-mutex kit_ctl_locks[0].kit
delete
hbreak kit_mutex_unlock
kit-run-for 10
echo == holder unlocking\n
kit-mutex kit_ctl_locks[0].kit
delete
hbreak __kit_mutex_unlock_slowpath
kit-run-for 10
echo == unlock took the slow path\n
bt 1
delete
detach
