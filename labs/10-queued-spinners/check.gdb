# Lab 10, checked: A holds kit0 on CPU 0, running; B and C ask for it on
# CPUs 1 and 2.  Stop when the second of them enters the slow path while
# the first watches the owner (kit_mutex_watchers, the kit's gauge, is 1),
# then run only the second one's vCPU until it spins: the owner and the
# first spinner stay as they were.  Stage 10 queues the second behind the
# first, in kit_mspin_lock(); stage 9 has no queue: it watches the owner
# too, and the gauge says 2.  Then the queue must drain.
hbreak kit_ctl_hold
kit-run-for 20
delete
hbreak __kit_mutex_lock_slowpath if kit_mutex_watchers.counter == 1
kit-run-for 30
delete
echo == a second locker arrives while the first watches the owner\n
set scheduler-locking on
kit-run-to-spin 5
echo == the second locker's vCPU alone, until it spins\n
kit-spinners
print kit_mutex_watchers.counter
set scheduler-locking off
# Let all run to the next round's hold: both lockers have had kit0 and
# left the queue, which is empty again (a head that never passed its turn on
# would keep its successor spinning, and the round from ending).
hbreak kit_ctl_hold
kit-run-for 20
delete
echo == the next round's hold: the spinners' queue is empty\n
print kit_ctl_locks[0].kit.spin_mlock == 0
detach
