// SPDX-License-Identifier: GPL-2.0
/*
 * fault_phase: the failure-path phase, on a fault kernel
 * (patches/fault.config) with the cdev_faults module loaded.
 *
 * usage: fault_phase VARIANT BOOT KMEMLEAK_LOG
 *
 * For every flavour of bench/module/cdev_faults.c, one group in the
 * systematic mode (the k-th allocation of one registration fails, for
 * every k) and one per failslab probability of the sweep (SWEEP_COUNT
 * registrations, only that group's process's allocations failing).  Each
 * group runs its command in a process of its own; around it the slab
 * counters, the entries under /sys/cdev and the cdev_faults devices in
 * /sys/devices, and the char majors in /proc/devices are read before and
 * after.  After the last group kmemleak scans (objects must be MIN_AGE_S
 * old before it reports them), and a suspect counts as a leak of the group
 * whose process allocated it when its backtrace runs through cdev_faults,
 * so objects that other code leaked meanwhile are not blamed on the
 * registration paths.
 *
 * Rows (bench/lib/results.h) go to stdout, param "flavour=F" (systematic)
 * or "flavour=F,prob=P" (sweep):
 *   fail_points          failure points inside one registration (systematic)
 *   fail_handled         injected failures that returned an error
 *   fail_tolerated       injected failures the registration survived
 *   fail_registered      registrations that succeeded (sweep)
 *   fail_setup_failed    sweep rounds whose driver structure could not be
 *                        allocated, so no registration was tried
 *   fail_leaked_bytes, fail_leaked_objects   kmemleak's suspects
 *   fail_slab_delta_bytes  slab bytes after the group minus before
 *   fail_sysfs_left, fail_majors_left        entries left behind
 *   fail_kset_refs_left  references on the /sys/cdev and /sys/cdev/major
 *                        ksets after the group minus before (only where
 *                        cdevs are in sysfs): a cdev_del() that leaves a
 *                        kset it never joined drops one
 * kmemleak's whole report, with the pid of each group, goes to KMEMLEAK_LOG.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "results.h"
#include "slab_counters.h"

#define FAULTS		"/sys/kernel/debug/cdev_faults"
#define FAILSLAB	"/sys/kernel/debug/failslab"
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define SWEEP_COUNT	200
#define MIN_AGE_S	6	/* kmemleak reports objects older than 5 s */

static const char *const flavours[] = {
	"cdev_init", "cdev_init_noput", "cdev_del_on_fail", "cdev_alloc",
	"cdev_device_add",
};
static const int sweep_percent[] = { 1, 10, 50 };

static const char *variant, *boot;
static FILE *kmemleak_log;
static int ctl_fd, kmemleak_fd, probability_fd;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		die(path);
	return fd;
}

static void set(const char *path, const char *value)
{
	int fd = open_or_die(path, O_WRONLY);

	if (write_fd(fd, value))
		die(path);
	close(fd);
}

static char *read_file(const char *path)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap), *grown;
	int fd = open_or_die(path, O_RDONLY);
	ssize_t r;

	if (!buf)
		die("malloc");
	while ((r = read(fd, buf + len, cap - 1 - len)) > 0) {
		len += r;
		if (len + 1 == cap) {
			grown = realloc(buf, cap *= 2);
			if (!grown)
				die("realloc");
			buf = grown;
		}
	}
	buf[len] = '\0';
	close(fd);
	return buf;
}

/* Entries of @dir whose name starts with @prefix, not counting @skip. */
static long count_entries(const char *dir, const char *prefix, const char *skip)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long n = 0;

	if (!d)
		return 0;	/* /sys/cdev exists only on sysfs-cdev */
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && !strncmp(e->d_name, prefix, strlen(prefix)) &&
		    (!skip || strcmp(e->d_name, skip)))
			n++;
	closedir(d);
	return n;
}

static long sysfs_entries(void)
{
	return count_entries("/sys/cdev", "", "major") +
	       count_entries("/sys/cdev/major", "", NULL) +
	       count_entries("/sys/devices", "cdev_faults", NULL);
}

static long char_majors(void)
{
	char *buf = read_file("/proc/devices"), *line, *save;
	long n = 0;
	int in_char = 0;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(line, "Character devices:"))
			in_char = 1;
		else if (!strcmp(line, "Block devices:"))
			in_char = 0;
		else if (in_char)
			n++;
	}
	free(buf);
	return n;
}

/*
 * The references on the /sys/cdev and /sys/cdev/major ksets into @refs;
 * false where the kernel has none (cdev_faults prints "- -").
 */
