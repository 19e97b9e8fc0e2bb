// SPDX-License-Identifier: GPL-2.0
/*
 * mem_bytes_per_cdev and kernfs_nodes_per_cdev: slab memory and kernfs
 * nodes that registering N cdevs costs, from the slab counters.
 *
 * usage: mem_per_cdev VARIANT BOOT N REPS CDEVBENCH_DEBUGFS_DIR
 *
 * For one warm-up round and REPS rounds: read the counters, register N
 * cdevs through the cdevbench module's `hold` file (its `n`, `majors` and
 * `minors` already set; the param is "n=N" plus ",minors=M" for cdevs of
 * M minors each), read again, and remove them, except after the last round:
 * those cdevs stay registered for the open benchmarks.  Rows go to stdout.
 *
 * Reading the counters exactly: SLUB counts the free objects of per-CPU
 * slabs as active in /proc/slabinfo, so every cache is shrunk first (which
 * flushes them); and one process does both readings with files it opened
 * beforehand, so the reader's own objects are the same on both sides.
 * Objects freed after an RCU grace period (maple tree nodes, kfree_rcu(),
 * which batches for up to 5 s in 6.1) would land in whichever reading
 * comes after their free, so before each reading the slab shrinkers run
 * (drop_caches 2, which also hands kfree_rcu() batches to RCU) and the
 * counters are read until two readings 20 ms apart agree.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct slab_totals {
	long long bytes;	/* sum of active_objs x objsize */
	long long kernfs_nodes;
};

#define MAX_CACHES 512
#define SETTLE_TRIES 500	/* readings 20 ms apart: 10 s */

/* Every file is opened once, before the first reading: a struct file freed
 * between two readings is freed after an RCU grace period, at a time of
 * its own, which showed as +-20 KiB of noise in the filp cache. */
static int shrink_fd[MAX_CACHES], ncaches, slabinfo_fd, drop_caches_fd;

/* lseek and write: proc and debugfs files do not all take pwrite. */
static int write_fd(int fd, const char *value)
{
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	return write(fd, value, strlen(value)) == (ssize_t)strlen(value) ? 0 : -1;
}

static int open_counters(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	char path[512];

	if (!d)
		return -1;
	while ((e = readdir(d)) && ncaches < MAX_CACHES) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		shrink_fd[ncaches] = open(path, O_WRONLY);
		if (shrink_fd[ncaches] >= 0)
			ncaches++;
	}
	closedir(d);
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
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%127s %lld %lld %lld", name, &active, &total,
			   &size) != 4)
			continue;	/* the two header lines */
		t->bytes += active * size;
		if (!strcmp(name, "kernfs_node_cache"))
			t->kernfs_nodes = active;
	}
	return 0;
}

/* The counters once deferred frees have finished; see the header. */
static int read_settled(struct slab_totals *t)
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
	fprintf(stderr, "mem_per_cdev: slab counters still moving after %d readings\n",
		SETTLE_TRIES);
	return -1;
}

int main(int argc, char **argv)
{
	struct slab_totals before, after;
	char path[512], param[64];
	long n, reps, iter, minors = 0;
	FILE *f;
	int hold;

	if (argc != 6) {
		fprintf(stderr, "usage: mem_per_cdev VARIANT BOOT N REPS CDEVBENCH_DEBUGFS_DIR\n");
		return 2;
	}
	n = atol(argv[3]);
	reps = atol(argv[4]);
	snprintf(path, sizeof(path), "%s/minors", argv[5]);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &minors) != 1 || minors < 1) {
		fprintf(stderr, "mem_per_cdev: cannot read %s\n", path);
		return 1;
	}
	fclose(f);
	if (minors == 1)
		snprintf(param, sizeof(param), "n=%ld", n);
	else	/* quoted: the param holds a comma */
		snprintf(param, sizeof(param), "\"n=%ld,minors=%ld\"", n, minors);
	snprintf(path, sizeof(path), "%s/hold", argv[5]);
	hold = open(path, O_WRONLY);
	if (hold < 0 || open_counters()) {
		perror("mem_per_cdev: opening the counters");
		return 1;
	}
	for (iter = -1; iter < reps; iter++) {
		if (read_settled(&before) || write_fd(hold, "1") ||
		    read_settled(&after)) {
			perror("mem_per_cdev");
			return 1;
		}
		if (iter >= 0) {
			printf("%s,%s,mem_bytes_per_cdev,%s,%ld,%.1f,bytes\n",
			       argv[1], argv[2], param, iter,
			       (double)(after.bytes - before.bytes) / (double)n);
			printf("%s,%s,kernfs_nodes_per_cdev,%s,%ld,%.2f,count\n",
			       argv[1], argv[2], param, iter,
			       (double)(after.kernfs_nodes - before.kernfs_nodes) / (double)n);
		}
		if (iter + 1 < reps && write_fd(hold, "0")) {
			perror("mem_per_cdev: release");
			return 1;
		}
	}
	return 0;
}
