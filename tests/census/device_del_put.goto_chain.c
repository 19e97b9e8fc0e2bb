/* cdev_device_add(), a chain of labels that calls cdev_del() on top of
 * put_device() */
static int x_register(struct x_dev *d)
{
	int ret;

	cdev_init(&d->cdev, &x_fops);
	ret = cdev_device_add(&d->cdev, &d->dev);
	if (ret)
		goto err_cdev;
	ret = x_more(d);
	if (ret)
		goto err_more;
	return 0;
err_more:
	pr_err("x: more\n");
err_cdev:
	cdev_del(&d->cdev);
	put_device(&d->dev);
	return ret;
}
