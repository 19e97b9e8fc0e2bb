// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's sections that are not comparisons: the
 * failure-path phase's draws (fail_* rows, one fault boot per variant, no
 * verdicts), the slab bytes per allocation site that cdev_mem.bt saw, and
 * the list of plots.  Text, with md wrapping it in a code block.
 */
#include <glob.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "stats.h"

/* The failure-path value of a (variant, metric, param) in @buf, "-" if
 * absent. */
static const char *draw(const char *variant, const char *metric, const char *param,
			char *buf, size_t size)
{
	const struct group *g = find_group(metric, param, variant);

	if (!g || !g->n)
		snprintf(buf, size, "-");
	else	/* one fault boot: one draw */
		snprintf(buf, size, "%g", g->v[0]);
	return buf;
}

/* "bytes(objects)" leaked by a flavour's group. */
static const char *leaked(const char *variant, const char *param, char *buf, size_t size)
{
	char b[32], o[32];

	snprintf(buf, size, "%s(%s)", draw(variant, "fail_leaked_bytes", param, b, sizeof(b)),
		 draw(variant, "fail_leaked_objects", param, o, sizeof(o)));
	return buf;
}

/* The rows of one table, under the variant's name: systematic (a
 * fail_points group per flavour, param "flavour=F") or the sweep (a
 * fail_registered group per "flavour=F,prob=P"). */
static void failure_rows(const char *variant, int sweep)
{
	static const char *const counts[2][3] = {
		{ "fail_points", "fail_handled", "fail_tolerated" },
		{ "fail_registered", "fail_handled", "fail_setup_failed" },
	};
	char flav[64], prob[16], b[6][80];
	size_t i, rows = 0;

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];
		const char *p = g->param;

		if (strcmp(g->variant, variant) ||
		    strcmp(g->metric, sweep ? "fail_registered" : "fail_points"))
			continue;
		if (!rows++)
			printf("  %s\n", variant);
		param_value(p, "flavour", flav, sizeof(flav));
		param_value(p, "prob", prob, sizeof(prob));
		draw(variant, counts[sweep][0], p, b[0], 80);
		draw(variant, counts[sweep][1], p, b[1], 80);
		draw(variant, counts[sweep][2], p, b[2], 80);
		if (sweep)
			printf("    %-16s %3s%% %5s %6s %5s", flav, prob, b[0], b[1], b[2]);
		else
			printf("    %-16s %6s %7s %9s", flav, b[0], b[1], b[2]);
		printf(" %11s %5s %6s\n", leaked(variant, p, b[3], 80),
		       draw(variant, "fail_sysfs_left", p, b[4], 80),
		       draw(variant, "fail_majors_left", p, b[5], 80));
	}
}

/* The kset reference line of a variant: unchanged, or which groups. */
static void kset_refs(const char *variant)
{
	char flav[64], prob[16], *text = NULL;
	size_t i, len = 0, groups = 0, changes = 0;
	FILE *out = xmemstream(&text, &len);

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->variant, variant) || strcmp(g->metric, "fail_kset_refs_left"))
			continue;
		groups++;
		if (g->v[0] == 0)
			continue;
		param_value(g->param, "flavour", flav, sizeof(flav));
		param_value(g->param, "prob", prob, sizeof(prob));
		fprintf(out, "%s %s%s%s %+g", changes++ ? "," : " changed:", flav,
			prob[0] ? " " : "", prob, g->v[0]);
	}
	fclose(out);
	if (changes)
		printf("    %s:%s\n", variant, text);
	else if (groups)
		printf("    %s: unchanged in all %zu groups\n", variant, groups);
	free(text);
}

