// SPDX-License-Identifier: GPL-2.0
/*
 * rows: the results schema (results.h) for what is not a C program of
 * the rig: the cdevbench module's output and the shell's traced pass.
 *
 * usage: rows module VARIANT BOOT     rows from the module's results file
 *        rows raw                     per-operation CSV from its raw file
 *        rows one VARIANT BOOT METRIC PARAM VALUE UNIT
 *        rows header                  samples.csv's header line
 *
 * The module writes whitespace-separated records, its param as key=value
 * pairs joined by commas, never quoted: "metric param iter value unit"
 * (results) and "metric param iter op ns" (raw); rows puts the keys in
 * the declared order and quotes as CSV wants.  Exits 1 on a record it
 * cannot read, naming its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"

static int usage(void)
{
	fprintf(stderr, "usage: rows module VARIANT BOOT < results\n"
			"       rows raw < raw\n"
			"       rows one VARIANT BOOT METRIC PARAM VALUE UNIT\n"
			"       rows header\n");
	return 2;
}

/* Decimals of a number as written, so a row keeps the producer's. */
static int decimals(const char *s)
{
	const char *dot = strchr(s, '.');

	return dot ? (int)strlen(dot + 1) : 0;
}

static int number(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end == s || *end;
}

static int convert(const char *variant, const char *boot)
{
	char line[512], metric[64], ptext[128], value[32], unit[16];
	struct param p;
	long iter, op, ns;
	int lineno = 0;
	double v;

	while (fgets(line, sizeof(line), stdin)) {
		lineno++;
		if (variant) {
			if (sscanf(line, "%63s %127s %ld %31s %15s", metric, ptext, &iter, value,
				   unit) != 5 || param_parse(&p, ptext) || number(value, &v))
				goto bad;
			results_row(stdout, variant, boot, metric, &p, iter, v, decimals(value),
				    unit);
		} else {
			if (sscanf(line, "%63s %127s %ld %ld %ld", metric, ptext, &iter, &op,
				   &ns) != 5 || param_parse(&p, ptext))
				goto bad;
			results_raw_row(stdout, metric, &p, iter, op, ns);
		}
	}
	return 0;
bad:
	fprintf(stderr, "rows: line %d is not a record of the module: %s", lineno, line);
	return 1;
}

int main(int argc, char **argv)
{
	struct param p;
	double v;

	if (argc == 4 && !strcmp(argv[1], "module"))
		return convert(argv[2], argv[3]);
	if (argc == 2 && !strcmp(argv[1], "header"))
		return puts(RESULTS_HEADER) < 0;
	if (argc == 2 && !strcmp(argv[1], "raw"))
		return convert(NULL, NULL);
	if (argc == 8 && !strcmp(argv[1], "one")) {
		if (param_parse(&p, argv[5]) || number(argv[6], &v)) {
			fprintf(stderr, "rows: %s: param '%s', value '%s'\n", argv[4], argv[5],
				argv[6]);
			return 1;
		}
		results_row(stdout, argv[2], argv[3], argv[4], &p, 0, v, decimals(argv[6]),
			    argv[7]);
		return 0;
	}
	return usage();
}
