// SPDX-License-Identifier: GPL-2.0
/*
 * User-space benchmark harness, linked with one benchmark file.
 *
 * Options as bench/lib/bench_options.h.  One untimed warm-up repetition,
 * then R repetitions; in each, T threads (the param's threads, 1 without)
 * start together and time K operations each with CLOCK_MONOTONIC.  Writes
 * one samples.csv row per repetition (mean ns per operation over all
 * threads, minus the clock-read overhead, which gets a timer_overhead_ns
 * row of its own as repetition --run) to stdout, and every operation's
 * time to the --raw file.  Rows, params and the raw file as
 * bench/lib/results.h writes them.
 *
 * Each thread's operations of a repetition are one window of the TCG
 * plugin (bench/lib/pmu_window.h): counted between the clock reads around
 * each op, closed after the last.  The two marker NOPs are two more
 * instructions in each timed op (2 ns in icount mode).  With --windows
 * the threads are pinned, thread t to CPU t modulo the CPUs, so that a
 * window stays on one vCPU, and each window is listed in that file.
 *
 * The param's sched=lockstep (the plugin's sharing boot) runs the threads'
 * operations in turn, op k of thread t after op k of thread t-1, each
 * waiting outside its window: the same cache lines pass between the same
 * CPUs in the same order however QEMU interleaves the vCPUs, and no
 * operation ever waits on another's lock inside its window.  sched=free
 * (the default) lets them run at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <time.h>
#include "harness.h"
#include "pmu_window.h"
#include "results.h"

#define OVERHEAD_PAIRS 1001

static struct bench_options opt;
static long threads;

struct worker {
	pthread_t tid;
	int thread, err, cpu;
	long done;		/* operations of this repetition */
	long *ns;		/* per-operation times of this repetition */
};

static pthread_barrier_t start;
static int lockstep;
/* lockstep: the next operation to run is op turn / threads of thread
 * turn % threads; -1 when a thread failed and the others must stop */
static long turn;

