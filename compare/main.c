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
 * truncated CSV); verdict.c decides; report.txt and report.md are one
 * model (report_model.h) that summary.c and tables.c build and
 * render_text.c and render_md.c write, followed by the report's sections;
 * render_data.c writes the data formats.  One table below declares them all.  Two modes come before the formats: --meta, a value of a
 * run's meta.json, and --join, the join of two runs (join.c) that
 * scripts/compare.sh reports on with AGAINST.
 */
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

struct options opt = { .format = "text", .alpha = 0.05, .min_effect = 0.01 };

/* The first samples.csv named: the run whose raw/ folders --format ops
 * reads, and whose fault boots --format errpaths does. */
const char *first_samples;

/* report.txt and report.md: the report's model (report_model.h), the
 * first screen and every comparison, then each of the sections
 * (compare.h's REPORT_SECTIONS), built once and rendered in the format
 * asked for; a section as soon as it is built, so that one that fails
 * does so after what came before it. */
static void write_report(const struct comparison *c, size_t n, int md)
{
	static void (*const sections[])(struct doc *d) = {
#define SECTION(name) build_##name,
		REPORT_SECTIONS(SECTION)
#undef SECTION
	};
	void (*render)(FILE *out, const struct doc *d) = md ? render_md : render_text;
	struct doc d = { 0 };
	size_t i;

	build_summary(&d, c, n);
	build_tables(&d, c, n);
	render(stdout, &d);
	doc_free(&d);
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		sections[i](&d);
		render(stdout, &d);
		doc_free(&d);
	}
}

static void write_text(const struct comparison *c, size_t n)
{
	write_report(c, n, 0);
}

static void write_md(const struct comparison *c, size_t n)
{
	write_report(c, n, 1);
}

/* The raw/ folders beside the first samples.csv. */
static void write_ops(void)
{
	char *dir = xstrdup(first_samples);

	print_ops(dirname(dir));
	free(dir);
}

/* The baseline, then the others in the order of the run. */
static void write_variants(void)
{
	size_t i;

	puts(opt.baseline);
	for (i = 0; i < in->nvariants; i++)
		if (strcmp(in->variants[i], opt.baseline))
			puts(in->variants[i]);
}

/* Where main calls a format's writer: once the samples are READ and
 * their baseline found, or once every comparison is COMPARED. */
enum stage { READ, COMPARED };

/* The formats of --format: the name, the file scripts/compare.sh writes
 * it to (NULL where a script reads it at once), what it is, the stage its
 * writer runs after, whether --where and --select pick its rows and
 * columns, and the writer: write_comparisons where it takes the
 * comparisons, else write.  The usage, the checks of the command line and
 * main's call of the writer all read this table. */
static const struct format {
	const char *name, *file, *what;
	enum stage after;
	int query;
	void (*write)(void);
	void (*write_comparisons)(const struct comparison *c, size_t n);
} formats[] = {
	{ .name = "text", .file = "report.txt", .after = COMPARED, .write_comparisons = write_text,
	  .what = "the report, the first screen says what changed" },
	{ .name = "md", .file = "report.md", .after = COMPARED, .write_comparisons = write_md,
	  .what = "the report in markdown" },
	{ .name = "csv", .file = "compare.csv", .after = COMPARED, .write_comparisons = print_csv,
	  .what = "a row per comparison" },
	{ .name = "series", .file = "series.csv", .after = COMPARED, .query = 1,
	  .write_comparisons = print_series, .what = "medians and ratios per variant and param" },
	{ .name = "ops", .after = READ, .query = 1, .write = write_ops,
	  .what = "every timed operation in the run's raw/ files" },
	{ .name = "json", .file = "compare.json", .after = COMPARED, .write_comparisons = print_json,
	  .what = "every comparison, with the run's provenance" },
	{ .name = "sites", .file = "memory_sites.dat", .after = COMPARED, .write = print_sites_matrix,
	  .what = "slab bytes per cdev by allocation site" },
	{ .name = "variants", .after = READ, .write = write_variants,
	  .what = "the variants, the baseline first" },
	{ .name = "fault-problems", .after = COMPARED, .write = print_fault_problems,
	  .what = "the failure-path phase's problems (scripts/fault-check.sh)" },
	{ .name = "errpaths", .file = "errpaths.txt", .after = COMPARED, .write = print_errpaths_answer,
	  .what = "each cleanup pattern's outcome, its callers (--census), the answer" },
	{ .name = "posting", .after = COMPARED, .write_comparisons = print_posting,
	  .what = "--variant V's cover letter body (scripts/posting.sh)" },
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static const struct format *find_format(const char *name)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

/* The names of the formats in @buf (only those --where and --select go
 * with, where query), sep between them and last before the last. */
static const char *format_names(char *buf, size_t size, int query, const char *sep,
				const char *last)
{
	size_t i, k = 0, count = 0, len = 0;

	for (i = 0; i < NFORMATS; i++)
		count += !query || formats[i].query;
	buf[0] = '\0';
	for (i = 0; i < NFORMATS && len < size; i++) {
		if (query && !formats[i].query)
			continue;
		k++;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					k == 1 ? "" : k == count ? last : sep, formats[i].name);
	}
	return buf;
}