static bool kset_refs(long refs[2])
{
	char *buf = read_file(FAULTS "/ksets");
	bool found = sscanf(buf, "%ld %ld", &refs[0], &refs[1]) == 2;

	if (!found && strcmp(buf, "- -\n")) {
		fprintf(stderr, "fault_phase: cannot parse ksets '%s'\n", buf);
		exit(1);
	}
	free(buf);
	return found;
}

/* One group's figures, printed once the final kmemleak scan is in. */
struct group {
	struct param param;
	int sweep;
	pid_t pid;		/* the process that registered: kmemleak's "pid" */
	unsigned int points, handled, tolerated, registered, setup;
	long slab_delta, sysfs_left, majors_left;
	bool has_ksets;		/* cdevs are in sysfs on this kernel */
	long kset_refs_left;
	long leaked_bytes, leaked_objects;
};

#define NGROUPS (sizeof(flavours) / sizeof(flavours[0]) * \
		 (1 + sizeof(sweep_percent) / sizeof(sweep_percent[0])))
static struct group groups[NGROUPS];
static size_t ngroups;

/*
 * kmemleak's suspects after all groups, each charged to the group whose
 * process allocated it, when its backtrace runs through cdev_faults.  One
 * scan at the end, not one per group: a leak that a stale pointer hides
 * from one scan shows in a later one, and was charged to the wrong group.
 */
static void scan_leaks(void)
{
	char *buf, *rec, *next, param[128];
	size_t g;

	sleep(MIN_AGE_S);
	/* A second scan drops suspects whose pointer was only in flight. */
	if (write_fd(kmemleak_fd, "scan") || write_fd(kmemleak_fd, "scan"))
		die("kmemleak scan");
	buf = read_file(KMEMLEAK);
	fprintf(kmemleak_log, "# %s boot %s: kmemleak after every group; groups by pid:\n",
		variant, boot);
	for (g = 0; g < ngroups; g++)
		fprintf(kmemleak_log, "#   pid %d %s\n", groups[g].pid,
			param_csv(&groups[g].param, param, sizeof(param)));
	fputs(buf, kmemleak_log);
	for (rec = strstr(buf, "unreferenced object"); rec; rec = next) {
		long size;
		int pid;
		char *at;

		next = strstr(rec + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		at = strstr(rec, ", pid ");
		if (!strstr(rec, "cdev_faults") || !at || sscanf(at, ", pid %d", &pid) != 1 ||
		    sscanf(rec, "unreferenced object %*s (size %ld)", &size) != 1)
			continue;
		for (g = 0; g < ngroups; g++)
			if (groups[g].pid == pid) {
				groups[g].leaked_bytes += size;
				groups[g].leaked_objects++;
			}
	}
	free(buf);
}

static void row(const char *metric, const struct param *param, long value, const char *unit)
{
	results_row(stdout, variant, boot, metric, param, 0, (double)value, 0, unit);
}

/*
 * The ctl command of a group, in a process of its own (so that kmemleak's
 * records tell the groups apart), with @percent the failslab probability
 * for that process.  Returns its pid.
 */
static pid_t run_command(const char *flavour, int percent)
{
	char cmd[80], prob[16];
	int status, err;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid) {
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			exit(1);
		return pid;
	}
	if (percent) {
		snprintf(prob, sizeof(prob), "%d", percent);
		snprintf(cmd, sizeof(cmd), "sweep %s %d", flavour, SWEEP_COUNT);
		int make_it_fail_fd = open_or_die("/proc/self/make-it-fail", O_WRONLY);

		if (write_fd(probability_fd, prob) || write_fd(make_it_fail_fd, "1"))
			die("failslab");
		err = write_fd(ctl_fd, cmd);
		if (write_fd(make_it_fail_fd, "0") || write_fd(probability_fd, "0"))
			die("failslab");
	} else {
		snprintf(cmd, sizeof(cmd), "systematic %s", flavour);
		err = write_fd(ctl_fd, cmd);
	}
	if (err) {
		fprintf(stderr, "fault_phase: %s: %s: %m\n", variant, cmd);
		_exit(1);
	}
	_exit(0);
}

