#!/usr/bin/env python3
"""Course mode: the skeleton of a stage, for students to complete.

The skeleton of stage N is made from the kit's own stages, so that it
follows them when they change: the files stage N touches, taken at
stage N-1 or at stage N, with the answer cut out and a TODO(stage N) stub
put in its place that keeps the kernel building and booting (a spinner
that never spins, an owner helper that records nothing).  Every cut is a
regex edit that must match exactly once, as the bisection catalogue's
are: `course.py verify` proves that they still fit the stages.

The answer is what stage N's patch adds and the skeleton does not have;
`course.py answer N` prints those lines, and the student kit's test greps
for them.

Usage: course.py --tree DIR skeleton N   (a patch against stage-(N-1), on stdout)
       course.py --tree DIR answer N     (the answer's lines)
       course.py --tree DIR solution N [--bug NAME | --mistake NAME]
                 (the kit's answer as a submission: a patch against the
                 skeleton, with a bug of the bisection catalogue or a
                 mistake of scripts/mistakes.py if asked; for testing the
                 grader)
       course.py --tree DIR mistakes N [--first]
                 (the mistakes made at stage N, or first made there:
                 name, the check that must fail, kind; tab-separated)
       course.py --tree DIR base N       (what the skeleton is made from:
                 "prev", stage N-1's files with TODOs in comments, or
                 "this", stage N's with the answer cut out)
       course.py --tree DIR files N      (the files a submission may change:
                 those where the skeleton differs from stage N, where the
                 answer goes; a file the skeleton gives whole is not the
                 student's, nor is any other)
       course.py --tree DIR verify      (the skeletons and the mistakes fit
                 the stages)
Run from scripts/assignment and scripts/student-kit.
"""
import argparse
import os
import subprocess
import sys

# The kit's checkout gets nothing generated: no __pycache__ for the import.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bisect_exercise import BUGS, HISTORY_LAST_STAGE, Builder, Edit  # noqa: E402
from mistakes import MISTAKES  # noqa: E402

HOME = "scripts/course.py"
KIT_H = "include/linux/kit_mutex.h"
KIT_C = "kernel/locking/kit_mutex.c"
KIT_PRIV_H = "kernel/locking/kit_mutex.h"
KIT_DEBUG_H = "kernel/locking/kit_mutex-debug.h"
CORE_C = "kernel/sched/core.c"
UPSTREAM = "upstream 0d66bf6d3514 (\"mutex: implement adaptive spinning\")"


def cut(path, pattern, repl):
    return Edit(path, pattern, repl, home=HOME)


OWNER_STUBS = """
/*
 * TODO(stage 2): record who holds the lock, as {up}
 * does with mutex_set_owner() and mutex_clear_owner(): write lock->owner
 * (on SMP; a UP kernel has no spinner to tell), and call these wherever
 * the lock is taken and released.  Until then they record nothing.
 */
static inline void kit_mutex_set_owner(struct kit_mutex *lock)
{{
}}

static inline void kit_mutex_clear_owner(struct kit_mutex *lock)
{{
}}
""".format(up=UPSTREAM)

