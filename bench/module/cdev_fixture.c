// SPDX-License-Identifier: GPL-2.0
/*
 * cdev_fixture: char devices on demand for the guest selftest
 * (bench/selftest/cdev_selftest.c).  At load it reserves FIXTURE_MINORS
 * minors of one dynamic major; the selftest then registers and removes
 * cdevs over them through /sys/kernel/debug/cdev_fixture/:
 *
 *   major   the reserved major (read)
 *   parents the fixture parents alive (read): each "device" or "parent"
 *           registration allocates one, freed when its last reference goes
 *   ctl     "add <slot> <first minor> <count> <kind>" registers a cdev;
 *           "del <slot>" removes it.  The write fails with the error.
 *
 * Kinds, each the way a kind of driver registers:
 *   static  cdev_init() on a cdev embedded in the driver's structure
 *   delfail the same, calling cdev_del() if cdev_add() fails, as dvb-core
 *           does
 *   alloc   cdev_alloc()
 *   device  f_hid's way: cdev_alloc() and cdev_device_add() with a device
 *           of the driver's, and open() finds the driver's data from the
 *           cdev's parent; del is cdev_device_del() and put_device()
 *   parent  dfl's way: an embedded cdev whose parent (the driver's device)
 *           is set directly, not through cdev_set_parent(); del is
 *           cdev_del() and put_device()
 * For the last two the parent must outlive every open file (cdev_add()
 * takes a reference on it that the cdev's release drops).
 *
 * Each cdev's read() answers "slot=<slot> minor=<minor> writes=<count>\n",
 * so the test can tell which registration served an open, and write()
 * counts the bytes written to it.
 */
#include <linux/cdev.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#define FIXTURE_MINORS	64
#define FIXTURE_SLOTS	8
#define CTL_MAX		64	/* a ctl command is shorter */

/*
 * Where this tree keeps a cdev's lifetime parent, the object cdev_add()
 * pins: kobj.parent in 6.1, cdev->parent where the series moved it so that
 * kobj.parent can be the sysfs directory (sysfs-cdev; Kbuild tells).  The
 * in-tree drivers modelled here reach it the same way on each tree, which
 * scripts/cdev-audit.sh checks.
 */
#ifdef CDEV_LIFETIME_PARENT_FIELD
#define cdev_lifetime_parent(cdev)	((cdev)->parent)
#else
#define cdev_lifetime_parent(cdev)	((cdev)->kobj.parent)
#endif

struct fixture {
	struct cdev embedded;	/* "static", "delfail" and "parent" */
	struct cdev *cdev;	/* the registered cdev, NULL when free */
	struct fixture_parent *parent;	/* "device" and "parent" */
	atomic_t writes;
};

/* The driver's device that its cdev names as parent. */
struct fixture_parent {
	struct device dev;
	struct fixture *slot;
};

static struct fixture fixtures[FIXTURE_SLOTS];
static atomic_t parents_live;
static DEFINE_MUTEX(fixture_lock);
static dev_t fixture_base;
static struct dentry *dir;

/* The slot that registered @cdev, embedded or from cdev_alloc(). */
static struct fixture *fixture_of(struct cdev *cdev)
{
	int i;

	for (i = 0; i < FIXTURE_SLOTS; i++)
		if (fixtures[i].cdev == cdev || &fixtures[i].embedded == cdev)
			return &fixtures[i];
	return NULL;
}

static int fixture_open(struct inode *inode, struct file *file)
{
	struct fixture *f = fixture_of(inode->i_cdev);

	if (!f)
		return -ENODEV;
	file->private_data = f;
	return 0;
}

/*
 * f_hid's open: the driver's data is the device that the cdev names as its
 * parent.  f_hid takes container_of() on it; the fixture looks the parent
 * up instead, so that a wrong one fails the open rather than the kernel.
 */
static int fixture_parent_open(struct inode *inode, struct file *file)
{
	struct kobject *parent = cdev_lifetime_parent(inode->i_cdev);
	int i;

	for (i = 0; i < FIXTURE_SLOTS; i++)
		if (fixtures[i].parent && &fixtures[i].parent->dev.kobj == parent) {
			file->private_data = fixtures[i].parent->slot;
			return 0;
		}
	return -ENODEV;
}

static ssize_t fixture_read(struct file *file, char __user *buf, size_t len,
			    loff_t *ppos)
{
	struct fixture *f = file->private_data;
	char msg[64];
	int n;

	n = scnprintf(msg, sizeof(msg), "slot=%td minor=%u writes=%d\n",
		      f - fixtures, iminor(file_inode(file)),
		      atomic_read(&f->writes));
	return simple_read_from_buffer(buf, len, ppos, msg, n);
}

static ssize_t fixture_write(struct file *file, const char __user *buf,
			     size_t len, loff_t *ppos)
{
	struct fixture *f = file->private_data;

	atomic_add(len, &f->writes);
	return len;
}

static const struct file_operations fixture_fops = {
	.owner = THIS_MODULE,
	.open = fixture_open,
	.read = fixture_read,
	.write = fixture_write,
	.llseek = default_llseek,
};

static const struct file_operations fixture_parent_fops = {
	.owner = THIS_MODULE,
	.open = fixture_parent_open,
	.read = fixture_read,
	.write = fixture_write,
	.llseek = default_llseek,
};

