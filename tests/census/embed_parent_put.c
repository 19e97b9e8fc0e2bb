/* embedded, cdev_set_parent(), kobject_put() in the branch */
static int x_cdev_add(struct x_dev *d)
{
	int ret;

	cdev_init(&d->cdev, &x_fops);
	cdev_set_parent(&d->cdev, &d->dev.kobj);
	ret = cdev_add(&d->cdev, d->dev.devt, 1);
	if (ret) {
		kobject_put(&d->cdev.kobj);
		return ret;
	}
	return 0;
}
