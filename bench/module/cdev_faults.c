// SPDX-License-Identifier: GPL-2.0
/*
 * cdev_faults: registrations of char devices while allocations fail, for
 * the failure-path phase (bench/faults/fault_phase.c) on the fault kernels
 * (patches/fault.config).  Through /sys/kernel/debug/cdev_faults/:
 *
 *   ctl     "systematic <flavour>": register one cdev with the k-th slab
 *           allocation inside the registration failing (current->fail_nth),
 *           for k = 1, 2, ... until a registration runs without reaching
 *           a k-th allocation, logging "cdevbench-fault: point <k>"
 *           (KERN_WARNING, so it reaches the console) before each, so
 *           that a complaint in the log names the failure point that
 *           caused it (the last point line is the run that reached no
 *           k-th allocation); "sweep <flavour> <count>": <count>
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
 * Flavours: each a driver's way to make its cdev, register it and unwind a
 * failed registration, named <made>[_<set>]_<cleanup> (the table
 * flavours[] below):
 *   made     embed: cdev_init() on the cdev member of the driver's
 *            structure (the holder); alloc: cdev_alloc(); device: the
 *            holder's cdev and struct device, cdev_device_add()
 *   set      before the registration, outside the failing window (so the
 *            failure points are the registration's own; a failure here is
 *            a set-up failure): name: kobject_set_name(&cdev->kobj,
 *            "cdev_faults%u") (alloc_name_*: cdev_alloc() first, also
 *            outside); parent: cdev_set_parent() to a struct device in the
 *            holder, device_initialize()d and named but never added
 *   cleanup  after a failed registration: put: kobject_put(&cdev->kobj);
 *            del: cdev_del(cdev); kfree: kfree(cdev); none: nothing, the
 *            cdev is dropped as by a driver that just returns the error;
 *            then the holder is freed, by put_device() where it has a
 *            device (device_put's "put" is that put_device() alone)
 * After a successful registration every flavour removes it as a correct
 * driver does: cdev_del(), or cdev_device_del() and put_device().
 * Examples of each kind of driver are from 6.1:
 *   embed_put          what the 2.6.4 cdev asked of every driver
 *   embed_none         most drivers written for the 2.6.5+ cdev
 *   embed_del          dvb-core
 *   alloc_put          the tty core, xillybus, vmlogrdr
 *   alloc_del          tape_class, vmur
 *   alloc_kfree        a driver that frees what it allocated by hand
 *   alloc_none         a driver that just returns the error
 *   alloc_name_put     uio
 *   alloc_name_del     qib
 *   alloc_name_kfree   the same by hand
 *   embed_name_put, embed_name_del, embed_name_none (comedi)
 *                      a named cdev: on 6.1 the name is the driver's to
 *                      free after a failed cdev_add(), which 6.12's frees
 *   embed_parent_put, embed_parent_del, embed_parent_none (dax,
 *                      remoteproc, hfi1 with a name as well)
 *                      a cdev inside a structure its device owns.  Stock's
 *                      cdev_add() takes the parent reference only when it
 *                      succeeds while the cdev's release always drops one:
 *                      there a put or del after a failure frees the holder
 *                      before its put_device(), the finding these flavours
 *                      are for
 *   device_put         cdev_device_add(), put_device() on failure
 *   device_del_put     the same with cdev_del() before the put_device(), as
 *                      a driver that cannot tell whether cdev_add() or
 *                      device_add() failed
 */
#include <linux/bits.h>
#include <linux/cdev.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define MAX_POINTS	1000	/* no registration allocates this often */
#define SETUP_FAILED	1	/* try_register(): a sweep's own set-up failed */

/* The registration, inside the failing window. */
enum add {
	ADD,		/* cdev_add() of the cdev made before */
	ALLOC_ADD,	/* cdev_alloc() and cdev_add(), both failure points */
	DEVICE_ADD,	/* cdev_device_add() of the holder's cdev and device */
};

