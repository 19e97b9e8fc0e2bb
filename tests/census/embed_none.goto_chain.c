/* a static cdev; its label only gives back the region, while cdev_del()
 * sits on a later failure's label, which the failed add never reaches */
static struct cdev x_cdev;
static dev_t x_devt;

static int __init x_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&x_devt, 0, 1, "x");
	if (ret)
		return ret;
	cdev_init(&x_cdev, &x_fops);
	ret = cdev_add(&x_cdev, x_devt, 1);
	if (ret) {
		pr_err("x: cdev_add: %d\n", ret);
		goto out_region;
	}
	ret = x_more();
	if (ret)
		goto out_cdev;
	return 0;

out_cdev:
	cdev_del(&x_cdev);
out_region:
	unregister_chrdev_region(x_devt, 1);
	return ret;
}
