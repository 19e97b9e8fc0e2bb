// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong_ns, the TCG plugin's calibration of sharing (bench/
 * benchmarks.def, PMU_RUN): T threads, each pinned to its vCPU, write one
 * cache line in turn; an operation waits for its thread's turn and
 * passes it on.  Every operation writes the one line the other threads
 * read and write: one shared line and one transfer per operation.
 */
#include <stdalign.h>
#include "harness.h"

static long threads;
static alignas(64) volatile long turn;

static int pingpong_init(const struct bench_options *o)
{
	threads = param_long(o, PARAM_threads, 2);
	return 0;
}

static int pingpong_op(int thread, long k)
{
	(void)k;
	while (turn % threads != thread)
		__builtin_ia32_pause();
	turn++;
	return 0;
}

const struct ubench ubench = {
	.metric = "pingpong_ns",
	.init = pingpong_init,
	.op = pingpong_op,
};
