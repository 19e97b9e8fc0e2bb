// SPDX-License-Identifier: GPL-2.0
/*
 * unplug_del_cached_ns: cdev_del() of a cdev whose device node was opened
 * and closed before, so an inode caches it (inode->i_cdev) and no file
 * holds it: the removal drops the last reference and runs the cdev's
 * release there.  Timed: the write to the module's unplug file that
 * removes it (bench/module/unplug.c), so a syscall's cost is in every
 * variant's figure alike.  Untimed per operation: registering the cdev
 * (alloc=dynamic, cdev_alloc(); alloc=embedded, in a driver structure
 * that is its parent), mknod, open and close before, unlink after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "harness.h"

static const char *alloc;
static char path[256];

static int del_cached_init(const struct bench_options *o)
{
	alloc = o->param.value[PARAM_alloc];
	snprintf(path, sizeof(path), CDEVBENCH_NODE_DIR "/unplug-%d", getpid());
	return 0;
}

static int del_cached_prepare(int thread, long k)
{
	int err = unplug_node(alloc, path), fd;

	(void)thread;
	(void)k;
	if (err)
		return err;
	fd = open(path, O_RDONLY);	/* caches inode->i_cdev */
	if (fd < 0)
		return -errno;
	return close(fd) ? -errno : 0;
}

static int del_cached_op(int thread, long k)
{
	(void)thread;
	(void)k;
	return unplug_command("del");
}

static int del_cached_finish(int thread, long k)
{
	(void)thread;
	(void)k;
	return unlink(path) && errno != ENOENT ? -errno : 0;
}

static void del_cached_exit(void)
{
	unplug_command("del");
	unlink(path);
}

const struct ubench ubench = {
	.metric = "unplug_del_cached_ns",
	.init = del_cached_init,
	.prepare = del_cached_prepare,
	.op = del_cached_op,
	.finish = del_cached_finish,
	.exit = del_cached_exit,
};
