# The grab race: is the instruction with which a locker takes a free
# kit0 atomic?  Round 1 learns which instruction that is: once the
# locker on vCPU 2 is in the lock's slow path, the holder's vCPU alone
# runs until the hold sets kit0 free and returns (wait_lock released
# too), then the locker's vCPU alone until it takes kit0 (kit-run-until
# keeps the instruction's address).  Round 2 replays it with a task in
# between: the locker runs alone up to that instruction and stops before
# it; the second locker, on the holder's vCPU, takes the free lock; then
# all run.  A cmpxchg (or xchg) finds the lock taken and the locker
# waits its turn; a plain store after an earlier read takes kit0 a
# second time, and the two lockers' ops lose an update.  Threads: vCPU N
# is thread N+1.
set pagination off
echo == round 1: where the locker takes the free lock\n
hbreak __kit_mutex_lock_common thread 3
kit-run-for 30
delete
set scheduler-locking on
thread 2
kit-run-until kit_ctl_locks[0].kit free 10
kit-run-to-return 5
thread 3
kit-run-until kit_ctl_locks[0].kit taken 5
set scheduler-locking off
set $take = $kit_change_pc
watch -l kit_ctl_locks[0].ops.counter if kit_ctl_locks[0].ops.counter >= 2
kit-run-for 10
delete
printf "round 1: ops %d, counter %d\n", kit_ctl_locks[0].ops.counter, kit_ctl_locks[0].counter
echo == round 2: the locker stopped right before it, another locker first\n
hbreak __kit_mutex_lock_common thread 3
kit-run-for 30
delete
set scheduler-locking on
thread 2
kit-run-until kit_ctl_locks[0].kit free 10
kit-run-to-return 5
thread 3
kit-run-alone-to $take 5
thread 2
kit-run-until kit_ctl_locks[0].kit taken 5
kit-mutex kit_ctl_locks[0].kit
set scheduler-locking off
watch -l kit_ctl_locks[0].ops.counter if kit_ctl_locks[0].ops.counter >= 2
kit-run-for 10
delete
printf "round 2: ops %d, counter %d\n", kit_ctl_locks[0].ops.counter, kit_ctl_locks[0].counter
detach
