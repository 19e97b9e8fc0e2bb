// SPDX-License-Identifier: GPL-2.0
/*
 * open_lookup_ns: the first open of a fresh device node, the only path
 * that goes through kobj_lookup().  Each operation makes a new node for
 * MAJOR:MINOR (mknod, untimed), opens it (timed) and closes and unlinks it
 * (untimed), so every open finds an inode without a cached i_cdev.
 *
 * options: NODE_DIR MAJOR MINOR  (NODE_DIR on a tmpfs the guest owns)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "harness.h"

static const char *node_dir;
static dev_t dev;
static __thread int fd;
static __thread char path[256];

static int lookup_init(int argc, char **argv)
{
	if (argc != 3)
		return -EINVAL;
	node_dir = argv[0];
	dev = makedev(atoi(argv[1]), atoi(argv[2]));
	return 0;
}

static int lookup_prepare(int thread, long k)
{
	snprintf(path, sizeof(path), "%s/lookup-%d-%ld", node_dir, thread, k);
	return mknod(path, S_IFCHR | 0600, dev) ? -errno : 0;
}

static int lookup_op(int thread, long k)
{
	(void)thread;
	(void)k;
	fd = open(path, O_RDONLY);
	return fd < 0 ? -errno : 0;
}

static int lookup_finish(int thread, long k)
{
	(void)thread;
	(void)k;
	if (fd >= 0)
		close(fd);
	return unlink(path) ? -errno : 0;
}

const struct ubench ubench = {
	.metric = "open_lookup_ns",
	.usage = "NODE_DIR MAJOR MINOR",
	.init = lookup_init,
	.prepare = lookup_prepare,
	.op = lookup_op,
	.finish = lookup_finish,
};
