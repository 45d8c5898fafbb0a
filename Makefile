# spinkit: rebuild the 2009 adaptive-spinning mutex on Linux 6.1, stage by
# stage, boot every stage in QEMU and watch it in gdb.  `make help` lists
# everything; the scripts in scripts/ do the work.

# Variables: each is documented where it is defined ("#:" lines, which
# `make help` prints with the current values).
#: KIT_WORK    kernel trees, builds, runs and results, outside the checkout
#:             (../spinkit-work: scripts/lib.sh, the one place of its layout)
ifeq ($(origin KIT_WORK),undefined)
KIT_WORK := $(shell bash -c '. scripts/lib.sh && echo "$$KIT_WORK"')
endif
#: STAGE       stage to build or boot (default: the newest, from stages/manifest.tsv);
#:             for assignment, grade and student-kit: the assignment
STAGE    ?=
#: HEAD        HEAD=1: build and boot your tree (KIT_WORK/linux) as it is, edits included
HEAD     ?=
#: SMP         guest vCPUs (spinning needs more than one)
SMP      ?= 4
#: MEM         guest memory
MEM      ?= 256M
#: DEBUG       DEBUG=1: the debug build (CONFIG_DEBUG_KIT_MUTEX and lockdep)
DEBUG    ?=
#: KCSAN       KCSAN=1: the KCSAN build (the kernel's data-race detector, labs/kcsan)
KCSAN    ?=
#: GDBPORT     gdbstub port for make gdb (default: the last guest booted)
GDBPORT  ?=
#: LAB         lab to start or check (labs/README.md)
LAB      ?= 0
#: README_LINES  lab-walk: only these README lines, e.g. 24-41,107-226
README_LINES ?=
#: QUICK       QUICK=1: bench in a few minutes, bench-stages in one; grade: the stage's own checks
QUICK    ?=
#: BENCH_ARGS  more options for scripts/bench(-stages), e.g. --tasks "2 8"
BENCH_ARGS ?=
#: TRACE_ARGS  more options for scripts/trace, e.g. --tasks 8 --ms 5
TRACE_ARGS ?=
#: SEED        bisection exercise number (each student their own)
SEED     ?=
#: BUG TRAP    exercise bug (make bisect-list) and trap (btrfs, broken-range)
BUG      ?=
TRAP     ?=
#: COMMIT LOG  bisect-check: the answer, or a 'git bisect log' file
COMMIT   ?=
LOG      ?=
#: RESULTS     grade: where to write results.json and junit.xml; grade-all: where its results go
RESULTS  ?=
#: PATCH       grade: a submission (git diff assignment-N-start) to grade in the kit's own tree
PATCH    ?=
#: SUBMISSIONS grade-all: a directory of submissions, one STUDENT.patch each
SUBMISSIONS ?=
#: DEST        student-kit, gradescope: the directory to write
DEST     ?=
export KIT_WORK SMP MEM

# Read by the scripts from the environment (no make variable of their own):
#! KIT_ACCEL=tcg          never try KVM
#! KIT_CCACHE_REMOTE      a compiler cache shared by a class (file:DIR, http://...)
#! KIT_IMAGES_MAX         MiB of kept kernels, past which the oldest non-stage ones go (2048)
#! KIT_TREE               your kernel tree, if not KIT_WORK/linux
#! GRADE_CPU_MARGIN GRADE_PERF_MIN  grade's CPU margin and throughput floor (defaults: guest/bin/kit-check)
#! BISECT_PERF_MIN BISECT_CPU_MARGIN BISECT_TRIES BISECT_TIMEOUT BISECT_NO_KERNEL
#!                        scripts/bisect-test's (see its header)
#! TEST_TIMEOUT           make test: seconds one test may run (900)

help_vars = KIT_WORK STAGE HEAD SMP MEM DEBUG KCSAN GDBPORT LAB README_LINES QUICK BENCH_ARGS TRACE_ARGS SEED \
	RESULTS PATCH SUBMISSIONS DEST

variant_flag = $(if $(DEBUG),--debug,$(if $(KCSAN),--kcsan))
ifneq ($(DEBUG),)
ifneq ($(KCSAN),)
$(error DEBUG=1 and KCSAN=1 are two builds: choose one)
endif
endif
# What to build and boot: your tree as it is (HEAD=1), or a kit stage
# (STAGE=N, the newest when empty).
which = $(if $(HEAD),--head,$(if $(STAGE),--stage $(STAGE)))