static void usage(void)
{
	char names[256];
	size_t i;

	fprintf(stderr,
		"usage: compare [--baseline V] [--alpha A] [--min-effect E] [--plots LIST]\n"
		"               [--format FORMAT] samples.csv...\n"
		"       compare --format %s --where col=v,col!=v,... --select col,...\n"
		"               samples.csv...   (the columns selected of the rows picked)\n"
		"       compare --format posting --variant V samples.csv...   (the body\n"
		"               of V's cover letter)\n"
		"       compare --meta KEY RUN/samples.csv   (a value of RUN/meta.json;\n"
		"               arrays as words, booleans as true/false)\n"
		"       compare --join NAME --baseline B RUN/samples.csv OTHER/samples.csv\n"
		"               (RUN and OTHER's B as B@NAME, in RUN/against-NAME/)\n"
		"       compare --format errpaths [--census CENSUS.tsv] samples.csv...\n"
		"               (scripts/census.sh's callers joined with the outcomes)\n"
		"FORMAT (default text), and the file scripts/compare.sh writes it to:\n",
		format_names(names, sizeof(names), 1, "|", "|"));
	for (i = 0; i < NFORMATS; i++)
		fprintf(stderr, "  %-15s %s%s%s\n", formats[i].name,
			formats[i].file ? formats[i].file : "", formats[i].file ? ": " : "",
			formats[i].what);
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
		{ "join", required_argument, NULL, 'j' },
		{ "plots", required_argument, NULL, 'p' },
		{ "where", required_argument, NULL, 'w' },
		{ "select", required_argument, NULL, 's' },
		{ "census", required_argument, NULL, 'c' },
		{ "variant", required_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	const struct format *format;
	struct comparison *c;
	const char *meta_key = NULL, *join_name = NULL;
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
		case 'j': join_name = optarg; break;
		case 'p': opt.plots = optarg; break;
		case 'c': opt.census = optarg; break;
		case 'w': opt.where = optarg; break;
		case 's': opt.select = optarg; break;
		case 'v': opt.variant = optarg; break;
		default: usage();
		}
	}
	format = find_format(opt.format);
	if (optind == argc)
		usage();
	if (join_name) {
		if (!opt.baseline || argc - optind != 2)
			usage();
		join_runs(argv[optind], argv[optind + 1], opt.baseline, join_name);
		return 0;
	}
	if (meta_key) {
		read_meta(argv[optind]);
		if (!in->nmetas || !json_object_get(in->metas[0].doc, meta_key))
			die("%s: no meta.json beside it, or no '%s' in it", argv[optind], meta_key);
		puts(meta_field(meta_key, buf, sizeof(buf)));
		return 0;
	}
	if (!format)
		die("--format: '%s' is not %s", opt.format,
		    format_names(buf, sizeof(buf), 0, ", ", " or "));
	if ((opt.where || opt.select) && (!format->query || !opt.select))
		die("--where and --select go with --format %s, and --select is needed",
		    format_names(buf, sizeof(buf), 1, ", ", " or "));
	if ((opt.variant != NULL) != !strcmp(format->name, "posting"))
		die("--variant goes with --format posting, which needs it");
	first_samples = argv[optind];
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

	if (format->after == READ) {
		format->write();
		return 0;
	}
	c = compare_all(&n);
	if (format->write_comparisons)
		format->write_comparisons(c, n);
	else
		format->write();
	return 0;
}
