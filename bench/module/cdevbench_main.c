// SPDX-License-Identifier: GPL-2.0
/*
 * cdevbench harness: runs the in-kernel benchmarks on request and hands the
 * results back through debugfs, never through printk:
 *
 *   /sys/kernel/debug/cdevbench/{n,reps,majors,minors,settle}  parameters
 *                                        (u32, rw; settle: bench_settle())
 *   /sys/kernel/debug/cdevbench/run      write a benchmark name to run it;
 *                                        the write fails with its error
 *   /sys/kernel/debug/cdevbench/results  "metric param iter value unit"
 *   /sys/kernel/debug/cdevbench/raw      "metric param iter op ns" per operation
 * Records are whitespace-separated, the param "key=value,..." unquoted:
 * bench/lib/rows turns them into the run's rows, the one place that
 * orders and quotes params.
 *   /sys/kernel/debug/cdevbench/hold     cdevs kept registered (hold.c)
 *   /sys/kernel/debug/cdevbench/unplug   cdevs removed while open (unplug.c)
 *
 * value is the mean per operation of one repetition with the timer overhead
 * (the median of back-to-back ktime_get_ns() pairs, reported as the
 * timer_overhead_ns row, its iter the run's number since the module was
 * loaded) subtracted.  Sample storage is allocated before a
 * repetition starts so the timed loops allocate nothing of their own.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "cdevbench.h"

#define MAX_METRICS	4
#define MAX_NAME	32	/* a benchmark's name written to run is shorter */
#define MAX_N		1000000
#define OVERHEAD_PAIRS	1001

static const struct bench *const benches[] = {
#define BENCH_MODULE(name) &bench_##name,
#include "benchmarks.def"
#undef BENCH_MODULE
};

struct text_buf {
	char *data;
	size_t len, cap;
};

struct metric_samples {
	const char *metric;
	u64 *ns;
	u32 count;
};

struct bench_run {
	struct bench_params params;
	struct metric_samples metrics[MAX_METRICS];
	bool overflow;
};

static struct bench_params params = {
	.n = 1000, .reps = 5, .majors = 1, .minors = 1,
};
static DEFINE_MUTEX(run_lock);	/* one run at a time; guards the buffers */
static struct text_buf results, raw;
static u32 runs;	/* since load: the iter of a run's timer_overhead_ns */
static struct dentry *dir;

const struct bench_params *bench_params(const struct bench_run *run)
{
	return &run->params;
}

const struct bench_params *bench_current_params(void)
{
	return &params;
}

int bench_params_check(const struct bench_params *p)
{
	if (!p->n || p->n > MAX_N || !p->reps || !p->majors || p->majors > p->n ||
	    !p->minors)
		return -EINVAL;
	if ((u64)DIV_ROUND_UP(p->n, p->majors) * p->minors > MINORMASK + 1)
		return -ERANGE;
	return 0;
}

/*
 * kfree_rcu() batches wait KFREE_DRAIN_JIFFIES (HZ / 50) before they ask
 * for a grace period, and rcu_barrier() does not wait for them in 6.1:
 * sleep past that first, then wait for every queued callback.
 */
#define SETTLE_MS	100

void bench_settle(const struct bench_run *run)
{
	if (!run->params.settle)
		return;
	msleep(SETTLE_MS);
	rcu_barrier();
}

bool bench_interrupted(void)
{
	return fatal_signal_pending(current);
}

void bench_sample(struct bench_run *run, const char *metric, u64 ns)
{
	struct metric_samples *m;

	for (m = run->metrics; m < run->metrics + MAX_METRICS; m++) {
		if (!m->metric)
			m->metric = metric;
		if (m->metric != metric && strcmp(m->metric, metric))
			continue;
		if (m->count < run->params.n)
			m->ns[m->count++] = ns;
		else
			run->overflow = true;
		return;
	}
	run->overflow = true;
}

static __printf(2, 3) int buf_printf(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->len + len + 1 > b->cap) {
		size_t cap = max(b->cap * 2, b->len + len + 1 + PAGE_SIZE);
		/* not kvrealloc(): 6.12 dropped its old-size argument */
		char *data = kvmalloc(cap, GFP_KERNEL);

		if (!data)
			return -ENOMEM;
		if (b->len)
			memcpy(data, b->data, b->len);
		kvfree(b->data);
		b->data = data;
		b->cap = cap;
	}
	va_start(ap, fmt);
	b->len += vscnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median cost of reading the clock, subtracted from every sample. */
static u64 timer_overhead_ns(void)
{
	u64 *d = kmalloc_array(OVERHEAD_PAIRS, sizeof(*d), GFP_KERNEL);
	u64 median;
	int i;

	if (!d)
		return 0;
	for (i = 0; i < OVERHEAD_PAIRS; i++) {
		u64 t0 = ktime_get_ns();

		d[i] = ktime_get_ns() - t0;
	}
	sort(d, OVERHEAD_PAIRS, sizeof(*d), cmp_u64, NULL);
	median = d[OVERHEAD_PAIRS / 2];
	kfree(d);
	return median;
}