/* Set up before the registration, outside the failing window. */
#define WITH_ALLOC	BIT(0)	/* the cdev is cdev_alloc()'s, not the holder's */
#define WITH_DEVICE	BIT(1)	/* the holder's device: initialised, named */
#define WITH_NAME	BIT(2)	/* kobject_set_name() on the cdev */
#define WITH_PARENT	BIT(3)	/* cdev_set_parent() to the holder's device */

/* What a failed registration does to the cdev. */
enum undo { UNDO_NONE, UNDO_PUT, UNDO_DEL, UNDO_KFREE /* alloc only */ };

struct flavour {
	const char *name;
	enum add add;
	unsigned int with;
	enum undo undo;
};

static const struct flavour flavours[] = {
	/* name                registration  set up before              cleanup */
	{ "embed_put",         ADD,          0,                         UNDO_PUT },
	{ "embed_none",        ADD,          0,                         UNDO_NONE },
	{ "embed_del",         ADD,          0,                         UNDO_DEL },
	{ "alloc_put",         ALLOC_ADD,    0,                         UNDO_PUT },
	{ "alloc_del",         ALLOC_ADD,    0,                         UNDO_DEL },
	{ "alloc_kfree",       ALLOC_ADD,    0,                         UNDO_KFREE },
	{ "alloc_none",        ALLOC_ADD,    0,                         UNDO_NONE },
	{ "alloc_name_put",    ADD,          WITH_ALLOC | WITH_NAME,    UNDO_PUT },
	{ "alloc_name_del",    ADD,          WITH_ALLOC | WITH_NAME,    UNDO_DEL },
	{ "alloc_name_kfree",  ADD,          WITH_ALLOC | WITH_NAME,    UNDO_KFREE },
	{ "embed_name_put",    ADD,          WITH_NAME,                 UNDO_PUT },
	{ "embed_name_del",    ADD,          WITH_NAME,                 UNDO_DEL },
	{ "embed_name_none",   ADD,          WITH_NAME,                 UNDO_NONE },
	{ "embed_parent_put",  ADD,          WITH_DEVICE | WITH_PARENT, UNDO_PUT },
	{ "embed_parent_del",  ADD,          WITH_DEVICE | WITH_PARENT, UNDO_DEL },
	{ "embed_parent_none", ADD,          WITH_DEVICE | WITH_PARENT, UNDO_NONE },
	{ "device_put",        DEVICE_ADD,   WITH_DEVICE,               UNDO_NONE },
	{ "device_del_put",    DEVICE_ADD,   WITH_DEVICE,               UNDO_DEL },
};

/* A driver's per-device structure. */
struct holder {
	struct device dev;	/* WITH_DEVICE only */
	struct cdev cdev;	/* all but the alloc flavours */
};

struct counts {
	unsigned int points, handled, tolerated, registered, failed, setup_failed;
};

static DEFINE_MUTEX(faults_lock);	/* one command at a time; guards last */
static struct counts last;
static dev_t faults_dev;
static unsigned int name_seq;		/* names of devices and cdevs */
static struct dentry *dir;
/* Where cdev_init() and cdev_alloc() put cdevs: NULL unless in sysfs. */
static struct kset *static_kset, *dynamic_kset;

static const struct file_operations faults_fops = {
	.owner = THIS_MODULE,
};

/*
 * The holder its device's release freed since try_register() began, by
 * address only: a cleanup that drops the device's last reference (a
 * parent reference cdev_add() never took) frees the holder before the
 * driver's own put_device().  free_holder() names that use after free at
 * the failure point that led to it, and skips it, instead of leaving
 * slab debugging to find the damage later, or not at all where the slab
 * went back to the page allocator.
 */
static struct holder *released;

static void holder_release(struct device *dev)
{
	released = container_of(dev, struct holder, dev);
	kfree(released);
}

