/* cdev_alloc(), a name, kfree(): the name leaks */
static int x_add(struct x_dev *d)
{
	int rc;

	d->cdev = cdev_alloc();
	if (!d->cdev)
		return -ENOMEM;
	kobject_set_name(&d->cdev->kobj, "x%d", d->id);
	rc = cdev_add(d->cdev, d->devt, 1);
	if (rc != 0)
		goto fail;
	return 0;
fail:
	kfree(d->cdev);
	return rc;
}