void print_failure_paths(int md)
{
	char b[32];
	size_t i;
	int any = 0;

	for (i = 0; i < in->ngroups && !any; i++)
		any = in->groups[i].decl->kind == DRAW;
	if (in->nmetas && !strcmp(meta_field("faults", b, sizeof(b)), "false")) {
		printf(md ? "## Failure paths\n\nSkipped (FAULTS=0: no fault kernels were booted).\n\n" :
			    "Failure paths: skipped (FAULTS=0: no fault kernels were booted)\n\n");
		return;
	}
	if (!any)
		return;
	printf(md ? "## Failure paths\n\n```\n" : "Failure paths\n");
	printf("Fault kernels (rig.config + patches/fault.config), one boot per variant;\n"
	       "kmemleak's reports in <variant>/fault-1/kmemleak.txt; leaks are its\n"
	       "suspects allocated through the registration.  Single draws, no verdicts.\n\n");
	printf("  systematic: the k-th slab allocation of one registration fails, every k\n");
	printf("    %-16s %6s %7s %9s %11s %5s %6s\n", "flavour", "points", "handled",
	       "tolerated", "leaked B(n)", "sysfs", "majors");
	for (i = 0; i < in->nvariants; i++)
		failure_rows(in->variants[i], 0);
	printf("\n  failslab sweep: 200 rounds per probability, only this task failing; a\n"
	       "  round whose driver structure failed to allocate (setup) registers nothing\n");
	printf("    %-16s %4s %5s %6s %5s %11s %5s %6s\n", "flavour", "prob", "regd",
	       "failed", "setup", "leaked B(n)", "sysfs", "majors");
	for (i = 0; i < in->nvariants; i++)
		failure_rows(in->variants[i], 1);
	printf("\n  references on the /sys/cdev and /sys/cdev/major ksets, after minus\n"
	       "  before each group (kernels with cdevs in sysfs; a change fails the run):\n");
	for (i = 0; i < in->nvariants; i++)
		kset_refs(in->variants[i]);
	printf("  kernel warnings (WARN/BUG/oops) in the fault boots:\n");
	for (i = 0; i < in->nvariants; i++)
		if (find_group("fail_warnings", "-", in->variants[i]))
			printf("    %-16s %s\n", in->variants[i],
			       draw(in->variants[i], "fail_warnings", "-", b, sizeof(b)));
	printf("  cdev_init_noput frees the structure without kobject_put() after a\n"
	       "  failed cdev_add(); its leaks are the measured cost, every other\n"
	       "  flavour must leak nothing (the run fails otherwise).\n");
	printf(md ? "```\n\n" : "\n");
}

double median_of_boots(const struct group *g)
{
	double *med, spread, m;
	size_t nb;

	if (!g || !g->n)
		return NAN;
	med = xmalloc(g->n * sizeof(*med));
	nb = boot_medians(g, med, &spread);
	m = median(med, nb);
	free(med);
	return m;
}

/* A named part of a variant's figure: slab bytes per cdev that
 * cdev_add() kept by allocation site (the median over boots of
 * cdev_mem.bt's mem_traced_site_bytes_per_cdev), or a shared cache line's
 * share per operation. */
struct site {
	const char *variant;
	char name[64];
	double value;
};

static struct site *sites;
static size_t nsites;

/* Collects the sites once; 0 where a variant has none. */
static int read_sites(void)
{
	static int done, complete;
	size_t i, j;

	if (done)
		return complete;
	done = 1;
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->metric, "mem_traced_site_bytes_per_cdev"))
			continue;
		sites = xrealloc(sites, (nsites + 1) * sizeof(*sites));
		sites[nsites].variant = g->variant;
		param_value(g->param, "site", sites[nsites].name, sizeof(sites[0].name));
		sites[nsites++].value = median_of_boots(g);
	}
	complete = nsites > 0;
	for (i = 0; i < in->nvariants; i++) {
		for (j = 0; j < nsites && strcmp(sites[j].variant, in->variants[i]); j++)
			;
		complete &= j < nsites;
	}
	return complete;
}

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return (y->value > x->value) - (y->value < x->value);
}