# SKELETONS[N] = (base, [edits]): base "prev" is stage N-1's version of
# each file, "this" stage N's; the edits then cut the answer out.  The
# files are those stage N's patch touches.
SKELETONS = {
    1: ("prev", [
        cut(KIT_H, r"^(?=#ifdef CONFIG_DEBUG_KIT_MUTEX\n\tstruct thread_info\t\*owner;)",
            "\t/*\n"
            "\t * TODO(stage 1): an owner field on SMP too, as upstream 0d66bf6d3514\n"
            "\t * gave struct mutex: which task holds the lock.  The debug\n"
            "\t * variant's owner below becomes that field.  Which type, and\n"
            "\t * why not struct thread_info * on 6.1?\n"
            "\t */\n"),
        cut(KIT_H, r"(kit_mutex_owner\(struct kit_mutex \*lock\)\n\{\n)",
            r"\1\t/* TODO(stage 1): the owner field, where it exists */\n"),
        cut(KIT_C, r"(\tINIT_LIST_HEAD\(&lock->wait_list\);\n)",
            r"\1\t/* TODO(stage 1): the new field starts out NULL */\n"),
    ]),
    2: ("prev", [
        cut(KIT_PRIV_H, r"(#define debug_kit_mutex_set_owner\(lock, new_owner\)\tdo \{ \} while \(0\)\n"
            r"#define debug_kit_mutex_clear_owner\(lock\)\t\tdo \{ \} while \(0\)\n)",
            r"\1" + OWNER_STUBS.replace("\\", "\\\\")),
        cut(KIT_DEBUG_H, r"(static inline void debug_kit_mutex_clear_owner\(struct kit_mutex \*lock\)\n"
            r"\{\n\tlock->owner = NULL;\n\}\n)",
            r"\1" + OWNER_STUBS.replace("\\", "\\\\")),
    ]),
    3: ("prev", [
        cut(KIT_C, r"^(?=/\*\n \* The lock slow path, common to all the lock variants)",
            "#if defined(CONFIG_SMP) && !defined(CONFIG_DEBUG_KIT_MUTEX)\n"
            "/*\n"
            " * TODO(stage 3): a stand-in for the scheduler's help, which comes at\n"
            " * stage 4: wait while @owner still holds @lock, and stop when this CPU\n"
            " * should reschedule.  Return 1 when the owner changed (look again),\n"
            " * 0 to stop spinning and sleep.  Until it is written it never spins.\n"
            " */\n"
            "static int __maybe_unused\n"
            "kit_mutex_spin_on_owner_naive(struct kit_mutex *lock,\n"
            "\t\t\t      struct task_struct *owner)\n"
            "{\n\treturn 0;\n}\n#endif\n\n"),
        cut(KIT_C, r"(\tpreempt_disable\(\);\n)(\tkit_spin_lock_mutex\(&lock->wait_lock, flags\);\n)",
            r"\1\t/*\n"
            "\t * TODO(stage 3): optimistic spinning, as upstream 0d66bf6d3514 added\n"
            "\t * to __mutex_lock_common(), on SMP without the debug variant:\n"
            "\t * spin while the owner holds the lock, take it with\n"
            "\t * cmpxchg(count, 1, 0) when it is free, give up (and queue below)\n"
            "\t * when spinning cannot pay.  The seed also moves the lockdep\n"
            "\t * annotation ahead of the loop.  Count an acquisition in the loop\n"
            "\t * with kit_mutex_stat(lock, ...): KIT_MUTEX_STAT_SPIN after\n"
            "\t * watching an owner, KIT_MUTEX_STAT_GRAB when there was none.\n"
            "\t */\n" r"\2"),
    ]),
    4: ("this", [
        cut(CORE_C, r"(int kit_mutex_spin_on_owner\(struct kit_mutex \*lock, struct task_struct \*owner\)\n)"
            r"\{\n.*?\nout:\n\trcu_read_unlock\(\);\n\treturn ret;\n\}\n",
            r"\1{\n"
            "\t/*\n"
            "\t * TODO(stage 4): the scheduler's answer, as the seed's\n"
            "\t * mutex_spin_on_owner() in kernel/sched.c gives it.  Until it\n"
            "\t * is written, no locker spins on an owner.\n"
            "\t */\n"
            "\treturn 0;\n}\n"),
    ]),
    5: ("this", [
        cut(CORE_C, r"(int kit_mutex_spin_on_owner\(struct kit_mutex \*lock, struct task_struct \*owner\)\n"
            r"\{\n\tunsigned int cpu;\n\tstruct rq \*rq;\n\tint ret = 1;\n\n)"
            r"\tif \(!sched_feat\(OWNER_SPIN\)\)\n\t\treturn 0;\n\n",
            r"\1\t/* TODO(stage 5): obey the OWNER_SPIN scheduler feature */\n\n"),
    ]),
    6: ("prev", [
        cut(KIT_C, r"(\tfor \(;;\) \{\n\t\tstruct task_struct \*owner;\n\n)"
            r"(\t\t/\* Tasks are queued already: join them, do not overtake them. \*/\n)",
            r"\1\t\t/*\n"
            "\t\t * TODO(stage 6): the loop as upstream ac6e60ee405a (\"mutex:\n"
            "\t\t * adaptive spinnning, performance tweaks\") left it: two\n"
            "\t\t * tests of this loop stop a locker that should spin or try\n"
            "\t\t * the lock.  course/ASSIGNMENT-6.md says more.\n"
            "\t\t */\n" r"\2"),
    ]),
    7: ("prev", [
        cut(CORE_C, r"\t/\*\n\t \* Only an online CPU has a runqueue to look at\..*?\*/\n",
            "\t/*\n"
            "\t * TODO(stage 7): what this test answers for an owner whose CPU\n"
            "\t * is not online, as upstream 4b402210486c (\"mutex: Don't spin\n"
            "\t * when the owner CPU is offline or other weird cases\") has it.\n"
            "\t * course/ASSIGNMENT-7.md says more.\n"
            "\t */\n"),
    ]),
    8: ("prev", [
        cut(CORE_C, r"\t\t/\* Owner changed: let the caller re-assess\. \*/\n",
            "\t\t/*\n"
            "\t\t * TODO(stage 8): what to answer when the owner changed, as\n"
            "\t\t * upstream 9d0f4dcc5c4d (\"mutex: Improve the scalability of\n"
            "\t\t * optimistic spinning\") has it.  course/ASSIGNMENT-8.md says\n"
            "\t\t * more.\n"
            "\t\t */\n"),
    ]),
    9: ("prev", [
        cut(CORE_C, r"\t\t/\* Is that owner really running on that CPU\? \*/\n",
            "\t\t/*\n"
            "\t\t * TODO(stage 9): ask the owner whether it runs, not its CPU's\n"
            "\t\t * runqueue, as upstream c6eb3dda2589 (\"mutex: Use p->on_cpu\n"
            "\t\t * for the adaptive spin\") has it.  course/ASSIGNMENT-9.md says\n"
            "\t\t * more.\n"
            "\t\t */\n"),
    ]),
    10: ("prev", [
        cut(KIT_C, r"^(?=\tkit_mutex_watch\(lock\);\n\tfor \(;;\) \{\n)",
            "\t/*\n"
            "\t * TODO(stage 10): queue the spinners on an MCS lock, so that one\n"
            "\t * at a time watches the owner and tries the count, as upstream\n"
            "\t * 2bd2c92cf07c (\"mutex: Queue mutex spinners with MCS lock to\n"
            "\t * reduce cacheline contention\") has it.  course/ASSIGNMENT-10.md\n"
            "\t * says more.\n"
            "\t */\n"),
    ]),
    11: ("prev", [
        cut(KIT_C, r"^(?=\tfor \(;;\) \{\n\t\tstruct task_struct \*owner;\n\t\tstruct kit_mspin_node node;\n)",
            "\t/*\n"
            "\t * TODO(stage 11): take the spinners' queue once, before this\n"
            "\t * loop, and let a queued spinner that must reschedule leave it,\n"
            "\t * as upstream 47667fa1502e (\"locking/mutexes: Modify the way\n"
            "\t * optimistic spinners are queued\") and fb0527bd5ea9\n"
            "\t * (\"locking/mutexes: Introduce cancelable MCS lock for adaptive\n"
            "\t * spinning\") have it.  course/ASSIGNMENT-11.md says more.\n"
            "\t */\n"),
    ]),
    12: ("prev", [
        cut(CORE_C, r"^(?=\t/\*\n\t \* The owner we were given has let go\.  If the lock is free, say\n)",
            "\t/*\n"
            "\t * TODO(stage 12): once the spinners queue, keep spinning when\n"
            "\t * the lock passes to another owner, as upstream 07d2413a61db\n"
            "\t * (\"locking/mutex: In mutex_spin_on_owner(), return true when\n"
            "\t * owner changes\") has it.  course/ASSIGNMENT-12.md says more.\n"
            "\t */\n"),
    ]),
    13: ("prev", [
        cut(KIT_H, r"^(?=struct kit_mutex \{\n\tatomic_t\t\tcount;\n)",
            "/*\n"
            " * TODO(stage 13): make the owner the lock word: one atomic_long_t\n"
            " * that holds the owning task, or 0, with a waiters flag in its low\n"
            " * bits, in place of count and owner, as upstream 3ca0ff571b09\n"
            " * (\"locking/mutex: Rework mutex::owner\") has it.\n"
            " * course/ASSIGNMENT-13.md says more.\n"
            " */\n"),
    ]),
    14: ("prev", [
        cut(KIT_H, r"(#define KIT_MUTEX_FLAG_WAITERS\t0x01UL\n)",
            r"\1/*\n"
            " * TODO(stage 14): a second flag, 0x02, by which the first waiter\n"
            " * asks the next unlock to hand it the lock rather than free it,\n"
            " * as upstream 9d659ae14b54 (\"locking/mutex: Add lock handoff to\n"
            " * avoid starvation\") has it.  course/ASSIGNMENT-14.md says more.\n"
            " */\n"),
    ]),
    15: ("prev", [
        cut(KIT_C, r"^(?=\t\t/\*\n\t\t \* Woken at the head of the queue: the unlock freed the lock,\n)",
            "\t\t/*\n"
            "\t\t * TODO(stage 15): once woken first, spin on a running owner\n"
            "\t\t * rather than sleep again, as upstream b341afb325eb\n"
            "\t\t * (\"locking/mutex: Enable optimistic spinning of woken\n"
            "\t\t * waiter\") has it: the spin loop becomes a function that\n"
            "\t\t * the first waiter calls too, outside the spinners' queue,\n"
            "\t\t * and this loop sets the task state before each look, so\n"
            "\t\t * that the waiter spins without wait_lock.\n"
            "\t\t * course/ASSIGNMENT-15.md says more.\n"
            "\t\t */\n"),
    ]),
    # The kit's stand-in for the hypervisor (kit_vcpu_is_preempted() and
    # its debugfs file) is instrumentation, given; the test is the answer.
    16: ("this", [
        cut(CORE_C, r" \* caller should stop spinning and sleep \(the owner is not running or its\n"
            r" \* vCPU is preempted, or we must reschedule\), 1 when @owner let go of the\n"
            r" \* lock: the caller tries to take it, and if another task took it first,\n"
            r" \* spins on that one\.\n",
            " * caller should stop spinning and sleep (the owner is not running, or we\n"
            " * must reschedule), 1 when @owner let go of the lock: the caller tries to\n"
            " * take it, and if another task took it first, spins on that one.\n"),
        cut(CORE_C, r"(\t\t \*\n)\t\t \* In a virtual machine on_cpu says only .*?\*/\n"
            r"\t\tif \(!READ_ONCE\(owner->on_cpu\) \|\| need_resched\(\) \|\|\n"
            r"\t\t    kit_vcpu_is_preempted\(task_cpu\(owner\)\)\) \{\n",
            r"\1\t\t * TODO(stage 16): in a virtual machine, also stop when the\n"
            "\t\t * owner's vCPU is preempted, as upstream 05ffc951392d\n"
            "\t\t * (\"locking/mutex: Break out of expensive busy-loop on\n"
            "\t\t * {mutex,rwsem}_spin_on_owner() when owner vCPU is\n"
            "\t\t * preempted\") does.  Ask kit_vcpu_is_preempted(), which\n"
            "\t\t * also hears the kit's stand-in for the hypervisor.\n"
            "\t\t */\n"
            "\t\tif (!READ_ONCE(owner->on_cpu) || need_resched()) {\n"),
    ]),
    17: ("prev", [
        cut(KIT_H, r"(#define KIT_MUTEX_FLAG_HANDOFF\t0x02UL\n)",
            r"\1/*\n"
            " * TODO(stage 17): a third flag, 0x04, which an unlock that hands\n"
            " * the lock off sets with the waiter's task, and without which no\n"
            " * task takes a lock that names it, as upstream e274795ea7b7\n"
            " * (\"locking/mutex: Fix mutex handoff\") has it.\n"
            " * course/ASSIGNMENT-17.md says more.\n"
            " */\n"),
    ]),
}


