// SPDX-License-Identifier: GPL-2.0
/*
 * fault_phase: the failure-path phase, on a fault kernel
 * (patches/fault.config) with the cdev_faults module loaded.
 *
 * usage: fault_phase VARIANT BOOT KMEMLEAK_LOG
 *
 * For every flavour of bench/module/cdev_faults.c, one group in the
 * systematic mode (the k-th allocation of one registration fails, for
 * every k), and for the five swept flavours one per failslab probability
 * of the sweep (SWEEP_COUNT registrations, only that group's process's
 * allocations failing).  Each group runs its command in a process of its
 * own; around it the slab counters, the entries under /sys/cdev and the
 * cdev_faults devices in /sys/devices, and the char majors in
 * /proc/devices are read before and after.  After the last group kmemleak
 * scans (objects must be MIN_AGE_S old before it reports them), and a
 * suspect counts as a leak of the group whose process allocated it when
 * its backtrace runs through cdev_faults, so objects that other code
 * leaked meanwhile are not blamed on the registration paths.
 *
 * The kernel log carries each group's window, which the host splits
 * serial.log by: "cdevbench-fault: start <param>" before the group and
 * "cdevbench-fault: end <param>" after it, <param> the rows' param
 * unquoted, at KERN_WARNING (the console prints below level 7).  Before
 * the end line the kmalloc slab caches are validated, so that slub_debug's
 * poison and red zones report a use after free or an overrun of the group
 * inside its window (and once before the first group, so that older
 * damage is not charged to it).
 *
 * Rows (bench/lib/results.h) go to stdout as each group ends, so that a
 * crash in a later group keeps them; kmemleak's two after the final scan.
 * Param "flavour=F" (systematic) or "flavour=F,prob=P" (sweep):
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
#define SLABS		"/sys/kernel/slab"
#define SWEEP_COUNT	200
#define MIN_AGE_S	6	/* kmemleak reports objects older than 5 s */
#define MAX_VALIDATE	256	/* kmalloc caches: 13 sizes of each kind, 3 kinds
				 * (up to 18 with 6.12's random caches) */

/*
 * In the order they run: the five swept first, then the others, those
 * likeliest to corrupt memory on some base last, so that a crash loses
 * least.  Only the five are swept: the others are known to go wrong on
 * some base, and a sweep would repeat one damage SWEEP_COUNT times.
 */
static const struct {
	const char *name;
	bool swept;
} flavours[] = {
	{ "embed_put", true },
	{ "embed_none", true },
	{ "embed_del", true },
	{ "alloc_put", true },
	{ "device_put", true },
	{ "alloc_none", false },
	{ "alloc_kfree", false },
	{ "alloc_name_put", false },
	{ "alloc_name_kfree", false },
	{ "embed_name_put", false },
	{ "embed_name_none", false },
	{ "embed_name_del", false },
	{ "embed_parent_none", false },
	{ "alloc_del", false },
	{ "alloc_name_del", false },
	{ "device_del_put", false },
	{ "embed_parent_put", false },
	{ "embed_parent_del", false },
};
#define NFLAVOURS (sizeof(flavours) / sizeof(flavours[0]))
static const int sweep_percent[] = { 1, 10, 50 };
#define NPERCENT (sizeof(sweep_percent) / sizeof(sweep_percent[0]))

static const char *variant, *boot;
static FILE *kmemleak_log;
static int ctl_fd, kmemleak_fd, probability_fd;
static int validate_fd[MAX_VALIDATE];
static size_t nvalidate;

/* The group between its start and end markers, if any. */
static const struct param *open_group;
static void kmsg(const char *what, const struct param *param);

/*
 * The phase stops: where a group is open, "cdevbench-fault: abort
 * <param>" tells the host's check that the phase gave up there, which
 * it would otherwise take for a kernel that stopped (a start without an
 * end).
 */
static void __attribute__((noreturn)) abort_phase(void)
{
	const struct param *g = open_group;

	open_group = NULL;	/* kmsg() failing comes back here */
	if (g)
		kmsg("abort", g);
	exit(1);
}

static void die(const char *what)
{
	perror(what);
	abort_phase();
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
		abort_phase();
	}
	free(buf);
	return found;
}

/* A param's text as the markers carry it: the rows' field, unquoted. */
static const char *param_text(const struct param *param, char *buf, size_t size)
{
	size_t len;

	param_csv(param, buf, size);
	len = strlen(buf);
	if (buf[0] == '"' && len >= 2) {
		memmove(buf, buf + 1, len - 2);
		buf[len - 2] = '\0';
	}
	return buf;
}

