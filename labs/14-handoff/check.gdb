# Lab 14, checked: three tasks take turns at kit0, asleep under it.  Stop
# the first unlock of kit0 that finds the handoff flag set, and step the
# unlocker's vCPU alone through it: the word goes from the unlocker to
# the first waiter in one instruction, and never reads free; the waiter
# has the lock before it has run.  Up to stage 13 nobody sets the flag:
# the breakpoint stops the 300th unlock of kit0 instead, whose word's
# flags are not 0x3.  (Every unlock stops the guest while gdb tests the
# condition, and the guest's clock stands still meanwhile: the count,
# not kit-run-for's time, bounds the run.)  The breakpoint is on the
# function's first instruction, where its argument, the lock, is in rdi.
set $kit0_unlocks = 0
hbreak *kit_mutex_unlock if $rdi == &kit_ctl_locks[0].kit && (($kit_flags($rdi) & 2) || ($kit0_unlocks = $kit0_unlocks + 1) >= 300)
kit-run-for 30
delete
set scheduler-locking on
echo == an unlock of kit0 with the handoff flag set\n
kit-mutex kit_ctl_locks[0].kit
set $first = ((struct kit_mutex_waiter *) kit_ctl_locks[0].kit.wait_list.next)->task
kit-step-lock kit_ctl_locks[0].kit
printf "state changes: %d; owner is the first waiter: %d\n", $kit_step_changes, (kit_ctl_locks[0].kit.owner.counter & ~3) == (long) $first
kit-mutex kit_ctl_locks[0].kit
set scheduler-locking off
detach
