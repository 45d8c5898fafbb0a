# Lab 8, checked: B spins on A; gdb stops B's vCPU while CPU 0 runs on
# alone, A unlocks and C takes kit0.  B then finds an owner that is
# neither the one it spins on nor NULL.  Stage 8's helper answers 0 (stop
# spinning, queue); stage 7's answers 1, and B goes on to spin on C.
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
printf "B spins on pid %d; kit0's owner is pid %d\n", owner->pid, lock->owner->pid
finish
set scheduler-locking off
detach
