// SPDX-License-Identifier: GPL-2.0
/*
 * Registration benchmark: cdev_add_ns and cdev_del_ns.
 *
 * Registers n single-minor cdevs, in minor order, spread over `majors`
 * dynamically allocated majors (1: all in one kobj_map chain), timing each
 * cdev_add(), then removes them in the same order timing each cdev_del().
 * kobj_map() inserts into a chain sorted by range and kobj_unmap() searches
 * it linearly, so the sweep over n shows how each cost grows with the chain.
 */
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include "cdevbench.h"
#include "cdev_set.h"
#include "pmu_window.h"

static const struct file_operations bench_register_fops = {
	.owner = THIS_MODULE,
};

static int bench_register_once(struct bench_run *run, int iter)
{
	const struct bench_params *p = bench_params(run);
	struct cdev_set set;
	int err;

	err = cdev_set_alloc(&set, p->n, p->majors, p->minors);
	if (err)
		return err;
	/* the TCG plugin's windows: one of the adds, one of the removals */
	while (set.added < set.n) {
		u64 t0 = ktime_get_ns();

		pmu_count();
		err = cdev_set_add_next(&set, &bench_register_fops);
		pmu_pause();
		if (err)
			break;
		bench_sample(run, "cdev_add_ns", ktime_get_ns() - t0);
		if (bench_interrupted()) {
			err = -EINTR;
			break;
		}
		cond_resched();
	}
	pmu_close();
	while (set.removed < set.added) {
		u64 t0 = ktime_get_ns();

		pmu_count();
		cdev_set_del_next(&set);
		pmu_pause();
		bench_sample(run, "cdev_del_ns", ktime_get_ns() - t0);
	}
	pmu_close();
	cdev_set_free(&set);
	bench_settle(run);
	return err;
}

const struct bench bench_register = {
	.name = "register",
	.run_once = bench_register_once,
};
