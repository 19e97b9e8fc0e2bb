/* embedded, a name, nothing after the failed add: the name leaks */
static int x_register(struct x_dev *d)
{
	int ret;

	cdev_init(&d->cdev, &x_fops);
	kobject_set_name(&d->cdev.kobj, "x%d", d->minor);
	ret = cdev_add(&d->cdev, d->devt, 1);
	if (unlikely(ret))
		goto out;
	return 0;
out:
	kfree(d);
	return ret;
}
