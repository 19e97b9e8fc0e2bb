/* embedded, the parent set by hand, a negated test (dfl) */
static int x_ops_register(struct platform_device *pdev)
{
	struct x_pdata *pdata = dev_get_platdata(&pdev->dev);
	int ret;

	cdev_init(&pdata->cdev, &x_fops);
	pdata->cdev.kobj.parent = &pdev->dev.kobj;
	ret = cdev_add(&pdata->cdev, pdev->dev.devt, 1);
	if (ret == 0)
		return 0;
	dev_err(&pdev->dev, "cdev_add: %d\n", ret);
	return ret;
}