void print_memory_sites(int md)
{
	size_t i, j;

	if (!read_sites())
		return;
	printf(md ? "## Memory by allocation site\n\n```\n" : "");
	printf("Slab bytes per cdev kept by cdev_add(), by allocation site (cdev_mem.bt,\n"
	       "median of boots)\n");
	for (i = 0; i < in->nvariants; i++) {
		struct site *v = xmalloc(nsites * sizeof(*v));
		size_t n = 0;

		for (j = 0; j < nsites; j++)
			if (!strcmp(sites[j].variant, in->variants[i]))
				v[n++] = sites[j];
		qsort(v, n, sizeof(*v), cmp_site);
		for (j = 0; j < n; j++)
			printf("  %-16s %-36s %8.1f\n", v[j].variant, v[j].name, v[j].value);
		free(v);
	}
	printf(md ? "```\n\n" : "\n");
}

/* The plot's data: a row per variant, a column per site (0 where a
 * variant has none), sites in order of first appearance. */
void print_sites_matrix(void)
{
	size_t i, j, k;

	if (!read_sites())
		die("no mem_traced_site_bytes_per_cdev rows for every variant");
	printf("variant");
	for (j = 0; j < nsites; j++) {
		for (k = 0; k < j && strcmp(sites[k].name, sites[j].name); k++)
			;
		if (k == j)
			printf(" %s", sites[j].name);
	}
	printf("\n");
	for (i = 0; i < in->nvariants; i++) {
		printf("%s", in->variants[i]);
		for (j = 0; j < nsites; j++) {
			double b = 0;

			for (k = 0; k < j && strcmp(sites[k].name, sites[j].name); k++)
				;
			if (k < j)
				continue;	/* a column already printed */
			for (k = 0; k < nsites; k++)
				if (!strcmp(sites[k].variant, in->variants[i]) &&
				    !strcmp(sites[k].name, sites[j].name))
					b = sites[k].value;
			printf(" %.1f", b);
		}
		printf("\n");
	}
}

struct census_lock {
	char name[64];
	double most;	/* the largest count of any variant: the sort key */
};

