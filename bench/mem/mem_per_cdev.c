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
 * The counters are read as bench/mem/slab_counters.h describes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slab_counters.h"

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
	if (hold < 0 || slab_open_counters()) {
		perror("mem_per_cdev: opening the counters");
		return 1;
	}
	for (iter = -1; iter < reps; iter++) {
		if (slab_read_settled(&before) || write_fd(hold, "1") ||
		    slab_read_settled(&after)) {
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