.DEFAULT_GOAL := help
.PHONY: help deps tree kernel kernels initramfs run qemu qemu-gdb gdb \
	print-gdbport lab lab-check lab-walk lab-lockdep lab-lockdep-check lab-kcsan lab-kcsan-check bench bench-stages trace bisect-exercise bisect-check \
	bisect-key bisect-list assignment grade grade-all gradescope student-kit handouts check test test-full checkpatch shellcheck \
	clean distclean

help: ## list the targets and variables
	@echo "spinkit: the 2009 adaptive-spinning mutex, rebuilt on Linux 6.1"
	@echo "stages 0-$$(awk -F'\t' '/^[0-9]/ { n = $$1 } END { print n }' stages/manifest.tsv) (stages/manifest.tsv); start with: make run"
	@awk -F':.*## ' '/^##@ / { printf "\n%s:\n", substr($$0, 5) } \
		/^[a-z_-]+:.*## / { printf "  %-16s - %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
	@echo
	@echo "Variables (make VAR=value; current values in brackets):"
	@awk -v vals="$(foreach v,$(help_vars),$(v)=$($(v)))" \
		'BEGIN { n = split(vals, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], p, "="); val[p[1]] = p[2] } } \
		/^#: / { line = substr($$0, 4); split(line, w, " "); v = w[1]; \
			printf "  %s%s\n", line, (val[v] != "" ? " [" val[v] "]" : "") } \
		/^#! / { if (!env++) print "Read from the environment:"; printf "  %s\n", substr($$0, 4) }' $(MAKEFILE_LIST)

##@ Learner: build, boot, watch
run: kernel ## the main job: build the newest stage (or HEAD=1: your tree), boot it with the gdbstub listening
	@scripts/boot $(which) --gdb $(variant_flag) --initramfs "$$(scripts/initramfs)"

kernel: tree ## build the kernel of STAGE (default: the newest), or of your tree with HEAD=1
	@scripts/build $(which) $(variant_flag)

qemu: kernel ## boot STAGE (or HEAD=1) without the gdbstub
	@scripts/boot $(which) $(variant_flag) --initramfs "$$(scripts/initramfs)"

qemu-gdb: kernel ## boot STAGE (or HEAD=1) halted, gdbstub waiting; attach with 'make gdb'
	@scripts/boot $(which) --wait-gdb $(variant_flag) --initramfs "$$(scripts/initramfs)"

gdb: ## attach gdb (with vmlinux and the lx- scripts) to the running guest
	@scripts/gdb $(if $(GDBPORT),--port $(GDBPORT))

print-gdbport: ## print the gdbstub port of the last guest booted with one
	@scripts/gdb --print-port

lab: tree initramfs ## start lab LAB=N: its stage halted in QEMU, its workload, gdb with the kit helpers (STAGE=S: on another stage; HEAD=1: on your tree)
	@scripts/lab $(LAB) $(if $(HEAD),--head,$(if $(STAGE),--stage $(STAGE)))

lab-check: tree initramfs ## check lab LAB=N automatically (STAGE=S: against another stage; HEAD=1: against your tree)
	@scripts/lab $(LAB) --check $(if $(HEAD),--head,$(if $(STAGE),--stage $(STAGE)))

lab-lockdep: tree initramfs ## the lockdep lab: the debug build, two lock orders one after the other, lockdep's report (STAGE=S; HEAD=1: your tree)
	@scripts/lab-lockdep $(which)

lab-lockdep-check: tree initramfs ## check the lockdep lab: lockdep must report the two orders (STAGE=S; HEAD=1: your tree)
	@scripts/lab-lockdep --check $(which)

lab-kcsan: tree initramfs ## the KCSAN lab: a stage's KCSAN build under contention, and the data races KCSAN reports in the kit mutex (STAGE=S, default 5; HEAD=1: your tree)
	@scripts/lab-kcsan $(which)

lab-kcsan-check: tree initramfs ## check the KCSAN lab: quiet on STAGE (default 5) as it is, the owner race reported once its accesses are plain
	@scripts/lab-kcsan --check $(if $(STAGE),--stage $(STAGE))

handouts: deps ## build the handouts (HTML and PDF) into KIT_WORK/handouts
	@scripts/handouts

