/* cdev_device_add(), then put_device() alone (wilco_ec telemetry) */
static int x_probe(struct x_dev *d)
{
	int error;

	cdev_init(&d->cdev, &x_fops);
	error = cdev_device_add(&d->cdev, &d->dev);
	if (error) {
		put_device(&d->dev);
		ida_free(&x_ida, d->minor);
		return error;
	}
	return 0;
}
