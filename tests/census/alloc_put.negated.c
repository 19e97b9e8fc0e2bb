/* cdev_alloc(), a negated test, the put after it (vmlogrdr) */
static struct cdev *x_cdev;

static int x_register(dev_t dev)
{
	int rc;

	x_cdev = cdev_alloc();
	if (!x_cdev)
		return -ENOMEM;
	x_cdev->owner = THIS_MODULE;
	x_cdev->ops = &x_fops;
	rc = cdev_add(x_cdev, dev, 4);
	if (!rc)
		return 0;

	kobject_put(&x_cdev->kobj);
	x_cdev = NULL;
	return rc;
}