static int cmp_census_lock(const void *a, const void *b)
{
	const struct census_lock *x = a, *y = b;

	if (x->most != y->most)
		return x->most < y->most ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * The lock census (lock_census.bt): per benchmark operation, every lock
 * taken and how often, a column per variant (0 where its census did not
 * see the lock), the most taken first.
 */
void print_lock_census(int md)
{
	static const char *const phases[][2] = {
		{ "add", "cdev_add()" }, { "del", "cdev_del()" },
		{ "lookup", "open_lookup: a first open, through the map" },
		{ "cached", "open_cached: an open and close of a cached node" },
	};
	char phase[32], lock[64], param[128];
	struct census_lock *locks = xmalloc(in->ngroups * sizeof(*locks));
	size_t p, i, j, k, nlocks;

	for (i = 0; i < in->ngroups && strcmp(in->groups[i].metric, "lock_acquisitions_per_op");
	     i++)
		;
	if (i == in->ngroups) {
		free(locks);
		return;
	}
	printf(md ? "## Lock census\n\n" : "Lock census\n");
	print_wrapped("Acquisitions per operation of every lock on the measured path "
		      "(lock_census.bt, median of boots, traced pass): a static lock by its "
		      "symbol, one embedded in an object as KIND@FUNCTION, the function that "
		      "took it.  RCU read sections are not counted (PREEMPT_NONE compiles "
		      "rcu_read_lock() to nothing).", 76, md ? "" : "  ");
	if (!md) {
		char *text;
		size_t len;
		FILE *f = xmemstream(&text, &len);

		fprintf(f, "Columns:");
		for (j = 0; j < in->nvariants; j++)
			fprintf(f, " [%zu] %s%s", j + 1, in->variants[j], race_mark(in->variants[j]));
		fclose(f);
		print_wrapped(text, 76, "  ");
		free(text);
	}
	for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		nlocks = 0;
		for (i = 0; i < in->ngroups; i++) {
			const struct group *g = &in->groups[i];
			double v;

			param_value(g->param, "phase", phase, sizeof(phase));
			if (strcmp(g->metric, "lock_acquisitions_per_op") ||
			    strcmp(phase, phases[p][0]))
				continue;
			v = median_of_boots(g);
			param_value(g->param, "lock", lock, sizeof(lock));
			for (k = 0; k < nlocks && strcmp(locks[k].name, lock); k++)
				;
			if (k == nlocks) {
				snprintf(locks[k].name, sizeof(locks[k].name), "%s", lock);
				locks[nlocks++].most = v;
			} else if (v > locks[k].most) {
				locks[k].most = v;
			}
		}
		if (!nlocks)
			continue;
		qsort(locks, nlocks, sizeof(*locks), cmp_census_lock);
		if (md) {
			printf("\n%s (`phase=%s`)\n\n| lock |", phases[p][1], phases[p][0]);
			for (j = 0; j < in->nvariants; j++)
				printf(" %s%s |", in->variants[j], race_mark(in->variants[j]));
			printf("\n|---|");
			for (j = 0; j < in->nvariants; j++)
				printf("---:|");
			printf("\n");
		} else {
			printf("\n  %s (phase=%s)\n    %-32s", phases[p][1], phases[p][0], "lock");
			for (j = 0; j < in->nvariants; j++) {
				snprintf(lock, sizeof(lock), "[%zu]", j + 1);
				printf(" %7s", lock);
			}
			printf("\n");
		}
		for (k = 0; k < nlocks; k++) {
			printf(md ? "| %s |" : "    %-32.32s", locks[k].name);
			for (j = 0; j < in->nvariants; j++) {
				double v;

				snprintf(param, sizeof(param), "phase=%s,lock=%s", phases[p][0],
					 locks[k].name);
				v = median_of_boots(find_group("lock_acquisitions_per_op", param,
							       in->variants[j]));
				if (isnan(v))
					printf(md ? " - |" : " %7s", "-");
				else
					printf(md ? " %.2f |" : " %7.2f", v);
			}
			printf("\n");
		}
	}
	printf("\n");
	free(locks);
}

/* The plots compare.sh drew, one "file: what" or "skipped ...: why" per
 * line of @file. */
void print_plots(const char *file, int md)
{
	char line[1024], *dir;
	FILE *f = fopen(file, "r");

	if (!f)
		die("cannot open the plot list %s", file);
	dir = xstrdup(file);
	if (md)
		printf("## Plots\n\n");
	else
		printf("Plots (in %s)\n", dirname(dir));
	free(dir);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (md)
			printf("- %s\n", line);
		else
			print_wrapped(line, 76, "  ");
	}
	fclose(f);
}

/* The run's five most expensive boot steps (profile.tsv, which merge.sh
 * sums from every boot's steps.tsv: phase, step, boots, host seconds, the
 * most expensive first). */
#define PROFILE_SHOWN 5
void print_profile(int md)
{
	char path[4096], line[1024], *dir;
	size_t shown = 0;
	FILE *f;

	if (!in->nmetas)
		return;
	dir = xstrdup(in->metas[0].path);
	snprintf(path, sizeof(path), "%s/profile.tsv", dirname(dir));
	free(dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f))	/* the header */
		printf(md ? "\n## Where the boots' time went\n\nHost seconds summed over boots, the five most expensive steps (`profile.tsv` has every step):\n\n" :
			    "\nWhere the boots' time went: host seconds summed over boots, the\nfive most expensive steps (profile.tsv has every step)\n");
	while (shown < PROFILE_SHOWN && fgets(line, sizeof(line), f)) {
		char *phase = strtok(line, "\t\n"), *step = strtok(NULL, "\t\n");
		char *boots = strtok(NULL, "\t\n"), *seconds = strtok(NULL, "\t\n");
		int cut;	/* a step's name cut to 78 columns, marked where cut */

		if (!seconds)
			continue;
		cut = !md && strlen(step) > 47;
		printf(md ? "- %s s, %s, %s boot%s: %.*s%s\n" : "  %7s s  %-6s %3s boot%s  %.*s%s\n",
		       seconds, phase, boots, strcmp(boots, "1") ? "s" : "", cut ? 44 : (int)strlen(step),
		       step, cut ? "..." : "");
		shown++;
	}
	fclose(f);
}

