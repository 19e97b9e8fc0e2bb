/* cdev_alloc(), a name, cdev_del() after the failed add (qib) */
static int x_cdev_init(int minor, const char *name, struct cdev **cdevp)
{
	const dev_t dev = MKDEV(x_major, minor);
	struct cdev *cdev;
	int ret = 0;

	cdev = cdev_alloc();
	if (!cdev) {
		ret = -ENOMEM;
		goto done;
	}
	cdev->owner = THIS_MODULE;
	cdev->ops = &x_fops;
	kobject_set_name(&cdev->kobj, name);
	ret = cdev_add(cdev, dev, 1);
	if (ret < 0) {
		pr_err("x: could not add cdev %s (err %d)\n", name, -ret);
		goto err_cdev;
	}
	*cdevp = cdev;
	goto done;
err_cdev:
	cdev_del(cdev);
	cdev = NULL;
done:
	return ret;
}
