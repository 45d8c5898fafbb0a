# Lab 2, checked: a watchpoint on owner shows both ends of the window in
# which the lock is held and owner is NULL.
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
detach
