# Lab 1, checked: the new field, and why it is NULL while locked.
ptype struct kit_mutex
print sizeof(struct kit_mutex)
print &((struct kit_mutex *)0)->owner
hbreak kit_ctl_hold
kit-run-for 20
echo == holder in its critical section\n
kit-mutex kit_ctl_locks[0].kit
delete
detach
