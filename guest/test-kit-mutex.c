// SPDX-License-Identifier: GPL-2.0
/*
 * test-kit-mutex: the benchmark of the 2009 adaptive-spinning patch,
 * rebuilt for the kit.  Modelled on Ingo Molnar's test-mutex: TASKS
 * processes hammer one lock for SECONDS, counting operations in a shared
 * page; one line per second, then "avg ops/sec: N".  The workers start
 * together, when the parent has read the clocks, and the rate is the
 * operations over the time CLOCK_MONOTONIC says passed, not over SECONDS:
 * sleeps overrun, more so under emulation.
 *
 * Usage: test-kit-mutex MODE TASKS SECONDS [-l LOOPS] [-s SLEEP_US] [-H MS] [-L LOCK]
 *   K   the kit mutex, through /sys/kernel/debug/kit_mutex/LOCK (kit0):
 *       one operation = lock, LOOPS read-modify-writes of shared cache
 *       lines (default 2000) and SLEEP_US asleep (default 0), unlock
 *   M   the same on 6.1's struct mutex (mutex0), the modern reference
 *   V   the original's V mode: create and remove a file in one shared
 *       directory, contending on its inode lock
 *   -H MS  (K, M) task 0 does not count operations: it holds the lock MS
 *       ms asleep, then leaves it free MS ms, and again, so the others
 *       meet an owner that sleeps with nobody queued before them
 *
 * K and M check mutual exclusion: the lock's plain counter must equal the
 * operations done ("lost updates: 0"), else the exit status is 1.  The
 * kit's acquisition counters and the CPU time the whole guest burned are
 * printed too: spinning shows as CPU time.  So is fairness: the fewest
 * and the most operations one task did, and the longest any one
 * operation took (waiting for the lock, and the critical section; in V
 * mode, the create and the unlink), counting one still waiting at the
 * end.  Each operation reads the clock twice, outside the lock.  The
 * last line repeats the figures for scripts:
 * "result: ops=N cpu=N [fast=N spin=N ...] tmin=N tmax=N worst_us=N [lost=N]".
 * The kit's counters are those of /sys/kernel/debug/kit_mutex/stats, the
 * spin loop's among them (watch, crowd, miss: see kit_mutex_debugfs.c),
 * the handoffs of stage 14 on (handoff), and the locks the woken waiter
 * took spinning, stage 15 on (wspin); a counter the stage's
 * stats file does not have reads 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS	64
#define KIT_DIR		"/sys/kernel/debug/kit_mutex"
#define V_DIR		"/tmp/test-kit-mutex.d"

struct slot {
	volatile unsigned long ops;
	volatile unsigned long worst_ns;	/* the longest operation */
	volatile unsigned long op_start_ns;	/* 0 between operations */
	char pad[64 - 3 * sizeof(unsigned long)];
};

/* slots[MAX_TASKS] is not a task's: its ops field is the start flag. */
static struct slot *slots;
#define start_flag	(slots[MAX_TASKS].ops)
static volatile sig_atomic_t stop;

