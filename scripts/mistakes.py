"""The course's catalogue of student mistakes, for grading the grader.

Each entry is a mistake a student plausibly makes writing stage N's
change: bookkeeping forgotten on one path of several, a loop exit
missing, preemption or RCU left unbalanced on one path, the wrong
atomic, an off-by-one in a flag, a test of the wrong task or CPU.  Each
names the check of scripts/grade (course/checks.tsv) that must fail on
it; tests/t9000-course.t grades the kit's answer with each mistake made
and proves that the check fails and that the score stays at most 70%.

An edit is a regex substitution on the stage's own version of a file
the assignment lets the student change (course.py files N), matching
exactly once at every stage from FIRST to LAST (course.py verify proves
it).  The grade boots a kernel without the debug variant, so no mistake
sits in debug-only code.  Its first guest has two vCPUs, where no two
spinners queue at once; from stage 10 a second guest, on four, measures
the spinners' queue (checks crowd and once), and labs 10 and 11 boot
four too.  Student kits leave this file out: it holds answer lines.

Mistakes graded and not caught are left out, and named here, for the
next check to catch: at stage 3, spinning on past queued waiters (the
wait-list exit left out) behaves as stage 6 does, and lab 3's race
still passes: graded, it scored full marks.

Used by scripts/course.py: `course.py mistakes N`, `course.py solution N
--mistake NAME`.
"""
from bisect_exercise import BUGS, Edit

KIT_H = "include/linux/kit_mutex.h"
KIT_C = "kernel/locking/kit_mutex.c"
CORE_C = "kernel/sched/core.c"


class Mistake:
    """NAME, made at stages FIRST to LAST, must fail CHECK (an id of
    course/checks.tsv); KIND is its class, WHY what the student did and
    what the check sees."""

    def __init__(self, name, first, last, check, kind, edit, why):
        self.name, self.first, self.last = name, first, last
        self.check, self.kind, self.edit, self.why = check, kind, edit, why

    def fits(self, stage):
        return self.first <= stage <= self.last


def catalogue(name):
    """The edit of the bisection catalogue's bug NAME: a mistake the
    exercises plant is a student's mistake too."""
    return next(b.edit for b in BUGS if b.name == name)


# shared edits (the same slip made at two stages that rewrite the file,
# or at stages on both sides of one that is not the student's to change)
_PREEMPT_LEAK = catalogue("preempt-leak")
_CMPXCHG_SWAPPED = Edit(KIT_C, r"if \(atomic_cmpxchg\(&lock->count, 1, 0\) == 1\) \{\n",
                        "if (atomic_cmpxchg(&lock->count, 0, 1) == 1) {\n")
_STOP_SAYS_AGAIN = Edit(CORE_C,
                        r"(\t\tif \(rcu_access_pointer\(rq->curr\) != owner \|\| need_resched\(\)\)) \{\n"
                        r"\t\t\tret = 0;\n\t\t\tbreak;\n\t\t\}\n",
                        "\\1\n\t\t\tbreak;\n")

_OSQ_KEPT = Edit(KIT_C, r"\tkit_mutex_unwatch\(lock\);\n\tkit_osq_unlock\(&lock->osq\);\n(slowpath:\n)",
                 "\tkit_mutex_unwatch(lock);\n\\1")
_OSQ_KEPT_WHY = ("A spinner that gives up stays the queue's head for good: after the lost step "
                 "on kit0, later spinners wait behind it until need_resched and leave, so "
                 "the spin step counts 0.")

# stage 17's spin loop: each turn begins with a try that returns the owner
_SPIN_TURN_TRY = (r"\t\towner = __kit_mutex_trylock_or_owner\(lock\);\n"
                  r"\t\tif \(!owner\)\n\t\t\tbreak;\n")

