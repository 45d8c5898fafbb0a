# Lab 12, checked: lab 8's race.  B spins on A; gdb stops B's vCPU while
# CPU 0 runs on alone, A unlocks and C takes kit0.  B then finds an owner
# that is neither the one it spins on nor NULL.  Stage 12's helper answers
# 1 (look again), and B, run alone, tries kit0 and calls the helper again,
# on C, kit0's new owner; stage 11's answers 0, and B leaves the loop to
# sleep.
hbreak kit_ctl_hold
kit-run-for 20
delete
kit-spin-watch 5
echo == B spins on A\n
kit-mutex kit_ctl_locks[0].kit
set scheduler-locking on
set $b = $_thread
thread 1
hbreak kit_ctl_hold
kit-run-for 10
delete
echo == CPU 0 alone: A unlocked, C took kit0\n
kit-mutex kit_ctl_locks[0].kit
eval "thread %d", $b
set $a = owner
printf "B spins on pid %d; kit0's owner is pid %d\n", owner->pid, lock->owner->pid
finish
hbreak kit_mutex_spin_on_owner
kit-run-for 5
delete
echo == B's vCPU alone, until it calls the helper again\n
printf "B watches kit0's owner: %d; A: %d\n", owner == lock->owner, owner == $a
set scheduler-locking off
detach
