// SPDX-License-Identifier: GPL-2.0
/*
 * open_lookup_ns: the first open of a fresh device node, the only path
 * that goes through kobj_lookup().  Each operation makes a new node for
 * MAJOR:MINOR (mknod, untimed), opens it (timed) and closes and unlinks it
 * (untimed), so every open finds an inode without a cached i_cdev.
 *
 * MINOR is one of the held cdevs, by the param's pos: kobj_map() puts a
 * new probe before older ones of the same range, so the last registered
 * minor is at the head of the major's chain (pos=head) and minor 0,
 * registered first, at the tail (pos=tail), where kobj_lookup() walks the
 * whole chain; pos=middle is the one halfway.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "harness.h"

static dev_t dev;
static __thread int fd;
static __thread char path[256];

static int lookup_init(const struct bench_options *o)
{
	const char *pos = o->param.value[PARAM_pos];
	unsigned int major, first, count, minor;

	if (held_cdevs(&major, &first, &count))
		return -ENODEV;
	if (!strcmp(pos, "head"))
		minor = first + count - 1;
	else if (!strcmp(pos, "middle"))
		minor = first + count / 2;
	else if (!strcmp(pos, "tail"))
		minor = first;
	else
		return -EINVAL;
	dev = makedev(major, minor);
	return 0;
}

static int lookup_prepare(int thread, long k)
{
	snprintf(path, sizeof(path), CDEVBENCH_NODE_DIR "/lookup-%d-%ld", thread, k);
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
	.init = lookup_init,
	.prepare = lookup_prepare,
	.op = lookup_op,
	.finish = lookup_finish,
};
