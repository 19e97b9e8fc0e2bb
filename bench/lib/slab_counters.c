// SPDX-License-Identifier: GPL-2.0
/* Slab totals from /proc/slabinfo; see slab_counters.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "slab_counters.h"

#define MAX_CACHES 512
#define SETTLE_TRIES 500	/* readings 20 ms apart: 10 s */

/* Every file is opened once, before the first reading: a struct file freed
 * between two readings is freed after an RCU grace period, at a time of
 * its own, which showed as +-20 KiB of noise in the filp cache. */
static int shrink_fd[MAX_CACHES], ncaches, slabinfo_fd, drop_caches_fd;

/* Each cache's bytes in the last two readings, to name the caches that
 * would not settle. */
struct cache_bytes {
	char name[128];
	long long bytes;
};
static struct cache_bytes readings[2][MAX_CACHES];
static int nreadings[2], last;

/* lseek and write: proc and debugfs files do not all take pwrite, and
 * debugfs attribute files take no lseek either (they ignore the offset). */
int write_fd(int fd, const char *value)
{
	if (lseek(fd, 0, SEEK_SET) < 0 && errno != ESPIPE)
		return -1;
	return write(fd, value, strlen(value)) == (ssize_t)strlen(value) ? 0 : -1;
}

int slab_open_counters(void)
{
	struct dirent *e;
	char path[512];
	cpu_set_t cpu0;
	int last_fd = -1;
	DIR *d;

	/* Readings and the registrations between them run on one CPU: with
	 * several vCPUs the reader's own allocations (the slabinfo buffer)
	 * landed in another CPU's slab now and then, and the counters moved
	 * for ten seconds (tcg mode, 2 vCPUs, 1 boot in 3). */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		return -1;
	d = opendir("/sys/kernel/slab");
	if (!d)
		return -1;
	/* a slot is kept for kmalloc-8 */
	while ((e = readdir(d)) && ncaches < MAX_CACHES - 1) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		shrink_fd[ncaches] = open(path, O_WRONLY);
		if (shrink_fd[ncaches] < 0)
			continue;
		/* Each write to a shrink file takes its 2-byte buffer from
		 * kmalloc-8 and frees it: shrunk in the middle, kmalloc-8
		 * would have a CPU slab again by the reading, counted as in
		 * use whole, and which slab it is changes from reading to
		 * reading where its partial slabs are many (on 6.12, where
		 * kernfs frees node names after a grace period, with cdevs
		 * in sysfs).  So it is shrunk last. */
		if (!strcmp(e->d_name, "kmalloc-8"))
			last_fd = shrink_fd[ncaches];
		else
			ncaches++;
	}
	closedir(d);
	if (last_fd >= 0)
		shrink_fd[ncaches++] = last_fd;
	slabinfo_fd = open("/proc/slabinfo", O_RDONLY);
	drop_caches_fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	return slabinfo_fd < 0 || drop_caches_fd < 0 ? -1 : 0;
}

static int read_totals(struct slab_totals *t)
{
	static char buf[1 << 17];
	char *line, *save;
	long long active, total, size;
	char name[128];
	ssize_t len = 0, r;
	int i;

	for (i = 0; i < ncaches; i++)
		write_fd(shrink_fd[i], "1");
	if (lseek(slabinfo_fd, 0, SEEK_SET) < 0)
		return -1;
	while ((r = read(slabinfo_fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	if (r < 0)
		return -1;
	buf[len] = '\0';
	*t = (struct slab_totals){ 0 };
	last = !last;
	nreadings[last] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%127s %lld %lld %lld", name, &active, &total,
			   &size) != 4)
			continue;	/* the two header lines */
		/* kmemleak's metadata follows every allocation, the readings'
		 * own included, and is freed after a grace period: it would
		 * never settle, and it is the detector's, not the kernel's. */
		if (!strncmp(name, "kmemleak_", 9))
			continue;
		t->bytes += active * size;
		if (nreadings[last] < MAX_CACHES) {
			struct cache_bytes *c = &readings[last][nreadings[last]++];

			snprintf(c->name, sizeof(c->name), "%s", name);
			c->bytes = active * size;
		}
		if (!strcmp(name, "kernfs_node_cache"))
			t->kernfs_nodes = active;
	}
	return 0;
}

/* Cache @name's entry in reading @r, or NULL. */
static const struct cache_bytes *reading_of(int r, const char *name)
{
	int i;

	for (i = 0; i < nreadings[r]; i++)
		if (!strcmp(readings[r][i].name, name))
			return &readings[r][i];
	return NULL;
}

static long long reading_bytes(int r, const char *name)
{
	const struct cache_bytes *c = reading_of(r, name);

	return c ? c->bytes : 0;
}

/* The caches whose bytes differ between the last two readings, those in
 * either. */
static void print_moved_caches(void)
{
	int i, r;

	for (r = 0; r < 2; r++) {
		int now = r ? !last : last;

		for (i = 0; i < nreadings[now]; i++) {
			const char *name = readings[now][i].name;
			long long diff = reading_bytes(last, name) - reading_bytes(!last, name);

			/* a cache in both readings is named once, from the last */
			if (diff && (!r || !reading_of(last, name)))
				fprintf(stderr, " %s %+lld bytes", name, diff);
		}
	}
	fprintf(stderr, "\n");
}

int slab_read_settled(struct slab_totals *t)
{
	const struct timespec pause = { .tv_nsec = 20 * 1000 * 1000 };
	struct slab_totals prev;
	int i;

	if (write_fd(drop_caches_fd, "2") || read_totals(&prev))
		return -1;
	for (i = 0; i < SETTLE_TRIES; i++) {
		nanosleep(&pause, NULL);
		if (read_totals(t))
			return -1;
		if (t->bytes == prev.bytes && t->kernfs_nodes == prev.kernfs_nodes)
			return 0;
		prev = *t;
	}
	fprintf(stderr, "slab counters still moving after %d readings; the last moved", SETTLE_TRIES);
	print_moved_caches();
	return -1;
}
