/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every user-space benchmark of bench/benchmarks.def is run with by
 * guest-init/suite, parsed in one place:
 *
 *   NAME --variant V --boot B --param P --reps R [--ops K] [--raw FILE]
 *        [--run I] [--windows FILE]
 *
 * P is the run's param ("key=value,..." as bench/lib/results.h declares
 * the keys): the benchmark takes its sweep values (n, pos, threads...)
 * from it.  K operations per repetition; FILE collects per-operation
 * samples where the benchmark has them.  I: the run's number among the
 * boot's user-space runs, from 0, the repetition a harness files its
 * timer_overhead_ns row as.  --windows (the plugin pass): the harness
 * pins thread t to CPU t and appends to FILE one line per measured window
 * (bench/lib/pmu_window.h), "CPU ITER OPS METRIC PARAM", in the order
 * the windows closed on that CPU.  The cdevs a HOLD benchmark runs
 * against are the cdevbench module's held ones, read with held_cdevs().
 */
#ifndef CDEVBENCH_BENCH_OPTIONS_H
#define CDEVBENCH_BENCH_OPTIONS_H

#include <sys/types.h>
#include "results.h"

#define CDEVBENCH_DEBUGFS "/sys/kernel/debug/cdevbench"
/* Device nodes the open benchmarks make, on a tmpfs the guest owns. */
#define CDEVBENCH_NODE_DIR "/run/cdevbench/nodes"

struct bench_options {
	const char *variant, *boot, *param_text, *raw, *windows;
	struct param param;
	long reps, ops, run;
};

/* Parse argv into @o; a usage message naming @name and exit 2 on error. */
void bench_options_parse(struct bench_options *o, int argc, char **argv,
			 const char *name);
/* The param's value of @key as a number, @dflt where the key is absent;
 * exits 2 naming the key where it is not a positive integer. */
long param_long(const struct bench_options *o, enum param_key key, long dflt);
/* The module's held cdevs (the first major's): major, first minor and
 * count; -1 with a message on stderr where none are held or the file
 * cannot be read. */
int held_cdevs(unsigned int *major, unsigned int *first, unsigned int *count);
/* Write @cmd ("del"...) to the module's unplug file (bench/module/
 * unplug.c): 0, or -errno of the write. */
int unplug_command(const char *cmd);
/* Register @count single-minor cdevs of kind @alloc ("dynamic" or
 * "embedded") through that file, their first number in *@first: 0, or
 * -errno. */
int unplug_add(long count, const char *alloc, dev_t *first);
/* One such cdev, and its device node made at @path: 0, or -errno. */
int unplug_node(const char *alloc, const char *path);

#endif
