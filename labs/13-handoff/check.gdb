# Lab 13, checked: three tasks take turns at kit0, asleep under it.  Stop
# the first unlock of kit0 that finds the hand-off flag set, and step the
# unlocker's vCPU alone through it: the word goes from the unlocker to
# the first waiter in one instruction, and never reads free; the waiter
# has the lock before it has run.  Up to stage 12 nobody sets the flag,
# and the breakpoint is never hit.  It is on the function's first
# instruction, where its argument, the lock, is in rdi.
hbreak *kit_mutex_unlock if $rdi == &kit_ctl_locks[0].kit && ($kit_flags($rdi) & 2)
kit-run-for 30
delete
set scheduler-locking on
echo == an unlock of kit0 with the hand-off flag set\n
kit-mutex kit_ctl_locks[0].kit
kit-step-lock kit_ctl_locks[0].kit
kit-mutex kit_ctl_locks[0].kit
set scheduler-locking off
detach