static void die(const char *what)
{
	fprintf(stderr, "test-kit-mutex: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void usage(void)
{
	fprintf(stderr, "Usage: test-kit-mutex K|M|V TASKS SECONDS [-l LOOPS] [-s SLEEP_US] [-H MS] [-L LOCK]\n");
	exit(2);
}

static unsigned long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000UL + ts.tv_nsec;
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* One worker: loop until told to stop, counting in its own cache line. */
static void worker(char mode, int id, const char *lockfile, const char *cmd,
		   unsigned int pause_ms)
{
	char path[128];
	size_t len = strlen(cmd);
	int fd = -1;

	signal(SIGTERM, on_term);
	/* everyone starts at once, when the parent has read the clocks */
	while (!start_flag && !stop)
		usleep(100);
	if (mode == 'V') {
		snprintf(path, sizeof(path), V_DIR "/f%d", id);
	} else {
		fd = open(lockfile, O_WRONLY);
		if (fd < 0)
			die(lockfile);
	}
	while (!stop) {
		unsigned long t0 = now_ns(), took;

		slots[id].op_start_ns = t0;

		if (mode == 'V') {
			int f = open(path, O_CREAT | O_WRONLY, 0600);

			if (f < 0)
				die(path);
			close(f);
			if (unlink(path))
				die(path);
		} else if (write(fd, cmd, len) != (ssize_t)len) {
			die("write");
		}
		took = now_ns() - t0;
		slots[id].op_start_ns = 0;
		if (took > slots[id].worst_ns)
			slots[id].worst_ns = took;
		if (pause_ms)
			usleep(pause_ms * 1000);
		slots[id].ops++;
	}
	_exit(0);
}

static unsigned int first_counted;	/* 1 when task 0 only holds (-H) */

static unsigned long total_ops(int tasks)
{
	unsigned long sum = 0;
	int i;

	for (i = first_counted; i < tasks; i++)
		sum += slots[i].ops;
	return sum;
}

static double now(void)
{
	return now_ns() / 1e9;
}

/* Sleep until START + SECS on the monotonic clock. */
static void sleep_until(double start, int secs)
{
	struct timespec ts;
	double t = start + secs;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Busy and total jiffies of all CPUs, from /proc/stat's first line. */
static void cpu_times(unsigned long long *busy, unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		die("/proc/stat");
	fclose(f);
	*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
	*busy = *total - v[3] - v[4];
}

static unsigned long kit_stat(const char *name)
{
	char key[32];
	unsigned long val, found = 0;
	FILE *f = fopen(KIT_DIR "/stats", "r");

	if (!f)
		return 0;
	while (fscanf(f, "%31s %lu", key, &val) == 2)
		if (!strcmp(key, name))
			found = val;
	fclose(f);
	return found;
}

static int lock_field(const char *lockfile, const char *name, long *val)
{
	char buf[512], key[40], *p;
	FILE *f = fopen(lockfile, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(buf, key);
	if (!p)
		return -1;
	*val = strtol(p + strlen(key), NULL, 10);
	return 0;
}

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, s, strlen(s)) < 0)
		die(path);
	close(fd);
}

/* the kit's counters, as kit_mutex_debugfs.c names them */
static const char * const stat_names[] = {
	"fast", "spin", "grab", "slow", "sleep", "watch", "crowd", "miss",
	"handoff", "wspin",
};
#define NSTATS	((int)(sizeof(stat_names) / sizeof(stat_names[0])))

int main(int argc, char **argv)
{
	unsigned long before[NSTATS], prev = 0, now_ops, ops, rate;
	unsigned long tmin = ~0UL, tmax = 0, worst = 0;
	double start, elapsed;
	unsigned long long busy0, total0, busy1, total1, cpu;
	unsigned int loops = 2000, sleep_us = 0, hold_ms = 0;
	const char *lock = NULL;
	char lockfile[128], cmd[64], hold_cmd[64], result[320];
	pid_t pids[MAX_TASKS];
	int tasks, seconds, i, n, opt, status, failed = 0;
	char mode;

	if (argc < 4 || strlen(argv[1]) != 1 || !strchr("KMV", argv[1][0]))
		usage();
	mode = argv[1][0];
	tasks = atoi(argv[2]);
	seconds = atoi(argv[3]);
	if (tasks < 1 || tasks > MAX_TASKS || seconds < 1)
		usage();
	optind = 4;
	while ((opt = getopt(argc, argv, "l:s:H:L:")) != -1) {
		switch (opt) {
		case 'l': loops = strtoul(optarg, NULL, 10); break;
		case 's': sleep_us = strtoul(optarg, NULL, 10); break;
		case 'H': hold_ms = strtoul(optarg, NULL, 10); break;
		case 'L': lock = optarg; break;
		default: usage();
		}
	}
	if (!lock)
		lock = mode == 'M' ? "mutex0" : "kit0";
	snprintf(lockfile, sizeof(lockfile), KIT_DIR "/%s", lock);
	snprintf(cmd, sizeof(cmd), "op %u %u", loops, sleep_us);
	snprintf(hold_cmd, sizeof(hold_cmd), "hold %u sleep", hold_ms);
	if (hold_ms && (mode == 'V' || tasks < 2))
		usage();
	first_counted = hold_ms ? 1 : 0;

	slots = mmap(NULL, (MAX_TASKS + 1) * sizeof(*slots), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED)
		die("mmap");
	if (mode == 'V') {
		if (mkdir(V_DIR, 0700) && errno != EEXIST)
			die(V_DIR);
	} else {
		write_file(lockfile, "reset");
	}

	printf("test-kit-mutex: mode %c, %d tasks, %d s", mode, tasks, seconds);
	if (mode != 'V')
		printf(", %s, %u loops, %u us asleep per op", lock, loops, sleep_us);
	if (hold_ms)
		printf(", task 0 holds it %u ms asleep at a time", hold_ms);
	printf("\n");
	fflush(stdout);

	for (i = 0; i < tasks; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (pids[i] == 0)
			worker(mode, i, lockfile, hold_ms && i == 0 ? hold_cmd : cmd,
			       hold_ms && i == 0 ? hold_ms : 0);
	}
	/* The workers wait for the flag: the clocks start when they do. */
	for (i = 0; i < NSTATS; i++)
		before[i] = kit_stat(stat_names[i]);
	cpu_times(&busy0, &total0);
	start = now();
	start_flag = 1;
	for (i = 1; i <= seconds; i++) {
		sleep_until(start, i);
		now_ops = total_ops(tasks);
		printf("sec %d: %lu ops/sec\n", i, now_ops - prev);
		fflush(stdout);
		prev = now_ops;
	}
	ops = total_ops(tasks);
	elapsed = now() - start;
	for (i = first_counted; i < tasks; i++) {
		unsigned long o = slots[i].ops, t0 = slots[i].op_start_ns;
		unsigned long w = slots[i].worst_ns, waited = t0 ? now_ns() - t0 : 0;

		/* a task starved to the end has waited since t0 */
		if (waited > w)
			w = waited;
		tmin = o < tmin ? o : tmin;
		tmax = o > tmax ? o : tmax;
		worst = w > worst ? w : worst;
	}
	cpu_times(&busy1, &total1);
	for (i = 0; i < tasks; i++)
		kill(pids[i], SIGTERM);
	for (i = 0; i < tasks; i++) {
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed = 1;
	}

	cpu = total1 > total0 ? 100 * (busy1 - busy0) / (total1 - total0) : 0;
	/* by the clock, not by the seconds asked for: sleeps overrun */
	rate = (unsigned long)(ops / elapsed);
	n = snprintf(result, sizeof(result), "ops=%lu cpu=%llu", rate, cpu);
	printf("avg ops/sec: %lu (%lu ops in %.2f s)\n", rate, ops, elapsed);
	printf("cpu busy: %llu%%\n", cpu);
	if (mode == 'K') {
		printf("kit acquisitions:");
		for (i = 0; i < NSTATS; i++) {
			unsigned long d = kit_stat(stat_names[i]) - before[i];

			printf(" %s=%lu", stat_names[i], d);
			n += snprintf(result + n, sizeof(result) - n, " %s=%lu",
				      stat_names[i], d);
		}
		printf("\n");
	}
	printf("per task: %lu to %lu ops; longest operation: %lu us\n",
	       tmin, tmax, worst / 1000);
	n += snprintf(result + n, sizeof(result) - n, " tmin=%lu tmax=%lu worst_us=%lu",
		      tmin, tmax, worst / 1000);
	if (mode != 'V') {
		long done, counter;

		/* the workers' ops include ones cut short by SIGTERM: ask the lock */
		if (lock_field(lockfile, "ops", &done) ||
		    lock_field(lockfile, "counter", &counter)) {
			fprintf(stderr, "test-kit-mutex: cannot read %s\n", lockfile);
			return 2;
		}
		printf("lost updates: %ld\n", done - counter);
		snprintf(result + n, sizeof(result) - n, " lost=%ld", done - counter);
		if (done != counter)
			failed = 1;
	}
	printf("result: %s\n", result);
	if (failed)
		fprintf(stderr, "test-kit-mutex: FAILED\n");
	return failed;
}
