// SPDX-License-Identifier: GPL-2.0
/* A set of cdevs over several majors; see cdev_set.h. */
#include <linux/fs.h>
#include <linux/slab.h>
#include "cdev_set.h"

int cdev_set_alloc(struct cdev_set *set, u32 n, u32 majors, u32 minors)
{
	u32 i;
	int err;

	*set = (struct cdev_set){ .n = n, .majors = majors, .minors = minors,
				  .per_major = DIV_ROUND_UP(n, majors) };
	set->cdevs = kvcalloc(n, sizeof(*set->cdevs), GFP_KERNEL);
	set->regions = kcalloc(majors, sizeof(*set->regions), GFP_KERNEL);
	if (!set->cdevs || !set->regions) {
		cdev_set_free(set);
		return -ENOMEM;
	}
	for (i = 0; i < majors; i++) {
		err = alloc_chrdev_region(&set->regions[i], 0,
					  set->per_major * minors, "cdevbench");
		if (err) {
			cdev_set_free(set);
			return err;
		}
		set->regions_held++;
	}
	return 0;
}

dev_t cdev_set_dev(const struct cdev_set *set, u32 i)
{
	return set->regions[i / set->per_major] + i % set->per_major * set->minors;
}

int cdev_set_add_next(struct cdev_set *set, const struct file_operations *fops)
{
	struct cdev *cdev = &set->cdevs[set->added];
	int err;

	cdev_init(cdev, fops);
	cdev->owner = fops->owner;
	err = cdev_add(cdev, cdev_set_dev(set, set->added), set->minors);
	if (err) {
		/* Drops what a failed cdev_add() may hold (the kobject name on
		 * kernels that register cdevs in sysfs). */
		kobject_put(&cdev->kobj);
		return err;
	}
	set->added++;
	return 0;
}

void cdev_set_del_next(struct cdev_set *set)
{
	cdev_del(&set->cdevs[set->removed++]);
}

void cdev_set_free(struct cdev_set *set)
{
	u32 i;

	while (set->removed < set->added)
		cdev_set_del_next(set);
	for (i = 0; i < set->regions_held; i++)
		unregister_chrdev_region(set->regions[i],
					 set->per_major * set->minors);
	kfree(set->regions);
	kvfree(set->cdevs);
	*set = (struct cdev_set){};
}
