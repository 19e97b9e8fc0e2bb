/* the result is not tested */
static struct cdev x_cdev;

static void x_setup(dev_t dev)
{
	cdev_init(&x_cdev, &x_fops);
	cdev_add(&x_cdev, dev, 1);
}
