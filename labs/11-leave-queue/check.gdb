# Lab 11, checked: as in lab 10, A holds kit0 on CPU 0, running, and B and
# C ask for it on CPUs 1 and 2.  Stop when the second of them enters the
# slow path while the first watches the owner, and run only the second
# one's vCPU until it waits in the spinners' queue.  Then tell it to
# reschedule and run it alone again: stage 11's queue lets it leave, and
# kit_osq_lock() returns false; stage 10's does not, and it is still
# queued 5 s later.  The head stays, with nobody behind it, and the queue
# must drain by the next round.
hbreak kit_ctl_hold
kit-run-for 20
delete
hbreak __kit_mutex_lock_slowpath if kit_mutex_watchers.counter == 1
kit-run-for 30
delete
echo == a second locker arrives while the first watches the owner\n
set scheduler-locking on
kit-run-to-spin 5
kit-spinners
echo == it must reschedule: run its vCPU alone\n
kit-need-resched
kit-run-to-return 5
kit-spinners
print kit_ctl_locks[0].kit.osq != 0 && kit_ctl_locks[0].kit.osq->next == 0
set scheduler-locking off
hbreak kit_ctl_hold
kit-run-for 20
delete
echo == the next round's hold: the spinners' queue is empty\n
print kit_ctl_locks[0].kit.osq == 0
detach
