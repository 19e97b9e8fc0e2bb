/* embedded, kobject_put() in the branch, then a goto to free the struct */
static int x_probe(struct x_dev *d)
{
	int ret;

	cdev_init(&d->cdev, &x_fops);
	d->cdev.owner = THIS_MODULE;
	ret = cdev_add(&d->cdev, d->devt, 1);
	if (ret < 0) {
		kobject_put(&d->cdev.kobj);
		goto out_free;
	}
	return 0;
out_free:
	kfree(d);
	return ret;
}
