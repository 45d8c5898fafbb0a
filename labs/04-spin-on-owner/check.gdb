# Lab 4, checked: when the owner sleeps with the lock held, the spinner
# sees that it is not rq->curr, gives up, and sleeps on the wait list.
# Round 2's holder sleeps: skip round 1's.
hbreak kit_ctl_hold
kit-run-for 20
kit-run-for 20
delete
kit-run-for 1
echo == a second into the sleeping holder's critical section\n
kit-owner-running kit_ctl_locks[0].kit
kit-mutex kit_ctl_locks[0].kit
kit-spinners
detach
