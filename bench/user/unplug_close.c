// SPDX-License-Identifier: GPL-2.0
/*
 * unplug_close_ns: the last close() of a file whose cdev was removed
 * while it was open, as when a USB serial port, an input device or a
 * hidraw node is unplugged with a file held: the close drops the cdev's
 * last reference and runs its release.  Untimed per operation:
 * registering the cdev (alloc=dynamic or embedded, as in
 * unplug_del_cached.c), mknod, open, unlink (the open file keeps the
 * inode) and the removal through the module's unplug file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "harness.h"

static const char *alloc;
static char path[256];
static int fd = -1;

static int unplug_close_init(const struct bench_options *o)
{
	alloc = o->param.value[PARAM_alloc];
	snprintf(path, sizeof(path), CDEVBENCH_NODE_DIR "/unplug-%d", getpid());
	return 0;
}

static int unplug_close_prepare(int thread, long k)
{
	int err = unplug_node(alloc, path);

	(void)thread;
	(void)k;
	if (err)
		return err;
	fd = open(path, O_RDONLY);
	err = fd < 0 ? -errno : 0;
	unlink(path);
	return err ?: unplug_command("del");
}

static int unplug_close_op(int thread, long k)
{
	int err = close(fd) ? -errno : 0;

	(void)thread;
	(void)k;
	fd = -1;
	return err;
}

static void unplug_close_exit(void)
{
	if (fd >= 0)
		close(fd);
	unplug_command("del");
	unlink(path);
}

const struct ubench ubench = {
	.metric = "unplug_close_ns",
	.init = unplug_close_init,
	.prepare = unplug_close_prepare,
	.op = unplug_close_op,
	.exit = unplug_close_exit,
};
