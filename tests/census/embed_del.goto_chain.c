/* embedded, a chain of labels: the failed add falls through to cdev_del() */
static int x_probe(struct x_dev *d)
{
	int ret;

	ret = alloc_chrdev_region(&d->devt, 0, 1, "x");
	if (ret)
		return ret;
	cdev_init(&d->cdev, &x_fops);
	ret = cdev_add(&d->cdev, d->devt, 1);
	if (ret < 0)
		goto err_add;
	d->dev = device_create(x_class, NULL, d->devt, d, "x");
	if (IS_ERR(d->dev)) {
		ret = PTR_ERR(d->dev);
		goto err_dev;
	}
	return 0;

err_dev:
	pr_err("x: no device\n");
err_add:
	cdev_del(&d->cdev);
	unregister_chrdev_region(d->devt, 1);
	return ret;
}
