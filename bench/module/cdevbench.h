/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the cdevbench harness (cdevbench_main.c) and its
 * in-kernel benchmarks, one file each.  A benchmark times operations and
 * hands each per-operation time to bench_sample(); the harness owns the
 * parameters, warm-up, repetitions, timer-overhead correction and output.
 */
#ifndef CDEVBENCH_H
#define CDEVBENCH_H

#include <linux/types.h>

struct bench_params {
	u32 n;		/* cdevs registered per repetition */
	u32 reps;	/* timed repetitions, after one untimed warm-up */
	u32 majors;	/* majors the n cdevs are spread over (1: one chain) */
	u32 minors;	/* minors each cdev covers (its cdev_add() count) */
	u32 settle;	/* 1: each repetition ends with bench_settle() */
};

struct bench_run;

struct bench {
	const char *name;
	/* One repetition; iter < 0 is the warm-up.  Must undo everything it
	 * registered before returning, also on error. */
	int (*run_once)(struct bench_run *run, int iter);
};

/* Record one operation's time in ns (timer overhead not yet subtracted). */
void bench_sample(struct bench_run *run, const char *metric, u64 ns);
const struct bench_params *bench_params(const struct bench_run *run);
/* The parameters as last written to debugfs, for commands outside a run. */
const struct bench_params *bench_current_params(void);
/* -EINVAL unless 0 < n <= 1000000, reps > 0, 0 < majors <= n, minors > 0
 * and one major's share of the cdevs fits in its minors. */
int bench_params_check(const struct bench_params *p);
bool bench_interrupted(void);
/* Untimed: wait until the work that the repetition deferred (RCU
 * callbacks, kfree_rcu() batches) has run, so that a tracer counts it
 * (bench/trace/rcu_deferred.bt).  Only where the settle parameter is 1. */
void bench_settle(const struct bench_run *run);

/* The in-kernel benchmarks of benchmarks.def, bench_<name>.c each. */
#define BENCH(name, where, fixture, axes) BENCH_##where(name)
#define BENCH_USER(name)
#define METRIC(name, unit, direction, kind, family)
#define BENCH_MODULE(name) extern const struct bench bench_##name;
#include "benchmarks.def"
#undef BENCH_MODULE

struct dentry;
void hold_init(struct dentry *dir);
void hold_exit(void);
void unplug_init(struct dentry *dir);
void unplug_exit(void);

#endif
