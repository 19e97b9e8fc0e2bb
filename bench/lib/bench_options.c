// SPDX-License-Identifier: GPL-2.0
/* The user-space benchmarks' command line (bench_options.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "bench_options.h"

static void __attribute__((noreturn)) usage(const char *name)
{
	fprintf(stderr, "usage: %s --variant V --boot B --param P --reps R [--ops K] [--raw FILE]\n"
		"       [--run I] [--windows FILE]\n",
		name);
	exit(2);
}

void bench_options_parse(struct bench_options *o, int argc, char **argv,
			 const char *name)
{
	static const struct option longopts[] = {
		{ "variant", required_argument, NULL, 'v' },
		{ "boot", required_argument, NULL, 'b' },
		{ "param", required_argument, NULL, 'p' },
		{ "reps", required_argument, NULL, 'r' },
		{ "ops", required_argument, NULL, 'o' },
		{ "raw", required_argument, NULL, 'w' },
		{ "run", required_argument, NULL, 'i' },
		{ "windows", required_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	*o = (struct bench_options){ .ops = 1000 };
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'v': o->variant = optarg; break;
		case 'b': o->boot = optarg; break;
		case 'p': o->param_text = optarg; break;
		case 'r': o->reps = atol(optarg); break;
		case 'o': o->ops = atol(optarg); break;
		case 'w': o->raw = optarg; break;
		case 'i': o->run = atol(optarg); break;
		case 'W': o->windows = optarg; break;
		default: usage(name);
		}
	}
	if (optind != argc || !o->variant || !o->boot || !o->param_text ||
	    o->reps < 1 || o->ops < 1 || o->run < 0 || param_parse(&o->param, o->param_text))
		usage(name);
}

long param_long(const struct bench_options *o, enum param_key key, long dflt)
{
	const char *text = o->param.value[key];
	char *end;
	long v;

	if (!text[0])
		return dflt;
	v = strtol(text, &end, 10);
	if (*end || v < 1) {
		fprintf(stderr, "param %s: '%s' is not a positive integer\n",
			o->param_text, text);
		exit(2);
	}
	return v;
}

/* The first line of the module's debugfs @file: major, first minor, count. */
static int module_cdevs(const char *file, unsigned int *major, unsigned int *first,
			unsigned int *count)
{
	char path[256];
	FILE *f;
	int got;

	snprintf(path, sizeof(path), CDEVBENCH_DEBUGFS "/%s", file);
	f = fopen(path, "r");
	got = f ? fscanf(f, "%u %u %u", major, first, count) : 0;
	if (f)
		fclose(f);
	if (got != 3 || !*count) {
		fprintf(stderr, "no cdevs registered in %s\n", path);
		return -1;
	}
	return 0;
}

int held_cdevs(unsigned int *major, unsigned int *first, unsigned int *count)
{
	return module_cdevs("hold", major, first, count);
}

int unplug_command(const char *cmd)
{
	int fd = open(CDEVBENCH_DEBUGFS "/unplug", O_WRONLY), err = 0;
	ssize_t len = (ssize_t)strlen(cmd);

	if (fd < 0)
		return -errno;
	if (write(fd, cmd, len) != len)
		err = -errno;
	close(fd);
	return err;
}

int unplug_add(long count, const char *alloc, dev_t *first)
{
	unsigned int major, minor, got;
	char cmd[80];
	int err;

	snprintf(cmd, sizeof(cmd), "add %ld %s", count, alloc);
	err = unplug_command(cmd);
	if (err)
		return err;
	if (module_cdevs("unplug", &major, &minor, &got) || got != count)
		return -ENODEV;
	*first = makedev(major, minor);
	return 0;
}

int unplug_node(const char *alloc, const char *path)
{
	dev_t dev;
	int err = unplug_add(1, alloc, &dev);

	if (err)
		return err;
	return mknod(path, S_IFCHR | 0600, dev) ? -errno : 0;
}
