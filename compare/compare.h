/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare, the report engine: what its parts share.  input.c reads,
 * verdict.c decides, the report's model (report_model.h: summary.c and
 * tables.c build it, render_text.c and render_md.c write it) and
 * render_data.c write, as do the report's sections after the comparisons,
 * a file each, and main.c parses the command line.
 */
#ifndef CDEVBENCH_COMPARE_H
#define CDEVBENCH_COMPARE_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>
#include "results.h"

#define CSV_HEADER "metric,param,baseline,variant,n_base,n_var,median_base," \
	"median_var,ratio,ci_low,ci_high,p_value,verdict,rule,floor,rep_spread," \
	"paired_median,paired_min,paired_max"
#define LEVEL 0.95

enum direction { LOWER, HIGHER, EITHER };
enum kind { SAMPLE, COUNT, DRAW, SHAPE };
enum family { HEADLINE, SECONDARY };

/* A metric as bench/benchmarks.def declares it. */
struct decl {
	const char *name, *unit;
	enum direction direction;
	enum kind kind;
	enum family family;
};

/* Every sample of one (variant, metric, param). */
struct group {
	char *metric, *param, *variant, *unit;
	const struct decl *decl;
	double *v;
	int *boot, *iter;
	size_t n, cap;
};

struct meta {
	char *path;
	const char *mode;
	json_t *doc;		/* meta.json, parsed by jansson */
	json_t *race;		/* race.json beside it (make bench RACE=1), or NULL */
};

/* One variant's (metric, param) against the baseline's.  bmed/vmed: the
 * per-boot medians; mb/mv their medians; lo..hi the interval of the
 * ratio (all boots in icount mode, Welch's otherwise); floor the
 * baseline's boot-to-boot spread; rep_spread the largest spread of
 * repetitions within a boot; pair_*: paired deltas (icount). */
struct comparison {
	const struct group *base, *var;
	const struct decl *decl;
	const char *metric, *param, *variant;
	double *bmed, *vmed;
	size_t nb, nv, npairs;
	double mb, mv, ratio, lo, hi, p, floor, rep_spread;
	double pair_med, pair_min, pair_max;
	const char *rule, *verdict;
};

struct options {
	const char *baseline, *format;
	const char *where, *select;	/* --format series or ops: a query for the plots */
	const char *plots;		/* the list of the plots compare.sh drew */
	const char *census;		/* --format errpaths: scripts/census.sh's TSV */
	const char *variant;		/* --format posting: whose cover letter */
	double alpha, min_effect;
};
extern struct options opt;

/* input.c: the declarations, and what was read */
extern const struct decl decls[];
extern const size_t ndecls;
struct input {
	struct group *groups;
	size_t ngroups, capgroups;
	char **variants;
	size_t nvariants;
	struct meta *metas;
	size_t nmetas;
};
extern struct input *const in;

void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...);
void *xmalloc(size_t size);
void *xrealloc(void *p, size_t size);
FILE *xmemstream(char **buf, size_t *len);
char *xstrdup(const char *s);
struct group *find_group(const char *metric, const char *param, const char *variant);
void read_samples(const char *file);
void fill_absent_counts(void);
/* A JSON file parsed by jansson with @flags (the report reads every
 * number as a double, JSON_DECODE_INT_AS_REAL, as jq holds them), or
 * NULL where there is none; one that does not parse is fatal, or where
 * @optional a warning and NULL.  Either names the line and column where
 * jansson stopped. */
json_t *read_json_file(const char *path, int optional, size_t flags);
void read_meta(const char *samples);
const json_t *variant_meta(const char *variant, const char **path);
/* A string member of a JSON object, or fallback where obj is no object,
 * or the member is missing or not a string. */
const char *member_string(const json_t *obj, const char *key, const char *fallback);
/* A top-level value of the first meta.json: arrays as words. */
const char *meta_field(const char *key, char *buf, size_t size);
void check_comparable(void);
const char *param_value(const char *param, const char *key, char *buf, size_t size);
int calibration_param(const char *param);
/* Groups by metric, then param in natural order (n=10 < n=100), for qsort. */
int cmp_group(const void *x, const void *y);

/* verdict.c */
/* icount: boots repeat exactly, so the gap rule decides */
extern int deterministic;
/* the A/A control arm (meta.json: an arm whose kernel is the baseline's) */
extern const char *aa_arm;
/* comparisons with a p-value per family, for Holm */
extern size_t family_size[2];

size_t boot_medians(const struct group *g, double *med, double *rep_spread);
double min_of(const double *v, size_t n);
double max_of(const double *v, size_t n);
double boot_spread(const double *med, size_t nb);
/* A group's median of per-boot medians; NAN where it has no samples. */
double median_of_boots(const struct group *g);
/* Is the group's metric one that gets a verdict (SAMPLE or COUNT)? */
int tested(const struct group *g);
/* Decide comparisons whose base, var, decl, metric, param and variant
 * are set (a side without a group is "missing"), as every comparison is
 * decided; in t+gap Holm runs within each family of these alone, whose
 * sizes go to family. */
