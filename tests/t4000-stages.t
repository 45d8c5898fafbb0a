#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317,SC2034 # test bodies are single-quoted and eval'ed, as in git's t/
# Every commit from baseline to the newest stage builds (make test:
# stage 0 and the stages it samples, tests/lib/tap.sh).  Baseline boots
# with no kit mutex; stage 0, which no assignment grades, boots and passes
# the kernel's locktorture on the kit mutex, with nothing spinning.
# Stages 1 on are t9000's to boot, on 2 vCPUs: each one's answer scores
# full marks only if it passes locktorture and loses no update, spins from
# stage 3 on and not before, not among tasks sharing one CPU, and records
# its owner from stage 2 on.  Booting each again here would cost some
# 20 s a stage.  What two vCPUs cannot show is shown once, on the newest
# stage, which holds every stage's spinning: torture on 4 vCPUs, where
# several spinners queue at once, with OWNER_SPIN and with NO_OWNER_SPIN,
# and (from stage 16 on) hardly at all with every vCPU reported preempted;
# and a one-vCPU kernel, where contention never spins (and, from stage 13
# on, a waiter shows in the lock word's flags).  The debug build of every
# stage builds, and each debug kit mutex that differs from the last one
# booted, with lockdep proving each lock taken, runs torture with no
# warning, never spins, and leaves debug_locks on (make test: the newest
# stage's debug build only).
# time limit: 3000 s
. "$(dirname "$0")/lib/tap.sh"

need_tree
tree=$KIT_OWN_TREE
mapfile -t commits < <(git -C "$tree" rev-list --reverse "baseline..stage-$KIT_LAST_STAGE")
stage_of() { git -C "$tree" describe --tags --exact-match --match 'stage-*' "$1" 2>/dev/null | sed 's/stage-//'; }
has_kit() { git -C "$tree" cat-file -e "$1:kernel/locking/kit_mutex.c" 2>/dev/null; }
# graded S: t9000 grades stage S's answer in this run, and boots it
# (stages 1 on, in make test those of its sample: tests/lib/tap.sh).
graded() { [ -n "$1" ] && [ "$1" -ge 1 ] && sampled "$1"; }
# in_run S: this run builds stage S's commit (make test: baseline, stage 0
# and the sampled stages; make test-full: every commit).
in_run() { [ -z "$1" ] || [ "$1" -eq 0 ] || sampled "$1"; }
booted=0
for c in "${commits[@]}"; do
	s=$(stage_of "$c")
	if in_run "$s" && ! graded "$s"; then booted=$((booted + 1)); fi
