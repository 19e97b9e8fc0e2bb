/* cdev_alloc(), if ((err = cdev_add(...)) < 0), kfree() (v4l2-dev) */
static int x_register(struct x_dev *d)
{
	int err;

	d->cdev = cdev_alloc();
	if (d->cdev == NULL)
		return -ENOMEM;
	d->cdev->ops = &x_fops;
	if ((err = cdev_add(d->cdev, d->devt, 1)) < 0) {
		kfree(d->cdev);
		d->cdev = NULL;
		return err;
	}
	return 0;
}
