# Lab 3, checked: the contender spins on a running owner, and is not
# queued on the wait list.
hbreak kit_ctl_hold
kit-run-for 20
delete
hbreak kit_mutex_spin_on_owner_naive
kit-run-for 5
echo == the contender in the spin helper\n
kit-spinners
kit-mutex kit_ctl_locks[0].kit
kit-owner-running kit_ctl_locks[0].kit
delete
detach