/* The param's pairs; majors and minors only when not 1. */
static void format_param(char *s, size_t size, const struct bench_params *p)
{
	int len = scnprintf(s, size, "n=%u", p->n);

	if (p->majors != 1)
		len += scnprintf(s + len, size - len, ",majors=%u", p->majors);
	if (p->minors != 1)
		scnprintf(s + len, size - len, ",minors=%u", p->minors);
}

/* One results row per metric: the repetition's mean, in tenths of ns. */
static int emit_iteration(struct bench_run *run, const char *param, int iter,
			  u64 overhead)
{
	struct metric_samples *m;
	u32 i;
	int err = 0;

	for (m = run->metrics; m < run->metrics + MAX_METRICS && m->metric; m++) {
		u64 sum = 0;
		s64 mean10;

		if (!m->count)
			continue;
		for (i = 0; i < m->count && !err; i++) {
			sum += m->ns[i];
			err = buf_printf(&raw, "%s %s %d %u %lld\n", m->metric,
					 param, iter, i, (s64)m->ns[i] - overhead);
		}
		mean10 = div_u64(sum * 10 + m->count / 2, m->count) - overhead * 10;
		err = err ?: buf_printf(&results, "%s %s %d %lld.%lld ns\n",
					m->metric, param, iter, mean10 / 10,
					abs(mean10 % 10));
	}
	return err;
}

static int run_bench(const struct bench *bench)
{
	struct bench_run *run;
	char param[48];
	u64 overhead;
	int iter, i, err = 0;

	err = bench_params_check(&params);
	if (err)
		return err;
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	run->params = params;
	for (i = 0; i < MAX_METRICS; i++) {
		run->metrics[i].ns = kvmalloc_array(params.n, sizeof(u64), GFP_KERNEL);
		if (!run->metrics[i].ns) {
			err = -ENOMEM;
			goto out;
		}
	}
	format_param(param, sizeof(param), &params);
	overhead = timer_overhead_ns();
	err = buf_printf(&results, "timer_overhead_ns clock=ktime %u %llu ns\n",
			 runs++, overhead);

	/* iter -1 is the untimed warm-up: it populates slab caches and the
	 * kobj_map probe cache so the first timed repetition is not special. */
	for (iter = -1; iter < (int)params.reps && !err; iter++) {
		for (i = 0; i < MAX_METRICS; i++)
			run->metrics[i].count = 0;
		err = bench->run_once(run, iter);
		if (!err && run->overflow)
			err = -EOVERFLOW;
		if (!err && iter >= 0)
			err = emit_iteration(run, param, iter, overhead);
	}
out:
	for (i = 0; i < MAX_METRICS; i++)
		kvfree(run->metrics[i].ns);
	kfree(run);
	return err;
}

static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	const struct bench *bench = NULL;
	int i, err = -ENOENT;
	char *name;

	if (count >= MAX_NAME)
		return -EINVAL;
	name = memdup_user_nul(ubuf, count);
	if (IS_ERR(name))
		return PTR_ERR(name);
	strim(name);
	/* a benchmark declared with two sweeps is listed twice: run it once */
	for (i = 0; i < ARRAY_SIZE(benches) && !bench; i++)
		if (!strcmp(name, benches[i]->name))
			bench = benches[i];
	kfree(name);	/* the benchmark then runs with none of the write's memory held */

	mutex_lock(&run_lock);
	results.len = 0;
	raw.len = 0;
	if (bench)
		err = run_bench(bench);
	mutex_unlock(&run_lock);
	return err ?: count;
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.write = run_write,
};

static int text_buf_show(struct seq_file *s, void *unused)
{
	struct text_buf *b = s->private;

	mutex_lock(&run_lock);
	if (b->len)
		seq_write(s, b->data, b->len);
	mutex_unlock(&run_lock);
	return 0;
}

static int text_buf_open(struct inode *inode, struct file *file)
{
	struct text_buf *b = inode->i_private;

	return single_open_size(file, text_buf_show, b, b->len + PAGE_SIZE);
}

static const struct file_operations text_buf_fops = {
	.owner = THIS_MODULE,
	.open = text_buf_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init cdevbench_init(void)
{
	dir = debugfs_create_dir("cdevbench", NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_u32("n", 0600, dir, &params.n);
	debugfs_create_u32("reps", 0600, dir, &params.reps);
	debugfs_create_u32("majors", 0600, dir, &params.majors);
	debugfs_create_u32("minors", 0600, dir, &params.minors);
	debugfs_create_u32("settle", 0600, dir, &params.settle);
	debugfs_create_file("run", 0200, dir, NULL, &run_fops);
	debugfs_create_file("results", 0400, dir, &results, &text_buf_fops);
	debugfs_create_file("raw", 0400, dir, &raw, &text_buf_fops);
	hold_init(dir);
	unplug_init(dir);
	return 0;
}

static void __exit cdevbench_exit(void)
{
	debugfs_remove_recursive(dir);
	hold_exit();
	unplug_exit();
	kvfree(results.data);
	kvfree(raw.data);
}

module_init(cdevbench_init);
module_exit(cdevbench_exit);
MODULE_DESCRIPTION("cdevbench: char-device core microbenchmarks");
MODULE_LICENSE("GPL");
