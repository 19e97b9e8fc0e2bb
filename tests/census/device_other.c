/* cdev_device_add(), the error returned: no put_device() here (gnss) */
static int x_register(struct x_dev *d)
{
	int ret;

	cdev_init(&d->cdev, &x_fops);
	ret = cdev_device_add(&d->cdev, &d->dev);
	if (ret) {
		dev_err(&d->dev, "failed to add device: %d\n", ret);
		return ret;
	}
	return 0;
}
