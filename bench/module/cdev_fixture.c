// SPDX-License-Identifier: GPL-2.0
/*
 * cdev_fixture: char devices on demand for the guest selftest
 * (bench/selftest/cdev_selftest.c).  At load it reserves FIXTURE_MINORS
 * minors of one dynamic major; the selftest then registers and removes
 * cdevs over them through /sys/kernel/debug/cdev_fixture/:
 *
 *   major   the reserved major (read)
 *   ctl     "add <slot> <first minor> <count> static|alloc" registers a cdev
 *           with cdev_init() (embedded, static) or cdev_alloc();
 *           "del <slot>" removes it.  The write fails with the error.
 *
 * Each cdev's read() answers "slot=<slot> minor=<minor> writes=<count>\n",
 * so the test can tell which registration served an open, and write()
 * counts the bytes written to it.
 */
#include <linux/cdev.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define FIXTURE_MINORS	64
#define FIXTURE_SLOTS	8

struct fixture {
	struct cdev embedded;	/* used by "static" registrations */
	struct cdev *cdev;	/* the registered cdev, NULL when free */
	atomic_t writes;
};

static struct fixture fixtures[FIXTURE_SLOTS];
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

static int fixture_add(unsigned int slot, unsigned int minor,
		       unsigned int count, const char *kind)
{
	struct fixture *f = &fixtures[slot];
	struct cdev *cdev;
	int err;

	if (f->cdev)
		return -EBUSY;
	if (!count || minor >= FIXTURE_MINORS || count > FIXTURE_MINORS - minor)
		return -ERANGE;
	if (!strcmp(kind, "static")) {
		cdev = &f->embedded;
		cdev_init(cdev, &fixture_fops);
	} else if (!strcmp(kind, "alloc")) {
		cdev = cdev_alloc();
		if (!cdev)
			return -ENOMEM;
		cdev->ops = &fixture_fops;
	} else {
		return -EINVAL;
	}
	cdev->owner = THIS_MODULE;
	atomic_set(&f->writes, 0);
	err = cdev_add(cdev, fixture_base + minor, count);
	if (err) {
		/* Drops the kobject and, for cdev_alloc(), frees the cdev. */
		kobject_put(&cdev->kobj);
		return err;
	}
	f->cdev = cdev;
	return 0;
}

static int fixture_del(unsigned int slot)
{
	struct fixture *f = &fixtures[slot];

	if (!f->cdev)
		return -ENOENT;
	cdev_del(f->cdev);
	f->cdev = NULL;
	return 0;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	unsigned int slot, minor, count;
	char cmd[64], kind[8];
	int err;

	if (len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';

	mutex_lock(&fixture_lock);
	if (sscanf(cmd, "add %u %u %u %7s", &slot, &minor, &count, kind) == 4)
		err = slot < FIXTURE_SLOTS ?
			fixture_add(slot, minor, count, kind) : -ERANGE;
	else if (sscanf(cmd, "del %u", &slot) == 1)
		err = slot < FIXTURE_SLOTS ? fixture_del(slot) : -ERANGE;
	else
		err = -EINVAL;
	mutex_unlock(&fixture_lock);
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

static int __init fixture_init(void)
{
	int err = alloc_chrdev_region(&fixture_base, 0, FIXTURE_MINORS,
				      "cdev_fixture");

	if (err)
		return err;
	dir = debugfs_create_dir("cdev_fixture", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	debugfs_create_file_unsafe("major", 0400, dir, NULL, &major_fops);
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
