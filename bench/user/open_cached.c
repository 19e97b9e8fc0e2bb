// SPDX-License-Identifier: GPL-2.0
/*
 * open_cached_ns: open+close of a device node that has been opened before,
 * so chrdev_open() finds inode->i_cdev cached and takes only the global
 * cdev_lock, from T threads at once.  The node is made and opened once in
 * init, for the first of the held cdevs; every thread then opens and
 * closes that same node.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "harness.h"

static char path[256];

static int cached_init(const struct bench_options *o)
{
	unsigned int major, first, count;
	int fd;

	(void)o;
	if (held_cdevs(&major, &first, &count))
		return -ENODEV;
	snprintf(path, sizeof(path), CDEVBENCH_NODE_DIR "/cached-%d", getpid());
	if (mknod(path, S_IFCHR | 0600, makedev(major, first)))
		return -errno;
	fd = open(path, O_RDONLY);	/* caches inode->i_cdev */
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int cached_op(int thread, long k)
{
	int fd = open(path, O_RDONLY);

	(void)thread;
	(void)k;
	if (fd < 0)
		return -errno;
	return close(fd) ? -errno : 0;
}

static void cached_exit(void)
{
	unlink(path);
}

const struct ubench ubench = {
	.metric = "open_cached_ns",
	.init = cached_init,
	.op = cached_op,
	.exit = cached_exit,
};
