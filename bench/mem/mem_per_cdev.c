// SPDX-License-Identifier: GPL-2.0
/*
 * mem_bytes_per_cdev and kernfs_nodes_per_cdev: slab memory and kernfs
 * nodes that registering N cdevs costs, from the slab counters.
 *
 * Options as bench/lib/bench_options.h (no per-operation samples: --ops
 * and --raw are not used).  For one warm-up round and R rounds: read the
 * counters, register the param's n cdevs through the cdevbench module's
 * `hold` file (its `n`, `majors` and `minors` already set from the param
 * by the suite), read again, and remove them.  Rows go to stdout.  The
 * counters are read as bench/lib/slab_counters.h describes.
 */
#include <fcntl.h>
#include <stdio.h>
#include "bench_options.h"
#include "slab_counters.h"

int main(int argc, char **argv)
{
	struct slab_totals before, after;
	struct bench_options o;
	long n, iter;
	int hold;

	bench_options_parse(&o, argc, argv, "mem_per_cdev");
	n = param_long(&o, PARAM_n, 1);
	hold = open(CDEVBENCH_DEBUGFS "/hold", O_WRONLY);
	if (hold < 0 || slab_open_counters()) {
		perror("mem_per_cdev: opening the counters");
		return 1;
	}
	for (iter = -1; iter < o.reps; iter++) {
		if (slab_read_settled(&before) || write_fd(hold, "1") ||
		    slab_read_settled(&after)) {
			perror("mem_per_cdev");
			return 1;
		}
		if (iter >= 0) {
			results_row(stdout, o.variant, o.boot, "mem_bytes_per_cdev", &o.param, iter,
				    (double)(after.bytes - before.bytes) / (double)n, 1, "bytes");
			results_row(stdout, o.variant, o.boot, "kernfs_nodes_per_cdev", &o.param,
				    iter, (double)(after.kernfs_nodes - before.kernfs_nodes) /
				    (double)n, 2, "count");
		}
		if (write_fd(hold, "0")) {
			perror("mem_per_cdev: release");
			return 1;
		}
	}
	return 0;
}
