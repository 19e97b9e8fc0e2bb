// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/cdevbench/unplug: cdevs that user space opens and then
 * removes while their nodes are cached or open, as unplugging a device
 * does, for the teardown benchmarks (bench/user/unplug_*.c).
 *
 *   echo "add K dynamic" > unplug    register K single-minor cdev_alloc()
 *                                    cdevs on a fresh major (tty's way)
 *   echo "add K embedded" > unplug   the same, each cdev embedded in a
 *                                    driver structure that it names as its
 *                                    parent (cdev_set_parent(), evdev's way)
 *   echo del > unplug                cdev_del() every one, in registration
 *                                    order, the driver dropping its own
 *                                    reference to an embedded cdev's
 *                                    structure, and free the numbers; the
 *                                    write returns when that is done
 *   cat unplug                       "<major> <first minor> <count>" while
 *                                    registered, empty otherwise
 *
 * Memory outlives the write that removes it wherever a file still holds
 * the cdev: a dynamic cdev frees itself on its last put, an embedded one's
 * structure goes with its parent's last reference.
 */
#include <linux/cdev.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "cdevbench.h"

#define UNPLUG_MAX	4096

static const struct file_operations unplug_dev_fops = {
	.owner = THIS_MODULE,	/* opens and closes through chrdev_open only */
};

/* A driver's per-device structure with its cdev embedded. */
struct unplug_dev {
	struct kobject kobj;	/* the structure's lifetime: the cdev's parent */
	struct cdev cdev;
};

static void unplug_dev_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct unplug_dev, kobj));
}

static const struct kobj_type unplug_dev_ktype = {
	.release = unplug_dev_release,
};

static DEFINE_MUTEX(unplug_lock);
static struct cdev **cdevs;	/* the registered ones, NULL when none */
static u32 count;
static bool embedded;
static dev_t base;

/* cdev_del() of each registered cdev, then its numbers. */
static void unplug_del(void)
{
	u32 i;

	for (i = 0; i < count; i++) {
		struct unplug_dev *d = embedded ?
			container_of(cdevs[i], struct unplug_dev, cdev) : NULL;

		cdev_del(cdevs[i]);
		if (d)		/* the driver's reference: its own structure */
			kobject_put(&d->kobj);
		cond_resched();
	}
	if (cdevs)
		unregister_chrdev_region(base, count);
	kvfree(cdevs);
	cdevs = NULL;
	count = 0;
}

static struct cdev *unplug_new(bool in_struct)
{
	struct unplug_dev *d;
	struct cdev *cdev;

	if (!in_struct) {
		cdev = cdev_alloc();
		if (cdev)
			cdev->ops = &unplug_dev_fops;
		return cdev;
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return NULL;
	kobject_init(&d->kobj, &unplug_dev_ktype);
	cdev_init(&d->cdev, &unplug_dev_fops);
	cdev_set_parent(&d->cdev, &d->kobj);
	return &d->cdev;
}

static int unplug_add(u32 n, bool in_struct)
{
	int err;

	if (cdevs)
		return -EBUSY;
	if (!n || n > UNPLUG_MAX)
		return -ERANGE;
	cdevs = kvcalloc(n, sizeof(*cdevs), GFP_KERNEL);
	if (!cdevs)
		return -ENOMEM;
	err = alloc_chrdev_region(&base, 0, n, "cdevbench-unplug");
	if (err) {
		kvfree(cdevs);
		cdevs = NULL;
		return err;
	}
	embedded = in_struct;
	for (count = 0; count < n; count++) {
		struct cdev *cdev = unplug_new(in_struct);

		if (!cdev) {
			err = -ENOMEM;
			break;
		}
		cdev->owner = THIS_MODULE;
		err = cdev_add(cdev, base + count, 1);
		if (err) {
			/*
			 * A failed cdev_add() took no reference to the parent:
			 * the structure goes with the driver's, a dynamic cdev
			 * with its own.
			 */
			if (in_struct)
				kobject_put(&container_of(cdev, struct unplug_dev, cdev)->kobj);
			else
				kobject_put(&cdev->kobj);
			break;
		}
		cdevs[count] = cdev;
	}
	if (err) {
		if (!count) {
			unregister_chrdev_region(base, n);
			kvfree(cdevs);
			cdevs = NULL;
		} else {
			/* free the numbers past the last one registered */
			unregister_chrdev_region(base + count, n - count);
			unplug_del();
		}
	}
	return err;
}

static ssize_t unplug_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char cmd[32], kind[16];
	u32 n;
	int err;

	/*
	 * Onto the stack, not memdup_user_nul(): "del" is the timed operation
	 * of unplug_del_cached_ns, which times the removal, not an allocation
	 * of the write's own.
	 */
	if (len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';
	mutex_lock(&unplug_lock);
	if (sscanf(cmd, "add %u %15s", &n, kind) == 2 &&
	    (!strcmp(kind, "dynamic") || !strcmp(kind, "embedded"))) {
		err = unplug_add(n, !strcmp(kind, "embedded"));
	} else if (!strcmp(strim(cmd), "del")) {
		err = cdevs ? 0 : -ENOENT;
		unplug_del();
	} else {
		err = -EINVAL;
	}
	mutex_unlock(&unplug_lock);
	return err ?: len;
}

static int unplug_show(struct seq_file *s, void *unused)
{
	mutex_lock(&unplug_lock);
	if (cdevs)
		seq_printf(s, "%u %u %u\n", MAJOR(base), MINOR(base), count);
	mutex_unlock(&unplug_lock);
	return 0;
}

static int unplug_open(struct inode *inode, struct file *file)
{
	return single_open(file, unplug_show, NULL);
}

static const struct file_operations unplug_fops = {
	.owner = THIS_MODULE,
	.open = unplug_open,
	.read = seq_read,
	.write = unplug_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void unplug_init(struct dentry *dir)
{
	debugfs_create_file("unplug", 0600, dir, NULL, &unplug_fops);
}

void unplug_exit(void)
{
	mutex_lock(&unplug_lock);
	unplug_del();
	mutex_unlock(&unplug_lock);
}