def stage_files(b, n):
    old = "baseline" if n == 0 else f"stage-{n - 1}"
    return b.g("diff", "--name-only", old, f"stage-{n}").split()


def skeleton_files(b, n):
    """path -> text of stage N's skeleton, for every file stage N touches."""
    base, edits = SKELETONS[n]
    rev = f"stage-{n - 1}" if base == "prev" else f"stage-{n}"
    files = {p: b.show(rev, p) for p in stage_files(b, n)}
    for i, e in enumerate(edits):
        files[e.path] = e.apply(files[e.path], f"skeleton {n}, cut {i + 1}")
    return files


def skeleton_patch(b, n):
    """The skeleton as a patch against stage N-1."""
    b.g("read-tree", f"stage-{n - 1}")
    tree = b.write(skeleton_files(b, n))
    return b.g("diff", f"stage-{n - 1}", tree, "--")


def solution_patch(b, n, bug=None, mistake=None):
    """Stage N, with BUG planted or MISTAKE made if given, as a patch
    against N's skeleton."""
    skel = skeleton_files(b, n)
    files = {p: b.show(f"stage-{n}", p) for p in skel}
    if mistake:
        found = [m for m in MISTAKES if m.name == mistake]
        if not found:
            sys.exit(f"error: no mistake '{mistake}' in scripts/mistakes.py")
        if not found[0].fits(n):
            sys.exit(f"error: the mistake '{mistake}' is made at stages "
                     f"{found[0].first}-{found[0].last}, not stage {n}")
        e = found[0].edit
        if e.path not in files:
            sys.exit(f"error: the mistake '{mistake}' edits {e.path}, which "
                     f"assignment {n} does not let a student change")
        files[e.path] = e.apply(files[e.path], mistake)
    if bug:
        found = [x for x in BUGS if x.name == bug]
        if not found:
            sys.exit(f"error: no bug '{bug}' in the catalogue")
        if not found[0].stage <= n <= HISTORY_LAST_STAGE:
            # bisect-exercise verify proves the edits on those stages only
            sys.exit(f"error: the bug '{bug}' fits stages {found[0].stage}-"
                     f"{HISTORY_LAST_STAGE}, not stage {n}")
        e = found[0].edit
        if e.path not in files:
            files[e.path] = b.show(f"stage-{n}", e.path)
            skel[e.path] = files[e.path]
        files[e.path] = e.apply(files[e.path], bug)
    b.g("read-tree", f"stage-{n - 1}")
    ours = b.write(skel)
    b.g("read-tree", f"stage-{n - 1}")
    theirs = b.write(files)
    return b.g("diff", ours, theirs, "--")


