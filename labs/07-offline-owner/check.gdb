# Lab 7, checked: stop at B's first call of kit_mutex_spin_on_owner(),
# once CPU 1, where O sleeps, is offline; see where O is recorded, and what
# the helper answers.  Stage 7 says 0 (stop spinning); stage 6 says 1
# (look again), and B goes round its loop with preemption off.
hbreak kit_mutex_spin_on_owner
kit-run-for 20
delete
printf "online CPUs: %#lx\n", __cpu_online_mask.bits[0]
printf "owner: pid %d (%s), on CPU %u\n", owner->pid, owner->comm, owner->thread_info.cpu
finish
detach
