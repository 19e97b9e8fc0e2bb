/* the result is returned: the callers unwind (dfl, vfio) */
static int x_add(struct x_dev *d)
{
	cdev_init(&d->cdev, &x_fops);
	return cdev_add(&d->cdev, d->devt, 1);
}
