/* a failed add panics */
static struct cdev x_cdev;

static int __init x_init(void)
{
	cdev_init(&x_cdev, &x_fops);
	if (cdev_add(&x_cdev, MKDEV(X_MAJOR, 0), 1) < 0)
		panic("x: couldn't register the char device\n");
	return 0;
}
