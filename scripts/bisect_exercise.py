#!/usr/bin/env python3
"""Bisection exercises: a history of the kit with one planted regression.

The history is built from the stage tags of the kit's kernel tree: each
stage is split into smaller steps, harmless commits (comments, a
documentation file) fall between them, and one commit plants a bug from
the catalogue below.  Every choice comes from SEED through the kit's own
random number generator and every commit has a fixed author and date, so
the same SEED (and tarball) gives the same commit ids on every machine.

Nothing is checked out: file contents are computed here and written
through a temporary index, so making an exercise takes seconds.

Usage: bisect_exercise.py make  SEED [--bug NAME] [--trap btrfs|broken-range]
       bisect_exercise.py check SEED (COMMIT | --log FILE)
       bisect_exercise.py key   SEED
       bisect_exercise.py list | verify
Run from scripts/bisect-exercise, which finds the tree (KIT_TREE).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

KIT_C = "kernel/locking/kit_mutex.c"
DOC = "Documentation/locking/kit-mutex.rst"
SCRIPTS = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.dirname(SCRIPTS)
UPSTREAM = "Link: https://git.kernel.org/torvalds/c/0d66bf6d3514"
EPOCH = 1231761600  # 2009-01-12 12:00 UTC, the kit's baseline date
LENGTH = 32  # commits on the first-parent line from baseline to the tip
AUTHORS = [
    ("Ada Lockwood", "ada@spinkit.invalid"),
    ("Bram Spinner", "bram@spinkit.invalid"),
    ("Chen Waiter", "chen@spinkit.invalid"),
    ("Dana Owner", "dana@spinkit.invalid"),
]


class Rng:
    """A 64-bit LCG (Knuth's MMIX constants) seeded by splitmix64: the
    same numbers from the same seed on every Python, which random.Random
    does not promise."""

    def __init__(self, seed):
        # splitmix64 of the seed: neighbouring seeds start far apart.
        z = (seed + 0x9E3779B97F4A7C15) % 2**64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        self.state = z ^ (z >> 31)

    def below(self, n):
        self.state = (self.state * 6364136223846793005 +
                      1442695040888963407) % 2**64
        return (self.state >> 33) % n

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Edit:
    """A regex edit that stays applied to PATH from its commit on, over
    every later version of the file; it must match exactly once each
    time, which proves that the catalogue still fits the stages."""

    def __init__(self, path, pattern, repl, home="scripts/bisect_exercise.py"):
        self.path, self.pattern, self.repl = path, pattern, repl
        self.home = home  # where the edit is written, to fix it there

    def apply(self, text, what):
        new, n = re.subn(self.pattern, lambda m: m.expand(self.repl), text,
                         flags=re.S | re.M)
        if n != 1:
            sys.exit(f"error: the edit of '{what}' matched {self.path} "
                     f"{n} times, not once (the edits no longer fit "
                     f"the stages: fix {self.home})")
        return new


def comment_before(path, anchor, comment):
    """A harmless edit: a comment block just above the line ANCHOR."""
    return Edit(path, r"^(?=" + re.escape(anchor) + ")", comment + "\n")


# The stage steps: (stage, files, subject, body).  files is a list, None
# for all of the stage's, or "core"/"rest" for the stage's files without
# locktorture/sched core; a None subject or body is the stage commit's
# own.  Each step builds.
STEPS = [
    (0, "core", "locking: add kit_mutex, the 2.6.28 count-based mutex",
     "Port the count-based mutex of Linux 2.6.28 to 6.1 under its own name,\n"
     "with its debug variant and a debugfs window for guests and labs, so\n"
     "that the 2009 adaptive-spinning patch, upstream 0d66bf6d3514, can be\n"
     "replayed on it.  Linux 6.1's mutex has moved on too far for that.\n"),
    (0, ["kernel/locking/locktorture.c"],
     "locktorture: add a torture type for the kit mutex",
     "Let locktorture hammer the kit mutex (torture_type=kit_mutex_lock), so\n"
     "that the kernel's own torture test checks its mutual exclusion.\n"),
    (1, None, None, None),
    (2, None, None, None),
    (3, None, None, None),
    (4, ["kernel/sched/core.c"],
     "sched: add kit_mutex_spin_on_owner()",
     "Add the scheduler's half of upstream 0d66bf6d3514 (\"mutex: implement\n"
     "adaptive spinning\"): a function that spins while a kit mutex's owner\n"
     "holds it and is rq->curr on its CPU.  Nothing calls it yet; the kit\n"
     "mutex switches to it in the next commit.\n"),
    (4, "rest", "kit_mutex: spin with the scheduler's help",
     "Declare kit_mutex_spin_on_owner() and drop the naive stand-in from the\n"
     "spin loop: a spinner now gives up as soon as the owner stops running.\n"),
    (5, ["kernel/sched/features.h"], "sched: add the OWNER_SPIN feature",
     "A scheduler feature bit to switch kit mutex spinning at run time, as\n"
     "upstream 0d66bf6d3514 added for mutex spinning; the next commit makes\n"
     "kit_mutex_spin_on_owner() obey it.\n"),
    (5, ["kernel/sched/core.c"],
     "sched: let OWNER_SPIN switch kit mutex spinning off",
     "With NO_OWNER_SPIN in /sys/kernel/debug/sched/features, a locker that\n"
     "finds an owner recorded goes straight to the wait list.\n"),
]
# stage -> index of its last step, where the stage is complete
STAGE_DONE = {stage: i for i, (stage, *_) in enumerate(STEPS)}
# The history replays the 2009 series only: the stages after it (from 6 on)
# are not in it, and no edit of the catalogue needs to fit them.
HISTORY_LAST_STAGE = STEPS[-1][0]


class Bug:
    def __init__(self, name, kind, stage, edit, subject, body, symptom,
                 test, debug=False, tries=1):
        self.name, self.kind, self.stage, self.edit = name, kind, stage, edit
        self.subject, self.body, self.symptom = subject, body, symptom
        self.test, self.debug, self.tries = test, debug, tries


# The catalogue.  STAGE is the stage whose end is the good starting point:
# the code the edit touches exists there, and the test can judge it.
BUGS = [
    Bug("double-holder", "mutual exclusion", 0,
        Edit(KIT_C, r"(if \(atomic_xchg\(&lock->count, -1\)) == 1\)\n"
             r"(\t\tgoto done;)", r"\1 >= 0)\n\2"),
        "kit_mutex: take the lock at once when no one was queued",
        "The first swap of -1 into the count tells whether anybody is queued:\n"
        "a value that is not negative means nobody is, so the lock is ours\n"
        "without going round the wait loop.\n",
        "test-kit-mutex reports lost updates, or hangs",
        "lost"),
    Bug("nonatomic-grab", "mutual exclusion", 3,
        Edit(KIT_C, r"if \(atomic_cmpxchg\(&lock->count, 1, 0\) == 1\) \{\n",
             "if (atomic_read(&lock->count) == 1) {\n"
             "\t\t\tatomic_set(&lock->count, 0);\n"),
        "kit_mutex: look before grabbing the lock in the spin loop",
        "A cmpxchg on a contended cache line is expensive.  Read the count\n"
        "first, and store 0 only when it says the lock is free.\n",
        "test-kit-mutex reports lost updates under contention, most runs",
        "lost", tries=3),
    Bug("lost-wakeup", "hang, flaky", 0,
        Edit(KIT_C, r"\t\t__set_current_state\(state\);\n\n(.*?\n)"
             r"(\t\tkit_spin_unlock_mutex\(&lock->wait_lock, flags\);\n)",
             r"\n\1\2\t\t__set_current_state(state);\n"),
        "kit_mutex: set the task state outside wait_lock",
        "Our own task state needs no lock: set it after dropping wait_lock and\n"
        "keep the critical section short.\n",
        "now and then a locker sleeps forever: the workload hangs; "
        "a run can pass",
        "lost", tries=5),
    Bug("preempt-leak", "crash", 3,
        Edit(KIT_C, r"(KIT_MUTEX_STAT_GRAB\);\n)\t\t\tpreempt_enable\(\);\n",
             r"\1"),
        "kit_mutex: drop a redundant preempt_enable() from the spin loop",
        "The slow path enables preemption again on its way out; the spin\n"
        "loop's success branch need not do it as well.\n",
        "the kernel prints 'BUG: scheduling while atomic' under contention",
        "lost"),
    Bug("spin-off", "silent performance", 3,
        Edit(KIT_C, r"#if defined\(CONFIG_SMP\) && "
             r"!defined\(CONFIG_DEBUG_KIT_MUTEX\)\n"
             r"(?=\t/\*\n\t \* Optimistic spinning)",
             "#if defined(CONFIG_KIT_MUTEX_SPIN_ON_OWNER) && "
             "!defined(CONFIG_DEBUG_KIT_MUTEX)\n"),
        "kit_mutex: name the condition for spinning",
        "Spinning needs SMP and the non-debug variant; give that condition\n"
        "one name, as later kernels do with CONFIG_MUTEX_SPIN_ON_OWNER.\n",
        "nothing fails, but the kit mutex is much slower than 6.1's mutex",
        "perf"),
    Bug("sleeper-spin", "silent waste", 4,
        # stages 4-8 ask the owner's runqueue, stage 9 on the owner's on_cpu
        Edit("kernel/sched/core.c",
             r"if \((?:rcu_access_pointer\(rq->curr\) != owner|"
             r"!READ_ONCE\(owner->on_cpu\)) \|\| need_resched\(\)\) \{",
             "if (need_resched()) {"),
        "sched: stop asking whether the owner runs while spinning on a kit mutex",
        "Asking on every turn of the spin loop whether the owner runs reads a\n"
        "cache line that the owner's CPU writes, over and over.  need_resched()\n"
        "alone keeps a spinner from hogging its CPU, and the owner's release\n"
        "ends the spin anyway.\n",
        "nothing fails and throughput holds, but the guest burns CPU while "
        "a lock's owner sleeps",
        "cpu"),
    Bug("debug-list-del", "debug build only", 0,
        Edit("kernel/locking/kit_mutex-debug.c",
             r"list_del_init\(&waiter->list\);", "list_del(&waiter->list);"),
        "kit_mutex: plain list_del() for the debug waiter removal",
        "The waiter lives on the stack of the task that removes it and is\n"
        "gone right after: reinitialising its list head is wasted work.\n",
        "the debug build warns (DEBUG_LOCKS_WARN_ON) under contention",
        "lost", debug=True),
]

DEBUGFS = "kernel/locking/kit_mutex_debugfs.c"
HARMLESS = [(s, comment_before(p, a, c)) for s, p, a, c in [
    ("kit_mutex: explain the hold command's two ways of holding", DEBUGFS,
     "static void kit_ctl_hold(",
     "/*\n * busy keeps the CPU, so that lockers see a running owner; sleep\n"
     " * gives it away, so that they see a sleeping one.\n */"),
    ("kit_mutex: say what the try command's helper returns", DEBUGFS,
     "static int kit_ctl_trylock(",
     "/* Never waits: 1 when the lock was taken, 0 when it was busy. */"),
    ("kit_mutex: document the stats file's line", DEBUGFS,
     "static int kit_stats_show(",
     "/* One line: every CPU's counters summed, in enum order. */"),
    ("kit_mutex: describe the lock files", DEBUGFS,
     "static const struct file_operations kit_ctl_fops",
     "/* A lock file reads as one line of state and takes one command. */"),
    ("kit_mutex: explain the late initcall", DEBUGFS,
     "static int __init kit_mutex_debugfs_init(",
     "/*\n * Late: debugfs is up by then, and nothing takes the kit locks\n"
     " * before user space writes to their files.\n */"),
    ("kit_mutex: note the holder bookkeeping at unlock", DEBUGFS,
     "static void kit_ctl_unlock(",
     "/* The holder is forgotten before the lock is free, never after. */"),
    ("kit_mutex: comment the lock helper", DEBUGFS,
     "static void kit_ctl_lock(",
     "/* Lock either kind of mutex, and remember who holds it. */"),
    ("kit_mutex: comment the interruptible lock helper", DEBUGFS,
     "static int kit_ctl_lock_interruptible(",
     "/* As kit_ctl_lock(), but a signal (^C in the guest) ends the wait. */"),
    ("kit_mutex: explain the command parser", DEBUGFS,
     "static ssize_t kit_ctl_write(",
     "/* Commands run in the writing task, which is what contends. */"),
    ("kit_mutex: explain the lock state line", DEBUGFS,
     "static int kit_ctl_show_kit(",
     "/*\n * The fields are read without the lock: a line is a snapshot that\n"
     " * may be a little inconsistent, which is fine for watching.\n */"),
    ("kit_mutex: say why the lock files need no private open", DEBUGFS,
     "static int kit_ctl_open(",
     "/* single_open(): the whole state fits in one show() call. */"),
    ("kit_mutex: document resetting the counters", DEBUGFS,
     "static ssize_t kit_stats_write(",
     "/* Any write zeroes every CPU's counters. */"),
    ("kit_mutex: say which lock files there are", DEBUGFS,
     "static struct kit_ctl_lock kit_ctl_locks[] = {",
     "/* kit0..3 for the kit, mutex0 for 6.1's mutex: guests pick by name. */"),
    ("kit_mutex: comment the stats file's open", DEBUGFS,
     "static int kit_stats_open(",
     "/* As for the lock files, one show() call prints it all. */"),
    ("kit_mutex: comment the lock files' show", DEBUGFS,
     "static int kit_ctl_show(struct seq_file",
     "/* Both kinds of lock print through here. */"),
    ("kit_mutex: describe the stats file", DEBUGFS,
     "static const struct file_operations kit_stats_fops",
     "/* The stats file: read the sums, write anything to reset them. */"),
    ("kit_mutex: say when DEFINE_KIT_MUTEX() fits", "include/linux/kit_mutex.h",
     "#define DEFINE_KIT_MUTEX(",
     "/* A kit mutex defined at build time needs no kit_mutex_init(). */"),
    ("kit_mutex: warn that kit_mutex_is_locked() is a snapshot",
     "include/linux/kit_mutex.h",
     "static inline int kit_mutex_is_locked(",
     "/* A snapshot: the answer may be stale by the time it is read. */"),
    ("kit_mutex: explain why the counters need no lock",
     "kernel/locking/kit_mutex_stat.h",
     "static __always_inline void kit_mutex_stat(",
     "/* this_cpu_inc() needs no lock: each CPU counts in its own slot. */"),
    ("locktorture: comment the kit mutex torture type",
     "kernel/locking/locktorture.c",
     "static DEFINE_KIT_MUTEX(torture_kit_mutex);",
     "/* The kit mutex under torture: the mutex_lock type's ops, on the kit. */"),
]]
# every harmless code edit needs the whole of stage 0 (kit and locktorture)
HARMLESS_NEEDS = STAGE_DONE[0]

DOC_PARTS = [
    ("Documentation: start a page on the kit mutex",
     "===========================\nThe spinkit mutex, kit_mutex\n"
     "===========================\n\nstruct kit_mutex is the sleeping mutex "
     "of Linux 2.6.28, kept under its\nown name so that the 2009 adaptive "
     "spinning patch can be replayed on it.\n"),
    ("Documentation/kit-mutex: the count",
     "\nThe count\n=========\n\n1 means unlocked, 0 locked, and a negative "
     "value locked with possible\nwaiters.  The fast paths are one atomic "
     "operation on it.\n"),
    ("Documentation/kit-mutex: the wait list",
     "\nThe wait list\n=============\n\nA task that cannot take the lock queues "
     "at the tail of wait_list and\nsleeps; unlock wakes the head.\n"),
    ("Documentation/kit-mutex: the owner field",
     "\nThe owner\n=========\n\nOn SMP the lock records the task that holds "
     "it.  The field is a hint\nfor spinners, written after the count "
     "changes, never a lock by itself.\n"),
    ("Documentation/kit-mutex: spinning",
     "\nSpinning\n========\n\nA locker that finds the owner running on "
     "another CPU spins instead of\nsleeping, since the owner is likely to "
     "release the lock soon.\n"),
    ("Documentation/kit-mutex: the debug variant",
     "\nThe debug variant\n=================\n\nCONFIG_DEBUG_KIT_MUTEX "
     "serialises every operation on wait_lock and\nchecks the lock's "
     "invariants; it does not spin.\n"),
    ("Documentation/kit-mutex: debugfs",
     "\nDebugfs\n=======\n\n/sys/kernel/debug/kit_mutex/ holds counters of "
     "how locks were taken\nand lock files that user space drives.\n"),
    ("Documentation/kit-mutex: testing",
     "\nTesting\n=======\n\nlocktorture knows the kit mutex as "
     "torture_type=kit_mutex_lock.\n"),
]

RAMFS = "fs/ramfs/inode.c"
BREAK = ("ramfs: call the show_options helper ramfs_show_opts",
         Edit(RAMFS, r"^static int ramfs_show_options\(",
              "static int ramfs_show_opts("))
FIX = ("ramfs: finish the ramfs_show_opts rename",
       Edit(RAMFS, r"= ramfs_show_options,", "= ramfs_show_opts,"))

SIDE = "tools/kit-trace"
SIDE_HISTORY = [
    ("kit-trace: a reader for the kit mutex counters",
     {"README": "kit-trace prints the kit mutex counters once a second.\n"}),
    ("kit-trace: add the program",
     {"kit-trace.c": "#include <stdio.h>\n\nint main(void)\n{\n"
      "\tputs(\"kit-trace\");\n\treturn 0;\n}\n"}),
    ("kit-trace: add a Makefile",
     {"Makefile": "kit-trace: kit-trace.c\n\t$(CC) -O2 -o $@ $<\n"}),
    ("kit-trace: read the stats file",
     {"kit-trace.c": "#include <stdio.h>\n\nint main(void)\n{\n"
      "\tchar line[256];\n\tFILE *f = fopen(\"/sys/kernel/debug/kit_mutex/"
      "stats\", \"r\");\n\n\tif (!f || !fgets(line, sizeof(line), f))\n"
      "\t\treturn 1;\n\tfputs(line, stdout);\n\treturn 0;\n}\n"}),
    ("kit-trace: document the output",
     {"README": "kit-trace prints the kit mutex counters once a second:\n"
      "fast, spin, grab, slow and sleep, as the stats file has them.\n"}),
    ("kit-trace: build with warnings",
     {"Makefile": "kit-trace: kit-trace.c\n\t$(CC) -O2 -Wall -o $@ $<\n"}),
    ("kit-trace: add a clean target",
     {"Makefile": "kit-trace: kit-trace.c\n\t$(CC) -O2 -Wall -o $@ $<\n\n"
      "clean:\n\trm -f kit-trace\n"}),
    ("kit-trace: say where the counters come from",
     {"README": "kit-trace prints the kit mutex counters once a second:\n"
      "fast, spin, grab, slow and sleep, as the stats file has them.\n\n"
      "It needs debugfs mounted on /sys/kernel/debug.\n"}),
    ("kit-trace: loop once a second",
     {"kit-trace.c": "#include <stdio.h>\n#include <unistd.h>\n\n"
      "int main(void)\n{\n\tchar line[256];\n\n\tfor (;;) {\n"
      "\t\tFILE *f = fopen(\"/sys/kernel/debug/kit_mutex/stats\", \"r\");"
      "\n\n\t\tif (!f || !fgets(line, sizeof(line), f))\n"
      "\t\t\treturn 1;\n\t\tfputs(line, stdout);\n\t\tfclose(f);\n"
      "\t\tsleep(1);\n\t}\n}\n"}),
    ("kit-trace: link statically for the guest",
     {"Makefile": "kit-trace: kit-trace.c\n\t$(CC) -O2 -Wall -static -o $@ $<"
      "\n\nclean:\n\trm -f kit-trace\n"}),
    ("kit-trace: document building",
     {"README": "kit-trace prints the kit mutex counters once a second:\n"
      "fast, spin, grab, slow and sleep, as the stats file has them.\n\n"
      "It needs debugfs mounted on /sys/kernel/debug.  Build it with make;\n"
      "it links statically, so that it runs in a busybox guest.\n"}),
    ("kit-trace: add an author line",
     {"AUTHORS": "Erin Tracer <erin@spinkit.invalid>\n"}),
]


def position(line, **fields):
    """The index of the first commit of LINE with these FIELDS."""
    return next(i for i, c in enumerate(line)
                if all(c.get(k) == v for k, v in fields.items()))


def git(*args, env=None, data=None):
    out = subprocess.run(["git", *args], input=data, capture_output=True,
                         env=env, text=True)
    if out.returncode:
        sys.exit(f"error: git {' '.join(args[:2])} failed: "
                 f"{out.stderr.strip()}")
    return out.stdout


class Plan:
    """What SEED (and the options) decide, before any git object exists.

    line: the first-parent commits, oldest first, each a dict with a kind
    (step, harmless, doc, bug, break, fix, merge), what it applies and
    its author.  good and bug_at are indexes into it.
    """

    def __init__(self, seed, bug=None, trap=None):
        rng = Rng(seed)
        self.seed, self.trap = seed, trap
        pick = rng.below(len(BUGS))  # drawn always: BUG= changes no other draw
        if bug is None:
            self.bug = BUGS[pick]
        else:
            self.bug = next((b for b in BUGS if b.name == bug), None)
            if self.bug is None:
                sys.exit(f"error: no bug '{bug}' (the catalogue: "
                         f"{', '.join(b.name for b in BUGS)})")
        if trap not in (None, "btrfs", "broken-range"):
            sys.exit(f"error: no trap '{trap}' (use btrfs or broken-range)")
        for _ in range(1000):
            if self._draw(rng):
                return
        sys.exit("error: no plan fits this seed (a catalogue error)")

    def _draw(self, rng):
        line = [dict(kind="step", step=i) for i in range(len(STEPS))]
        extra = (1 + (self.trap == "btrfs") + 2 * (self.trap == "broken-range"))
        harmless = list(range(len(HARMLESS)))
        rng.shuffle(harmless)
        n_doc = rng.below(3) + 4
        n_code = LENGTH - len(line) - extra - n_doc
        items = [dict(kind="harmless", edit=i) for i in harmless[:n_code]]
        items += [dict(kind="doc") for _ in range(n_doc)]
        rng.shuffle(items)
        for item in items:
            low = 0
            if item["kind"] == "harmless":
                low = position(line, step=HARMLESS_NEEDS) + 1
            line.insert(low + rng.below(len(line) - low + 1), item)
        good = position(line, step=STAGE_DONE[self.bug.stage])
        # At least 5 commits to search before the bug, 2 after it.
        room = len(line) - good - 6
        if room < 1:
            return False
        bug = good + 5 + rng.below(room)
        line.insert(bug, dict(kind="bug"))
        if self.trap == "btrfs":
            # Merged after the bug, so that its commits are in the search.
            at = bug + 1 + rng.below(len(line) - bug)
            line.insert(at, dict(kind="merge"))
        elif self.trap == "broken-range":
            # The build is broken from one commit to just before another,
            # with at least one buildable commit between it and the bug.
            span = 2 + rng.below(3)
            start = good + 1 + rng.below(len(line) - good - span)
            if start <= bug < start + span:
                return False
            line.insert(start + span - 1, dict(kind="fix"))
            line.insert(start, dict(kind="break"))
        self.line, self.good = line, good
        self.bug_at = position(line, kind="bug")
        doc = 0
        for c in line:
            if c["kind"] == "doc":
                c["part"], doc = doc, doc + 1
            c["author"] = AUTHORS[rng.below(len(AUTHORS))]
        return True


class Builder:
    """Writes a plan into the tree as commits, through a temporary index."""

    def __init__(self, tree):
        self.tree = tree
        fd, self.index = tempfile.mkstemp(prefix="kit-exercise-index-")
        os.close(fd)
        os.unlink(self.index)
        self.env = dict(os.environ, GIT_DIR=os.path.join(tree, ".git"),
                        GIT_INDEX_FILE=self.index, TZ="UTC", LC_ALL="C")

    def g(self, *args, data=None):
        return git(*args, env=self.env, data=data)

    def show(self, rev, path):
        return self.g("show", f"{rev}:{path}")

    def stage_files(self, n):
        old = "baseline" if n == 0 else f"stage-{n - 1}"
        return self.g("diff", "--name-only", old, f"stage-{n}").split()

    def commit(self, tree, parents, subject, body, author, when):
        env = dict(self.env, GIT_AUTHOR_NAME=author[0],
                   GIT_AUTHOR_EMAIL=author[1],
                   GIT_AUTHOR_DATE=f"{when} +0000",
                   GIT_COMMITTER_NAME="spinkit",
                   GIT_COMMITTER_EMAIL="spinkit@example.invalid",
                   GIT_COMMITTER_DATE=f"{when} +0000")
        args = ["commit-tree", tree]
        for p in parents:
            args += ["-p", p]
        msg = f"{subject}\n\n{body}\nSigned-off-by: {author[0]} <{author[1]}>\n"
        return git(*args, env=env, data=msg).strip()

    def write(self, files):
        """Stage FILES (path -> text) and return the tree id."""
        lines = []
        for path, text in files.items():
            blob = self.g("hash-object", "-w", "--stdin", data=text).strip()
            lines.append(f"100644 {blob}\t{path}\n")
        if lines:
            self.g("update-index", "--add", "--index-info",
                   data="".join(lines))
        return self.g("write-tree").strip()

    def side_history(self, when):
        """The kit-trace history: its own root, only tools/kit-trace/."""
        self.g("read-tree", "--empty")
        parent, files = [], {}
        for i, (subject, change) in enumerate(SIDE_HISTORY):
            change = {f"{SIDE}/{k}": v for k, v in change.items()}
            files.update(change)
            tree = self.write(change)
            c = self.commit(tree, parent, subject,
                            "Developed out of tree; merged whole later.\n",
                            ("Erin Tracer", "erin@spinkit.invalid"),
                            when + 600 * i)
            parent = [c]
        return parent[0], files

    def build(self, plan):
        """Make the commits; return the first-parent ids, oldest first."""
        try:
            return self._build(plan)
        finally:
            if os.path.exists(self.index):
                os.unlink(self.index)

    def _build(self, plan):
        side_tip, side_files = None, {}
        when = EPOCH + 3600
        if plan.trap == "btrfs":
            side_tip, side_files = self.side_history(when)
        self.g("read-tree", "baseline")
        parent = self.g("rev-parse", "baseline^{commit}").strip()
        base = {}  # path -> text, as the stages and the trap leave it
        edits = []  # (edit, name) applied on top, in order
        ids = []
        for i, c in enumerate(plan.line):
            when += 1800 + 60 * (i % 7)
            touched, subject, body = set(), None, None
            parents = [parent]
            if c["kind"] == "step":
                stage, files, subject, body = STEPS[c["step"]]
                all_files = self.stage_files(stage)
                if files == "core":
                    files = [f for f in all_files if "locktorture" not in f]
                elif files == "rest":
                    files = [f for f in all_files if "sched/core" not in f]
                elif files is None:
                    files = all_files
                for f in files:
                    base[f] = self.show(f"stage-{stage}", f)
                touched.update(files)
                if body is None:
                    msg = self.g("log", "-1", "--format=%B", f"stage-{stage}")
                    first, _, body = msg.partition("\n\n")
                    subject = subject or first
                    body = re.sub(r"\nSigned-off-by:.*", "", body).rstrip()
                    body += "\n"
                elif UPSTREAM not in body:
                    body += "\n" + UPSTREAM + "\n"
            elif c["kind"] == "doc":
                subject, text = DOC_PARTS[c["part"]]
                base[DOC] = base.get(DOC, "") + text
                body = "Grow the kit mutex's page by one section.\n"
                touched.add(DOC)
            else:
                if c["kind"] == "harmless":
                    subject, edit = HARMLESS[c["edit"]]
                    body = "A comment only; no change in behaviour.\n"
                elif c["kind"] == "bug":
                    b = plan.bug
                    subject, edit, body = b.subject, b.edit, b.body
                elif c["kind"] in ("break", "fix"):
                    subject, edit = BREAK if c["kind"] == "break" else FIX
                    body = ("Shorter names for ramfs's helpers.\n"
                            if c["kind"] == "break" else
                            "The last user of the old name.\n")
                if c["kind"] == "merge":
                    subject = "Merge the kit-trace history"
                    body = ("kit-trace was written out of tree; merge its "
                            "history whole, as\nBtrfs's was in 2.6.29.\n")
                    base.update(side_files)
                    touched.update(side_files)
                    parents.append(side_tip)
                else:
                    if edit.path not in base:
                        base[edit.path] = self.show("baseline", edit.path)
                    edits.append((edit, subject))
                    touched.add(edit.path)
            files = {}
            for path in touched:
                text = base[path]
                for edit, what in edits:
                    if edit.path == path:
                        text = edit.apply(text, what)
                files[path] = text
            tree = self.write(files)
            parent = self.commit(tree, parents, subject, body, c["author"],
                                 when)
            ids.append(parent)
        return ids


def branch(seed):
    return f"exercise-{seed}"


def options(tree, args):
    """BUG and TRAP as given, else as the exercise was made with."""
    bug, trap = args.bug, args.trap
    if bug is None and trap is None:
        saved = subprocess.run(
            ["git", "-C", tree, "config", f"exercise.{args.seed}.options"],
            capture_output=True, text=True).stdout.split()
        if saved:
            bug = saved[0]
            trap = saved[1] if saved[1] != "none" else None
    return Plan(args.seed, bug, trap)


def line_ids(tree, seed):
    """The exercise's first-parent commits, oldest first, or exit."""
    ok = subprocess.run(["git", "-C", tree, "rev-parse", "-q", "--verify",
                         f"refs/heads/{branch(seed)}"], capture_output=True)
    if ok.returncode:
        sys.exit(f"error: no exercise {seed} in {tree} "
                 f"(make it first: make bisect-exercise SEED={seed})")
    return git("-C", tree, "rev-list", "--first-parent", "--reverse",
               f"baseline..{branch(seed)}").split()


def exercise(tree, args):
    """The plan and the commits of an exercise, checked against each other:
    a branch made with other options, or by an older kit, is refused."""
    plan = options(tree, args)
    ids = line_ids(tree, args.seed)
    if len(ids) != len(plan.line) or git(
            "-C", tree, "log", "-1", "--format=%s",
            ids[plan.bug_at]).strip() != plan.bug.subject:
        sys.exit(f"error: {branch(args.seed)} was made with other options "
                 f"or by another version of the kit (make it again: make "
                 f"bisect-exercise SEED={args.seed} BUG=... TRAP=...)")
    return plan, ids


def short(tree, rev):
    return git("-C", tree, "log", "-1", "--format=%h %s", rev).strip()


def cmd_make(tree, args, version):
    plan = Plan(args.seed, args.bug, args.trap)
    head = subprocess.run(["git", "-C", tree, "symbolic-ref", "-q", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    if head == f"refs/heads/{branch(args.seed)}":
        sys.exit(f"error: {branch(args.seed)} is checked out in {tree} "
                 f"(run: git -C {tree} checkout spinkit, then again)")
    print(f"bisect-exercise: making {branch(args.seed)} from baseline "
          f"(linux-source-6.1 {version}) ...")
    ids = Builder(tree).build(plan)
    ref = f"refs/heads/{branch(args.seed)}"
    old = subprocess.run(["git", "-C", tree, "rev-parse", "-q", "--verify", ref],
                         capture_output=True, text=True).stdout.strip()
    # A branch of that name is made again only when it is this exercise
    # already: otherwise it may hold someone's work.
    if old and old != ids[-1]:
        sys.exit(f"error: {branch(args.seed)} exists in {tree} and is not this "
                 f"exercise (to make it again, delete it first: git -C {tree} "
                 f"branch -D {branch(args.seed)})")
    git("-C", tree, "update-ref", ref, ids[-1])
    git("-C", tree, "config", f"exercise.{args.seed}.options",
        f"{args.bug or plan.bug.name} {args.trap or 'none'}")
    good, bad = ids[plan.good], ids[-1]
    b = plan.bug
    # Every line below is typed as printed (tests/t8100 runs them so): an
    # environment variable goes before git, which runs the test for us.
    tries = "BISECT_TRIES=%d " % b.tries if b.tries > 1 else ""
    tries += args.run_env + " " if args.run_env else ""
    test = os.path.join(SCRIPTS, "bisect-test") + \
        (" --debug" if b.debug else "") + " " + b.test
    # The Btrfs trap's kernel-less commits would delete the whole tree if
    # checked out, and the next build would start from nothing.
    start = "--no-checkout " if plan.trap == "btrfs" else ""
    make = f"make -C {KIT} {args.make_vars + ' ' if args.make_vars else ''}"
    n = len(git("-C", tree, "rev-list", f"{good}..{bad}").split())
    print(f"""
Exercise {args.seed}: branch {branch(args.seed)}, {len(ids)} commits on its main line.
  good:    {short(tree, good)}
  bad:     {short(tree, bad)}
  symptom: {b.symptom}
  commits between them: {n} (ids for linux-source-6.1 {version})

Begin:
  cd {tree}
  git bisect start {start}{bad[:12]} {good[:12]}
  {tries}git bisect run {test}
Then check your answer, or grade the whole search:
  {make}bisect-check SEED={args.seed} COMMIT=<the first bad commit>
  git bisect log >bisect.log
  {make}bisect-check SEED={args.seed} LOG=$PWD/bisect.log
Finish with: git bisect reset
""")


def verdict(tree, planted, rev):
    """Does REV hold the planted bug?  (Ancestry, not a test run.)"""
    return subprocess.run(["git", "-C", tree, "merge-base", "--is-ancestor",
                           planted, rev]).returncode == 0


def has_kernel(tree, rev):
    return subprocess.run(["git", "-C", tree, "cat-file", "-e",
                           f"{rev}:Makefile"], capture_output=True).returncode == 0


def cmd_check(tree, args, version):
    plan, ids = exercise(tree, args)
    planted = ids[plan.bug_at]
    broken = set()
    if plan.trap == "broken-range":
        broken = set(ids[position(plan.line, kind="break"):
                         position(plan.line, kind="fix")])
    if args.log:
        return grade_log(tree, args, planted, broken)
    out = subprocess.run(["git", "-C", tree, "rev-parse", "-q", "--verify",
                          f"{args.commit}^{{commit}}"],
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"error: no commit '{args.commit}' in {tree}")
    rev = out.stdout.strip()
    if rev == planted:
        print(f"right: {short(tree, rev)} is the first bad commit of "
              f"exercise {args.seed}.")
        return 0
    reach = git("-C", tree, "rev-list", f"baseline..{branch(args.seed)}")
    if rev not in reach.split():
        print(f"wrong: {rev[:12]} is not in exercise {args.seed} "
              f"(linux-source-6.1 {version}).")
    elif verdict(tree, planted, rev):
        print(f"wrong: {rev[:12]} has the bug, but so does an older commit.")
    else:
        print(f"wrong: {rev[:12]} does not have the bug yet: it is good.")
    return 1


def grade_log(tree, args, planted, broken):
    """Grade a `git bisect log`: every verdict, then the answer."""
    steps = wrong = skips = 0
    found = None
    with open(args.log) as f:
        for line in f:
            m = re.match(r"git bisect (good|bad|skip) ([0-9a-f]{7,40})", line)
            if m:
                word, rev = m.group(1), git("-C", tree, "rev-parse",
                                            m.group(2)).strip()
                steps += 1
                where = short(tree, rev)
                truth = "bad" if verdict(tree, planted, rev) else "good"
                if word == "skip":
                    skips += 1
                    note = ("right: it does not build" if rev in broken else
                            "a kernel-less tree: 'good' is cheaper"
                            if not has_kernel(tree, rev) else
                            "it could be tested")
                elif rev in broken:
                    note = "guessed: this commit does not build, skip it"
                    wrong += word != truth
                elif word == truth:
                    note = "right"
                else:
                    note = "WRONG"
                    wrong += 1
                print(f"  {word:4} {where[:60]:60} {note}")
            m = re.match(r"# first bad commit: \[([0-9a-f]{40})\]", line)
            if m:
                found = m.group(1)
    print(f"{steps} verdicts, {skips} skipped, {wrong} wrong.")
    if found is None:
        print("The log names no first bad commit: the bisection did not end.")
        return 1
    if found == planted:
        print(f"Answer right: {short(tree, found)}.")
        return 0
    print(f"Answer wrong: {short(tree, found)} is not the first bad commit.")
    return 1


def cmd_key(tree, args, version):
    plan, ids = exercise(tree, args)
    b = plan.bug
    print(f"Answer key, exercise {args.seed} (linux-source-6.1 {version}):")
    print(f"  bug:     {b.name} ({b.kind}), commit {plan.bug_at + 1} "
          f"of {len(ids)}")
    print(f"  answer:  {short(tree, ids[plan.bug_at])}")
    print(f"  good:    {short(tree, ids[plan.good])} (end of stage {b.stage})")
    print(f"  symptom: {b.symptom}")
    def at(kind):
        return short(tree, ids[position(plan.line, kind=kind)])

    if plan.trap == "btrfs":
        print(f"  trap:    btrfs, merged at {at('merge')}")
    elif plan.trap == "broken-range":
        print(f"  trap:    broken-range, {at('break')} up to {at('fix')} "
              f"(exclusive)")
    return 0


def cmd_verify(tree):
    """Every edit of the catalogue fits every stage it may meet: each
    harmless and bug edit from its stage to the history's last, the trap's
    edits on the baseline.  Catches a stage patch that moved under an
    edit."""
    b = Builder(tree)
    checks = [(0, e, what) for what, e in HARMLESS]
    checks += [(bug.stage, bug.edit, bug.name) for bug in BUGS]
    n = 0
    for first, edit, what in checks:
        for stage in range(first, HISTORY_LAST_STAGE + 1):
            edit.apply(b.show(f"stage-{stage}", edit.path), what)
            n += 1
    ramfs = b.show("baseline", RAMFS)
    fixed = FIX[1].apply(BREAK[1].apply(ramfs, "break"), "fix")
    if fixed != ramfs.replace("ramfs_show_options", "ramfs_show_opts"):
        sys.exit("error: the broken-range fix does not undo the break")
    print(f"bisect-exercise: {n} edits fit their stages; the trap's fix "
          f"undoes its break")
    return 0


def cmd_list():
    for b in BUGS:
        print(f"  {b.name:15} {b.kind:26} {b.symptom}")
    return 0


def main():
    p = argparse.ArgumentParser(prog="bisect-exercise")
    p.add_argument("--tree", required=True)
    p.add_argument("--version", default="unknown")
    p.add_argument("--make-vars", default="",
                   help="variables the printed make commands need, e.g. KIT_TREE=DIR")
    p.add_argument("--run-env", default="",
                   help="variables the printed git bisect run needs, e.g. KIT_WORK=DIR")
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("make", "check", "key"):
        s = sub.add_parser(name)
        s.add_argument("seed", type=int)
        s.add_argument("--bug")
        s.add_argument("--trap")
        if name == "check":
            s.add_argument("commit", nargs="?")
            s.add_argument("--log")
    sub.add_parser("list")
    sub.add_parser("verify")
    args = p.parse_args()
    if args.cmd == "list":
        return cmd_list()
    if args.cmd == "verify":
        return cmd_verify(args.tree)
    if args.seed < 0:
        sys.exit("error: SEED is a number, 0 or more (e.g. SEED=7)")
    if args.bug == "":
        args.bug = None
    if args.trap == "":
        args.trap = None
    if args.cmd == "check" and not (args.commit or args.log):
        sys.exit("error: nothing to check (give COMMIT=<id> or LOG=<file>)")
    run = {"make": cmd_make, "check": cmd_check, "key": cmd_key}[args.cmd]
    return run(args.tree, args, args.version)


if __name__ == "__main__":
    sys.exit(main())
