# Lab 6, checked: stop when A takes kit0 (the second holder of the round,
# after H), see C queued, then watch: B arrives while A runs and C waits,
# and spins, with C still queued.  Stage 5 breaks out of its loop at the
# wait-list test before it calls kit_mutex_spin_on_owner(), so B queues
# there: no 'pause', and two waiters.
# Only A's hold, the busy one, stops: under TCG a hardware breakpoint
# is now and then reported twice, and a second stop on H's hold would
# be taken for A's.
hbreak kit_ctl_hold if busy
kit-run-for 20
delete
kit-mutex kit_ctl_locks[0].kit
echo == A holds kit0 and C waits; B asks in about 1 s\n
kit-spin-watch 2
kit-mutex kit_ctl_locks[0].kit
detach