void decide_all(struct comparison *c, size_t n, size_t family[2], int apart_prefixes);
/* Every variant's comparisons against the baseline, decided. */
struct comparison *compare_all(size_t *count);
int changed(const struct comparison *x);
const struct comparison *find_comparison(const struct comparison *c, size_t n,
					 const char *metric, const char *param,
					 const char *variant);

/* the first samples.csv named: the run whose folders hold the boots */
extern const char *first_samples;

/* render_data.c: compare.json's pieces, as its writer writes them */
void put_string(const char *s);
void put_member(const char *key, const char *s);
void put_number_member(const char *key, double v);

/* errpaths.c: compare.json's "errpaths", and --format errpaths */
void print_errpaths_json(void);
void print_errpaths_answer(void);

/* report_model.c: the words and numbers of the report's parts */
/* A ratio as a change in percent ("+1.3%", "-91%"), sign the unit. */
void format_pct(char *buf, size_t size, double ratio, const char *sign);
/* A median in at most 7 columns. */
void format_median(char *buf, size_t size, double v);
/* An exact count comparison: "0 -> 2", with ranges where boots differ. */
void format_counts(char *buf, size_t size, const struct comparison *x);
/* Pointers to comparisons, the largest change first (unknown ones
 * before all), for qsort. */
int cmp_effect(const void *a, const void *b);
/* A variant the first screen reports on (a column of the matrix, a
 * block): not the baseline, the A/A arm or a walk's prefix. */
int is_reported(const char *variant);
/* A base of meta.json's bases: "6.1.192 (linux-source-6.1 6.1.192-3)",
 * or its tree and what git says of it. */
void write_base(FILE *out, const json_t *b);
/* summary.c: the first screen's matrix: a row per headline metric the
 * run measured (is_matrix_row), a cell per variant (matrix_cell): "B" better, "W"
 * worse (both: "B+W") at k of its m params, with the range of those
 * changes ("B 4/12 -62..-7%", a count "W 3/3 0 -> 2"); "=" same at every
 * param, "?" unclear, "-" not measured; MATRIX_LEGEND says so. */
#define MATRIX_LEGEND "B better, W worse at k/m (at k of its m params) by the range shown; " \
	"= same at every param; ? unclear; - not measured."
int is_matrix_row(const struct comparison *c, size_t n, const struct decl *d);
void matrix_cell(char *buf, size_t size, const struct comparison *c, size_t n,
		 const char *metric, const char *variant);
/* render_text.c: the one paragraph writer: a paragraph is written in
 * pieces to the stream paragraph_begin() returns; paragraph_end() writes it to out,
 * broken at spaces into lines of at most width columns, the first after
 * first, the others after rest, or as it was written where width is 0
 * (markdown, which its reader wraps). */
struct paragraph {
	FILE *out, *f;
	int width;
	const char *first, *rest;
	char *text;
	size_t len;
};
FILE *paragraph_begin(struct paragraph *p, FILE *out, int width, const char *first,
		      const char *rest);
void paragraph_end(struct paragraph *p);
/* A paragraph written at once, as printf writes. */
void __attribute__((format(printf, 5, 6))) paragraph(FILE *out, int width, const char *first,
						     const char *rest, const char *fmt, ...);

/* kind.c: a count per operation that changed in whole numbers on every
 * boot (or a shared-lines run whose lines changed), by line ("locks per
 * cached open") and item ("cdev_lock"). */
struct kind_change {
	const struct comparison *x;
	char line[96], item[80];
	char sites[256];	/* shared lines: "gone A; new B" */
	long from_lo, from_hi, to_lo, to_hi;
	int zero;		/* went to or from zero */
	int line_zero;		/* so did another count of its line */
	int order;		/* declaration, then phase */
};
size_t kind_changes(const struct comparison *c, size_t n, const char *variant,
		    struct kind_change **out);
/* build_kind_changes (report_model.h) written as report.txt writes it
 * (the cover letter's). */
void print_kind_changes(FILE *scr, const struct comparison *c, size_t n, const char *variant,
			size_t max_lines, int width);
/* The first line of @variant's changes in kind, unwrapped (to free),
 * and in *@lines how many lines it has. */
char *first_kind_change(const struct comparison *c, size_t n, const char *variant,
			size_t *lines);
/* The first line of @variant's changes in kind, named, and with @more
 * how many more its block has; nothing where it has none. */
void print_first_kind_change(FILE *scr, const struct comparison *c, size_t n,
			     const char *variant, int more);

/* walk.c: the walks of a run (make bench WALK=1, meta.json's walks),
 * each step against the one before.  A walk's steps are 1 to N, the
 * last the whole series (its variant); step 0, from, is the baseline. */
