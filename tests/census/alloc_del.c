/* cdev_alloc(), the call tested directly, cdev_del() in the branch */
static int x_setup(struct x_dev *d)
{
	d->cdev = cdev_alloc();
	if (!d->cdev)
		return -ENOMEM;
	d->cdev->ops = &x_fops;
	if (cdev_add(d->cdev, d->devt, 1)) {
		pr_err("x: cdev_add failed\n");
		cdev_del(d->cdev);
		return -EIO;
	}
	return 0;
}
