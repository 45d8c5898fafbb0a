# SPDX-License-Identifier: GPL-2.0
#
# spinkit's gdb helpers, on top of the kernel's own gdb scripts (lx-*):
#
#   kit-mutex EXPR          a kit mutex: its lock word(s), owner, waiters
#   kit-owner-running EXPR  is the owner rq->curr on its CPU? its on_cpu?
#   kit-spinners            which vCPUs are in the kit mutex slow path
#   kit-run-for SECONDS     let the guest run that long, then stop it
#   kit-spin-watch SECONDS  run that long, or until a CPU spins on an owner
#   kit-run-to-spin SECONDS run (one vCPU, under scheduler-locking) until a
#                           task spins on the owner or in the spinners' queue
#   kit-need-resched        tell the task on the selected vCPU to reschedule
#   kit-run-to-return SECONDS
#                           run (one vCPU, under scheduler-locking) until the
#                           innermost kit function on its stack returns
#   kit-step-lock EXPR      step the selected vCPU through the kit function
#                           it is in, printing each change of the lock
#                           (how many: $kit_step_changes)
#   kit-run-until EXPR free|taken SECONDS
#                           run (one vCPU, under scheduler-locking) until the
#                           lock is free, or taken: where ($kit_change_pc)
#   kit-run-alone-to ADDR SECONDS
#                           run (one vCPU, under scheduler-locking) until it
#                           is about to run the instruction at ADDR
#   kit-vcpu-preempted CPU...|none
#                           play the hypervisor: tell the guest which vCPUs
#                           are preempted (stage 16 on)
#   $kit_held(LOCK), $kit_waiters(LOCK), $kit_flags(LOCK)
#                           for breakpoint conditions: is LOCK held, how
#                           many tasks are on its wait list, the flags of
#                           its word
#
# scripts/gdb loads this file after vmlinux-gdb.py.

import re
import threading

import gdb

try:
    from linux import cpus, lists
except ImportError:  # the lx- scripts are not loaded
    cpus = lists = None

X86_EFLAGS_IF = 0x200  # interrupts enabled
TIF_NEED_RESCHED = 3  # arch/x86/include/asm/thread_info.h, 6.1
# preempt_count's HARDIRQ_MASK (linux/preempt.h): in an interrupt handler
HARDIRQ_BITS = 0xf0000
# the entry stubs of external interrupts, which are taken only with IF set
# (exceptions and NMIs are taken with IF clear too)
IRQ_ENTRY_PREFIXES = ("asm_sysvec_", "asm_common_interrupt", "asm_spurious_interrupt")

SLOWPATH_FUNCS = {
    "__kit_mutex_lock_common": "lock slow path",
    "kit_mutex_spin_on_owner": "spinning on the owner",
    "kit_mutex_spin_on_owner_naive": "spinning on the owner (naive)",
    "kit_mspin_lock": "queued to spin",
    "kit_osq_lock": "queued to spin",
    "__kit_mutex_lock_slowpath": "lock slow path",
    "__kit_mutex_unlock_slowpath": "unlock slow path",
}


def _kit_mutex(arg, usage):
    if not arg:
        raise gdb.GdbError(usage)
    try:
        lock = gdb.parse_and_eval(arg)
    except gdb.error as e:
        raise gdb.GdbError(str(e))
    if lock.type.strip_typedefs().code == gdb.TYPE_CODE_PTR:
        lock = lock.dereference()
    if lock.type.strip_typedefs().tag != "kit_mutex":
        raise gdb.GdbError("{} is not a struct kit_mutex".format(arg))
    return lock


def _need_lx():
    if cpus is None:
        raise gdb.GdbError("the kernel's lx- scripts are not loaded")


def _has_field(value, name):
    return any(f.name == name for f in value.type.strip_typedefs().fields())


def _task_str(task):
    if int(task) == 0:
        return "none"
    return "pid {} ({})".format(int(task["pid"]), task["comm"].string())


def _task_cpu(task):
    return int(task["thread_info"]["cpu"])


def _rq_curr(cpu):
    rq = cpus.per_cpu(gdb.parse_and_eval("&runqueues"), cpu)
    return rq["curr"]


KIT_MUTEX_FLAG_WAITERS = 0x01  # include/linux/kit_mutex.h, from stage 13 on
KIT_MUTEX_FLAG_HANDOFF = 0x02  # from stage 14 on
KIT_MUTEX_FLAG_PICKUP = 0x04  # from stage 17 on (a task pointer's bit 2 is 0 before)
KIT_MUTEX_FLAGS = 0x07


def _owner_word(lock):
    """The lock word of a stage 13 (or later) kit mutex, where the owner
    is the lock; None for the count-based lock of stages 0-12."""
    if _has_field(lock, "count"):
        return None
    return int(lock["owner"]["counter"]) & 0xffffffffffffffff


def _lock_owner(lock):
    """The owner the lock records, as a struct task_struct * (0: none);
    None before stage 1, which adds the field."""
    word = _owner_word(lock)
    if word is not None:
        task_ptr = gdb.lookup_type("struct task_struct").pointer()
        return gdb.Value(word & ~KIT_MUTEX_FLAGS).cast(task_ptr)
    if _has_field(lock, "owner"):
        return lock["owner"]
    return None


