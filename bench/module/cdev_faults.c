// SPDX-License-Identifier: GPL-2.0
/*
 * cdev_faults: registrations of char devices while allocations fail, for
 * the failure-path phase (bench/faults/fault_phase.c) on the fault kernels
 * (patches/fault.config).  Through /sys/kernel/debug/cdev_faults/:
 *
 *   ctl     "systematic <flavour>": register one cdev with the k-th slab
 *           allocation inside the registration failing (current->fail_nth),
 *           for k = 1, 2, ... until a registration runs without reaching
 *           a k-th allocation; "sweep <flavour> <count>": <count>
 *           registrations, failing as failslab's settings say (the writer
 *           sets its make-it-fail).  Each successful registration is
 *           removed again at once.  The write fails with the error when a
 *           registration fails without an injected failure.
 *   result  "points=P handled=H tolerated=T registered=R failed=F
 *           setup_failed=S" of the last ctl command:
 *           P  failure points inside one registration (systematic),
 *           H  injected failures that returned an error,
 *           T  injected failures the registration survived (it succeeded),
 *           R, F  registrations that succeeded or failed (sweep),
 *           S  sweep rounds whose own set-up allocation failed.
 *   ksets   "<refs of /sys/cdev> <refs of /sys/cdev/major>": the kobject
 *           reference counts of the ksets that cdev_init() and cdev_alloc()
 *           put cdevs in, or "- -" where cdevs are not in sysfs.
 *
 * Flavours, each unwinding a failure as its kind of driver does:
 *   cdev_init        cdev embedded in a driver structure; kobject_put() on
 *                    the cdev after a failed cdev_add(), then free it
 *   cdev_init_noput  the same, freeing the structure without kobject_put(),
 *                    as most drivers written for the 2.6.5+ cdev do
 *   cdev_del_on_fail the same, calling cdev_del() after the failed
 *                    cdev_add(), as dvb-core, qib, tape_class and vmur do
 *   cdev_alloc       cdev_alloc() + cdev_add(); kobject_put() on failure
 *   cdev_device_add  cdev and a real struct device in one structure freed by
 *                    the device's release; put_device() on failure
 */
#include <linux/cdev.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define MAX_POINTS	1000	/* no registration allocates this often */
#define SETUP_FAILED	1	/* try_register(): a sweep's own kzalloc failed */

enum flavour { F_INIT, F_INIT_NOPUT, F_DEL_ON_FAIL, F_ALLOC, F_DEVICE, F_COUNT };

static const char *const flavour_names[F_COUNT] = {
	[F_INIT] = "cdev_init",
	[F_INIT_NOPUT] = "cdev_init_noput",
	[F_DEL_ON_FAIL] = "cdev_del_on_fail",
	[F_ALLOC] = "cdev_alloc",
	[F_DEVICE] = "cdev_device_add",
};

/* A driver's per-device structure. */
struct holder {
	struct device dev;	/* F_DEVICE only */
	struct cdev cdev;	/* all but F_ALLOC */
};

struct counts {
	unsigned int points, handled, tolerated, registered, failed, setup_failed;
};

static DEFINE_MUTEX(faults_lock);	/* one command at a time; guards last */
static struct counts last;
static dev_t faults_dev;
static unsigned int device_seq;
static struct dentry *dir;
/* Where cdev_init() and cdev_alloc() put cdevs: NULL unless in sysfs. */
static struct kset *static_kset, *dynamic_kset;

static const struct file_operations faults_fops = {
	.owner = THIS_MODULE,
};

static void holder_release(struct device *dev)
{
	kfree(container_of(dev, struct holder, dev));
}

/*
 * One registration and, when it succeeds, its removal.  With @nth, the
 * nth slab allocation from the registration call on fails, and *@injected
 * says whether there was one.  Returns the registration's error,
 * SETUP_FAILED, or 0.
 */
static int try_register(enum flavour f, unsigned int nth, bool *injected)
{
	struct cdev *cdev = NULL;
	struct holder *h;
	int err;

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return SETUP_FAILED;
	if (f == F_DEVICE) {
		device_initialize(&h->dev);
		h->dev.devt = faults_dev;
		h->dev.release = holder_release;
		if (dev_set_name(&h->dev, "cdev_faults%u", device_seq++)) {
			put_device(&h->dev);
			return SETUP_FAILED;
		}
	}
	if (f != F_ALLOC) {
		cdev_init(&h->cdev, &faults_fops);
		cdev = &h->cdev;
	}

	current->fail_nth = nth;
	switch (f) {
	case F_ALLOC:
		cdev = cdev_alloc();
		err = cdev ? cdev_add(cdev, faults_dev, 1) : -ENOMEM;
		break;
	case F_DEVICE:
		err = cdev_device_add(cdev, &h->dev);
		break;
	default:
		err = cdev_add(cdev, faults_dev, 1);
	}
	/* fail_nth counts down to 0 at the injected failure. */
	*injected = nth && !current->fail_nth;
	current->fail_nth = 0;

	if (err) {
		switch (f) {
		case F_INIT:
			kobject_put(&cdev->kobj);
			fallthrough;
		case F_INIT_NOPUT:
			kfree(h);
			break;
		case F_DEL_ON_FAIL:
			cdev_del(cdev);
			kfree(h);
			break;
		case F_ALLOC:
			if (cdev)
				kobject_put(&cdev->kobj);
			kfree(h);
			break;
		default:
			put_device(&h->dev);
		}
		return err;
	}
	if (f == F_DEVICE) {
		cdev_device_del(cdev, &h->dev);
		put_device(&h->dev);
	} else {
		cdev_del(cdev);
		kfree(h);
	}
	return 0;
}

