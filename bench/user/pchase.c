// SPDX-License-Identifier: GPL-2.0
/*
 * pchase_ns, the TCG plugin's calibration (bench/benchmarks.def, PMU_RUN):
 * a walk over a buffer of the param's kib KiB, one pointer per 64-byte
 * line, the lines linked in one random cycle (Sattolo's shuffle, fixed
 * seed), so that every lap touches every line once, in the same order.
 * One operation is one lap, after an untimed one that warms the caches
 * (what runs between two operations, the kernel's writes of the results
 * to the host, would otherwise cool them).  Under LRU a lap over more
 * lines than a cache level holds misses that level at every step, and a
 * lap that fits never misses: per operation, kib x 16 misses or none,
 * which the tests check the plugin's misses against.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "harness.h"

#define LINE 64

static void *volatile *cursor;
static size_t lines;

static void lap(void)
{
	size_t i;

	for (i = 0; i < lines; i++)
		cursor = *cursor;
}

static int pchase_init(const struct bench_options *o)
{
	size_t i;
	unsigned int seed = 1;
	size_t *order;
	char *buf;

	lines = (size_t)param_long(o, PARAM_kib, 16) * 1024 / LINE;
	buf = mmap(NULL, lines * LINE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -ENOMEM;
	order = malloc(lines * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < lines; i++)
		order[i] = i;
	for (i = lines - 1; i > 0; i--) {	/* Sattolo: one cycle through all */
		size_t j = (size_t)rand_r(&seed) % i, t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < lines; i++)
		*(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % lines] * LINE;
	free(order);
	cursor = (void *volatile *)buf;
	return 0;
}

/* A lap is as deterministic as a count gets: four a repetition (at 64
 * MiB, 8 million steps with the warming laps) are plenty. */
static long pchase_ops(const struct bench_options *o)
{
	(void)o;
	return 4;
}

static int pchase_lap(int thread, long k)
{
	(void)thread;
	(void)k;
	lap();
	return 0;
}

const struct ubench ubench = {
	.metric = "pchase_ns",
	.init = pchase_init,
	.ops = pchase_ops,
	.prepare = pchase_lap,
	.op = pchase_lap,
};