def added(diff):
    return {line[1:].strip() for line in diff.splitlines()
            if line.startswith("+") and not line.startswith("+++")}


def answer_lines(b, n):
    """What stage N adds that neither its skeleton nor stage N-1 has: the
    answer, as lines of code."""
    theirs = added(b.g("diff", f"stage-{n - 1}", f"stage-{n}", "--"))
    ours = added(skeleton_patch(b, n))
    # Every line of the kit's files as stage N-1 leaves them is released.
    kit_files = b.g("diff", "--name-only", "baseline", f"stage-{n - 1}").split()
    known = {line.strip() for p in set(kit_files) | set(stage_files(b, n))
             for line in b.show(f"stage-{n - 1}", p).splitlines()}
    # Short lines ("}", "return 0;", "#endif") are everyone's.
    return sorted(line for line in theirs - ours - known if len(line) > 24)


def check_stages():
    """course/checks.tsv: each check's id, and its first and last stage."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = {}
    with open(os.path.join(root, "course", "checks.tsv")) as f:
        for line in f:
            if line[:1].isalpha():
                field = line.rstrip("\n").split("\t")
                out[field[0]] = (int(field[2]), None if field[3] == "-" else int(field[3]))
    return out


MISTAKES_PER_STAGE = 3


def verify_mistakes(b):
    """Every mistake fits every stage it claims: its file is one the
    assignment lets a student change, its edit matches once, and its
    check applies there; names are unique; and every stage has at least
    MISTAKES_PER_STAGE of them."""
    checks = check_stages()
    names = [m.name for m in MISTAKES]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"error: scripts/mistakes.py names {', '.join(sorted(dup))} twice")
    allowed = {}
    for n in sorted(SKELETONS):
        skel = skeleton_files(b, n)
        allowed[n] = {p for p in skel if skel[p] != b.show(f"stage-{n}", p)}
    for m in MISTAKES:
        if m.check not in checks:
            sys.exit(f"error: mistake '{m.name}': no check '{m.check}' in course/checks.tsv")
        first, last = checks[m.check]
        for n in range(m.first, m.last + 1):
            if n not in allowed:
                sys.exit(f"error: mistake '{m.name}': stage {n} has no assignment")
            if m.edit.path not in allowed[n]:
                sys.exit(f"error: mistake '{m.name}': assignment {n} does not let a "
                         f"student change {m.edit.path}")
            if n < first or (last is not None and n > last):
                sys.exit(f"error: mistake '{m.name}': check '{m.check}' does not "
                         f"apply at stage {n}")
            m.edit.apply(b.show(f"stage-{n}", m.edit.path), m.name)
    short = [n for n in sorted(SKELETONS)
             if sum(m.fits(n) for m in MISTAKES) < MISTAKES_PER_STAGE]
    if short:
        sys.exit(f"error: fewer than {MISTAKES_PER_STAGE} mistakes in scripts/mistakes.py "
                 f"at stages {', '.join(map(str, short))}")
    return (f"course: {len(MISTAKES)} mistakes fit their stages, at least "
            f"{MISTAKES_PER_STAGE} a stage")


def main():
    p = argparse.ArgumentParser(prog="course")
    p.add_argument("--tree", required=True)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("skeleton", "answer", "solution", "base", "files", "mistakes"):
        s = sub.add_parser(name)
        s.add_argument("stage", type=int, choices=sorted(SKELETONS))
        if name == "solution":
            s.add_argument("--bug")
            s.add_argument("--mistake")
        if name == "mistakes":
            s.add_argument("--first", action="store_true",
                           help="only those first made at this stage")
    sub.add_parser("verify")
    args = p.parse_args()
    b = Builder(args.tree)
    try:
        if args.cmd == "skeleton":
            sys.stdout.write(skeleton_patch(b, args.stage))
        elif args.cmd == "solution":
            sys.stdout.write(solution_patch(b, args.stage, args.bug, args.mistake))
        elif args.cmd == "mistakes":
            # NAME CHECK KIND: the catalogue's mistakes made at this stage
            for m in MISTAKES:
                if m.fits(args.stage) and (not args.first or m.first == args.stage):
                    print(f"{m.name}\t{m.check}\t{m.kind}")
        elif args.cmd == "base":
            # prev: stage N-1's files with TODOs, a kernel that behaves
            # as stage N-1; this: stage N's with the answer cut out
            print(SKELETONS[args.stage][0])
        elif args.cmd == "files":
            skel = skeleton_files(b, args.stage)
            print("\n".join(p for p in sorted(skel)
                            if skel[p] != b.show(f"stage-{args.stage}", p)))
        elif args.cmd == "answer":
            print("\n".join(answer_lines(b, args.stage)))
        else:
            for n in sorted(SKELETONS):
                skeleton_files(b, n)
            print(f"course: the skeletons of stages {min(SKELETONS)}-"
                  f"{max(SKELETONS)} fit the stages")
            print(verify_mistakes(b))
    finally:
        if os.path.exists(b.index):
            os.unlink(b.index)
    return 0


if __name__ == "__main__":
    sys.exit(main())