done
plan $(( 1 + ${#commits[@]} + booted + 1 + 2 + 1 + KIT_LAST_STAGE + 1 ))

TORTURE_SECS=${TORTURE_SECS:-10}
# The debug build's boot is there for lockdep, which proves a lock order
# the first time it sees it: 5 s of torture take every path many times.
DEBUG_TORTURE_SECS=${DEBUG_TORTURE_SECS:-5}

# What each boot of a kit kernel runs: torture, contention, an owner
# probe, by the guest's oracle (guest/bin/kit-check), whose results the
# tests read (result, in tests/lib/tap.sh).
probe="
kit-check torture $TORTURE_SECS 4
kit-check lost 1
kit-check spins SPIN test-kit-mutex K 4 2 -l 3000
kit-check owner kit1
kit-check alarms ALARM
"

test_expect_success "baseline builds and boots (no kit mutex yet)" '
	"$KIT/build" --commit baseline >"$SCRATCH/build-baseline.log" 2>&1 &&
	guest baseline --commit baseline --cmd "test ! -e /sys/kernel/debug/kit_mutex" &&
	expect_grep "^spinkit: Linux 6\.1" "$SCRATCH/baseline.log"
'

for c in "${commits[@]}"; do
	short=$(git -C "$tree" rev-parse --short=12 "$c")
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	s=$(stage_of "$c")
	name="${s:+stage-$s }$short"
	if ! in_run "$s"; then
		skip_test "$name builds: $subject" "$not_sampled"
		continue
	fi
	test_expect_success "$name builds: $subject" '
		"$KIT/build" --commit "$c" >"$SCRATCH/build-$short.log" 2>&1 ||
			{ tail -20 "$SCRATCH/build-$short.log"; false; }
	'
	graded "$s" && continue
	if ! has_kit "$c"; then
		skip_test "$name passes locktorture" "no kit mutex at this commit"
		continue
	fi
	test_expect_success "$name boots and locktorture on the kit mutex ends in SUCCESS, Fail: 0" '
		guest "$short" --commit "$c" --timeout 240 --cmd "$probe" &&
		expect_eq 0 "$(result "$short" TORTURE)" "kit-torture status (0: End of test: SUCCESS)" &&
		result "$short" TORTURE_WRITES | grep -q "Fail: 0" &&
		expect_eq 0 "$(result "$short" LOST)" "test-kit-mutex status (lost updates)" &&
		expect_result "$short" ALARM "" "the kernel'"'"'s first alarm"
	'
done

test_expect_success "stage 0, contended on 4 vCPUs, never spins, and has no owner to record" '
	g=$(git -C "$tree" rev-parse --short=12 stage-0) &&
	expect_eq 0 "$(result "$g" SPIN)" "spin acquisitions at stage 0" &&
	holder=$(result "$g" HELD_HOLDER) &&
	{ [ "${holder:-0}" -gt 0 ] || { echo "no holder seen"; cat "$SCRATCH/$g.results"; exit 1; }; } &&
	expect_eq 0 "$(result "$g" HELD_OWNER)" "owner while held at stage 0"
'

newest=$KIT_LAST_STAGE
# and the guest commands of assignments 16 and 17, as printed there: with
# every vCPU reported preempted, contention spins hardly at all; a task
# that locks kit2 again while holding it waits until a signal ends the
# second lock
test_expect_success "stage-$newest on 4 vCPUs: torture passes and lockers spin, not on preempted vCPUs; a recursive lock is interrupted, not taken; with NO_OWNER_SPIN torture passes and nothing spins" '
	cmd_preempt=$(grep "^cat /sys/devices/system/cpu/online >" "$KIT_ROOT/course/ASSIGNMENT-16.md") &&
	cmd_pickup=$(grep "^echo NO_OWNER_SPIN >.*kit-nest" "$KIT_ROOT/course/ASSIGNMENT-17.md") &&
	guest "newest-4" --stage '"$newest"' --smp 4 --timeout 240 --cmd "
		f=/sys/kernel/debug/sched/features
		kit-check torture '"$TORTURE_SECS"' 4
		kit-check spins ON test-kit-mutex K 4 2 -l 3000
		kit-check report PREEMPTED \$($cmd_preempt)
		kit-check report LEFT \$(cat /sys/kernel/debug/kit_mutex/preempted)
		{ $cmd_pickup; } >/tmp/pickup.out 2>&1
		kit-check report NEST \$(tail -n 1 /tmp/pickup.out)
		kit-check report SPIN_OFF_AFTER_NEST \$(grep -cw NO_OWNER_SPIN \$f)
		echo NO_OWNER_SPIN >\$f && grep -q NO_OWNER_SPIN \$f || exit 9
		kit-check torture 5 4
		kit-check spins OFF test-kit-mutex K 4 2 -l 3000" &&
	# the torture verdicts, of the run with OWNER_SPIN and of the one without
	expect_eq "0 0" "$(results newest-4 TORTURE | tr "\n" " " | sed "s/ \$//")" "kit-torture statuses, OWNER_SPIN then NO_OWNER_SPIN" &&
	on=$(result newest-4 ON) &&
	{ [ "${on:-0}" -gt 0 ] || { echo "Expected spin acquisitions > 0 with OWNER_SPIN, got ${on:-none}"; exit 1; }; } &&
	preempted=$(result newest-4 PREEMPTED) &&
	echo "# spin acquisitions in 2 s: $on; in 1 s, every vCPU reported preempted: ${preempted:-none}" &&
	{ [ -n "$preempted" ] && [ $((20 * preempted)) -le "$on" ] ||
		{ echo "Expected under $on/20 spin acquisitions with every vCPU reported preempted, got ${preempted:-none}"; exit 1; }; } &&
	expect_result newest-4 LEFT "" "vCPUs still reported preempted after the command" &&
	nest=$(result newest-4 NEST) &&
	echo "# the recursive lock: ${nest:-nothing said}" &&
	case "$nest" in *"locked it again while holding it: interrupted (EINTR)") ;;
		*) echo "Expected the console to say the second lock was interrupted, got: ${nest:-nothing}"; exit 1 ;; esac &&
	expect_eq 0 "$(result newest-4 SPIN_OFF_AFTER_NEST)" "NO_OWNER_SPIN left on after assignment 17'"'"'s command" &&
	expect_eq 0 "$(result newest-4 OFF)" "spin acquisitions with NO_OWNER_SPIN"
'

# and the guest commands of assignments 13 and 14, as printed there: from
# stage 13 on, a lock file shows the word's waiters flag while a task
# waits; from stage 14 on, tasks that take turns at a lock asleep get it
# handed off (on one vCPU too: the unlocker asks again before the woken
# waiter runs)
test_expect_success "stage-$newest on one vCPU: contention never spins; a waiter sets the waiters flag; locks are handed off" '
	cmd_word=$(grep "^kit-hold kit0 3000 sleep &" "$KIT_ROOT/course/ASSIGNMENT-13.md") &&
	cmd_handoff=$(grep "^test-kit-mutex K 3 3 " "$KIT_ROOT/course/ASSIGNMENT-14.md") &&
	guest "newest-1" --stage '"$newest"' --smp 1 --cmd "
		$cmd_word
		wait
		echo HANDOFF_BEGIN
		$cmd_handoff
		echo HANDOFF_END
		kit-check spins SPIN test-kit-mutex K 3 2 -l 3000" &&
	log="$SCRATCH/newest-1.log" &&
	line=$(grep -E "^flags=1 owner=([1-9][0-9]*) holder=\1 waiters=1 waiter_pids=[1-9][0-9]* ops=0 counter=0" "$log") &&
	echo "# $line" &&
	sed -n "/^HANDOFF_BEGIN/,/^HANDOFF_END/p" "$log" >"$SCRATCH/handoff.out" &&
	sed "s/^/# /" "$SCRATCH/handoff.out" &&
	grep -q "^per task: [1-9][0-9]* to [0-9]* ops; longest operation: [0-9]* us$" "$SCRATCH/handoff.out" &&
	handoffs=$(sed -n "/^per task/{n;p;}" "$SCRATCH/handoff.out") &&
	{ [ "${handoffs:-0}" -gt 0 ] || { echo "Expected handoffs > 0 after the per-task line, got ${handoffs:-none}"; exit 1; }; } &&
	expect_eq 0 "$(result newest-1 SPIN)" "spin acquisitions on 1 vCPU"
'

# The debug build: CONFIG_DEBUG_KIT_MUTEX and lockdep (config/debug.config).
# A lockdep report says WARNING: or BUG:, and turns debug_locks off.
#
# The debug kernel never spins: the code inside the spinning blocks,
# "#if defined(CONFIG_SMP) && !defined(CONFIG_DEBUG_KIT_MUTEX)", is not
# in it, and kit_mutex_spin_on_owner() (kernel/sched/core.c, stages 4 on)
# has no caller there.  debug_source S prints the kit code that the debug
# kernel of stage S runs: its files with those blocks resolved away by the
# kernel's own unifdef, comments, blank lines and forward declarations of
# structs gone.  A stage whose debug_source is that of the last stage
# whose debug kernel booted runs the same debug kit mutex: its debug
# build is built, not booted again.
gcc -O1 -o "$SCRATCH/unifdef" "$tree/scripts/unifdef.c" ||
	{ echo "Bail out! the kernel's scripts/unifdef.c does not build"; exit 1; }
# The kit's files, as any stage has them, but the scheduler's.
kit_files=$(for s in $(seq 0 "$KIT_LAST_STAGE"); do
	git -C "$tree" diff --name-only baseline "stage-$s"; done | grep -v "^kernel/sched/" | sort -u)
# The symbols the debug build has, by which unifdef resolves the blocks.
debug_symbols=(CONFIG_DEBUG_KIT_MUTEX CONFIG_DEBUG_LOCK_ALLOC CONFIG_SMP CONFIG_KIT_MUTEX)
# debug_source S: into $SCRATCH/debug-source-S, computed once for every
# stage here; the file is missing when a stage's files cannot be read,
# resolved by unifdef or stripped, and such a stage boots.
debug_source() {
	local f out=$SCRATCH/debug-source-$1
	rm -f "$out" "$out.part"
	for f in $kit_files; do
		echo "== $f" >>"$out.part"
		git -C "$tree" cat-file -e "stage-$1:$f" 2>/dev/null || continue
		case "$f" in
		*.[ch])
			# unifdef exits 1 when it changed something, 2 on an error
			git -C "$tree" show "stage-$1:$f" >"$out.in" || return 1
			"$SCRATCH/unifdef" "${debug_symbols[@]/#/-D}" <"$out.in" >"$out.unifdef"
			[ $? -le 1 ] || return 1
			c_code - <"$out.unifdef" >"$out.c" || return 1
			grep -v "^struct [a-z_]*;$" "$out.c" >>"$out.part" ;;
		*) git -C "$tree" show "stage-$1:$f" >>"$out.part" || return 1 ;;
		esac
	done
	mv "$out.part" "$out"
}
for s in $(seq 0 "$KIT_LAST_STAGE"); do debug_source "$s"; done
# same_debug_source S T: both computed, and equal.
same_debug_source() { cmp -s "$SCRATCH/debug-source-$1" "$SCRATCH/debug-source-$2"; }

