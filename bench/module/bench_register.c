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
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "cdevbench.h"

static const struct file_operations bench_register_fops = {
	.owner = THIS_MODULE,
};

static int bench_register_once(struct bench_run *run, int iter)
{
	const struct bench_params *p = bench_params(run);
	u32 per_major = DIV_ROUND_UP(p->n, p->majors);
	struct cdev *cdevs;
	dev_t *regions;
	u32 i, added = 0, regions_held = 0;
	int err = 0;

	cdevs = kvcalloc(p->n, sizeof(*cdevs), GFP_KERNEL);
	regions = kcalloc(p->majors, sizeof(*regions), GFP_KERNEL);
	if (!cdevs || !regions) {
		err = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < p->majors; i++) {
		err = alloc_chrdev_region(&regions[i], 0, per_major, "cdevbench");
		if (err)
			goto out_release;
		regions_held++;
	}

	for (added = 0; added < p->n; added++) {
		dev_t dev = regions[added / per_major] + added % per_major;
		u64 t0;

		cdev_init(&cdevs[added], &bench_register_fops);
		t0 = ktime_get_ns();
		err = cdev_add(&cdevs[added], dev, 1);
		if (err)
			break;
		bench_sample(run, "cdev_add_ns", ktime_get_ns() - t0);
		if (bench_interrupted()) {
			err = -EINTR;
			added++;
			break;
		}
		cond_resched();
	}
	for (i = 0; i < added; i++) {
		u64 t0 = ktime_get_ns();

		cdev_del(&cdevs[i]);
		bench_sample(run, "cdev_del_ns", ktime_get_ns() - t0);
	}
out_release:
	for (i = 0; i < regions_held; i++)
		unregister_chrdev_region(regions[i], per_major);
out_free:
	kfree(regions);
	kvfree(cdevs);
	return err;
}

const struct bench bench_register = {
	.name = "register",
	.run_once = bench_register_once,
};
