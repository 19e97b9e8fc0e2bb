/* cdev_alloc(), a name, kobject_put() after the failed add (uio) */
static int x_major_init(const char *name)
{
	struct cdev *cdev;
	dev_t devt;
	int result;

	result = alloc_chrdev_region(&devt, 0, 16, name);
	if (result)
		return result;
	result = -ENOMEM;
	cdev = cdev_alloc();
	if (!cdev)
		goto out_unregister;
	cdev->owner = THIS_MODULE;
	cdev->ops = &x_fops;
	kobject_set_name(&cdev->kobj, "%s", name);
	result = cdev_add(cdev, devt, 16);
	if (result)
		goto out_put;
	return 0;
out_put:
	kobject_put(&cdev->kobj);
out_unregister:
	unregister_chrdev_region(devt, 16);
	return result;
}
