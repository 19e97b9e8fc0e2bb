// SPDX-License-Identifier: GPL-2.0
/*
 * rows: the results schema (results.h) for what is not a C program of
 * the rig: the cdevbench module's output and the shell's traced pass.
 *
 * usage: rows module VARIANT BOOT     rows from the module's results file
 *        rows raw                     per-operation CSV from its raw file
 *        rows one VARIANT BOOT METRIC PARAM VALUE UNIT
 *        rows header                  samples.csv's header line
 *        rows check FILE              whether FILE is a samples.csv
 *
 * The module writes whitespace-separated records, its param as key=value
 * pairs joined by commas, never quoted: "metric param iter value unit"
 * (results) and "metric param iter op ns" (raw); rows puts the keys in
 * the declared order and quotes as CSV wants.  Exits 1 on a record it
 * cannot read, naming its line.  check reads FILE as the report does
 * (results.h's reader, each value a number) and exits 1 naming its first
 * line that is not a row: make merge asks it of each unit's rows, which
 * a full disk or a copy cut short may have left truncated.
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
			"       rows header\n"
			"       rows check FILE\n");
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

static int check(const char *file)
{
	struct results_reader r;
	double v;
	int rc;

	if (results_open(&r, file))
		return 1;
	while ((rc = results_next(&r)) > 0)
		if (number(r.fields[F_VALUE], &v)) {
			fprintf(stderr, "%s:%d: value '%s' is not a number\n", file, r.line,
				r.fields[F_VALUE]);
			rc = -1;
			break;
		}
	results_close(&r);
	return rc != 0;
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
	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
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