##@ Learner: measure, bisect, be graded
bench: kernel initramfs ## the seed's benchmark: spin vs no-spin, kit vs 6.1 mutex, plots (QUICK=1: a few minutes)
	@scripts/bench $(if $(QUICK),--quick) $(BENCH_ARGS)

bench-stages: tree initramfs ## every stage against 6.1's mutex: ops/s, CPU burned, fairness, a plot (QUICK=1: 1 s per point)
	@scripts/bench-stages $(if $(QUICK),--quick) $(BENCH_ARGS)

trace: tree initramfs ## record a contention episode on STAGE (HEAD=1: your tree) with the kernel's tracer: a per-CPU timeline for Perfetto (JSON) and an SVG
	@scripts/trace $(which) $(TRACE_ARGS)

bisect-exercise: tree initramfs ## make bisection exercise SEED=n [BUG=name] [TRAP=btrfs|broken-range]
	@scripts/bisect-exercise make "$(SEED)" $(if $(BUG),--bug $(BUG)) $(if $(TRAP),--trap $(TRAP))

bisect-check: ## check an exercise's answer: SEED=n COMMIT=id, or SEED=n LOG=file (a git bisect log)
	@scripts/bisect-exercise check "$(SEED)" $(COMMIT) $(if $(LOG),--log $(LOG))

assignment: tree ## make assignment STAGE=N in your tree: the stages before N, and N as a skeleton to complete
	@scripts/assignment $(STAGE)

grade: tree initramfs ## grade your tree as assignment STAGE=N (RESULTS=dir: results.json, junit.xml; PATCH=file: grade a submission; QUICK=1: the stage's own checks only, while you work)
	@scripts/grade $(STAGE) $(if $(RESULTS),--results "$(RESULTS)") $(if $(PATCH),--patch "$(PATCH)") $(if $(QUICK),--quick)

clean: ## remove builds, kept kernels, run files and built handouts (keeps the trees and ccache)
	@scripts/clean

##@ Instructor
grade-all: tree initramfs ## grade every submission in SUBMISSIONS=dir (STUDENT.patch) as assignment STAGE=N: one CSV, resumable
	@scripts/grade-all "$(STAGE)" "$(SUBMISSIONS)" $(if $(RESULTS),--out "$(RESULTS)")

gradescope: tree ## write the Gradescope autograder bundle of assignment STAGE=N to DEST=dir (a Debian 12 image: handouts/24-instructor.md)
	@scripts/gradescope "$(DEST)" "$(STAGE)"

student-kit: tree ## write a copy of the kit for the students of assignment STAGE=N (default 1) to DEST=dir, without the answers
	@scripts/student-kit "$(DEST)" $(STAGE)

bisect-key: ## the instructor's answer key for exercise SEED=n
	@scripts/bisect-exercise key "$(SEED)"

bisect-list: ## the catalogue of bugs the exercises plant
	@scripts/bisect-exercise list

##@ Maintainer
check: deps ## the fast tier: shellcheck, the stage manifest and checks table, the Python parts, the handouts; no kernel built (1-2 min)
	@scripts/run-tests --check

test: deps ## the whole suite (TAP, prove): the check tier, then every stage built, booted, graded; what CI runs
	@scripts/run-tests

test-full: deps ## make test and the longer proofs (tier: full in tests/README.md)
	@scripts/run-tests --full

checkpatch: tree ## run the kernel's checkpatch.pl on every stage commit
	@scripts/checkpatch

shellcheck: ## run shellcheck on every script
	@shellcheck $$(find scripts -maxdepth 1 -type f ! -name "*.tmpl" ! -name "*.py") tests/*.t tests/lib/*.sh tests/lib/run-test .ci/run
	@shellcheck -s sh guest/init guest/bin/*

lab-walk: tree initramfs ## type lab LAB=N's README gdb commands in batch mode, to check a README (README_LINES=A-B,C-D: only those)
	@scripts/lab $(LAB) --walk $(README_LINES)

deps: ## install the Debian packages the kit needs (as root)
	@scripts/install-deps

tree: deps ## set up the kit's kernel tree and yours in KIT_WORK: the tarball, stages/ as tagged commits
	@scripts/tree

kernels: tree ## build every stage
	@scripts/build --all $(variant_flag)

initramfs: deps ## build the guest's busybox initramfs
	@echo "initramfs: $$(scripts/initramfs)"

distclean: ## also the kit's own trees, ccache, results and the suite's KIT_WORK (never your tree, KIT_WORK/linux)
	@scripts/clean --all
