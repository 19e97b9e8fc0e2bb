// SPDX-License-Identifier: GPL-2.0
/*
 * unplug_exit_ns: the exit of a process that holds K files (files=K) whose
 * cdevs were all removed while they were open: exit closes them one after
 * another, and each close drops a cdev's last reference and runs its
 * release.  Timed: from telling the process to exit (closing the pipe it
 * waits on) until waitpid() returns, so fork's and exit's own costs are in
 * every variant's figure alike.  Untimed per operation: K cdevs
 * registered (alloc=dynamic or embedded, as in unplug_del_cached.c), a
 * node each, the child's opens, the unlinks and the removal of all K.
 * --ops is a budget of files: each repetition runs ops / K exits, at
 * least EXIT_MIN_OPS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"

#define EXIT_MIN_OPS 4

static const char *alloc;
static char prefix[128];
static long files;
static pid_t child = -1;
static int go = -1;	/* the child exits when this write end closes */

static void node_path(char *buf, size_t size, long i)
{
	snprintf(buf, size, "%s-%ld", prefix, i);
}

static int unplug_exit_init(const struct bench_options *o)
{
	files = param_long(o, PARAM_files, 1);
	snprintf(prefix, sizeof(prefix), CDEVBENCH_NODE_DIR "/unplug-%d", getpid());
	alloc = o->param.value[PARAM_alloc];
	return 0;
}

/* At least EXIT_MIN_OPS exits a repetition, however many files each. */
static long unplug_exit_ops(const struct bench_options *o)
{
	return o->ops / files > EXIT_MIN_OPS ? o->ops / files : EXIT_MIN_OPS;
}

/* The child: open every node, say so on @ready, wait for @wait to close. */
static void __attribute__((noreturn)) hold_files(int ready, int wait)
{
	char path[256], c = 0;
	long i;

	for (i = 0; i < files; i++) {
		node_path(path, sizeof(path), i);
		if (open(path, O_RDONLY) < 0)
			_exit(1);
	}
	if (write(ready, &c, 1) != 1)
		_exit(1);
	while (read(wait, &c, 1) > 0)
		;
	_exit(0);
}

static int unplug_exit_prepare(int thread, long k)
{
	int ready[2], wait[2], err;
	char path[256], c;
	dev_t first;
	long i;

	(void)thread;
	(void)k;
	err = unplug_add(files, alloc, &first);
	if (err)
		return err;
	for (i = 0; i < files; i++) {
		node_path(path, sizeof(path), i);
		if (mknod(path, S_IFCHR | 0600, makedev(major(first), minor(first) + i)))
			return -errno;
	}
	if (pipe(ready) || pipe(wait))
		return -errno;
	child = fork();
	if (child < 0)
		return -errno;
	if (!child) {
		close(ready[0]);
		close(wait[1]);
		hold_files(ready[1], wait[0]);
	}
	close(ready[1]);
	close(wait[0]);
	go = wait[1];
	err = read(ready[0], &c, 1) == 1 ? 0 : -EIO;	/* EOF: the child failed */
	close(ready[0]);
	for (i = 0; i < files; i++) {
		node_path(path, sizeof(path), i);
		unlink(path);
	}
	return err ?: unplug_command("del");
}

static int unplug_exit_op(int thread, long k)
{
	int status;

	(void)thread;
	(void)k;
	close(go);
	go = -1;
	if (waitpid(child, &status, 0) != child)
		return -errno;
	child = -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

static void unplug_exit_exit(void)
{
	char path[256];
	long i;

	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	for (i = 0; i < files; i++) {
		node_path(path, sizeof(path), i);
		unlink(path);
	}
	unplug_command("del");
}

const struct ubench ubench = {
	.metric = "unplug_exit_ns",
	.init = unplug_exit_init,
	.ops = unplug_exit_ops,
	.prepare = unplug_exit_prepare,
	.op = unplug_exit_op,
	.exit = unplug_exit_exit,
};
