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
 * The counters are read as bench/lib/slab_counters.h describes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"
#include "slab_counters.h"

int main(int argc, char **argv)
{
	struct slab_totals before, after;
	struct param param = { 0 };
	char path[512];
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
	param_set(&param, PARAM_n, "%ld", n);
	if (minors != 1)
		param_set(&param, PARAM_minors, "%ld", minors);
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
			results_row(stdout, argv[1], argv[2], "mem_bytes_per_cdev", &param, iter,
				    (double)(after.bytes - before.bytes) / (double)n, 1, "bytes");
			results_row(stdout, argv[1], argv[2], "kernfs_nodes_per_cdev", &param,
				    iter, (double)(after.kernfs_nodes - before.kernfs_nodes) /
				    (double)n, 2, "count");
		}
		if (iter + 1 < reps && write_fd(hold, "0")) {
			perror("mem_per_cdev: release");
			return 1;
		}
	}
	return 0;
}