MISTAKES = [
    # ---- stage 1: the owner field -------------------------------------
    Mistake("owner-after-count", first=1, last=1, check="lab",
            kind="layout: field in the wrong place",
            edit=Edit(KIT_H,
                      r"(\tatomic_t\t\tcount;\n)(\tspinlock_t\t\twait_lock;\n\tstruct list_head\twait_list;\n)"
                      r"(#if defined\(CONFIG_DEBUG_KIT_MUTEX\) \|\| defined\(CONFIG_SMP\)\n"
                      r"\tstruct task_struct\t\*owner;\n#endif\n)",
                      r"\1\3\2"),
            why="The student puts owner right after count; padding makes the struct 40 bytes "
                "with owner at 0x8, and lab 1 expects sizeof 32 and offset 0x18."),
    Mistake("owner-field-guard-and", first=1, last=1, check="build",
            kind="wrong preprocessor condition",
            edit=Edit(KIT_H,
                      r"#if defined\(CONFIG_DEBUG_KIT_MUTEX\) \|\| defined\(CONFIG_SMP\)\n"
                      r"(\tstruct task_struct\t\*owner;\n)",
                      "#if defined(CONFIG_DEBUG_KIT_MUTEX) && defined(CONFIG_SMP)\n\\1"),
            why="The field is declared only for debug-and-SMP; on the graded non-debug SMP "
                "kernel kit_mutex_owner() and __kit_mutex_init() use lock->owner, "
                "which does not exist: the build fails."),
    Mistake("double-holder", first=1, last=3, check="lost",
            kind="mutual exclusion (reused: bisect catalogue)",
            edit=catalogue("double-holder"),
            why="The first xchg's 'not negative' is read as 'ours', so a locker takes a held "
                "lock (old count 0); test-kit-mutex loses updates."),

    # ---- stage 2: owner helpers at every site --------------------------
    Mistake("owner-interruptible-forgotten", first=2, last=3, check="owner",
            kind="bookkeeping forgotten on one path",
            edit=Edit(KIT_C,
                      r"(\(&lock->count, __kit_mutex_lock_interruptible_slowpath\);\n)"
                      r"\tif \(!ret\)\n\t\tkit_mutex_set_owner\(lock\);\n",
                      r"\1"),
            why="No set_owner after kit_mutex_lock_interruptible(), which the debugfs 'hold' "
                "command (kit-hold) uses: kit-check owner reads owner 0 while kit1 is held."),
    Mistake("owner-lock-forgotten", first=2, last=3, check="owner",
            kind="bookkeeping forgotten on one path",
            edit=Edit(KIT_C,
                      r"(\t__kit_mutex_fastpath_lock\(&lock->count, __kit_mutex_lock_slowpath\);\n)"
                      r"\tkit_mutex_set_owner\(lock\);\n",
                      r"\1"),
            why="No set_owner after kit_mutex_lock()'s fast path; its slow path records "
                "it, so only an uncontended lock() leaves owner 0: kit-check owner's "
                "PLAIN_OWNER (the debugfs 'op' command) is 0 while kit1 is held."),
    Mistake("owner-killable-forgotten", first=2, last=3, check="owner",
            kind="bookkeeping forgotten on one path",
            edit=Edit(KIT_C,
                      r"(\(&lock->count, __kit_mutex_lock_killable_slowpath\);\n)"
                      r"\tif \(!ret\)\n\t\tkit_mutex_set_owner\(lock\);\n",
                      r"\1"),
            why="No set_owner after kit_mutex_lock_killable()'s fast path, the path no "
                "guest workload but kit-check owner takes: KILL_OWNER is 0 while kit1 "
                "is held uncontended ('hold ... killable')."),
    Mistake("owner-interruptible-inverted", first=2, last=3, check="owner",
            kind="inverted test",
            edit=Edit(KIT_C,
                      r"(__kit_mutex_lock_interruptible_slowpath\);\n\tif \()!ret"
                      r"(\)\n\t\tkit_mutex_set_owner\(lock\);\n)",
                      r"\1ret\2"),
            why="The owner is recorded only when the interruptible lock fails (-EINTR); "
                "a successful 'hold' leaves it 0, so HELD_OWNER != HELD_HOLDER."),
    Mistake("unlock-clear-ifdef-inverted", first=2, last=3, check="owner",
            kind="wrong preprocessor condition",
            edit=Edit(KIT_C,
                      r"(void __sched kit_mutex_unlock\(struct kit_mutex \*lock\)\n\{\n"
                      r"\tkit_mutex_trace_unlock\(lock\);\n)"
                      r"#ifndef CONFIG_DEBUG_KIT_MUTEX\n",
                      "\\1#ifdef CONFIG_DEBUG_KIT_MUTEX\n"),
            why="#ifdef for #ifndef: the non-debug unlock never clears the owner, so "
                "kit-check owner reads the holder's pid after unlock (AFTER_OWNER != 0)."),

    # ---- stage 3: the spin loop ----------------------------------------
    Mistake("preempt-leak", first=3, last=3, check="alarm",
            kind="preemption unbalanced on one path (reused: bisect catalogue)",
            edit=_PREEMPT_LEAK,
            why="The spin loop's success return skips preempt_enable(); the task later "
                "sleeps with preempt_count 1 and the kernel prints 'BUG: scheduling while atomic'."),
    Mistake("spin-off", first=3, last=3, check="spin",
            kind="wrong config symbol (reused: bisect catalogue)",
            edit=catalogue("spin-off"),
            why="The loop is guarded by a symbol nobody sets, so nothing spins (and the kit "
                "mutex falls under 6.1's throughput)."),
    Mistake("grab-cmpxchg-swapped", first=3, last=3, check="lost",
            kind="wrong atomic arguments",
            edit=_CMPXCHG_SWAPPED,
            why="cmpxchg(count, 0, 1): old/new swapped; a free lock is 'taken' without "
                "storing 0 and a held one is set free, so two tasks hold it and updates are lost."),
    Mistake("nonatomic-grab", first=3, last=3, check="grab",
            kind="wrong atomic (reused: bisect catalogue)",
            edit=catalogue("nonatomic-grab"),
            why="Read-then-set instead of cmpxchg: a task that takes the lock between the "
                "spinner's read and its store holds it with the spinner.  Lost-update runs "
                "see it by chance (1,431 lost once, none in 3 runs another time); the grab "
                "race, gdb stopping the spinner before its store, every time."),

    # ---- stage 4: kit_mutex_spin_on_owner() in the scheduler -----------
    Mistake("sleeper-spin", first=4, last=5, check="cpu",
            kind="missing owner-running test (reused: bisect catalogue)",
            edit=catalogue("sleeper-spin"),
            why="Only need_resched() stops the spin: a locker burns its CPU while the owner "
                "sleeps, well over 6.1's CPU share in kit-check cpu."),
    Mistake("stop-leaves-rcu-held", first=4, last=5, check="alarm",
            kind="RCU read side unbalanced on one path",
            edit=Edit(CORE_C,
                      r"(\t\tif \(rcu_access_pointer\(rq->curr\) != owner \|\| need_resched\(\)\)) \{\n"
                      r"\t\t\tret = 0;\n\t\t\tbreak;\n\t\t\}\n",
                      "\\1\n\t\t\treturn 0;\n"),
            why="'return 0' skips rcu_read_unlock(); non-preemptible RCU's preempt_disable() "
                "leaks and the locker, queueing, prints 'BUG: scheduling while atomic' "
                "(every contended lock of a sleeping/preempted owner takes this path)."),
    Mistake("stop-says-look-again", first=4, last=4, check="lab",
            kind="wrong return value on a loop exit",
            edit=_STOP_SAYS_AGAIN,
            why="ret = 0 forgotten: a not-running owner answers 1 ('look again'); lab 4's "
                "finish on the sleeping owner prints 'Value returned ... = 1', not 0."),
    # ---- stage 5: OWNER_SPIN --------------------------------------------
    Mistake("owner-spin-inverted", first=5, last=5, check="spin",
            kind="inverted test",
            edit=Edit(CORE_C, r"\tif \(!sched_feat\(OWNER_SPIN\)\)\n\t\treturn 0;\n",
                      "\tif (sched_feat(OWNER_SPIN))\n\t\treturn 0;\n"),
            why="With the feature on (default) the helper always says stop, so no acquisition "
                "follows watching an owner: kit-stat spin stays 0 under contention."),
    Mistake("owner-spin-under-rcu", first=5, last=5, check="alarm",
            kind="RCU read side unbalanced on one path",
            edit=Edit(CORE_C,
                      r"(\tif \(!sched_feat\(OWNER_SPIN\)\)\n\t\treturn 0;\n\n)(\trcu_read_lock\(\);\n)",
                      r"\2\1"),
            why="The feature test sits after rcu_read_lock(); under NO_OWNER_SPIN (the nospin "
                "step, before the alarms step) each call leaks it: 'BUG: scheduling while atomic'."),
    Mistake("owner-spin-look-again", first=5, last=5, check="spinoff",
            kind="wrong return value",
            edit=Edit(CORE_C, r"(\tif \(!sched_feat\(OWNER_SPIN\)\)\n\t\treturn )0;\n",
                      "\\g<1>1;\n"),
            why="NO_OWNER_SPIN answers 1 ('look again'): the caller keeps retrying the cmpxchg, "
                "counted as spin acquisitions, so SPIN_OFF > 0."),

    # ---- stage 6: spin past waiters ---------------------------------------
    Mistake("keep-waitlist-test", first=6, last=6, check="lab",
            kind="loop exit left in",
            edit=Edit(KIT_C,
                      r"(\tfor \(;;\) \{\n\t\tstruct task_struct \*owner;\n\n)"
                      r"(\t\t/\* Wait while the owner holds the lock and runs\. \*/\n)",
                      "\\1\t\tif (!list_empty(&lock->wait_list))\n\t\t\tbreak;\n\n\\2"),
            why="The student moves the !owner test but keeps the wait-list exit: lab 6's B "
                "queues behind C without reaching a 'pause' (no 'spinning:' line); the queue "
                "check fails the same way as stage 5."),
    Mistake("grab-cmpxchg-swapped-s6", first=6, last=6, check="lost",
            kind="wrong atomic arguments (earlier code, rewritten)",
            edit=_CMPXCHG_SWAPPED,
            why="Rewriting the loop, cmpxchg(count, 0, 1): spinners take held locks and free "
                "them; test-kit-mutex loses updates."),
    Mistake("grab-preempt-leak-s6", first=6, last=6, check="alarm",
            kind="preemption unbalanced on one path (earlier code, rewritten)",
            edit=_PREEMPT_LEAK,
            why="Rewriting the loop, the success return loses preempt_enable(): "
                "'BUG: scheduling while atomic'."),

    # ---- stage 7: offline owner -------------------------------------------
    Mistake("offline-says-look-again", first=7, last=8, check="offline",
            kind="wrong return value on an exit",
            edit=Edit(CORE_C,
                      r"(\tif \(cpu >= nr_cpumask_bits \|\| !cpu_online\(cpu\)\)) \{\n"
                      r"\t\tret = 0;\n\t\tgoto out;\n\t\}\n",
                      "\\1\n\t\tgoto out;\n"),
            why="ret = 0 forgotten: an owner on an offline CPU still means 'look again', so the "
                "locker on CPU 0 spins through the owner's sleep (CPU 0 busy, or the "
                "soft-lockup panic); lab 7 also sees 'Value returned = 1'."),
    Mistake("offline-leaves-rcu-held", first=7, last=8, check="offline",
            kind="RCU read side unbalanced on one path",
            edit=Edit(CORE_C,
                      r"(\tif \(cpu >= nr_cpumask_bits \|\| !cpu_online\(cpu\)\)) \{\n"
                      r"\t\tret = 0;\n\t\tgoto out;\n\t\}\n",
                      "\\1\n\t\treturn 0;\n"),
            why="'return 0' skips rcu_read_unlock() on the offline path only; in the offline "
                "step the locker then sleeps 'while atomic', which the step's LATE alarm reports."),
    Mistake("stop-says-look-again-s7", first=7, last=7, check="cpu",
            kind="wrong return value on a loop exit (earlier code, rewritten)",
            edit=_STOP_SAYS_AGAIN,
            why="Rewriting the helper, ret = 0 is lost on the not-running exit: lockers spin "
                "through the owner's sleeps (kit-check cpu over 6.1's share, as sleeper-spin)."),
    # ---- stage 8: owner changed -------------------------------------------
    Mistake("owner-changed-inverted", first=8, last=8, check="lab",
            kind="inverted test",
            edit=Edit(CORE_C, r"\tif \(READ_ONCE\(lock->owner\)\)\n\t\tret = 0;\n",
                      "\tif (!READ_ONCE(lock->owner))\n\t\tret = 0;\n"),
            why="Stops when the lock is free and spins on when it passed to C: lab 8's finish "
                "prints 'Value returned ... = 1'."),
    Mistake("owner-changed-compares-given", first=8, last=9, check="spin",
            kind="test of the wrong task",
            edit=Edit(CORE_C, r"\tif \(READ_ONCE\(lock->owner\)\)\n\t\tret = 0;\n",
                      "\tif (READ_ONCE(lock->owner) != owner)\n\t\tret = 0;\n"),
            why="Compares with the owner it was given, which has always changed here, so the "
                "helper never says 'take it': no acquisition after watching (spin = 0 but for "
                "an A-free-A-free race within a few instructions)."),
    Mistake("spin-without-pause", first=8, last=9, check="lab",
            kind="busy loop without cpu_relax()",
            edit=Edit(CORE_C, r"(\t\t\tgoto out;\n\t\t\}\n\n)\t\tcpu_relax\(\);\n", r"\1"),
            why="The student drops cpu_relax() ('READ_ONCE rereads anyway'); labs 8 and 9's "
                "kit-spin-watch finds no 'pause' in kit_mutex_spin_on_owner and gdb stops on the error."),
    # ---- stage 9: owner->on_cpu --------------------------------------------
    Mistake("on-cpu-inverted", first=9, last=9, check="lab",
            kind="inverted test",
            edit=Edit(CORE_C, r"\t\tif \(!READ_ONCE\(owner->on_cpu\) \|\| need_resched\(\)\) \{\n",
                      "\t\tif (READ_ONCE(owner->on_cpu) || need_resched()) {\n"),
            why="Stops on running owners and spins on sleeping ones: lab 9's spinner stops "
                "while the owner runs, and throughput and the queue check fall (graded: the "
                "CPU share of a sleeping owner stayed within the margin)."),
    Mistake("on-cpu-of-current", first=9, last=9, check="cpu",
            kind="test of the wrong task",
            edit=Edit(CORE_C, r"\t\tif \(!READ_ONCE\(owner->on_cpu\) \|\| need_resched\(\)\) \{\n",
                      "\t\tif (!READ_ONCE(current->on_cpu) || need_resched()) {\n"),
            why="Asks whether the spinner runs (always): a locker spins on a sleeping owner "
                "until need_resched, burning CPU over 6.1's share (graded: the offline step's "
                "locker still slept)."),

    # ---- stage 10: MCS queue of spinners --------------------------------------
    Mistake("mspin-leak-on-stop", first=10, last=10, check="alarm",
            kind="unlock forgotten on one path of several",
            edit=Edit(KIT_C,
                      r"(\t\tif \(owner && !kit_mutex_spin_on_owner\(lock, owner\)\) \{\n"
                      r"\t\t\tkit_mutex_unwatch\(lock\);\n)"
                      r"\t\t\tkit_mspin_unlock\(&lock->spin_mlock, &node\);\n(\t\t\tbreak;\n)",
                      r"\1\2"),
            why="Giving up leaves the stack node as the queue's tail: the next spinner links into "
                "a dead frame and waits for ever with preemption off (soft lockup, or the "
                "guest stops before the alarms step)."),
    Mistake("mspin-leak-on-miss", first=10, last=10, check="alarm",
            kind="unlock forgotten on one path of several",
            edit=Edit(KIT_C,
                      r"(\t\t/\* Let the next spinner watch while we decide what to do\. \*/\n"
                      r"\t\tkit_mutex_unwatch\(lock\);\n)\t\tkit_mspin_unlock\(&lock->spin_mlock, &node\);\n",
                      r"\1"),
            why="After a failed cmpxchg the node stays queued and the next turn queues it again "
                "behind itself: it waits for its own flag for ever (hang, soft lockup)."),
    Mistake("mcs-link-missing", first=10, last=10, check="lab",
            kind="bookkeeping forgotten",
            edit=Edit(KIT_C, r"\tWRITE_ONCE\(prev->next, node\);\n\n", ""),
            why="A queued spinner never links itself to prev: in lab 10 (4 vCPUs) the head's "
                "unlock waits for ever for a next that never links, the round never ends and "
                "'spin_mlock == 0' prints 0 (the 2-vCPU grade seldom has 2 spinners queued)."),
    Mistake("watch-before-queue", first=10, last=10, check="crowd",
            kind="bookkeeping on the wrong side of the queue",
            edit=Edit(KIT_C,
                      r"\t\tkit_mspin_lock\(&lock->spin_mlock, &node\);\n\t\tkit_mutex_watch\(lock\);\n",
                      "\t\tkit_mutex_watch(lock);\n\t\tkit_mspin_lock(&lock->spin_mlock, &node);\n"),
            why="The watcher gauge counts queued spinners too: on four vCPUs the crowd "
                "check sees spinners begin to watch beside another (2,024 times, graded), "
                "and lab 10 prints kit_mutex_watchers = 2 where it expects 1."),

    # ---- stage 11: cancellable OSQ ---------------------------------------------
    Mistake("osq-kept-after-loop", first=11, last=11, check="spin",
            kind="unlock forgotten on one path", edit=_OSQ_KEPT, why=_OSQ_KEPT_WHY),
    Mistake("osq-never-leaves", first=11, last=11, check="lab",
            kind="loop exit missing",
            edit=Edit(KIT_C,
                      r"(\t\tif \(smp_load_acquire\(&node->locked\)\)\n\t\t\treturn true;\n)"
                      r"\t\tif \(need_resched\(\)\)\n\t\t\tbreak;\n",
                      r"\1"),
            why="A queued spinner ignores need_resched(): lab 11's kit-run-to-return says "
                "kit_osq_lock has not returned, not 'returned false'."),
    Mistake("osq-tail-reset-to-null", first=11, last=11, check="lab",
            kind="wrong value in a cmpxchg",
            edit=Edit(KIT_C, r"cmpxchg\(tail, node, prev\) == node\)",
                      "cmpxchg(tail, node, NULL) == node)"),
            why="A leaving tail empties the queue instead of making prev the tail: lab 11 prints "
                "osq != 0 && ... = 0, and the head later loops for ever in kit_osq_unlock()."),

    # ---- stage 12: spin on the new owner ----------------------------------------
    Mistake("new-owner-stops-always", first=12, last=12, check="spin",
            kind="wrong return value on the normal exit",
            edit=Edit(CORE_C, r"(\trcu_read_unlock\(\);\n)(\n\t/\*\n\t \* Unless we stopped)",
                      "\\1\tret = 0;\n\\2"),
            why="The student removes the owner test but answers 0 after the loop whatever happened: "
                "a spinner never tries the lock after watching an owner, so the spin step "
                "counts no lock taken by spinning."),
    Mistake("new-owner-stop-says-look-again", first=12, last=12, check="cpu",
            kind="wrong return value on a loop exit (code rewritten)",
            edit=Edit(CORE_C, r"(\t\tif \(!READ_ONCE\(owner->on_cpu\) \|\| need_resched\(\)\) \{\n)"
                      r"\t\t\tret = 0;\n",
                      "\\1"),
            why="Rewriting the loop's exit as a break, ret = 0 is lost: an owner that sleeps gets "
                "'look again', and so does need_resched: the locker spins with preemption off "
                "through the owner's whole sleep (kit-check cpu over 6.1's share)."),
    Mistake("new-owner-returns-in-rcu", first=12, last=12, check="alarm",
            kind="RCU read side unbalanced on one path",
            edit=Edit(CORE_C, r"(\t\tif \(!READ_ONCE\(owner->on_cpu\) \|\| need_resched\(\)\) \{\n)"
                      r"\t\t\tret = 0;\n\t\t\tbreak;\n",
                      "\\1\t\t\treturn 0;\n"),
            why="With the out: label gone, the student returns from inside the loop and skips "
                "rcu_read_unlock(): a locker whose owner sleeps then sleeps 'while atomic', "
                "which the alarms report."),

    # ---- stage 13: the owner word ------------------------------------------------
    Mistake("osq-kept-after-loop-s13", first=13, last=14, check="spin",
            kind="unlock forgotten on one path", edit=_OSQ_KEPT, why=_OSQ_KEPT_WHY),
    Mistake("waiters-flag-never-set", first=13, last=14, check="lost",
            kind="off-by-one in ordering (test after the add)",
            edit=Edit(KIT_C,
                      r"\tif \(list_first_entry\(&lock->wait_list, struct kit_mutex_waiter,\n"
                      r"\t\t\t     list\) == &waiter\)\n\t\t__kit_mutex_set_flag",
                      "\tif (list_empty(&lock->wait_list))\n\t\t__kit_mutex_set_flag"),
            why="'Is the list empty?' after list_add_tail() is never true, so the flag is never "
                "set, unlock never wakes anyone and the first sleeping waiter sleeps for ever: "
                "test-kit-mutex hangs, and the kernel reports the hung task (graded: "
                "locktorture's short run still passed)."),
    Mistake("unlock-clears-waiters-flag", first=13, last=13, check="lab",
            kind="wrong atomic",
            edit=Edit(KIT_C, r"owner = atomic_long_fetch_and_release\(KIT_MUTEX_FLAGS, &lock->owner\);\n",
                      "owner = atomic_long_xchg_release(&lock->owner, 0);\n"),
            why="xchg(0) frees the lock and drops the waiters flag: lab 13 steps the unlock to "
                "'free' where it expects 'free, waiters flag'."),
    Mistake("owner-mask-not-inverted", first=13, last=14, check="spin",
            kind="bit mask off (missing ~)",
            edit=Edit(KIT_H,
                      r"return \(struct task_struct \*\)\(atomic_long_read\(&lock->owner\) &\n"
                      r"(\t\t\t\t      )~KIT_MUTEX_FLAGS\);",
                      "return (struct task_struct *)(atomic_long_read(&lock->owner) &\n"
                      "\\1KIT_MUTEX_FLAGS);"),
            why="kit_mutex_owner() returns the flags: with no flag the loop sees no owner and "
                "counts every acquisition as a grab (spin stays 0); with a flag set a spinner "
                "dereferences (task_struct *)1 (Oops, every check after fails)."),
    Mistake("trylock-mask-inverted", first=13, last=13, check="lost",
            kind="bit mask off (missing ~)",
            edit=Edit(KIT_C, r"\t\tif \(owner & ~KIT_MUTEX_FLAGS\)\n\t\t\treturn false;\t/\* held \*/\n",
                      "\t\tif (owner & KIT_MUTEX_FLAGS)\n\t\t\treturn false;\t/* held */\n"),
            why="A held lock without flags looks free to the slow-path trylock, which ORs a "
                "second task into the word and takes it: two holders, lost updates "
                "(or an Oops or hang: every later check fails)."),

    # ---- stage 14: handoff ----------------------------------------------------------
    Mistake("handoff-bit-off-by-one", first=14, last=14, check="torture",
            kind="off-by-one in flag bits",
            edit=Edit(KIT_H, r"#define KIT_MUTEX_FLAG_HANDOFF\t0x02UL\n",
                      "#define KIT_MUTEX_FLAG_HANDOFF\t0x04UL\n"),
            why="Bit 2 is outside KIT_MUTEX_FLAGS: a woken head that finds the lock free sets "
                "it, and the word then reads 'held by 0x4' for ever (waiters hang, spinners "
                "Oops on owner 0x4)."),
    Mistake("handoff-keeps-request", first=14, last=14, check="lab",
            kind="bit mask off by one flag",
            edit=Edit(KIT_C, r"\(owner & KIT_MUTEX_FLAG_WAITERS\) \| \(long\)task\)\)",
                      "(owner & KIT_MUTEX_FLAGS) | (long)task))"),
            why="The handoff keeps the HANDOFF bit: lab 14 shows the new owner with "
                "'waiters flag, handoff flag' and flags 0x3 where it expects 0x1."),
    Mistake("unlock-frees-then-hands-off", first=14, last=14, check="lab",
            kind="loop exit missing",
            edit=Edit(KIT_C,
                      r"\t\tif \(owner & KIT_MUTEX_FLAG_HANDOFF\)\n\t\t\tbreak;\n"
                      r"\t\tif \(atomic_long_try_cmpxchg_release",
                      "\t\tif (atomic_long_try_cmpxchg_release"),
            why="Unlock frees the lock and then hands it off, overwriting whoever took it: "
                "lab 14 counts 2 state changes where it expects 1 (and lost updates follow)."),
    # ---- stage 15: the woken waiter spins ---------------------------------------
    Mistake("waiter-spin-inverted-first", first=15, last=15, check="lab",
            kind="inverted test",
            edit=Edit(KIT_C, r"if \(\(first && kit_mutex_optimistic_spin\(lock, &waiter\)\) \|\|\n",
                      "if ((!first && kit_mutex_optimistic_spin(lock, &waiter)) ||\n"),
            why="Spins when not first, which no woken waiter is: the first waiter sleeps again "
                "as on stage 14, and lab 15's helper call on the new owner never comes."),
    Mistake("waiter-keeps-the-queue", first=15, last=15, check="spin",
            kind="unlock forgotten on one path",
            edit=Edit(KIT_C, r"\tif \(!waiter\) \{\n\t\tif \(!kit_osq_lock\(&lock->osq\)\)\n"
                      r"\t\t\treturn false;\n\t\tkit_mutex_watch\(lock\);\n\t\}\n",
                      "\tif (!kit_osq_lock(&lock->osq))\n\t\treturn false;\n"
                      "\tif (!waiter)\n\t\tkit_mutex_watch(lock);\n"),
            why="The waiter queues behind the spinners too, but only a spinner gives the queue "
                "back: after a woken waiter's spin the queue's tail stays its node, later "
                "spinners queue behind a node nobody releases, and the guest hangs (graded: no "
                "lock taken by spinning, test-kit-mutex HANG)."),
    Mistake("waiter-misses-own-handoff", first=15, last=15, check="handoff",
            kind="loop exit missing",
            edit=Edit(KIT_C, r"\t\t\tif \(waiter && owner == current\) \{\n"
                      r"\t\t\t\t/\* handed off: see __kit_mutex_trylock\(\) \*/\n"
                      r"\t\t\t\tsmp_mb\(\);\n\t\t\t\tbreak;\n\t\t\t\}\n",
                      ""),
            why="Without the test for its own name, a waiter handed the lock spins on itself, "
                "an owner that runs, until it must reschedule: the handoff step's longest "
                "operation took 1.5 s and its least fair task did half the most's share."),

    # ---- stage 16: preempted vCPU -------------------------------------------------------
    Mistake("preempted-wrong-task", first=16, last=16, check="lab",
            kind="test of the wrong CPU/task",
            edit=Edit(CORE_C, r"kit_vcpu_is_preempted\(task_cpu\(owner\)\)\) \{",
                      "kit_vcpu_is_preempted(task_cpu(current))) {"),
            why="Asks about the spinner's vCPU: the preempt check (all vCPUs) passes, but lab 16 "
                "reports only the owner's vCPU and the spinner never returns 0."),
    Mistake("preempted-test-once", first=16, last=16, check="lab",
            kind="test made before the loop",
            edit=Edit(CORE_C,
                      r"\tif \(!sched_feat\(OWNER_SPIN\)\)\n\t\treturn 0;\n(.*?) \|\| need_resched\(\) \|\|\n"
                      r"\t\t    kit_vcpu_is_preempted\(task_cpu\(owner\)\)\) \{\n",
                      "\tif (!sched_feat(OWNER_SPIN) ||\n\t    kit_vcpu_is_preempted(task_cpu(owner)))\n"
                      "\t\treturn 0;\n\\1 || need_resched()) {\n"),
            why="Asked once on entry: lab 16 reports vCPU 1 preempted only after the locker "
                "spins, and the loop never looks again (no 'returned 0')."),
    Mistake("preempted-inverted", first=16, last=16, check="preempt",
            kind="inverted test",
            edit=Edit(CORE_C, r"\t\t    kit_vcpu_is_preempted\(task_cpu\(owner\)\)\) \{",
                      "\t\t    !kit_vcpu_is_preempted(task_cpu(owner))) {"),
            why="Spins only on owners reported preempted: ~0 spins with none reported, many "
                "with all, so the 1/20 test (or 'nothing to compare') fails."),
    Mistake("preempted-look-again", first=16, last=16, check="preempt",
            kind="wrong return value on a loop exit",
            edit=Edit(CORE_C,
                      r"(\t\tif \(!READ_ONCE\(owner->on_cpu\) \|\| need_resched\(\)) \|\|\n"
                      r"\t\t    kit_vcpu_is_preempted\(task_cpu\(owner\)\)\) \{\n"
                      r"(\t\t\tret = 0;\n\t\t\tbreak;\n\t\t\}\n)",
                      "\\1) {\n\\2\t\tif (kit_vcpu_is_preempted(task_cpu(owner)))\n\t\t\tbreak;\n"),
            why="A separate preempted test exits with ret still 1: the caller retries at once "
                "and spins as much with every vCPU reported preempted as with none."),
    # ---- stage 17: the handoff names its waiter (PICKUP) ---------------------------------
    Mistake("pickup-flag-ignored", first=17, last=17, check="pickup",
            kind="test of the wrong flag",
            edit=Edit(KIT_C, r"\t\t\tif \(task != \(long\)current \|\|\n"
                      r"\t\t\t    !\(flags & KIT_MUTEX_FLAG_PICKUP\)\)\n",
                      "\t\t\tif (task != (long)current)\n"),
            why="The trylock takes any lock that names the caller, PICKUP or not: a task that "
                "locks kit2 again while holding it takes it as soon as a signal wakes it, the "
                "hole of stages 14-16."),
    Mistake("waiter-spin-takes-own-name", first=17, last=17, check="pickup",
            kind="old shortcut kept on one path",
            edit=Edit(KIT_C, "(" + _SPIN_TURN_TRY + ")",
                      "\\1\t\tif (waiter && owner == current)\n\t\t\tbreak;\n"),
            why="The trylock tests PICKUP, but the woken waiter's spin loop keeps stage 16's "
                "test for its own name: the recursive lock, woken by a signal, takes kit2 "
                "there instead."),
    Mistake("handoff-without-pickup", first=17, last=17, check="lost",
            kind="flag not set on one path",
            edit=Edit(KIT_C, r"\t\tif \(task\)\n\t\t\tnew \|= KIT_MUTEX_FLAG_PICKUP;\n", ""),
            why="The unlock hands the lock off without PICKUP, and the trylock, rightly, does "
                "not take a lock that names the caller without it: the waiter it was handed to "
                "never takes it, and every task that asks for it waits for good (graded: "
                "torture passed, then test-kit-mutex HANG in the lost-update step)."),
    Mistake("waiter-watches-before-trying", first=17, last=17, check="handoff",
            kind="steps in the wrong order",
            edit=Edit(KIT_C, _SPIN_TURN_TRY,
                      "\t\towner = kit_mutex_owner(lock);\n"
                      "\t\tif (!owner) {\n\t\t\tif (__kit_mutex_trylock(lock))\n"
                      "\t\t\t\tbreak;\n\t\t\tcontinue;\n\t\t}\n"),
            why="The spin loop keeps stage 16's order, watch the owner and then try: a waiter "
                "handed the lock finds itself the owner, a task that runs, and spins on itself "
                "until it must reschedule before its try picks the lock up (graded twice: "
                "one operation took up to 1.8 s, the least fair task did 60-66% of the "
                "most's share, and once throughput fell to 43% of 6.1's)."),
]

# An edit that no longer fits is to be fixed where it is written.
for _m in MISTAKES:
    if all(_m.edit is not b.edit for b in BUGS):
        _m.edit.home = "scripts/mistakes.py"
