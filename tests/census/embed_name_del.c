/* embedded, a name, cdev_del() in the branch (dvb-core) */
static int x_register(struct x_dev *d)
{
	int retval;

	cdev_init(&d->cdev, &x_fops);
	kobject_set_name(&d->cdev.kobj, "x%d", d->minor);
	retval = cdev_add(&d->cdev, d->devt, 1);
	if (retval != 0) {
		cdev_del(&d->cdev);
		return retval;
	}
	return 0;
}
