// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/cdevbench/hold: keeps n cdevs registered (the `n` and
 * `majors` parameters) while user space opens them, for open_lookup_ns and
 * open_cached_ns and the memory counts.
 *
 *   echo 1 > hold    register them, in minor order (fails with the error)
 *   echo 0 > hold    remove them
 *   cat hold         "<major> <first minor> <count>" per major, in
 *                    registration order; empty when nothing is held
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include "cdevbench.h"
#include "cdev_set.h"

static const struct file_operations held_fops = {
	.owner = THIS_MODULE,	/* opens and closes through chrdev_open only */
};

static DEFINE_MUTEX(hold_lock);
static struct cdev_set held;

static int hold_register(const struct bench_params *p)
{
	int err;

	if (held.n)
		return -EBUSY;
	err = bench_params_check(p);
	if (err)
		return err;
	err = cdev_set_alloc(&held, p->n, p->majors, p->minors);
	while (!err && held.added < held.n) {
		err = cdev_set_add_next(&held, &held_fops);
		cond_resched();
	}
	if (err)
		cdev_set_free(&held);
	return err;
}

static ssize_t hold_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	bool on;
	int err = kstrtobool_from_user(ubuf, count, &on);

	if (err)
		return err;
	mutex_lock(&hold_lock);
	if (on)
		err = hold_register(bench_current_params());
	else
		cdev_set_free(&held);
	mutex_unlock(&hold_lock);
	return err ?: count;
}

static int hold_show(struct seq_file *s, void *unused)
{
	u32 i;

	mutex_lock(&hold_lock);
	for (i = 0; i < held.regions_held; i++)
		seq_printf(s, "%u %u %u\n", MAJOR(held.regions[i]),
			   MINOR(held.regions[i]),
			   min(held.per_major, held.n - i * held.per_major));
	mutex_unlock(&hold_lock);
	return 0;
}

static int hold_open(struct inode *inode, struct file *file)
{
	return single_open(file, hold_show, NULL);
}

static const struct file_operations hold_fops = {
	.owner = THIS_MODULE,
	.open = hold_open,
	.read = seq_read,
	.write = hold_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void hold_init(struct dentry *dir)
{
	debugfs_create_file("hold", 0600, dir, NULL, &hold_fops);
}

void hold_exit(void)
{
	mutex_lock(&hold_lock);
	cdev_set_free(&held);
	mutex_unlock(&hold_lock);
}
