# Lab 3, checked: the contender spins on a running owner, and is not
# queued on the wait list.
hbreak kit_ctl_hold
kit-run-for 20
delete
kit-run-for 1
echo == a second into the holder's critical section\n
kit-spinners
kit-mutex kit_ctl_locks[0].kit
kit-owner-running kit_ctl_locks[0].kit
detach
