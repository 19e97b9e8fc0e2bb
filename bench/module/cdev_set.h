/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set of n cdevs of `minors` minors each over `majors` dynamically
 * allocated majors (minor order, n / majors per major), shared by the
 * registration benchmark and the hold command that keeps cdevs registered
 * for the open benchmarks.
 */
#ifndef CDEV_SET_H
#define CDEV_SET_H

#include <linux/cdev.h>
#include <linux/types.h>

struct cdev_set {
	struct cdev *cdevs;
	dev_t *regions;
	u32 n, majors, minors, per_major;
	u32 removed, added;	/* cdevs[removed..added) are registered */
	u32 regions_held;
};

/* Allocate the cdevs and reserve the regions; nothing registered yet. */
int cdev_set_alloc(struct cdev_set *set, u32 n, u32 majors, u32 minors);
dev_t cdev_set_dev(const struct cdev_set *set, u32 i);
/* cdev_init() and cdev_add() of cdev i, which must be set->added. */
int cdev_set_add_next(struct cdev_set *set, const struct file_operations *fops);
/* cdev_del() of the oldest registered cdev: removal in registration order. */
void cdev_set_del_next(struct cdev_set *set);
/* cdev_del() of every cdev still registered, then free everything. */
void cdev_set_free(struct cdev_set *set);

#endif
