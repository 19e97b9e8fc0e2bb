/* cdev_alloc(), a goto to the put (uio, __register_chrdev) */
static struct cdev *x_cdev;

static int x_init(dev_t devt)
{
	struct cdev *cdev;
	int err = -ENOMEM;

	cdev = cdev_alloc();
	if (!cdev)
		goto out;
	cdev->owner = THIS_MODULE;
	cdev->ops = &x_fops;
	err = cdev_add(cdev, devt, 1);
	if (err)
		goto out_put;
	x_cdev = cdev;
	return 0;
out_put:
	kobject_put(&cdev->kobj);
out:
	return err;
}