static void fixture_parent_release(struct device *dev)
{
	kfree(container_of(dev, struct fixture_parent, dev));
	atomic_dec(&parents_live);
}

static struct fixture_parent *fixture_parent_new(struct fixture *f, dev_t devt)
{
	struct fixture_parent *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	atomic_inc(&parents_live);
	device_initialize(&p->dev);
	p->dev.release = fixture_parent_release;
	p->dev.devt = devt;
	p->slot = f;
	if (dev_set_name(&p->dev, "cdev_fixture.%td", f - fixtures)) {
		put_device(&p->dev);
		return NULL;
	}
	return p;
}

static int fixture_add(unsigned int slot, unsigned int minor,
		       unsigned int count, const char *kind)
{
	bool del_on_fail = !strcmp(kind, "delfail");
	bool embedded = del_on_fail || !strcmp(kind, "static") ||
			!strcmp(kind, "parent");
	bool device = !strcmp(kind, "device");
	struct fixture *f = &fixtures[slot];
	dev_t devt = fixture_base + minor;
	struct fixture_parent *p = NULL;
	struct cdev *cdev;
	int err;

	if (!embedded && !device && strcmp(kind, "alloc"))
		return -EINVAL;
	if (f->cdev)
		return -EBUSY;
	if (!count || minor >= FIXTURE_MINORS || count > FIXTURE_MINORS - minor)
		return -ERANGE;
	if (device || !strcmp(kind, "parent")) {
		if (count != 1)
			return -ERANGE;
		p = fixture_parent_new(f, devt);
		if (!p)
			return -ENOMEM;
	}
	/*
	 * After a failure with a parent, who holds which reference differs
	 * between variants (the fault phase measures that); the case has
	 * failed anyway, and its parent is leaked rather than put twice.
	 */
	if (embedded) {
		cdev = &f->embedded;
		cdev_init(cdev, &fixture_fops);
		if (p)
			cdev_lifetime_parent(cdev) = &p->dev.kobj;
	} else {
		cdev = cdev_alloc();
		if (!cdev)
			return -ENOMEM;
		cdev->ops = p ? &fixture_parent_fops : &fixture_fops;
	}
	cdev->owner = THIS_MODULE;
	atomic_set(&f->writes, 0);
	if (device) {
		err = cdev_device_add(cdev, &p->dev);
	} else {
		err = cdev_add(cdev, devt, count);
		/* Drops the kobject and, for cdev_alloc(), frees the cdev. */
		if (err && del_on_fail)
			cdev_del(cdev);
		else if (err && !p)
			kobject_put(&cdev->kobj);
	}
	if (err)
		return err;
	f->cdev = cdev;
	f->parent = p;
	return 0;
}

static int fixture_del(unsigned int slot)
{
	struct fixture *f = &fixtures[slot];

	if (!f->cdev)
		return -ENOENT;
	if (f->parent && f->cdev != &f->embedded)
		cdev_device_del(f->cdev, &f->parent->dev);
	else
		cdev_del(f->cdev);
	/* The driver lets its device go; an open file still pins it. */
	if (f->parent)
		put_device(&f->parent->dev);
	f->cdev = NULL;
	f->parent = NULL;
	return 0;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	unsigned int slot, minor, count;
	char *cmd, kind[8];
	int err;

	if (len >= CTL_MAX)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, len);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);

	mutex_lock(&fixture_lock);
	if (sscanf(cmd, "add %u %u %u %7s", &slot, &minor, &count, kind) == 4)
		err = slot < FIXTURE_SLOTS ?
			fixture_add(slot, minor, count, kind) : -ERANGE;
	else if (sscanf(cmd, "del %u", &slot) == 1)
		err = slot < FIXTURE_SLOTS ? fixture_del(slot) : -ERANGE;
	else
		err = -EINVAL;
	mutex_unlock(&fixture_lock);
	kfree(cmd);
	return err ?: len;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
};

static int major_get(void *data, u64 *val)
{
	*val = MAJOR(fixture_base);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(major_fops, major_get, NULL, "%llu\n");

static int parents_get(void *data, u64 *val)
{
	*val = atomic_read(&parents_live);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(parents_fops, parents_get, NULL, "%llu\n");

static int __init fixture_init(void)
{
	int err = alloc_chrdev_region(&fixture_base, 0, FIXTURE_MINORS,
				      "cdev_fixture");

	if (err)
		return err;
	dir = debugfs_create_dir("cdev_fixture", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	debugfs_create_file_unsafe("major", 0400, dir, NULL, &major_fops);
	debugfs_create_file_unsafe("parents", 0400, dir, NULL, &parents_fops);
	return 0;
}

static void __exit fixture_exit(void)
{
	int i;

	debugfs_remove_recursive(dir);
	for (i = 0; i < FIXTURE_SLOTS; i++)
		if (fixtures[i].cdev)
			fixture_del(i);
	unregister_chrdev_region(fixture_base, FIXTURE_MINORS);
}

module_init(fixture_init);
module_exit(fixture_exit);
MODULE_DESCRIPTION("cdevbench: char devices on demand for the selftest");
MODULE_LICENSE("GPL");
