/* cdev_alloc(), and only the error returned: the cdev leaks (gio) */
static int x_init(dev_t dev)
{
	struct cdev *cdev_p;
	int error;

	cdev_p = cdev_alloc();
	cdev_p->ops = &x_fops;
	error = cdev_add(cdev_p, dev, 1);
	if (error) {
		pr_err("x: cdev_add failed, error=%d\n", error);
		return 1;
	}
	return 0;
}
