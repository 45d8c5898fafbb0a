# Lab 13, checked: A holds kit0 asleep and B sleeps on its wait list.
# Stop A's unlock and step A's vCPU alone through it: kit0 goes from held
# by A to free in one instruction, keeping the waiters flag.  Then stop
# C's lock of the free kit0 and step it: free to held by C in one.  Up to
# stage 12 the owner field lags the count both ways, for a few
# instructions each.  The breakpoints are on each function's first
# instruction, where its argument, the lock, is in rdi.
hbreak *kit_mutex_unlock if $rdi == &kit_ctl_locks[0].kit && $kit_waiters($rdi) == 1
kit-run-for 30
delete
set scheduler-locking on
echo == A unlocks kit0, with B asleep on its wait list\n
kit-mutex kit_ctl_locks[0].kit
kit-step-lock kit_ctl_locks[0].kit
set scheduler-locking off
hbreak *kit_mutex_lock if $rdi == &kit_ctl_locks[0].kit && !$kit_held($rdi)
kit-run-for 20
delete
set scheduler-locking on
echo == C locks kit0, free\n
kit-step-lock kit_ctl_locks[0].kit
set scheduler-locking off
detach