def _lock_held(lock):
    word = _owner_word(lock)
    if word is not None:
        return word & ~KIT_MUTEX_FLAGS != 0
    return int(lock["count"]["counter"]) != 1


def _lock_state(lock):
    """One line: held or free, by whom, and what says tasks may wait."""
    held, owner = _lock_held(lock), _lock_owner(lock)
    text = "held" if held else "free"
    if owner is not None and int(owner):
        text += " by " + _task_str(owner) if held else \
            ", owner still recorded: " + _task_str(owner)
    elif held:
        text += ", no owner recorded"
    word = _owner_word(lock)
    if word is None:
        count = int(lock["count"]["counter"])
        if count < 0:
            text += ", count {} (waiters possible)".format(count)
    else:
        if word & KIT_MUTEX_FLAG_WAITERS:
            text += ", waiters flag"
        if word & KIT_MUTEX_FLAG_HANDOFF:
            text += ", handoff flag"
        if word & KIT_MUTEX_FLAG_PICKUP:
            text += ", pickup flag"
    return text


def _owner_out_of_step(lock):
    """True while the lock and the owner it records disagree: held with
    no owner, or free with one.  Never from stage 13 on."""
    owner = _lock_owner(lock)
    if owner is None:
        return False
    return _lock_held(lock) != (int(owner) != 0)


def _waiters(lock):
    waiter_type = gdb.lookup_type("struct kit_mutex_waiter")
    head = lock["wait_list"]
    node = head["next"]
    while int(node) != int(head.address):
        # list is the first member of struct kit_mutex_waiter
        yield node.cast(waiter_type.pointer()).dereference()
        node = node["next"]


def _waiter_str(waiter):
    # A waiter is linked in before its task is recorded, both under
    # wait_lock, which gdb does not take: the field may not be set yet.
    try:
        task = waiter["task"]
        return "{} state {}".format(_task_str(task), int(task["__state"]))
    except gdb.MemoryError:
        return "(being queued: its task is not recorded yet)"


