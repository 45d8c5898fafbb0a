#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# The newest stage boots in QEMU: banner, vCPUs, clock, exit status,
# timeout, and 'poweroff -f' as the banner prints it.
# time limit: 900 s
. "$(dirname "$0")/lib/tap.sh"

plan 8
need_tree

test_expect_success "the newest stage builds (or is already built)" '
	built 5
'

test_expect_success "it boots and the banner names the release and the stage" '
	guest banner --stage 5 --cmd "true" &&
	expect_grep "^spinkit: Linux 6\.1\.[0-9]+.*, stage-5 \([0-9a-f]{12}\), 4 CPUs" "$SCRATCH/banner.log"
'

test_expect_success "no keyboard or mouse probe prints over the guest's prompt: the console is the serial port" '
	! grep -E "i8042|serio|ImExPS|PS/2" "$SCRATCH/banner.log"
'

test_expect_success "the guest sees as many CPUs as asked for" '
	guest cpus2 --stage 5 --smp 2 --cmd "echo nproc=\$(nproc)" &&
	expect_grep "^nproc=2" "$SCRATCH/cpus2.log" &&
	guest cpus4 --stage 5 --smp 4 --cmd "echo nproc=\$(nproc)" &&
	expect_grep "^nproc=4" "$SCRATCH/cpus4.log"
'

test_expect_success "the guest keeps time with the TSC (kvm-clock under KVM), not with jiffies" '
	guest clock --stage 5 --smp 2 --cmd "sleep 2; echo clock=\$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)" &&
	expect_grep "^clock=(tsc|kvm-clock)$" "$SCRATCH/clock.log"
'

test_expect_success "'poweroff -f', typed at the prompt as the banner says, ends QEMU within 30 s" '
	start=$(date +%s) &&
	timeout 60 "$KIT/boot" --stage 5 --smp 2 >"$SCRATCH/leave.out" 2>&1 \
		< <(for _ in $(seq 10); do sleep 3; echo "poweroff -f"; done) &&
	tr -d "\r" <"$SCRATCH/leave.out" >"$SCRATCH/leave.log" &&
	expect_grep "type .poweroff -f. \(or press Ctrl-A X\) to leave the guest" "$SCRATCH/leave.log" &&
	expect_grep "reboot: Restarting system" "$SCRATCH/leave.log" &&
	elapsed=$(($(date +%s) - start)) &&
	echo "# QEMU ended after $elapsed s" &&
	[ "$elapsed" -lt 30 ]
'

test_expect_success "a guest command's exit status reaches the host" '
	rc=0; guest status --stage 5 --cmd "exit 7" || rc=$?
	expect_eq 7 "$rc" "host exit status"
'

test_expect_success "a hung guest is killed by the timeout, with a message" '
	rc=0; GUEST_TIMEOUT=15 guest hang --stage 5 --cmd "sleep 1000" 2>"$SCRATCH/hang.err" || rc=$?
	expect_eq 124 "$rc" "host exit status" &&
	expect_grep "did not finish within 15 s" "$SCRATCH/hang.err"
'

test_done
