/* a static cdev, a name, kobject_put() (comedi) */
static struct cdev x_cdev;

static int __init x_init(void)
{
	int retval;

	cdev_init(&x_cdev, &x_fops);
	x_cdev.owner = THIS_MODULE;
	retval = kobject_set_name(&x_cdev.kobj, "x");
	if (retval)
		goto out_put;
	retval = cdev_add(&x_cdev, MKDEV(X_MAJOR, 0), 8);
	if (retval)
		goto out_put;
	return 0;
out_put:
	kobject_put(&x_cdev.kobj);
	return retval;
}