struct walk_step {
	int step;
	const char *arm, *subject;
	const char *not_bisectable;	/* why it was left out, or NULL */
};
struct walk {
	const char *variant, *from;
	struct walk_step *steps;
	size_t nsteps;
	size_t *chain;		/* the steps measured, as indices of steps */
	size_t nchain;
	/* the headline comparisons from -> variant that changed, and
	 * cmp[t * nchain + j], totals[t]'s (metric, param) at step chain[j]
	 * against the step measured before it */
	const struct comparison **totals;
	size_t ntotals;
	struct comparison *cmp;
	/* meta.json's bisection of this walk (make bench BISECT=), or NULL */
	const json_t *bisection;
};
/* The run's walks, attributed; c and n are compare_all's. */
size_t find_walks(const struct comparison *c, size_t n, const struct walk **out);
/* An arm that is a step of a walk other than its last. */
int is_walk_prefix(const char *arm);

/*
 * The report's sections after its comparisons (report.txt, report.md), in
 * the order they are written: SECTION(name) is build_<name>(), in
 * compare/<name>.c, which adds the section to the report's model
 * (report_model.h) once for both formats; declared here and called by
 * main.c, which renders each as it is built.  A new section is its file
 * and its line here.
 */
#define REPORT_SECTIONS(SECTION) \
	SECTION(failure_paths) \
	SECTION(errpaths) \
	SECTION(memory_sites) \
	SECTION(lock_census) \
	SECTION(shared_lines) \
	SECTION(plots) \
	SECTION(profile)
struct doc;
#define DECLARE_SECTION(name) void build_##name(struct doc *d);
REPORT_SECTIONS(DECLARE_SECTION)
#undef DECLARE_SECTION

/* memory_sites.c, besides its section */
/* A named part of a variant's figure: slab bytes per cdev that
 * cdev_add() kept by allocation site (the median over boots of
 * cdev_mem.bt's mem_traced_site_bytes_per_cdev), or a shared cache line's
 * share per operation. */
struct site {
	const char *variant;
	char name[64];
	double value;
};
/* Sites by value, the largest first, for qsort. */
int cmp_site(const void *a, const void *b);
/* The memory sites' plot data (--format sites). */
void print_sites_matrix(void);

/* fault_check.c: the failure-path phase's pass rule, a line per problem
 * (--format fault-problems) */
void print_fault_problems(void);

/* known_failures.c: the selftest's known failures (XFAIL, XPASS in the
 * boots' selftest.tap): the first screen's sentence on the selftest,
 * each case named once with the arms where it failed or passed, and
 * how many of its own a variant had of each. */
void print_selftest_outcome(FILE *out);
void known_failure_counts(const char *variant, size_t *xfail, size_t *xpass);

/* answer.c: the first screen's lead, what a reviewer asks first: the
 * run's mode and what its "ns" are, whether it is a QUICK look, the A/A
 * control's false positives; then per variant what got worse and
 * better, the largest change each way in both sides' values, memory per
 * cdev, the selftest, its first change in kind. */
void print_lead(FILE *out, const struct comparison *c, size_t n, int md);
void print_answers(FILE *out, const struct comparison *c, size_t n, int md);
/* The lead's sentences on the mode and QUICK, unwrapped. */
void write_mode_note(FILE *f);
/* One variant's answer, without its change in kind, wrapped to @width. */
void print_answer(FILE *out, int width, const struct comparison *c, size_t n, const char *variant);

/* failures.c: meta.json's failures, the boots whose kernel failed
 * (scripts/merge.sh), by arm */
const json_t *arm_failures(const char *arm);
/* Every timing boot of @arm failed: it has no rows, no verdicts. */
int did_not_boot(const char *arm);
/* is_reported, and not an A/A control by meta.json (one that has no
 * rows is not aa_arm) */
int reported_arm(const char *arm);
/* The arms the first screen reports on that did not boot, in the
 * run's order, in *out (to free). */
size_t not_booted_arms(const char ***out);
/* "ARM: did not boot: <first complaint line> (<function>). An oops on
 * 2 of 2 boots, ...", unwrapped */
void write_did_not_boot(FILE *out, const char *arm, int md);
/* Sentences on an arm that booted: how many of its timing boots
 * failed and why, its other boots that failed; nothing where none. */
void write_boot_failures(FILE *out, const char *arm);
/* Did a boot of the run fail because of its kernel? */
int any_boot_failed(void);

/* join.c: compare --join, the join of two runs (AGAINST): RUN's rows
 * and meta.json with OTHER's arm @baseline as <baseline>@<name>, in
 * RUN/against-<name>/. */
void join_runs(const char *run_samples, const char *other_samples, const char *baseline,
	       const char *name);

/* race.c */
/* " (race check FAIL)" for an arm that failed the run's race check, else "" */
const char *race_mark(const char *arm);
/* the race check's sentence of the correctness paragraph */
void print_race_outcome(FILE *out);
/* the race check's sentence on one arm, or why there is none */
void print_race_of(FILE *out, const char *arm);

/* posting.c: compare --format posting --variant V, the body of V's
 * cover letter (scripts/posting.sh) */
void print_posting(const struct comparison *c, size_t n);

/* render_data.c */
void print_csv(const struct comparison *c, size_t n);
void print_series(const struct comparison *c, size_t n);
/* every operation's time from the raw/ files of the run in @run_dir */
void print_ops(const char *run_dir);
void print_json(const struct comparison *c, size_t n);

#endif
