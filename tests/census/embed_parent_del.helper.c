/* embedded through a pointer, a parent and a name, cdev_del() in a
 * cleanup function the branch calls (hfi1) */
static void x_cleanup(struct x_dev *d)
{
	cdev_del(&d->cdev);
	kfree(d->name);
}

static int x_cdev_init(struct x_dev *d, struct kobject *parent)
{
	struct cdev *cdev = &d->cdev;
	int ret;

	cdev_init(cdev, &x_fops);
	cdev->owner = THIS_MODULE;
	cdev_set_parent(cdev, parent);
	kobject_set_name(&cdev->kobj, "x");
	ret = cdev_add(cdev, d->devt, 1);
	if (ret < 0) {
		x_cleanup(d);
		return ret;
	}
	return 0;
}