/*
 * The failure-path phase's pass rule, for scripts/fault-check.sh: every
 * flavour that unwinds as its API asks (all but cdev_init_noput, whose
 * leaks are the cost being measured) leaks nothing by kmemleak's count
 * and leaves no sysfs entry or major behind, and no flavour changes the
 * references on the /sys/cdev ksets.  One line per problem, none when the
 * phase passed.
 */
void print_fault_problems(void)
{
	static const char *const must_be_zero[] = { "fail_leaked_bytes", "fail_sysfs_left",
						    "fail_majors_left" };
	char flav[64];
	size_t i, k;

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];
		int checked = !strcmp(g->metric, "fail_kset_refs_left");

		param_value(g->param, "flavour", flav, sizeof(flav));
		for (k = 0; k < sizeof(must_be_zero) / sizeof(must_be_zero[0]); k++)
			checked |= !strcmp(g->metric, must_be_zero[k]) &&
				   strcmp(flav, "cdev_init_noput");
		if (checked && g->n && g->v[0] != 0)
			printf("%s %s=%g\n", g->param, g->metric, g->v[0]);
	}
}

/*
 * The selftest's known failures (KTAP "# XFAIL" and "# XPASS" lines in
 * each boot's selftest.tap, beside the variant's meta.json): a sentence
 * per case, the variants that failed it as declared and those that
 * passed it, with the boots where it did when not in all of them.
 */
#define MAX_OUTCOMES 64

struct known_outcome {
	char name[128];
	int xpass;
	size_t variant, boots, of;
};

/* Add this variant's XFAIL and XPASS lines of @tap to @o. */
static void read_known_outcomes(const char *tap, size_t variant, size_t boots,
				struct known_outcome *o, size_t *n)
{
	char line[1024], name[128];
	FILE *f = fopen(tap, "r");
	size_t k;

	while (f && fgets(line, sizeof(line), f)) {
		int xpass = !!strstr(line, " # XPASS ");

		if ((!xpass && !strstr(line, " # XFAIL ")) ||
		    sscanf(line, "ok %*d %127s", name) != 1)
			continue;
		for (k = 0; k < *n; k++)
			if (!strcmp(o[k].name, name) && o[k].xpass == xpass &&
			    o[k].variant == variant)
				break;
		if (k == *n) {
			if (*n == MAX_OUTCOMES)
				continue;
			o[k] = (struct known_outcome){ .xpass = xpass, .variant = variant,
						       .of = boots };
			snprintf(o[k].name, sizeof(o[k].name), "%s", name);
			(*n)++;
		}
		o[k].boots++;
	}
	if (f)
		fclose(f);
}