/* The driver's structure goes: its device's last reference, or kfree(). */
static void free_holder(const struct flavour *fl, struct holder *h)
{
	if (!(fl->with & WITH_DEVICE)) {
		kfree(h);
	} else if (released == h) {
		pr_warn("cdevbench-fault: use after free: %s's put_device() on a holder its device's release already freed\n",
			fl->name);
	} else {
		put_device(&h->dev);
	}
	released = NULL;
}

/*
 * One registration and, when it succeeds, its removal.  With @nth, the
 * nth slab allocation from the registration call on fails, and *@injected
 * says whether there was one.  Returns the registration's error,
 * SETUP_FAILED, or 0.
 */
static int try_register(const struct flavour *fl, unsigned int nth, bool *injected)
{
	struct cdev *cdev = NULL;
	struct holder *h;
	int err;

	released = NULL;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return SETUP_FAILED;
	if (fl->with & WITH_DEVICE) {
		device_initialize(&h->dev);
		h->dev.devt = faults_dev;
		h->dev.release = holder_release;
		if (dev_set_name(&h->dev, "cdev_faults%u", name_seq++))
			goto setup_failed;
	}
	if (fl->with & WITH_ALLOC) {
		cdev = cdev_alloc();
		if (!cdev)
			goto setup_failed;
	} else if (fl->add != ALLOC_ADD) {
		cdev_init(&h->cdev, &faults_fops);
		cdev = &h->cdev;
	}
	if (fl->with & WITH_PARENT)
		cdev_set_parent(cdev, &h->dev.kobj);
	if ((fl->with & WITH_NAME) &&
	    kobject_set_name(&cdev->kobj, "cdev_faults%u", name_seq++)) {
		if (fl->with & WITH_ALLOC)
			kobject_put(&cdev->kobj);
		goto setup_failed;
	}

	current->fail_nth = nth;
	switch (fl->add) {
	case ALLOC_ADD:
		cdev = cdev_alloc();
		err = cdev ? cdev_add(cdev, faults_dev, 1) : -ENOMEM;
		break;
	case DEVICE_ADD:
		err = cdev_device_add(cdev, &h->dev);
		break;
	default:
		err = cdev_add(cdev, faults_dev, 1);
	}
	/* fail_nth counts down to 0 at the injected failure. */
	*injected = nth && !current->fail_nth;
	current->fail_nth = 0;

	if (err) {
		if (cdev) {
			switch (fl->undo) {
			case UNDO_PUT:
				kobject_put(&cdev->kobj);
				break;
			case UNDO_DEL:
				cdev_del(cdev);
				break;
			case UNDO_KFREE:
				kfree(cdev);
				break;
			case UNDO_NONE:
				break;
			}
		}
		free_holder(fl, h);
		return err;
	}
	if (fl->add == DEVICE_ADD)
		cdev_device_del(cdev, &h->dev);
	else
		cdev_del(cdev);
	free_holder(fl, h);
	return 0;

setup_failed:
	free_holder(fl, h);
	return SETUP_FAILED;
}

static int systematic(const struct flavour *fl, struct counts *c)
{
	unsigned int k;
	bool injected;
	int err;

	for (k = 1; k <= MAX_POINTS; k++) {
		/* Before the attempt, outside its failing window. */
		pr_warn("cdevbench-fault: point %u\n", k);
		err = try_register(fl, k, &injected);
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

static int sweep(const struct flavour *fl, unsigned int count, struct counts *c)
{
	bool injected;
	int err;

	while (count--) {
		err = try_register(fl, 0, &injected);
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

static const struct flavour *find_flavour(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flavours); i++)
		if (!strcmp(name, flavours[i].name))
			return &flavours[i];
	return NULL;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char cmd[64], name[32];
	struct counts c = {};
	const struct flavour *fl;
	unsigned int count;
	int err;

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
		fl = find_flavour(name);
		err = fl ? systematic(fl, &c) : -EINVAL;
	} else if (sscanf(cmd, "sweep %31s %u", name, &count) == 2) {
		fl = find_flavour(name);
		err = fl ? sweep(fl, count, &c) : -EINVAL;
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
