# Lab 3, checked: the locker spins on a running owner, and is not
# queued on the wait list.  Then race 2 is driven: a late locker
# queues while the locker spins, the owner releases, and the spinner
# meets the queue.  Last, step 4: the naive helper spins on a sleeping
# owner until its CPU is asked to reschedule.
hbreak kit_ctl_hold
kit-run-for 20
delete
hbreak kit_mutex_spin_on_owner_naive
kit-run-for 5
echo == the locker in the helper\n
kit-spinners
kit-mutex kit_ctl_locks[0].kit
kit-owner-running kit_ctl_locks[0].kit
delete
# Race 2: vCPU 3 (thread 4) alone, the late locker's: it spins until
# the tick asks it to let the busy loop run, then queues.
set scheduler-locking on
thread 4
watch -l kit_ctl_locks[0].kit.wait_list.next
kit-run-for 10
echo == race 2: the late locker queues\n
bt 1
delete
kit-run-for 1
echo == race 2: it sleeps on the wait list; the locker spins on\n
kit-mutex kit_ctl_locks[0].kit
kit-spinners
# The holder's vCPU alone (thread 2): the hold ends, kit0 is released.
thread 2
hbreak kit_mutex_unlock
kit-run-for 10
delete
finish
echo == race 2: the holder released kit0 and woke the waiter\n
kit-mutex kit_ctl_locks[0].kit
# The spinner's vCPU alone (thread 3).
thread 3
watch -l kit_ctl_locks[0].kit.wait_list.prev
kit-run-for 5
bt 3
delete
finish
echo == race 2: the spinner sees the waiter and joins the queue\n
kit-mutex kit_ctl_locks[0].kit
advance kit_mutex_set_owner
echo == race 2: the spinner took kit0 on its way into the queue\n
kit-mutex kit_ctl_locks[0].kit
set scheduler-locking off
kit-run-for 1
echo == race 2: everyone ran on\n
kit-mutex kit_ctl_locks[0].kit
# Step 4: round 2's holder sleeps, and the naive helper spins on it until
# a tick asks its CPU to reschedule.
hbreak kit_ctl_hold
kit-run-for 20
delete
hbreak kit_mutex_spin_on_owner_naive
kit-run-for 5
delete
echo == step 4: the owner sleeps, the locker spins\n
kit-owner-running kit_ctl_locks[0].kit
kit-spinners
set $spinner = $lx_per_cpu("current_task", 2)
watch -l $spinner->thread_info.flags
kit-run-for 5
delete
echo == step 4: the spinner's CPU is asked to reschedule\n
print/x $spinner->thread_info.flags & 8
detach