test_expect_success "debug_source sees what stage 3 changed in the debug kernel, not stage 6's spinning, and no call of the helper" '
	built '"$newest"' --debug &&
	config=$(cat "$("$KIT/build" --stage '"$newest"' --debug --print-dir)/build-dir")/.config &&
	for sym in "${debug_symbols[@]}"; do
		grep -qx "$sym=y" "$config" || { echo "the debug build has no $sym=y ($config)"; exit 1; }
	done &&
	! same_debug_source 2 3 &&
	same_debug_source 5 6 &&
	for s in $(seq 0 "$KIT_LAST_STAGE"); do
		src=$SCRATCH/debug-source-$s &&
		{ [ -f "$src" ] || { echo "stage-$s: its debug source could not be computed"; exit 1; }; } &&
		calls=$(grep "kit_mutex_spin_on_owner" "$src" | grep -v "^extern int kit_mutex_spin_on_owner(" || true) &&
		{ [ -z "$calls" ] || { echo "stage-$s: the debug kernel calls the helper: $calls"; exit 1; }; } || exit 1
	done
'

# make test builds and boots the newest stage's debug kernel only (a cold
# build of another configuration, some 400 s), make test-full every one.
debug_booted=0
for s in $(seq 0 "$KIT_LAST_STAGE"); do
	if [ -z "$KIT_TEST_FULL" ] && [ "$s" != "$newest" ]; then
		skip_test "stage-$s debug build" "make test builds and boots stage-$newest's; make test-full every stage's"
		continue
	fi
	if [ "$s" -gt 0 ] && same_debug_source "$s" "$debug_booted"; then
		test_expect_success "stage-$s debug build builds; its debug kit mutex is stage-$debug_booted's, booted there" '
			built '"$s"' --debug
		'
		continue
	fi
	debug_booted=$s
	test_expect_success "stage-$s debug build with lockdep: torture passes, no lock warning, debug_locks still on" '
		built '"$s"' --debug &&
		guest "debug-'"$s"'" --stage '"$s"' --debug --timeout 300 --cmd "
			kit-check torture '"$DEBUG_TORTURE_SECS"' 4
			kit-check spins SPIN test-kit-mutex K 4 2 -l 3000
			kit-check report DEBUG_LOCKS \$(sed -n \"s/^ *debug_locks: *//p\" /proc/lockdep_stats)
			kit-check alarms ALARM" &&
		g=debug-'"$s"' &&
		expect_eq 0 "$(result "$g" TORTURE)" "kit-torture status (0: End of test: SUCCESS)" &&
		expect_eq 0 "$(result "$g" SPIN)" "spin acquisitions (the debug variant never spins)" &&
		expect_eq 1 "$(result "$g" DEBUG_LOCKS)" "debug_locks after the run" &&
		expect_result "$g" ALARM "" "the kernel'"'"'s first alarm (lockdep reports say WARNING: or BUG:)"
	'
done

test_done
