#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# gdb attaches to the guest's gdbstub, stops on a hardware breakpoint in
# the kit mutex, shows who called it, and the kernel's lx- scripts work.
. "$(dirname "$0")/lib/tap.sh"

plan 3
need_tree
built 5 || { echo "Bail out! stage 5 does not build"; exit 1; }

# Boot halted with the gdbstub, in the background; the guest takes a kit
# lock once gdb has let it run.  QEMU's output goes to a file, so that it
# cannot hold the test's stdout open.
setsid "$KIT/boot" --stage 5 --wait-gdb --quiet --timeout 120 --log "$SCRATCH/guest.log" \
	--cmd 'sleep 2; echo "op 10" >/sys/kernel/debug/kit_mutex/kit0; echo done' \
	>"$SCRATCH/boot.out" 2>&1 </dev/null &
qemu_pid=$!
trap 'kill -- -$qemu_pid 2>/dev/null' EXIT
for _ in $(seq 50); do
	grep -q "gdbstub on" "$SCRATCH/boot.out" 2>/dev/null && break
	sleep 0.2
done
port=$(sed -n 's/.*gdbstub on 127.0.0.1:\([0-9]*\).*/\1/p' "$SCRATCH/boot.out")

cat >"$SCRATCH/cmds.gdb" <<'GDB'
hbreak kit_mutex_lock
continue
bt 3
lx-ps
delete
detach
GDB
timeout 120 "$KIT/gdb" --port "$port" --batch "$SCRATCH/cmds.gdb" >"$SCRATCH/gdb.out" 2>&1

test_expect_success "gdb stops on a hardware breakpoint in kit_mutex_lock" '
	expect_grep "^(Thread [0-9]+ hit )?Breakpoint 1, kit_mutex_lock" "$SCRATCH/gdb.out"
'

test_expect_success "bt shows the kit debugfs op as the caller" '
	expect_grep "^#1 .* in kit_ctl_(op|lock) " "$SCRATCH/gdb.out"
'

test_expect_success "lx-ps lists the init task" '
	expect_grep "^0x[0-9a-f]+ +1 +init" "$SCRATCH/gdb.out"
'

wait $qemu_pid 2>/dev/null
test_done