static void run_group(const char *flavour, int percent)
{
	struct group *g = &groups[ngroups++];
	long sysfs_before, majors_before, ksets_before[2];
	struct slab_totals before, after;
	unsigned int failed;
	char *result, param[128];

	param_set(&g->param, PARAM_flavour, "%s", flavour);
	if (percent)
		param_set(&g->param, PARAM_prob, "%d", percent);
	g->sweep = percent;
	if (slab_read_settled(&before))
		die("before the group");
	sysfs_before = sysfs_entries();
	majors_before = char_majors();
	g->has_ksets = kset_refs(ksets_before);

	g->pid = run_command(flavour, percent);
	result = read_file(FAULTS "/result");
	if (sscanf(result, "points=%u handled=%u tolerated=%u registered=%u failed=%u setup_failed=%u",
		   &g->points, &g->handled, &g->tolerated, &g->registered, &failed,
		   &g->setup) != 6) {
		fprintf(stderr, "fault_phase: cannot parse '%s'\n", result);
		exit(1);
	}
	free(result);
	if (percent)
		g->handled = failed;

	if (slab_read_settled(&after))
		die("after the group");
	g->slab_delta = after.bytes - before.bytes;
	g->sysfs_left = sysfs_entries() - sysfs_before;
	g->majors_left = char_majors() - majors_before;
	if (g->has_ksets) {
		long ksets_after[2];

		kset_refs(ksets_after);
		g->kset_refs_left = ksets_after[0] - ksets_before[0] +
				    ksets_after[1] - ksets_before[1];
		fprintf(stderr, "fault_phase: %s: references on /sys/cdev %ld -> %ld, on /sys/cdev/major %ld -> %ld\n",
			param_csv(&g->param, param, sizeof(param)), ksets_before[0], ksets_after[0], ksets_before[1], ksets_after[1]);
	}
}

static void print_group(const struct group *g)
{
	if (g->sweep) {
		row("fail_registered", &g->param, g->registered, "count");
		row("fail_handled", &g->param, g->handled, "count");
		row("fail_setup_failed", &g->param, g->setup, "count");
	} else {
		row("fail_points", &g->param, g->points, "count");
		row("fail_handled", &g->param, g->handled, "count");
		row("fail_tolerated", &g->param, g->tolerated, "count");
	}
	row("fail_leaked_bytes", &g->param, g->leaked_bytes, "bytes");
	row("fail_leaked_objects", &g->param, g->leaked_objects, "count");
	row("fail_slab_delta_bytes", &g->param, g->slab_delta, "bytes");
	row("fail_sysfs_left", &g->param, g->sysfs_left, "count");
	row("fail_majors_left", &g->param, g->majors_left, "count");
	if (g->has_ksets)
		row("fail_kset_refs_left", &g->param, g->kset_refs_left, "count");
}

int main(int argc, char **argv)
{
	size_t f, p;

	if (argc != 4) {
		fprintf(stderr, "usage: fault_phase VARIANT BOOT KMEMLEAK_LOG\n");
		return 2;
	}
	variant = argv[1];
	boot = argv[2];
	kmemleak_log = fopen(argv[3], "w");
	if (!kmemleak_log)
		die(argv[3]);
	setvbuf(kmemleak_log, NULL, _IOLBF, 0);

	/* Only tasks that ask fail, GFP_KERNEL allocations included, quietly,
	 * in the caches that boot.sh marked (all but kmemleak's). */
	set(FAILSLAB "/probability", "0");
	set(FAILSLAB "/cache-filter", "Y");
	set(FAILSLAB "/interval", "1");
	set(FAILSLAB "/times", "-1");
	set(FAILSLAB "/verbose", "0");
	set(FAILSLAB "/task-filter", "Y");
	set(FAILSLAB "/ignore-gfp-wait", "N");
	/* Opened once: the groups and readings then open nothing of ours. */
	ctl_fd = open_or_die(FAULTS "/ctl", O_WRONLY);
	kmemleak_fd = open_or_die(KMEMLEAK, O_RDWR);
	probability_fd = open_or_die(FAILSLAB "/probability", O_WRONLY);
	if (slab_open_counters())
		die("slab counters");

	/* Suspects from before the phase (boot, module load) are not ours. */
	if (write_fd(kmemleak_fd, "scan") || write_fd(kmemleak_fd, "clear"))
		die("kmemleak clear");
	for (f = 0; f < sizeof(flavours) / sizeof(flavours[0]); f++) {
		run_group(flavours[f], 0);
		for (p = 0; p < sizeof(sweep_percent) / sizeof(sweep_percent[0]); p++)
			run_group(flavours[f], sweep_percent[p]);
	}
	scan_leaks();
	for (f = 0; f < ngroups; f++)
		print_group(&groups[f]);
	fclose(kmemleak_log);
	return 0;
}
