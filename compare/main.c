// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report engine: every (metric, param) of one or more
 * samples.csv files, each variant against the baseline.  The boot is the
 * unit: the median of a boot's repetitions is one sample.  A verdict comes
 * from a rule that fits the mode and the metric's declared kind
 * (bench/benchmarks.def): in icount mode, where boots repeat exactly, a gap
 * rule; in timing modes Welch's t on log per-boot medians, Holm-adjusted
 * within the headline family, guarded by the same gap; counts compare
 * exactly.  Failure-path numbers are not compared here.
 *
 * Parts: input.c reads and refuses what is not comparable (files from
 * different modes, variants built with another kernel config than the
 * baseline without declaring it, undeclared metrics, malformed or
 * truncated CSV); verdict.c decides; render_text.c and render_data.c
 * write the formats.
 */
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

struct options opt = { .format = "text", .alpha = 0.05, .min_effect = 0.01 };

static void usage(void)
{
	fprintf(stderr,
		"usage: compare [--baseline V] [--alpha A] [--min-effect E] [--plots LIST]\n"
		"               [--format text|md|csv|series|ops|json|sites|variants|fault-problems]\n"
		"               [--where col=v,col!=v,... --select col,...]   (series or ops rows,\n"
		"               for plots)\n"
		"               samples.csv...\n"
		"       compare --meta KEY RUN/samples.csv   (a value of RUN/meta.json;\n"
		"               arrays as words, booleans as true/false)\n");
	exit(2);
}

static double parse_number(const char *name, const char *s, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < lo || v > hi)
		die("--%s: '%s' is not a number in [%g, %g]", name, s, lo, hi);
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "min-effect", required_argument, NULL, 'e' },
		{ "meta", required_argument, NULL, 'm' },
		{ "plots", required_argument, NULL, 'p' },
		{ "where", required_argument, NULL, 'w' },
		{ "select", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct comparison *c;
	const char *meta_key = NULL, *plots = NULL;
	char buf[4096];
	size_t n, i;
	int ch;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b': opt.baseline = optarg; break;
		case 'f': opt.format = optarg; break;
		case 'a': opt.alpha = parse_number("alpha", optarg, 0, 1); break;
		case 'e': opt.min_effect = parse_number("min-effect", optarg, 0, 100); break;
		case 'm': meta_key = optarg; break;
		case 'p': plots = optarg; break;
		case 'w': opt.where = optarg; break;
		case 's': opt.select = optarg; break;
		default: usage();
		}
	}
	if (optind == argc)
		usage();
	if (meta_key) {
		read_meta(argv[optind]);
		if (!in->nmetas || !json_object_get(in->metas[0].doc, meta_key))
			die("%s: no meta.json beside it, or no '%s' in it", argv[optind], meta_key);
		puts(meta_field(meta_key, buf, sizeof(buf)));
		return 0;
	}
	if (strcmp(opt.format, "text") && strcmp(opt.format, "md") &&
	    strcmp(opt.format, "csv") && strcmp(opt.format, "series") &&
	    strcmp(opt.format, "ops") && strcmp(opt.format, "json") &&
	    strcmp(opt.format, "sites") && strcmp(opt.format, "variants") &&
	    strcmp(opt.format, "fault-problems"))
		die("--format: '%s' is not text, md, csv, series, ops, json, sites, variants or fault-problems",
		    opt.format);
	if ((opt.where || opt.select) &&
	    ((strcmp(opt.format, "series") && strcmp(opt.format, "ops")) || !opt.select))
		die("--where and --select go with --format series or ops, and --select is needed");
	for (i = optind; i < (size_t)argc; i++) {
		read_samples(argv[i]);
		read_meta(argv[i]);
	}
	if (!in->ngroups)
		die("no samples in %s", argv[optind]);
	fill_absent_counts();
	if (!opt.baseline) {
		opt.baseline = in->variants[0];
		for (i = 0; i < in->nvariants; i++)
			if (!strcmp(in->variants[i], "stock"))
				opt.baseline = "stock";
	}
	for (i = 0; i < in->nvariants && strcmp(in->variants[i], opt.baseline); i++)
		;
	if (i == in->nvariants)
		die("baseline '%s' has no samples", opt.baseline);
	check_comparable();
	if (!strcmp(opt.format, "variants")) {
		/* the baseline, then the others in the order of the run */
		puts(opt.baseline);
		for (i = 0; i < in->nvariants; i++)
			if (strcmp(in->variants[i], opt.baseline))
				puts(in->variants[i]);
		return 0;
	}
	deterministic = in->nmetas && !strcmp(in->metas[0].mode, "icount");
	for (i = 0; i < in->nvariants; i++) {
		const char *path;
		const json_t *vm = variant_meta(in->variants[i], &path);

		/* the arm bench.sh booted as the baseline's A/A control; a run
		 * of one base written before aa_of names it by its kernel */
		if (strcmp(in->variants[i], opt.baseline) &&
		    (!strcmp(member_string(vm, "aa_of", ""), opt.baseline) ||
		     (!json_object_get(vm, "base") &&
		      !strcmp(member_string(vm, "kernel", ""), opt.baseline))))
			aa_arm = in->variants[i];
	}

	if (!strcmp(opt.format, "ops")) {
		/* the raw/ folders beside the first samples.csv */
		char *dir = xstrdup(argv[optind]);

		print_ops(dirname(dir));
		free(dir);
		return 0;
	}
	c = compare_all(&n);
	if (!strcmp(opt.format, "series")) {
		print_series(c, n);
	} else if (!strcmp(opt.format, "csv")) {
		print_csv(c, n);
	} else if (!strcmp(opt.format, "json")) {
		print_json(c, n);
	} else if (!strcmp(opt.format, "sites")) {
		print_sites_matrix();
	} else if (!strcmp(opt.format, "fault-problems")) {
		print_fault_problems();
	} else {
		int md = !strcmp(opt.format, "md");

		print_summary(c, n, md);
		print_tables(c, n, md);
		print_failure_paths(md);
		print_memory_sites(md);
		print_lock_census(md);
		print_shared_lines(md);
		if (plots)
			print_plots(plots, md);
		print_profile(md);
	}
	return 0;
}