void print_known_failures(FILE *out)
{
	struct known_outcome o[MAX_OUTCOMES];
	char pattern[4096], *dir;
	const char *path;
	size_t i, j, k, n = 0;
	glob_t taps;

	for (i = 0; i < in->nvariants; i++) {
		/* the A/A arm boots the baseline's kernel: it says nothing new */
		if ((aa_arm && !strcmp(in->variants[i], aa_arm)) ||
		    !variant_meta(in->variants[i], &path) || !path)
			continue;
		dir = xstrdup(path);
		snprintf(pattern, sizeof(pattern), "%s/%s/boot-*/selftest.tap", dirname(dir),
			 in->variants[i]);
		free(dir);
		if (glob(pattern, 0, NULL, &taps))
			continue;
		for (j = 0; j < taps.gl_pathc; j++)
			read_known_outcomes(taps.gl_pathv[j], i, taps.gl_pathc, o, &n);
		globfree(&taps);
	}
	for (k = 0; k < n; k++) {
		char list[2][1024] = { "", "" };

		if (!o[k].boots)
			continue;	/* listed with an earlier entry of its case */
		for (j = k; j < n; j++) {
			char *l = list[o[j].xpass];
			size_t len = strlen(l);

			if (strcmp(o[j].name, o[k].name))
				continue;
			len += snprintf(l + len, sizeof(list[0]) - len, "%s%s", len ? ", " : "",
					in->variants[o[j].variant]);
			if (o[j].boots < o[j].of && len < sizeof(list[0]))
				snprintf(l + len, sizeof(list[0]) - len, " (%zu of %zu boots)",
					 o[j].boots, o[j].of);
			if (j != k)
				o[j].boots = 0;
		}
		fprintf(out, " Known failure %s (see selftest.tap):", o[k].name);
		if (list[0][0])
			fprintf(out, " fails on %s", list[0]);
		if (list[1][0])
			fprintf(out, "%s passes on %s (fixed, or a stale declaration)",
				list[0][0] ? ";" : "", list[1]);
		fprintf(out, ".");
	}
}

/* The TCG plugin's sharing boot: per variant and cached-open run, the
 * lines an operation shares (lockstep), the transfers of the free run,
 * and the largest lines by name (bench/plugin/pmu_rows.c). */
void print_shared_lines(int md)
{
	char bench[48], threads[48], param[160], vcpus[16], inter[16];
	const struct group *total, *free_run;
	struct site *lines = NULL;	/* a line's name and its share per op */
	size_t i, j, n;
	int any = 0;

	for (i = 0; i < in->ngroups && !any; i++)
		any = !strcmp(in->groups[i].metric, "shared_lines_per_op");
	if (!any)
		return;
	printf(md ? "## Shared cache lines\n\n```\n" : "");
	printf("Shared cache lines (TCG plugin, %s vCPUs): per operation, the lines it\n"
	       "writes that another CPU touches, threads in lockstep; transfers with\n"
	       "the threads free, TCG thread=%s; the largest lines by data symbol,\n"
	       "or for the heap the functions of the first store/load\n",
	       meta_field("pmu_vcpus", vcpus, sizeof(vcpus)),
	       meta_field("pmu_interleave", inter, sizeof(inter)));
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->metric, "shared_lines_per_op"))
			continue;
		param_value(g->param, "bench", bench, sizeof(bench));
		param_value(g->param, "threads", threads, sizeof(threads));
		snprintf(param, sizeof(param), "bench=%s,threads=%s,sched=free", bench, threads);
		free_run = find_group("transfers_per_op", param, g->variant);
		total = g;
		printf("  %-16s %s threads=%s: %.1f lines/op, %.2f transfers/op%s\n", g->variant,
		       bench, threads, median_of_boots(total), median_of_boots(free_run),
		       race_mark(g->variant));
		n = 0;
		for (j = 0; j < in->ngroups; j++) {
			const struct group *l = &in->groups[j];
			char b2[48], t2[48];

			if (strcmp(l->metric, "shared_line_per_op") || strcmp(l->variant, g->variant) ||
			    strcmp(param_value(l->param, "bench", b2, sizeof(b2)), bench) ||
			    strcmp(param_value(l->param, "threads", t2, sizeof(t2)), threads))
				continue;
			lines = xrealloc(lines, (n + 1) * sizeof(*lines));
			lines[n].variant = l->variant;
			param_value(l->param, "site", lines[n].name, sizeof(lines[n].name));
			lines[n++].value = median_of_boots(l);
		}
		if (n)
			qsort(lines, n, sizeof(*lines), cmp_site);
		for (j = 0; j < n; j++)
			printf("    %-46s %5.2f\n", lines[j].name, lines[j].value);
	}
	free(lines);
	printf(md ? "```\n\n" : "\n");
}