/*
 * "cdevbench-fault: <what> <param>" into the kernel log, at KERN_WARNING
 * (<4>, /dev/kmsg's default too): the console prints levels below
 * console_loglevel, 7 in the rig's kernels (CONFIG_CONSOLE_LOGLEVEL_DEFAULT,
 * and no quiet or loglevel= on the command line).  Opened per line:
 * /dev/kmsg drops lines beyond 10 in 5 s per open file.
 */
static void kmsg(const char *what, const struct param *param)
{
	char line[256], text[128];
	int fd = open_or_die("/dev/kmsg", O_WRONLY);
	int len = snprintf(line, sizeof(line), "<4>cdevbench-fault: %s %s\n", what,
			   param_text(param, text, sizeof(text)));

	if (len < 0 || (size_t)len >= sizeof(line) || write(fd, line, len) != len)
		die("/dev/kmsg");
	close(fd);
}

/*
 * The kmalloc caches' validate files, opened once like the other files the
 * readings use: kmalloc-<size>, -rcl-, -cg- (6.1, 6.12) and -rnd-NN-
 * (6.12 with CONFIG_RANDOM_KMALLOC_CACHES); slab_nomerge makes each a
 * directory of its own.
 */
static void open_validate(void)
{
	DIR *d = opendir(SLABS);
	struct dirent *e;
	char path[512];
	int fd;

	if (!d) {
		fprintf(stderr, "fault_phase: no %s: slabs not validated\n", SLABS);
		return;
	}
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "kmalloc-", strlen("kmalloc-")))
			continue;
		if (nvalidate == MAX_VALIDATE) {
			fprintf(stderr, "fault_phase: more than %d kmalloc caches: %s and later not validated\n",
				MAX_VALIDATE, e->d_name);
			break;
		}
		snprintf(path, sizeof(path), SLABS "/%s/validate", e->d_name);
		fd = open(path, O_WRONLY);
		if (fd >= 0)
			validate_fd[nvalidate++] = fd;
	}
	closedir(d);
}

/*
 * Check the kmalloc caches' objects (the kernel logs what it finds, then
 * repairs it): with slub_debug's poison, red zones and sanity checks
 * (scripts/phases.def), a write to a freed object or past an object since
 * the last call is reported now, inside the window of the group that did
 * it.  SLUB walks the partial slabs, where every free object is (full
 * ones only with U, user tracking, which the fault boots leave off).  A
 * cache without those flags refuses (EINVAL): said once.
 */
static void validate_slabs(void)
{
	static bool warned;
	size_t i;

	for (i = 0; i < nvalidate; i++)
		if (write_fd(validate_fd[i], "1") && !warned) {
			fprintf(stderr, "fault_phase: kmalloc caches not validated (%m): no slub_debug=FZP?\n");
			warned = true;
		}
}

/* One group's figures: its leaks filled in by the final kmemleak scan. */
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

#define NGROUPS (NFLAVOURS * (1 + NPERCENT))	/* at most */
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
	row("fail_slab_delta_bytes", &g->param, g->slab_delta, "bytes");
	row("fail_sysfs_left", &g->param, g->sysfs_left, "count");
	row("fail_majors_left", &g->param, g->majors_left, "count");
	if (g->has_ksets)
		row("fail_kset_refs_left", &g->param, g->kset_refs_left, "count");
}

/* kmemleak's rows of a group, after the final scan. */
static void print_leaks(const struct group *g)
{
	row("fail_leaked_bytes", &g->param, g->leaked_bytes, "bytes");
	row("fail_leaked_objects", &g->param, g->leaked_objects, "count");
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
			abort_phase();
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
	kmsg("start", &g->param);
	open_group = &g->param;
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
		abort_phase();
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
	validate_slabs();
	open_group = NULL;
	kmsg("end", &g->param);
	/* Out now: the results export is written through (no cache). */
	print_group(g);
	if (fflush(stdout))
		die("stdout");
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
	open_validate();

	/* Suspects from before the phase (boot, module load) are not ours. */
	if (write_fd(kmemleak_fd, "scan") || write_fd(kmemleak_fd, "clear"))
		die("kmemleak clear");
	/* Damage from before the phase is reported here, before any window. */
	validate_slabs();
	for (f = 0; f < NFLAVOURS; f++) {
		run_group(flavours[f].name, 0);
		for (p = 0; flavours[f].swept && p < NPERCENT; p++)
			run_group(flavours[f].name, sweep_percent[p]);
	}
	scan_leaks();
	for (f = 0; f < ngroups; f++)
		print_leaks(&groups[f]);
	fclose(kmemleak_log);
	return 0;
}
