#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# gdb attaches to the guest's gdbstub with the command the boot prints,
# stops on a hardware breakpoint in the kit mutex, shows who called it,
# and the kernel's lx- scripts work.  Each guest has one record, and two
# guests started at once get ports of their own.  A run directory left by
# a boot that was killed goes at the next boot, and a live boot's stays.
# time limit: 600 s
. "$(dirname "$0")/lib/tap.sh"

plan 7
need_tree
built 5 || { echo "Bail out! stage 5 does not build"; exit 1; }

# boot_halted NAME: boot stage 5 halted with the gdbstub, in the
# background, its record in $SCRATCH/NAME.guest; the guest takes a kit
# lock once gdb lets it run.  QEMU's output goes to files, so that it
# cannot hold the test's stdout open.
pids=()
boot_halted() {
	setsid "$KIT/boot" --stage 5 --wait-gdb --quiet --timeout 120 --log "$SCRATCH/$1.log" \
		--record "$SCRATCH/$1.guest" \
		--cmd 'sleep 2; echo "op 10" >/sys/kernel/debug/kit_mutex/kit0; echo done' \
		>"$SCRATCH/$1.out" 2>&1 </dev/null &
	pids+=($!)
}
# wait_record NAME: the guest's record, once scripts/boot wrote it: up to
# 60 s, for a boot that first waits on the build lock or evicts kernels.
wait_record() {
	for _ in $(seq 300); do
		[ -f "$SCRATCH/$1.guest" ] && return 0
		sleep 0.2
	done
	echo "no record $SCRATCH/$1.guest; boot said:"; cat "$SCRATCH/$1.out"
	return 1
}
stop_guests() {
	local p
	for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null; done
}
trap stop_guests EXIT

# A killed boot's run directory (its pid gone), and one of a boot still
# running (this shell's pid), before the boots below.
sh -c : & dead=$!; wait $dead
mkdir -p "$KIT_RUN/boot.$dead.killed" "$KIT_RUN/boot.$$.running"

boot_halted one
boot_halted two
wait_record one && wait_record two

test_expect_success "a boot removes the run directory of a boot that was killed, not of one that runs" '
	test ! -e "$KIT_RUN/boot.$dead.killed" &&
	test -d "$KIT_RUN/boot.$$.running"
'
rmdir "$KIT_RUN/boot.$$.running"

test_expect_success "two guests started at once listen on ports of their own, each in its record" '
	p1=$(record_field "$SCRATCH/one.guest" port) && p2=$(record_field "$SCRATCH/two.guest" port) &&
	test -n "$p1" && test -n "$p2" && test "$p1" != "$p2" &&
	listening "$p1" && listening "$p2" &&
	kill -0 "$(record_field "$SCRATCH/one.guest" pid)" &&
	expect_grep "^images=.*/images/default/[0-9a-f]{40}$" "$SCRATCH/one.guest"
'

cat >"$SCRATCH/cmds.gdb" <<'GDB'
hbreak kit_mutex_lock
continue
bt 3
lx-ps
delete
detach
GDB
# The attach command exactly as the boot printed it, gdb's commands on
# its standard input.
attach=$(sed -n 's/.*attach gdb from another terminal with: *//p' "$SCRATCH/one.out")
(cd "$KIT_ROOT" && timeout 120 bash -c "$attach" <"$SCRATCH/cmds.gdb") >"$SCRATCH/gdb.out" 2>&1

test_expect_success "the attach command the boot printed names the guest's port, and gdb says which kernel it runs" '
	expect_grep "make gdb GDBPORT=$(record_field "$SCRATCH/one.guest" port)$" "$SCRATCH/one.out" &&
	expect_grep "^spinkit: the guest runs stage-5 \\([0-9a-f]{12}\\)" "$SCRATCH/gdb.out"
'

test_expect_success "gdb stops on a hardware breakpoint in kit_mutex_lock" '
	expect_grep "^(Thread [0-9]+ hit )?Breakpoint 1, kit_mutex_lock" "$SCRATCH/gdb.out"
'

test_expect_success "bt shows the kit debugfs op as the caller" '
	expect_grep "^#1 .* in kit_ctl_(op|lock) " "$SCRATCH/gdb.out"
'

test_expect_success "lx-ps lists the init task" '
	expect_grep "^0x[0-9a-f]+ +1 +init" "$SCRATCH/gdb.out"
'

wait "${pids[0]}" 2>/dev/null
kill -- -"${pids[1]}" 2>/dev/null
wait "${pids[1]}" 2>/dev/null
test_expect_success "a guest's record goes when the guest does, and no run directory is left" '
	test ! -e "$SCRATCH/one.guest" && test ! -e "$SCRATCH/two.guest" &&
	test -z "$(find "$KIT_RUN" -maxdepth 1 -name "boot.*")"
'

test_done
