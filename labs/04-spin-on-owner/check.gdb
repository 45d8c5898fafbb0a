# Lab 4, checked: when the owner sleeps with the lock held, the scheduler's
# helper sees that it is not rq->curr and returns 0; the contender then
# sleeps on the wait list.  Round 2's holder sleeps: skip round 1's.
hbreak kit_ctl_hold
kit-run-for 20
kit-run-for 20
delete
hbreak kit_mutex_spin_on_owner
kit-run-for 5
echo == the contender asks the scheduler about the sleeping owner\n
kit-owner-running kit_ctl_locks[0].kit
delete
finish
kit-run-for 1
echo == a second later\n
kit-mutex kit_ctl_locks[0].kit
kit-spinners
detach