class KitMutex(gdb.Command):
    """Show a kit mutex: its lock word(s), owner and waiters.

Usage: kit-mutex EXPR

EXPR is a struct kit_mutex or a pointer to one, for example
  kit-mutex kit_ctl_locks[0].kit     (/sys/kernel/debug/kit_mutex/kit0)
  kit-mutex torture_kit_mutex        (locktorture's kit lock)

Up to stage 12 the lock is count and owner: count is 1 when unlocked, 0
when locked, negative when locked with possible waiters; owner exists
from stage 1 on, and is written from stage 2 on.  From stage 13 on the
owner is the lock word: the owner task, 0 when free, and flags in the
low bits: 0x1 tasks may wait, 0x2 (from stage 14 on) the first waiter
asks for the lock to be handed off, 0x4 (from stage 17 on) an unlock
handed the lock to the owner shown, which has yet to pick it up."""

    def __init__(self):
        super(KitMutex, self).__init__("kit-mutex", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        lock = _kit_mutex(arg, "Usage: kit-mutex EXPR")
        word = _owner_word(lock)
        if word is None:
            count = int(lock["count"]["counter"])
            state = {1: "unlocked", 0: "locked"}.get(count, "locked, waiters possible")
            gdb.write("count: {} ({})\n".format(count, state))
        else:
            gdb.write("word: {:#x} (owner {:#x}, flags {:#x})\n".format(
                word, word & ~KIT_MUTEX_FLAGS, word & KIT_MUTEX_FLAGS))
        owner = _lock_owner(lock)
        if owner is not None:
            gdb.write("owner: {}\n".format(_task_str(owner)))
        else:
            gdb.write("owner: (no owner field at this stage)\n")
        waiters = list(_waiters(lock))
        gdb.write("waiters: {}\n".format(len(waiters)))
        for w in waiters:
            gdb.write("  {}\n".format(_waiter_str(w)))


class KitOwnerRunning(gdb.Command):
    """Tell whether a kit mutex's owner is running: rq->curr on its CPU,
and the owner's own on_cpu flag.

Usage: kit-owner-running EXPR

This is the question kit_mutex_spin_on_owner() asks: a spinner keeps
spinning only while the answer is yes.  Stages 4-8 ask the runqueue
(rq->curr); from stage 9 on the helper reads owner->on_cpu, which stays
1 until a switch away from the owner is complete."""

    def __init__(self):
        super(KitOwnerRunning, self).__init__("kit-owner-running", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        lock = _kit_mutex(arg, "Usage: kit-owner-running EXPR")
        _need_lx()
        owner = _lock_owner(lock)
        if owner is None:
            raise gdb.GdbError("no owner field at this stage (it comes in stage 1)")
        if int(owner) == 0:
            gdb.write("no owner recorded: unlocked, or (up to stage 12) not written yet\n")
            return
        cpu = _task_cpu(owner)
        curr = _rq_curr(cpu)
        if int(curr) == int(owner):
            gdb.write("yes: {} is rq->curr on CPU {}\n".format(_task_str(owner), cpu))
        else:
            gdb.write("no: {} last ran on CPU {}, where rq->curr is {}\n".format(
                _task_str(owner), cpu, _task_str(curr)))
        gdb.write("owner->on_cpu: {}\n".format(int(owner["on_cpu"])))


class KitSpinners(gdb.Command):
    """List the vCPUs that are in the kit mutex slow path, and where.

Usage: kit-spinners

Looks at the innermost frames of every vCPU (one gdb thread each under
QEMU) for the kit mutex slow-path functions.  When two or more vCPUs are
there, a last line counts them by what they do: from stage 10 on, one
spins on the owner and the others wait their turn in the spinners'
queue."""

    def __init__(self):
        super(KitSpinners, self).__init__("kit-spinners", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        selected = gdb.selected_thread()
        found = 0
        doing = {}
        try:
            for thread in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
                thread.switch()
                frame = gdb.newest_frame()
                depth = 0
                while frame is not None and depth < 12:
                    name = frame.name()
                    if name in SLOWPATH_FUNCS:
                        gdb.write("vCPU {} (thread {}): {} in {}\n".format(
                            thread.num - 1, thread.num, SLOWPATH_FUNCS[name], name))
                        found += 1
                        doing[SLOWPATH_FUNCS[name]] = doing.get(SLOWPATH_FUNCS[name], 0) + 1
                        break
                    frame = frame.older()
                    depth += 1
        finally:
            selected.switch()
        if not found:
            gdb.write("no vCPU is in the kit mutex slow path\n")
        elif found > 1:
            gdb.write("{} vCPUs: {}\n".format(found, ", ".join(
                "{} {}".format(n, what) for what, n in sorted(doing.items()))))


class KitRunFor(gdb.Command):
    """Let the guest run for a while, then stop every vCPU.

Usage: kit-run-for SECONDS

Like 'continue' followed by Ctrl-C after SECONDS, so that a gdb script
can let a situation develop (a spinner spin, a waiter fall asleep) and
then look at it.  A breakpoint hit earlier stops it earlier."""

    def __init__(self):
        super(KitRunFor, self).__init__("kit-run-for", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        _run_for(_seconds(arg, "kit-run-for"))


def _seconds(arg, command):
    try:
        return float(arg)
    except ValueError:
        raise gdb.GdbError("Usage: {} SECONDS".format(command))


def _how_long(secs, timed_out):
    """How long a bounded run lasted, for a message: SECS, or less."""
    return "in {:g} s".format(secs) if timed_out else "(the guest stopped early)"


def _run_for(secs):
    """continue, and interrupt the guest after SECS unless it stops first.
    Returns True when the time ran out, False when it stopped earlier."""
    state = {"done": False, "fired": False}
    timers = []

    def interrupt():
        # Queued from the timer thread, run by gdb's: do nothing if the
        # guest stopped by itself meanwhile, or a later 'continue' would
        # be cut short.
        if state["done"]:
            return
        state["fired"] = True
        try:
            gdb.execute("interrupt")
        except gdb.error:
            pass
        # An interrupt that comes while gdb has the guest stopped to test
        # a breakpoint's condition is lost: ask again until it stops.
        arm(0.5)

    def arm(delay):
        timer = threading.Timer(delay, lambda: gdb.post_event(interrupt))
        timer.daemon = True
        timers.append(timer)
        timer.start()

    arm(secs)
    try:
        gdb.execute("continue")
    finally:
        state["done"] = True
        for timer in timers:
            timer.cancel()
    return state["fired"]


def _current_task():
    try:
        return int(gdb.parse_and_eval("$lx_current()").address)
    except gdb.error:
        return None


def _in_interrupt():
    """Is the selected vCPU in an interrupt handler, which it entered with
    IF set: its preempt count's hardirq bits, or an external interrupt's
    entry stub on its stack (asm_sysvec_*, before the handler counts
    itself in)?"""
    try:
        count = cpus.per_cpu(gdb.parse_and_eval("&__preempt_count"),
                             gdb.selected_thread().num - 1)
        if int(count) & HARDIRQ_BITS:
            return True
    except (gdb.error, AttributeError):
        pass
    try:
        frame, depth = gdb.newest_frame(), 0
        while frame is not None and depth < 64:
            if (frame.name() or "").startswith(IRQ_ENTRY_PREFIXES):
                return True
            frame, depth = frame.older(), depth + 1
    except gdb.error:
        pass  # a stack gdb cannot unwind: no stub found on it
    return False


def _run_alone_for(secs):
    """_run_for() with the selected vCPU's interrupts held off, for the
    commands that run one vCPU under scheduler-locking: a timer interrupt
    there would read the clock, and wait for ever if a frozen vCPU was
    stopped in the middle of updating it.  IF is given back to that vCPU
    when it stops, unless the kernel took over the flag meanwhile: a
    vCPU that switched tasks, or stopped in an interrupt handler, has
    enabled interrupts itself since (finish_task_switch() does), and its
    IF is the kernel's, not ours; setting it in a handler would let a
    second interrupt in.  Interrupts pending meanwhile arrive once all
    run."""
    thread = gdb.selected_thread()
    eflags = int(gdb.parse_and_eval("$eflags"))
    task = _current_task()
    gdb.execute("set $eflags = {}".format(eflags & ~X86_EFLAGS_IF))
    try:
        return _run_for(secs)
    finally:
        now = gdb.selected_thread()
        thread.switch()
        if _current_task() == task and not _in_interrupt():
            flags = int(gdb.parse_and_eval("$eflags"))
            gdb.execute("set $eflags = {}".format(flags | (eflags & X86_EFLAGS_IF)))
        now.switch()


def _pauses(func):
    """Addresses of the 'pause' instructions (cpu_relax()) in FUNC: where a
    spinner turns.  Raises gdb.error when the kernel has no FUNC."""
    code = gdb.execute("disassemble " + func, to_string=True)
    return re.findall(r"^\s*(?:=>)?\s*(0x[0-9a-f]+) <\+\d+>:\s+pause\b", code, re.M)


def _silent_hbreak(addr):
    bp = gdb.Breakpoint("*" + addr, type=gdb.BP_HARDWARE_BREAKPOINT, internal=True)
    bp.silent = True
    return bp


def _run_alone_to(addr, secs):
    """_run_alone_for(SECS), stopping at ADDR (an int).  Returns
    (timed_out, reached)."""
    bp = _silent_hbreak("{:#x}".format(addr))
    try:
        timed_out = _run_alone_for(secs)
        return timed_out, bp.hit_count > 0
    finally:
        bp.delete()


def _return_frame(frame):
    """The frame FRAME returns to: not one gdb makes up for a tail call
    (a jmp to FRAME's function), which is never returned to."""
    caller = frame.older()
    while caller is not None and caller.type() == gdb.TAILCALL_FRAME and caller.older() is not None:
        caller = caller.older()
    return caller


def _outer_frame(frame):
    """FRAME, or the real frame it was inlined into: an inlined function
    has no return address of its own."""
    while frame is not None and frame.type() == gdb.INLINE_FRAME:
        frame = frame.older()
    return frame


class _SpinOnOwnerCall(gdb.Breakpoint):
    """Counts calls of kit_mutex_spin_on_owner() made while the owner runs,
    without stopping the guest."""

    def __init__(self, func):
        super(_SpinOnOwnerCall, self).__init__(
            func, type=gdb.BP_HARDWARE_BREAKPOINT, internal=True)
        self.silent = True
        self.owner_running = 0

    def stop(self):
        try:
            owner = gdb.parse_and_eval("owner")
            if int(_rq_curr(_task_cpu(owner))) == int(owner):
                self.owner_running += 1
        except gdb.error:
            pass
        return False


class KitSpinWatch(gdb.Command):
    """Let the guest run, and stop it as soon as a task spins on an owner.

Usage: kit-spin-watch SECONDS

Spinning on the owner means turning in kit_mutex_spin_on_owner()'s loop,
and every turn runs its cpu_relax(), the x86 'pause' instruction.  This
puts a hardware breakpoint on each 'pause' in that function, lets the
guest run for SECONDS, and says which task reached one, or that none did,
and how many calls of the function found the owner running on entry.
A call told 0 at once ("do not spin") never reaches a 'pause', however
long a spinner would have lasted before giving up."""

    FUNC = "kit_mutex_spin_on_owner"

    def __init__(self):
        super(KitSpinWatch, self).__init__("kit-spin-watch", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        secs = _seconds(arg, "kit-spin-watch")
        _need_lx()
        try:
            pauses = _pauses(self.FUNC)
        except gdb.error as e:
            raise gdb.GdbError("{}: {}".format(self.FUNC, e))
        if not pauses:
            raise gdb.GdbError("no 'pause' (cpu_relax()) in {}: it never spins".format(self.FUNC))
        calls = None
        pause_bps = []
        try:
            calls = _SpinOnOwnerCall(self.FUNC)
            for a in pauses:
                pause_bps.append(_silent_hbreak(a))
            timed_out = _run_for(secs)
            spun = any(bp.hit_count for bp in pause_bps)
            running = calls.owner_running
        finally:
            for bp in pause_bps + ([calls] if calls else []):
                bp.delete()
        if spun:
            cpu = gdb.selected_thread().num - 1
            try:
                task = _task_str(gdb.parse_and_eval("$lx_current()").address)
            except gdb.error:
                task = "a task"
            gdb.write("spinning: {} on vCPU {}, at the 'pause' in {}\n".format(
                task, cpu, self.FUNC))
            return
        what = "in {:g} s".format(secs) if timed_out else "so far (the guest stopped early)"
        gdb.write("no spinning {}: {} call{} of {} with the owner running, no 'pause' reached\n".format(
            what, running, "" if running == 1 else "s", self.FUNC))


class KitRunToSpin(gdb.Command):
    """Let the guest run until a task spins in the kit mutex slow path.

Usage: kit-run-to-spin SECONDS

Puts a hardware breakpoint on every 'pause' (cpu_relax()) in
kit_mutex_spin_on_owner() and in the spinners' queue (stage 10's
kit_mspin_lock(), kit_osq_lock() from stage 11 on), lets
the guest run for at most SECONDS, and says which vCPU reached one first,
and in which function.  With scheduler-locking on, only the selected vCPU
runs: that moves one locker to where it spins while the others stay
frozen.  The selected vCPU runs with interrupts held off (its IF flag
cleared, and set again when it stops, unless the kernel has taken the
flag over: a vCPU that went to sleep, or stopped in an interrupt
handler): a timer interrupt there would read the clock, and wait for
ever if a frozen vCPU was stopped in the middle of updating it.
Interrupts pending meanwhile arrive once all run again."""

    FUNCS = ("kit_mutex_spin_on_owner", "kit_mspin_lock", "kit_osq_lock")

    def __init__(self):
        super(KitRunToSpin, self).__init__("kit-run-to-spin", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        secs = _seconds(arg, "kit-run-to-spin")
        bps = []
        try:
            for func in self.FUNCS:
                try:
                    pauses = _pauses(func)
                except gdb.error:
                    continue  # a stage before the function existed
                for a in pauses:
                    bps.append((func, _silent_hbreak(a)))
            if not bps:
                raise gdb.GdbError("no 'pause' in {}: nothing spins".format(" or ".join(self.FUNCS)))
            timed_out = _run_alone_for(secs)
            hit = [func for func, bp in bps if bp.hit_count]
        finally:
            for _, bp in bps:
                bp.delete()
        if hit:
            # where the selected vCPU stopped, not merely a pause some
            # vCPU reached: cpu_relax() is an inline frame of its caller
            frame = gdb.selected_frame()
            while frame is not None and frame.name() not in self.FUNCS:
                frame = frame.older()
            gdb.write("vCPU {}: at the 'pause' in {}\n".format(
                gdb.selected_thread().num - 1, frame.name() if frame else hit[0]))
        else:
            gdb.write("no spinning {}\n".format(
                "in {:g} s".format(secs) if timed_out else "so far (the guest stopped early)"))


class KitNeedResched(gdb.Command):
    """Tell the task running on the selected vCPU that it must reschedule.

Usage: kit-need-resched

Sets TIF_NEED_RESCHED in the task's thread_info flags, as the scheduler
does when the task's time slice is over or a task that should run first
wakes up on its CPU.  need_resched() is then true for that task, and
the kit mutex's spin loops that check it give up at their next check
(stage 10's queue, kit_mspin_lock(), does not check it: lab 11 shows
that).  A lab so makes happen at the moment it chooses what the guest
would do at a moment of its own.  Only the thread flag is set, not the
copy of it the scheduler also folds into the preempt count on x86: a
preempt_enable() does not reschedule on it, the next schedule() does,
and clears the flag."""

    def __init__(self):
        super(KitNeedResched, self).__init__("kit-need-resched", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        _need_lx()
        task = gdb.parse_and_eval("$lx_current()").address
        flags = int(task["thread_info"]["flags"])
        gdb.execute("set var ((struct task_struct *){:#x})->thread_info.flags = {:#x}".format(
            int(task), flags | (1 << TIF_NEED_RESCHED)))
        gdb.write("{} on vCPU {}: need_resched() is true\n".format(
            _task_str(task), gdb.selected_thread().num - 1))


class KitVcpuPreempted(gdb.Command):
    """Play the hypervisor: tell the guest which of its vCPUs are preempted.

Usage: kit-vcpu-preempted CPU...|none

A hypervisor that takes a vCPU off its physical CPU can say so to the
guest: KVM sets a byte in the vCPU's steal-time page, which
vcpu_is_preempted() reads.  Under TCG nothing does, so from stage 16 on
the kit also asks its own mask, kit_preempted (the guest's
/sys/kernel/debug/kit_mutex/preempted): this sets it to the CPUs given,
or to none.  It only tells; it stops no vCPU.  To preempt one for real,
run the others alone (set scheduler-locking on).  Before stage 16 it
says that the guest cannot be told, and changes nothing."""

    def __init__(self):
        super(KitVcpuPreempted, self).__init__("kit-vcpu-preempted", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        usage = "Usage: kit-vcpu-preempted CPU...|none"
        words = arg.replace(",", " ").split()
        if words == ["none"]:
            cpu_list = []
        else:
            try:
                cpu_list = sorted({int(w) for w in words})
            except ValueError:
                raise gdb.GdbError(usage)
            if not cpu_list:
                raise gdb.GdbError(usage)
        try:
            gdb.parse_and_eval("kit_preempted")
        except gdb.error:
            gdb.write("no kit_preempted before stage 16: the guest cannot be told "
                      "that a vCPU is preempted\n")
            return
        # the CPUs the guest has, as the guest's own file accepts them
        ncpus = int(gdb.parse_and_eval("nr_cpu_ids"))
        if any(c < 0 or c >= ncpus for c in cpu_list):
            raise gdb.GdbError("kit-vcpu-preempted: this guest has CPUs 0 to {}".format(ncpus - 1))
        bits = sum(1 << c for c in cpu_list)
        gdb.execute("set var kit_preempted.bits[0] = {:#x}".format(bits))
        gdb.write("vCPUs reported preempted: {}\n".format(
            ",".join(str(c) for c in cpu_list) or "none"))


def _return_value(func_type):
    """What a function of type FUNC_TYPE just returned, read from rax, as
    text: the x86-64 ABI returns integers and pointers there."""
    rtype = func_type.target().strip_typedefs()
    if rtype.code == gdb.TYPE_CODE_VOID:
        return None
    rax = int(gdb.parse_and_eval("$rax")) & 0xffffffffffffffff
    if rtype.code == gdb.TYPE_CODE_BOOL:
        return "true" if rax & 0xff else "false"
    if rtype.code == gdb.TYPE_CODE_INT and rtype.sizeof < 8:
        bits = 8 * rtype.sizeof
        rax &= (1 << bits) - 1
        if rtype.is_signed and rax >> (bits - 1):
            rax -= 1 << bits
        return str(rax)
    return "{:#x}".format(rax)


def _kit_frame(frame):
    """FRAME, or the first frame older than it, whose function's name
    starts with kit_ or __kit_; None if there is none."""
    while frame is not None and not re.match(r"_*kit_", frame.name() or ""):
        frame = frame.older()
    return frame


class KitRunToReturn(gdb.Command):
    """Run the selected vCPU alone until the kit function it is in returns.

Usage: kit-run-to-return SECONDS

Like 'finish' from the innermost frame whose function's name starts
with kit_ or __kit_ (from the function it was inlined into, if it was),
whichever frame is selected, but bounded: the vCPU runs for at most
SECONDS, and if the function has not returned by then, this says so
and where the vCPU is instead.  The function's return value (rax) is
shown.  Needs 'set scheduler-locking on', so that nothing but this call
moves; the vCPU runs with interrupts held off, as in kit-run-to-spin."""

    def __init__(self):
        super(KitRunToReturn, self).__init__("kit-run-to-return", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        secs = _seconds(arg, "kit-run-to-return")
        if gdb.parameter("scheduler-locking") != "on":
            raise gdb.GdbError("kit-run-to-return: only the selected vCPU may run: "
                               "'set scheduler-locking on' first")
        # finish the real frame an inlined kit function is part of
        frame = _outer_frame(_kit_frame(gdb.newest_frame()))
        ret = _return_frame(frame) if frame is not None else None
        if ret is None:
            raise gdb.GdbError("kit-run-to-return: no kit function on this vCPU's stack")
        func = frame.name()
        func_type = frame.function().type if frame.function() else None
        # frames are gone once the vCPU runs: keep what is needed of them
        caller = ret.name() or "its caller"
        timed_out, returned = _run_alone_to(ret.pc(), secs)
        if returned:
            value = _return_value(func_type) if func_type else None
            gdb.write("{} returned{} to {}\n".format(
                func, " " + value if value is not None else "", caller))
            return
        now = _kit_frame(gdb.selected_frame())
        gdb.write("{} has not returned {}: vCPU {} is in {}\n".format(
            func, _how_long(secs, timed_out),
            gdb.selected_thread().num - 1, now.name() if now else "another function"))


class KitStepLock(gdb.Command):
    """Step the selected vCPU through the kit function it is in, one
instruction at a time, and print the lock's state whenever it changes.

Usage: kit-step-lock EXPR

EXPR is the kit mutex to watch, as for kit-mutex.  Stepping starts in
the innermost frame whose function's name starts with kit_ or __kit_
and ends when that function returns.  Calls into functions that are not
the kit's (wake_up_process(), spin_lock(), ...) are run through at full
speed, the vCPU alone with interrupts held off, as kit-run-to-return
does.  The last line counts the instructions stepped, and those after
which the lock and the owner it records disagreed: held with no owner,
or free with one.  The convenience variable $kit_step_changes is then
the number of changes of state printed, for scripts.  Needs
'set scheduler-locking on'."""

    MAX_STEPS = 5000

    def __init__(self):
        super(KitStepLock, self).__init__("kit-step-lock", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        lock_expr = arg.strip()
        _kit_mutex(lock_expr, "Usage: kit-step-lock EXPR")
        if gdb.parameter("scheduler-locking") != "on":
            raise gdb.GdbError("kit-step-lock: only the selected vCPU may run: "
                               "'set scheduler-locking on' first")
        frame = _outer_frame(_kit_frame(gdb.newest_frame()))
        ret = _return_frame(frame) if frame is not None else None
        if ret is None:
            raise gdb.GdbError("kit-step-lock: no kit function on this vCPU's stack")
        func = frame.name()
        ret_pc = ret.pc()
        # below the frame's own stack pointer: deeper calls; above it: returned
        frame.select()
        entry_sp = int(gdb.parse_and_eval("$sp"))
        last = _lock_state(_kit_mutex(lock_expr, ""))
        gdb.write("{}\n".format(last))
        quiet = gdb.parameter("suppress-cli-notifications")
        gdb.execute("set suppress-cli-notifications on")
        try:
            self._step(lock_expr, func, ret_pc, entry_sp, last)
        finally:
            gdb.execute("set suppress-cli-notifications {}".format("on" if quiet else "off"))

    @staticmethod
    def _returned(ret_pc, entry_sp):
        return (int(gdb.parse_and_eval("$pc")) == ret_pc and
                int(gdb.parse_and_eval("$sp")) > entry_sp)

    def _step(self, lock_expr, func, ret_pc, entry_sp, last):
        steps = out_of_step = changes = 0
        arch = gdb.newest_frame().architecture()
        while steps < self.MAX_STEPS:
            pc = int(gdb.parse_and_eval("$pc"))
            insn = arch.disassemble(pc)[0]
            # a call or a tail call (jmp) to a function that is not the kit's
            m = re.match(r"\s*(call|jmp)\w*\s+0x[0-9a-f]+ <([\w.]+)>", insn["asm"])
            if m and not re.match(r"_*kit_", m.group(2)):
                # run it through, to the instruction after the call, or
                # for a tail call to where our function returns
                stop = pc + insn["length"] if m.group(1) == "call" else ret_pc
                timed_out, returned = _run_alone_to(stop, 5)
                if timed_out or not returned:
                    raise gdb.GdbError("kit-step-lock: {} did not return within 5 s".format(
                        m.group(2)))
            else:
                gdb.execute("stepi", to_string=True)
            steps += 1
            lock = _kit_mutex(lock_expr, "")
            state = _lock_state(lock)
            if state != last:
                gdb.write("{}\n".format(state))
                last = state
                changes += 1
            if _owner_out_of_step(lock):
                out_of_step += 1
            if self._returned(ret_pc, entry_sp):
                break
        else:
            raise gdb.GdbError("kit-step-lock: {} has not returned after {} instructions".format(
                func, steps))
        gdb.set_convenience_variable("kit_step_changes", changes)
        gdb.write("{} returned after {} instructions; the owner was out of step "
                  "with the lock after {} of them\n".format(func, steps, out_of_step))


def _insn_before(pc):
    """The address and text of the instruction that ends at PC: the one a
    vCPU just ran when a watchpoint stops it.  x86 instructions vary in
    length, so they are decoded from a known boundary: the start of the
    source line PC - 1 is in, else of the function."""
    start = gdb.find_pc_line(pc - 1).pc
    if not start or start >= pc:
        block = gdb.block_for_pc(pc)
        while block is not None and block.superblock is not None and \
                not block.superblock.is_static and not block.superblock.is_global:
            block = block.superblock
        if block is None:
            return None, "?"
        start = block.start
    arch = gdb.newest_frame().architecture()
    before = [i for i in arch.disassemble(start, pc - 1) if i["addr"] + i["length"] == pc]
    if not before:
        return None, "?"
    return before[0]["addr"], before[0]["asm"]


def _where(pc):
    text = gdb.execute("info symbol {:#x}".format(pc), to_string=True).strip()
    return re.sub(r" in section .*", "", text).replace(" + ", "+")


class _LockChange(gdb.Breakpoint):
    """A write watchpoint on a kit mutex's word that stops the guest only
    when the lock goes from held to free (want_held False) or from free
    to held (True): a write that leaves it as it was (a waiter marking
    the count -1, a flag set in the owner word) does not.  It reads the
    word from memory, not through an expression: evaluating one needs a
    frame, and building frames while gdb decides whether to stop trips
    gdb 13 over its inline frames (an internal error)."""

    def __init__(self, lock, want_held):
        self.want_held = want_held
        # the word a locker writes to take the lock: the count up to
        # stage 12, the owner word from stage 13 on
        self.count_based = _owner_word(lock) is None
        word = lock["count"]["counter"] if self.count_based else lock["owner"]["counter"]
        self.addr, self.size = int(word.address), word.type.sizeof
        super(_LockChange, self).__init__(
            "*({} *) {:#x}".format("int" if self.count_based else "long", self.addr),
            type=gdb.BP_WATCHPOINT, wp_class=gdb.WP_WRITE, internal=True)
        self.silent = True
        self.seen = False
        self.was = self.held()

    def held(self):
        raw = bytes(gdb.selected_inferior().read_memory(self.addr, self.size))
        value = int.from_bytes(raw, "little", signed=True)
        return value != 1 if self.count_based else value & ~KIT_MUTEX_FLAGS != 0

    def stop(self):
        now, was = self.held(), self.was
        self.was = now
        if now == self.want_held and was != now:
            self.seen = True
            return True
        return False


class KitRunUntil(gdb.Command):
    """Run the selected vCPU alone until a kit mutex is free, or taken.

Usage: kit-run-until EXPR free|taken SECONDS

EXPR is the kit mutex, as for kit-mutex.  A write watchpoint on its word
(count up to stage 12, the owner word from stage 13 on) stops the vCPU
right after the instruction that set the lock free, or took it (a write
that leaves it as it was does not count); this prints that instruction
and where it is, and keeps its address in $kit_change_pc (0 when the lock
did not change so within SECONDS, or the instruction was not found).  The
vCPU runs with interrupts held off, as in kit-run-to-spin; an idle vCPU
is not run at all: only an interrupt would wake a task there.  Needs
'set scheduler-locking on'.  Pairs with kit-run-alone-to, which stops a vCPU
before an instruction: together they replay a race."""

    def __init__(self):
        super(KitRunUntil, self).__init__("kit-run-until", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        usage = "Usage: kit-run-until EXPR free|taken SECONDS"
        words = arg.rsplit(None, 2)
        if len(words) != 3 or words[1] not in ("free", "taken"):
            raise gdb.GdbError(usage)
        lock_expr, want, secs = words[0], words[1], _seconds(words[2], "kit-run-until")
        if gdb.parameter("scheduler-locking") != "on":
            raise gdb.GdbError("kit-run-until: only the selected vCPU may run: "
                               "'set scheduler-locking on' first")
        lock = _kit_mutex(lock_expr, usage)
        cpu = gdb.selected_thread().num - 1
        gdb.set_convenience_variable("kit_change_pc", 0)
        if int(gdb.parse_and_eval("$lx_current()")["pid"]) == 0:
            # the idle task: nothing here wants the lock until an
            # interrupt wakes a task, and the vCPU runs alone
            gdb.write("vCPU {}: idle, nothing there to change {}\n".format(cpu, lock_expr))
            return
        wp = _LockChange(lock, want == "taken")
        try:
            timed_out = _run_alone_for(secs)
            seen = wp.seen
        finally:
            wp.delete()
        if not seen:
            gdb.write("vCPU {}: {} not {} {}\n".format(cpu, lock_expr, want, _how_long(secs, timed_out)))
            return
        addr, asm = _insn_before(int(gdb.parse_and_eval("$pc")))
        gdb.set_convenience_variable("kit_change_pc", addr or 0)
        who = _task_str(gdb.parse_and_eval("$lx_current()").address)
        gdb.write("vCPU {}: {} {} by {} at {}: {}\n".format(
            cpu, lock_expr, "set free" if want == "free" else "taken", who,
            _where(addr) if addr else "?", re.sub(r"\s+", " ", asm)))


class KitRunAloneTo(gdb.Command):
    """Run the selected vCPU alone until it is about to run an instruction.

Usage: kit-run-alone-to ADDR SECONDS

ADDR is an expression, e.g. $kit_change_pc from kit-run-until; 0 means
there is nothing to run to, and the vCPU stays where it is.  The vCPU
runs for at most SECONDS, with interrupts held off as in kit-run-to-spin.
Needs 'set scheduler-locking on'."""

    def __init__(self):
        super(KitRunAloneTo, self).__init__("kit-run-alone-to", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        words = arg.split()
        if len(words) != 2:
            raise gdb.GdbError("Usage: kit-run-alone-to ADDR SECONDS")
        addr = int(gdb.parse_and_eval(words[0])) & 0xffffffffffffffff
        secs = _seconds(words[1], "kit-run-alone-to")
        if gdb.parameter("scheduler-locking") != "on":
            raise gdb.GdbError("kit-run-alone-to: only the selected vCPU may run: "
                               "'set scheduler-locking on' first")
        cpu = gdb.selected_thread().num - 1
        if not addr:
            gdb.write("vCPU {}: nothing to run to\n".format(cpu))
            return
        timed_out, reached = _run_alone_to(addr, secs)
        if reached:
            asm = gdb.newest_frame().architecture().disassemble(addr)[0]["asm"]
            gdb.write("vCPU {}: about to run {}: {}\n".format(
                cpu, _where(addr), re.sub(r"\s+", " ", asm)))
        else:
            gdb.write("vCPU {}: did not reach {} {}\n".format(
                cpu, _where(addr), _how_long(secs, timed_out)))


def _kit_lock_arg(lock):
    """A convenience function's argument: a pointer to a kit mutex, or an
    address such as $rdi at a function's first instruction."""
    kit_ptr = gdb.lookup_type("struct kit_mutex").pointer()
    return lock.cast(kit_ptr).dereference()


class _KitHeld(gdb.Function):
    """$kit_held(LOCK): 1 if the kit mutex LOCK (a pointer or an address)
is held, else 0.
For breakpoint conditions, at any stage."""

    def __init__(self):
        super(_KitHeld, self).__init__("kit_held")

    def invoke(self, lock):
        return int(_lock_held(_kit_lock_arg(lock)))


class _KitFlags(gdb.Function):
    """$kit_flags(LOCK): the flags in the lock word of the kit mutex LOCK
(a pointer or an address): 0x1 tasks may wait, 0x2 the first waiter asks
for a handoff (stage 14 on), 0x4 handed off, not yet picked up (stage 17
on); 0 before stage 13, which has no word.
For breakpoint conditions."""

    def __init__(self):
        super(_KitFlags, self).__init__("kit_flags")

    def invoke(self, lock):
        word = _owner_word(_kit_lock_arg(lock))
        return 0 if word is None else word & KIT_MUTEX_FLAGS


class _KitWaiters(gdb.Function):
    """$kit_waiters(LOCK): how many tasks are on the wait list of the kit
mutex LOCK (a pointer or an address).  For breakpoint conditions."""

    def __init__(self):
        super(_KitWaiters, self).__init__("kit_waiters")

    def invoke(self, lock):
        return len(list(_waiters(_kit_lock_arg(lock))))


KitMutex()
KitOwnerRunning()
KitSpinners()
KitRunFor()
KitSpinWatch()
KitRunToSpin()
KitNeedResched()
KitRunToReturn()
KitStepLock()
KitRunUntil()
KitRunAloneTo()
KitVcpuPreempted()
_KitHeld()
_KitWaiters()
_KitFlags()