static int my_turn(const struct worker *w, long k)
{
	long t;

	while ((t = __atomic_load_n(&turn, __ATOMIC_ACQUIRE)) != k * threads + w->thread) {
		if (t < 0)
			return 0;
		__builtin_ia32_pause();	/* QEMU's TCG runs the next vCPU */
	}
	return 1;
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static long timer_overhead_ns(void)
{
	static long d[OVERHEAD_PAIRS];
	int i;

	for (i = 0; i < OVERHEAD_PAIRS; i++) {
		long t0 = now_ns();

		d[i] = now_ns() - t0;
	}
	qsort(d, OVERHEAD_PAIRS, sizeof(*d), cmp_long);
	return d[OVERHEAD_PAIRS / 2];
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	long k;

	if (opt.windows) {
		cpu_set_t cpus;

		CPU_ZERO(&cpus);
		CPU_SET(w->thread % get_nprocs(), &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			w->err = -errno;
	}
	pthread_barrier_wait(&start);
	for (k = 0; k < opt.ops && !w->err; k++) {
		long t0;

		int err;

		if (lockstep && !my_turn(w, k))
			break;
		if (ubench.prepare && (w->err = ubench.prepare(w->thread, k)))
			break;
		t0 = now_ns();
		pmu_count();
		w->err = ubench.op(w->thread, k);
		pmu_pause();
		w->ns[k] = now_ns() - t0;
		/* also after a failed op: remove what prepare made */
		if (ubench.finish && (err = ubench.finish(w->thread, k)))
			w->err = w->err ?: err;
		if (lockstep && !w->err)
			__atomic_store_n(&turn, turn + 1, __ATOMIC_RELEASE);
	}
	if (lockstep && w->err)
		__atomic_store_n(&turn, -1, __ATOMIC_RELEASE);
	pmu_close();
	w->done = k;
	w->cpu = sched_getcpu();
	return NULL;
}

/* One repetition: all threads, then the per-operation times in w[].ns. */
static int run_once(struct worker *w)
{
	long t;
	int err = 0;

	pthread_barrier_init(&start, NULL, threads);
	turn = 0;
	for (t = 0; t < threads; t++) {
		w[t].thread = t;
		w[t].err = 0;
		if (t && pthread_create(&w[t].tid, NULL, worker_run, &w[t])) {
			fprintf(stderr, "%s: pthread_create failed\n", ubench.metric);
			exit(1);
		}
	}
	worker_run(&w[0]);
	for (t = 0; t < threads; t++) {
		if (t)
			pthread_join(w[t].tid, NULL);
		err = err ?: w[t].err;
	}
	pthread_barrier_destroy(&start);
	return err;
}

int main(int argc, char **argv)
{
	struct param overhead_param = { 0 };
	char param_text[256];
	struct worker *w;
	FILE *raw = NULL, *windows = NULL;
	long overhead, iter, t, k;
	int err;

	bench_options_parse(&opt, argc, argv, ubench.metric);
	threads = param_long(&opt, PARAM_threads, 1);
	lockstep = !strcmp(opt.param.value[PARAM_sched], "lockstep");
	if (!lockstep && opt.param.value[PARAM_sched][0] && strcmp(opt.param.value[PARAM_sched], "free")) {
		fprintf(stderr, "%s: sched=%s: lockstep or free\n", ubench.metric,
			opt.param.value[PARAM_sched]);
		return 2;
	}
	param_csv(&opt.param, param_text, sizeof(param_text));
	param_set(&overhead_param, PARAM_clock, "monotonic");
	if (ubench.exit)
		atexit(ubench.exit);
	err = ubench.init ? ubench.init(&opt) : 0;
	if (err) {
		fprintf(stderr, "%s: %s\n", ubench.metric, strerror(-err));
		return 1;
	}
	if (ubench.ops)
		opt.ops = ubench.ops(&opt);
	if (opt.raw && !(raw = fopen(opt.raw, "a"))) {
		fprintf(stderr, "%s: cannot open %s: %m\n", ubench.metric, opt.raw);
		return 1;
	}
	if (opt.windows && !(windows = fopen(opt.windows, "a"))) {
		fprintf(stderr, "%s: cannot open %s: %m\n", ubench.metric, opt.windows);
		return 1;
	}
	w = calloc(threads, sizeof(*w));
	for (t = 0; w && t < threads; t++)
		if (!(w[t].ns = calloc(opt.ops, sizeof(long))))
			w = NULL;
	if (!w) {
		fprintf(stderr, "%s: out of memory\n", ubench.metric);
		return 1;
	}
	overhead = timer_overhead_ns();
	results_row(stdout, opt.variant, opt.boot, "timer_overhead_ns", &overhead_param, opt.run,
		    (double)overhead, 0, "ns");

	for (iter = -1; iter < opt.reps; iter++) {	/* -1: warm-up */
		double sum = 0;

		err = run_once(w);
		for (t = 0; windows && t < threads; t++)
			fprintf(windows, "%d %ld %ld %s %s\n", w[t].cpu, iter, w[t].done,
				ubench.metric, param_text);
		if (err) {
			fprintf(stderr, "%s %s: repetition %ld: %s\n", ubench.metric,
				param_text, iter, strerror(-err));
			return 1;
		}
		if (iter < 0)
			continue;
		for (t = 0; t < threads; t++)
			for (k = 0; k < opt.ops; k++) {
				sum += w[t].ns[k];
				if (raw)
					results_raw_row(raw, ubench.metric, &opt.param, iter,
							t * opt.ops + k, w[t].ns[k] - overhead);
			}
		results_row(stdout, opt.variant, opt.boot, ubench.metric, &opt.param, iter,
			    sum / (double)(threads * opt.ops) - (double)overhead, 1, "ns");
	}
	if (raw && fclose(raw)) {
		fprintf(stderr, "%s: writing %s: %m\n", ubench.metric, opt.raw);
		return 1;
	}
	if (windows && fclose(windows)) {
		fprintf(stderr, "%s: writing %s: %m\n", ubench.metric, opt.windows);
		return 1;
	}
	return 0;
}