static int systematic(enum flavour f, struct counts *c)
{
	unsigned int k;
	bool injected;
	int err;

	for (k = 1; k <= MAX_POINTS; k++) {
		err = try_register(f, k, &injected);
		if (err == SETUP_FAILED)
			return -ENOMEM;
		if (!injected) {
			/* A run with no k-th allocation: k - 1 points in all. */
			c->points = k - 1;
			return err ? -EIO : 0;
		}
		if (err)
			c->handled++;
		else
			c->tolerated++;
		cond_resched();
	}
	return -E2BIG;
}

static int sweep(enum flavour f, unsigned int count, struct counts *c)
{
	bool injected;
	int err;

	while (count--) {
		err = try_register(f, 0, &injected);
		if (err == SETUP_FAILED)
			c->setup_failed++;
		else if (err)
			c->failed++;
		else
			c->registered++;
		cond_resched();
	}
	return 0;
}

static int parse_flavour(const char *name)
{
	int f;

	for (f = 0; f < F_COUNT; f++)
		if (!strcmp(name, flavour_names[f]))
			return f;
	return -EINVAL;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char cmd[64], name[32];
	struct counts c = {};
	unsigned int count;
	int f, err;

	/*
	 * Onto the stack, not memdup_user_nul(): a sweep's writer has its
	 * slab allocations fail (make-it-fail, failslab on every cache), and
	 * the command's copy would be one of them.
	 */
	if (len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';

	mutex_lock(&faults_lock);
	if (sscanf(cmd, "systematic %31s", name) == 1) {
		f = parse_flavour(name);
		err = f < 0 ? f : systematic(f, &c);
	} else if (sscanf(cmd, "sweep %31s %u", name, &count) == 2) {
		f = parse_flavour(name);
		err = f < 0 ? f : sweep(f, count, &c);
	} else {
		err = -EINVAL;
	}
	last = c;
	mutex_unlock(&faults_lock);
	return err ?: len;
}

static int result_show(struct seq_file *s, void *unused)
{
	mutex_lock(&faults_lock);
	seq_printf(s, "points=%u handled=%u tolerated=%u registered=%u failed=%u setup_failed=%u\n",
		   last.points, last.handled, last.tolerated, last.registered,
		   last.failed, last.setup_failed);
	mutex_unlock(&faults_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(result);

static void show_refs(struct seq_file *s, struct kset *kset, char sep)
{
	if (kset)
		seq_printf(s, "%u%c", kref_read(&kset->kobj.kref), sep);
	else
		seq_printf(s, "-%c", sep);
}

static int ksets_show(struct seq_file *s, void *unused)
{
	show_refs(s, static_kset, ' ');
	show_refs(s, dynamic_kset, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ksets);

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
};

static int __init faults_init(void)
{
	struct cdev probe, *dynamic;
	int err = alloc_chrdev_region(&faults_dev, 0, 1, "cdev_faults");

	if (err)
		return err;
	/* The ksets live as long as the kernel: look them up once. */
	cdev_init(&probe, &faults_fops);
	static_kset = probe.kobj.kset;
	dynamic = cdev_alloc();
	if (!dynamic) {
		unregister_chrdev_region(faults_dev, 1);
		return -ENOMEM;
	}
	dynamic_kset = dynamic->kobj.kset;
	kobject_put(&dynamic->kobj);
	dir = debugfs_create_dir("cdev_faults", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	debugfs_create_file("result", 0400, dir, NULL, &result_fops);
	debugfs_create_file("ksets", 0400, dir, NULL, &ksets_fops);
	return 0;
}

static void __exit faults_exit(void)
{
	debugfs_remove_recursive(dir);
	unregister_chrdev_region(faults_dev, 1);
}

module_init(faults_init);
module_exit(faults_exit);
MODULE_DESCRIPTION("cdevbench: char-device registrations under fault injection");
MODULE_LICENSE("GPL");
