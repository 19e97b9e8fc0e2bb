/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the user-space benchmark harness (harness.c, which
 * owns main(), timing, warm-up, repetitions, threads and output) and one
 * benchmark per file, in the spirit of will-it-scale, declared in
 * bench/benchmarks.def.  A benchmark defines
 * `const struct ubench ubench`; the harness calls, for each repetition and
 * thread, prepare(k) untimed, op(k) timed, finish(k) untimed for k in
 * 0..ops-1.  Each callback returns 0 or -errno.  exit() runs however
 * the program ends, to remove what init() made.
 */
#ifndef CDEVBENCH_HARNESS_H
#define CDEVBENCH_HARNESS_H

#include "bench_options.h"

struct ubench {
	const char *metric;	/* samples.csv metric, e.g. open_lookup_ns */
	/* Set up from the run's options; the sweep values are in o->param. */
	int (*init)(const struct bench_options *o);
	/* Operations per repetition and thread where one operation is bigger
	 * than --ops counts (optional; --ops without it). */
	long (*ops)(const struct bench_options *o);
	int (*prepare)(int thread, long k);
	int (*op)(int thread, long k);
	int (*finish)(int thread, long k);
	void (*exit)(void);
};

extern const struct ubench ubench;

#endif
