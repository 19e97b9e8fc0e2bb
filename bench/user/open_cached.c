// SPDX-License-Identifier: GPL-2.0
/*
 * open_cached_ns: open+close of a device node that has been opened before,
 * so chrdev_open() finds inode->i_cdev cached and takes only the global
 * cdev_lock (on stock), from T threads at once.  The nodes are made and
 * opened once in init.  Without a nodes key every thread opens the one
 * node of the first held cdev, as many processes open /dev/null;
 * nodes=many gives thread t a node of its own, of held cdev t, so that
 * the threads share no inode, dentry or cdev: what a lock per node or
 * per cdev gains shows there, and what a global lock costs still shows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "harness.h"

#define PATH_SIZE 256

static char (*paths)[PATH_SIZE];	/* the nodes made, one or a thread's each */
static long nodes;
static const char **node;		/* node[t]: the path thread t opens */

static int cached_init(const struct bench_options *o)
{
	const char *v = o->param.value[PARAM_nodes];
	unsigned int major, first, count;
	long threads = param_long(o, PARAM_threads, 1), i;
	int fd;

	/* one spelling a run: one node is no nodes key, as the rows had it */
	if (*v && strcmp(v, "many")) {
		fprintf(stderr, "open_cached_ns: nodes=%s: many, or no nodes key for one node\n", v);
		exit(2);
	}
	nodes = *v ? threads : 1;
	if (held_cdevs(&major, &first, &count))
		return -ENODEV;
	if (count < nodes) {	/* guest-init/suite holds a cdev per node */
		fprintf(stderr, "open_cached_ns: %ld nodes, %u cdevs held\n", nodes, count);
		return -ENODEV;
	}
	paths = calloc((size_t)nodes, sizeof(*paths));
	node = calloc((size_t)threads, sizeof(*node));
	if (!paths || !node)
		return -ENOMEM;
	for (i = 0; i < nodes; i++) {
		/* one node keeps the name it always had */
		if (*v)
			snprintf(paths[i], PATH_SIZE, CDEVBENCH_NODE_DIR "/cached-%d-%ld", getpid(), i);
		else
			snprintf(paths[i], PATH_SIZE, CDEVBENCH_NODE_DIR "/cached-%d", getpid());
		if (mknod(paths[i], S_IFCHR | 0600, makedev(major, first + i))) {
			paths[i][0] = '\0';
			return -errno;
		}
		fd = open(paths[i], O_RDONLY);	/* caches inode->i_cdev */
		if (fd < 0)
			return -errno;
		close(fd);
	}
	for (i = 0; i < threads; i++)
		node[i] = paths[nodes == 1 ? 0 : i];
	return 0;
}

static int cached_op(int thread, long k)
{
	int fd = open(node[thread], O_RDONLY);

	(void)k;
	if (fd < 0)
		return -errno;
	return close(fd) ? -errno : 0;
}

static void cached_exit(void)
{
	long i;

	for (i = 0; paths && i < nodes && paths[i][0]; i++)
		unlink(paths[i]);
}

const struct ubench ubench = {
	.metric = "open_cached_ns",
	.init = cached_init,
	.op = cached_op,
	.exit = cached_exit,
};
