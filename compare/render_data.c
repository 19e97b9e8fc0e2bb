// SPDX-License-Identifier: GPL-2.0
/*
 * compare, rendering for programs: compare.csv (docs/design.md's columns and
 * the rule's), series.csv (per-variant values and ratios for the plots),
 * the run's per-operation samples (for the distribution plots),
 * and compare.json (every comparison with the run's provenance).
 */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "stats.h"

/* A number for a CSV cell: empty when there is none. */
static const char *cell(char *buf, size_t size, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, size, "%.6g", v);
	return buf;
}

void print_csv(const struct comparison *c, size_t n)
{
	char b[8][32], field[256];
	size_t i;

	printf("%s\n", CSV_HEADER);
	for (i = 0; i < n; i++) {
		const struct comparison *x = &c[i];

		if (!x->base || !x->var) {
			printf("%s,%s,%s,%s,%zu,%zu,,,,,,,missing,,,,,,\n", x->metric,
			       param_field(x->param, field, sizeof(field)), opt.baseline, x->variant,
			       x->base ? x->base->n : 0, x->var ? x->var->n : 0);
			continue;
		}
		printf("%s,%s,%s,%s,%zu,%zu,%.6g,%.6g,%s,%s,%s,%s,%s,%s,%s,%.6g,",
		       x->metric, param_field(x->param, field, sizeof(field)), opt.baseline, x->variant,
		       x->nb, x->nv, x->mb, x->mv, cell(b[0], 32, x->ratio),
		       cell(b[1], 32, x->lo), cell(b[2], 32, x->hi),
		       cell(b[3], 32, x->p), x->verdict, x->rule,
		       cell(b[4], 32, x->floor), x->rep_spread);
		if (x->npairs)
			printf("%.6g,%.6g,%.6g\n", x->pair_med, x->pair_min, x->pair_max);
		else
			printf(",,\n");
	}
}

/*
 * The tables --where and --select query by column name: series.csv's rows
 * (a column per param key) and the run's per-operation samples.  A row is
 * its cells, f[column].
 */
#define CELL 64
#define MAX_COLUMNS (PARAM_NKEYS + 16)
struct table {
	const char *name;
	const char *columns[MAX_COLUMNS];
	size_t n;
};

/* Columns: @before, a column per param key, then @after (NULL-ended). */
static void table_init(struct table *t, const char *name, const char *const *before,
		       const char *const *after)
{
	int k;

	t->name = name;
	t->n = 0;
	for (; *before; before++)
		t->columns[t->n++] = *before;
	for (k = 0; k < PARAM_NKEYS; k++)
		t->columns[t->n++] = param_key_name(k);
	for (; *after; after++)
		t->columns[t->n++] = *after;
}

static size_t column(const struct table *t, const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < t->n; k++)
		if (strlen(t->columns[k]) == len && !strncmp(t->columns[k], name, len))
			return k;
	die("%s has no column '%.*s'", t->name, (int)len, name);
	return 0;
}

/* The param's keys into their cells, from column @first on. */
static void param_cells(char f[][CELL], size_t first, const char *param)
{
	int k;

	for (k = 0; k < PARAM_NKEYS; k++)
		param_value(param, param_key_name(k), f[first + k], CELL);
}

/*
 * Does a row pass every term of --where: "col=value" (an empty value: the
 * column is empty) or "col!=value", separated by commas?  With @only, the
 * terms on that column alone, for a row whose other cells are not known
 * yet.
 */
static int where(const struct table *t, char f[][CELL], const char *only)
{
	const char *term = opt.where, *end, *eq;
	size_t k, vlen;
	int negate, equal;

	for (; term && *term; term = *end ? end + 1 : end) {
		end = term + strcspn(term, ",");
		eq = memchr(term, '=', end - term);
		if (!eq)
			die("--where: '%.*s' is not col=value or col!=value", (int)(end - term),
			    term);
		negate = eq > term && eq[-1] == '!';
		k = column(t, term, eq - term - negate);
		if (only && strcmp(t->columns[k], only))
			continue;
		vlen = end - eq - 1;
		equal = strlen(f[k]) == vlen && !strncmp(f[k], eq + 1, vlen);
		if (equal == negate)
			return 0;
	}
	return 1;
}

/* The row as CSV, or with --select the named cells separated by spaces
 * (as gnuplot reads them) where the row passes --where. */
static void table_row(const struct table *t, char f[][CELL])
{
	const char *sel = opt.select, *end;
	size_t k;

	if (!sel) {
		for (k = 0; k < t->n; k++)
			printf("%s%s", k ? "," : "", f[k]);
		putchar('\n');
		return;
	}
	if (!where(t, f, NULL))
		return;
	for (; *sel; sel = *end ? end + 1 : end) {
		end = sel + strcspn(sel, ",");
		printf("%s%s", sel == opt.select ? "" : " ", f[column(t, sel, end - sel)]);
	}
	putchar('\n');
}

static void table_header(const struct table *t)
{
	size_t k;

	for (k = 0; k < t->n && !opt.select; k++)
		printf("%s%s", k ? "," : "", t->columns[k]);
	if (!opt.select)
		putchar('\n');
}

/* For the plots, per variant and (metric, param): the median of per-boot
 * medians and the range of the boots; against the baseline the ratio, its
 * interval and the A/A band (the A/A arm's interval, or one minus and
 * plus the baseline's boot spread without one).  Param keys in columns of
 * their own. */
void print_series(const struct comparison *c, size_t n)
{
	static const char *const before[] = { "metric", "variant", NULL };
	static const char *const after[] = { "boots", "median", "low", "high", "unit", "ratio",
					     "ratio_low", "ratio_high", "aa_low", "aa_high",
					     NULL };
	struct table t;
	char f[MAX_COLUMNS][CELL];
	size_t i, k, s;

	table_init(&t, "series.csv", before, after);
	s = 2 + PARAM_NKEYS;	/* the first column after the keys */
	table_header(&t);
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];
		const struct comparison *x = NULL, *aa = NULL;
		double *med, spread;
		size_t nb;

		if (g->decl->kind == DRAW)
			continue;
		med = xmalloc(g->n * sizeof(*med));
		nb = boot_medians(g, med, &spread);
		snprintf(f[0], CELL, "%s", g->metric);
		snprintf(f[1], CELL, "%s", g->variant);
		param_cells(f, 2, g->param);
		snprintf(f[s], CELL, "%zu", nb);
		snprintf(f[s + 1], CELL, "%.6g", median(med, nb));
		snprintf(f[s + 2], CELL, "%.6g", min_of(med, nb));
		snprintf(f[s + 3], CELL, "%.6g", max_of(med, nb));
		snprintf(f[s + 4], CELL, "%s", g->unit);
		free(med);
		for (k = s + 5; k < t.n; k++)
			f[k][0] = 0;
		if (strcmp(g->variant, opt.baseline))
			x = find_comparison(c, n, g->metric, g->param, g->variant);
		if (aa_arm)
			aa = find_comparison(c, n, g->metric, g->param, aa_arm);
		if (x && x->var && x->base) {
			cell(f[s + 5], CELL, x->ratio);
			cell(f[s + 6], CELL, x->lo);
			cell(f[s + 7], CELL, x->hi);
			cell(f[s + 8], CELL, aa && aa->var ? aa->lo : 1 - x->floor);
			cell(f[s + 9], CELL, aa && aa->var ? aa->hi : 1 + x->floor);
		}
		table_row(&t, f);
	}
}

/* Every timed operation of the run, from each variant's boots' raw/
 * files: variant, boot, metric, the param's keys, iter, op, ns.  Only the
 * variants --where lets through are read. */
void print_ops(const char *run_dir)
{
	static const char *const before[] = { "variant", "boot", "metric", NULL };
	static const char *const after[] = { "iter", "op", "ns", NULL };
	struct table t;
	char f[MAX_COLUMNS][CELL], pattern[4096];
	size_t i, j, s = 3 + PARAM_NKEYS;
	glob_t files;
	int rc;

	table_init(&t, "the per-operation samples", before, after);
	table_header(&t);
	for (i = 0; i < in->nvariants; i++) {
		snprintf(f[0], CELL, "%s", in->variants[i]);
		if (!where(&t, f, "variant"))
			continue;
		snprintf(pattern, sizeof(pattern), "%s/%s/boot-*/raw/*.csv", run_dir,
			 in->variants[i]);
		if (glob(pattern, 0, NULL, &files))
			continue;	/* no file: no operations */
		for (j = 0; j < files.gl_pathc; j++) {
			struct results_reader r;
			const char *b = strstr(files.gl_pathv[j], "/boot-");

			snprintf(f[1], CELL, "%.*s", (int)strcspn(b + 6, "/"), b + 6);
			if (raw_open(&r, files.gl_pathv[j]))
				exit(1);
			while ((rc = results_next(&r)) > 0) {
				snprintf(f[2], CELL, "%s", r.fields[R_METRIC]);
				param_cells(f, 3, r.fields[R_PARAM]);
				snprintf(f[s], CELL, "%s", r.fields[R_ITER]);
				snprintf(f[s + 1], CELL, "%s", r.fields[R_OP]);
				snprintf(f[s + 2], CELL, "%s", r.fields[R_NS]);
				table_row(&t, f);
			}
			results_close(&r);
			if (rc)
				exit(1);
		}
		globfree(&files);
	}
}

void put_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void put_number(double v)
{
	if (isfinite(v))
		printf("%.6g", v);
	else
		printf("null");
}

/* A value jansson parsed (meta.json, race.json) written back compactly,
 * its numbers and strings as put_number and put_string write compare's
 * own.  Not json_dumpf: it writes a whole number read as a double as
 * 2.0, and none of the line breaks compare.json has between its
 * comparisons; so compare.json is written here, by hand. */
static void put_value(json_t *j)
{
	const char *key;
	json_t *e;
	size_t i;

	switch (json_typeof(j)) {
	case JSON_NULL: printf("null"); break;
	case JSON_TRUE: printf("true"); break;
	case JSON_FALSE: printf("false"); break;
	case JSON_INTEGER:
	case JSON_REAL: put_number(json_number_value(j)); break;
	case JSON_STRING: put_string(json_string_value(j)); break;
	case JSON_ARRAY:
		putchar('[');
		json_array_foreach(j, i, e) {
			if (i)
				putchar(',');
			put_value(e);
		}
		putchar(']');
		break;
	case JSON_OBJECT:
		putchar('{');
		i = 0;
		json_object_foreach(j, key, e) {
			if (i++)
				putchar(',');
			put_string(key);
			putchar(':');
			put_value(e);
		}
		putchar('}');
		break;
	}
}

void put_member(const char *key, const char *s)
{
	printf(",\"%s\":", key);
	if (s)
		put_string(s);
	else
		printf("null");
}

void put_number_member(const char *key, double v)
{
	printf(",\"%s\":", key);
	put_number(v);
}

/* One comparison's numbers, as in "comparisons" (from its baseline,
 * median_base, to its variant). */
static void put_numbers(const struct comparison *x)
{
	int both = x->base && x->var;

	put_number_member("median_base", both ? x->mb : NAN);
	put_number_member("median_variant", both ? x->mv : NAN);
	put_number_member("ratio", both ? x->ratio : NAN);
	put_number_member("ratio_low", both ? x->lo : NAN);
	put_number_member("ratio_high", both ? x->hi : NAN);
	put_number_member("p_value", both ? x->p : NAN);
	put_member("verdict", x->verdict);
	/* the report's notion of a change, for scripts (bench.sh's BISECT) */
	printf(",\"changed\":%s", changed(x) ? "true" : "false");
	put_member("rule", x->rule);
}

/* The walks' attribution (walk.c), as their blocks show it: each walk's
 * steps (not_bisectable: why one was left out), and per headline
 * (metric, param) that changed from step 0 to the whole series, every
 * measured step against the one measured before it (against_step). */
static void print_attribution_json(const struct comparison *c, size_t n)
{
	const struct walk *w;
	size_t nw = find_walks(c, n, &w), i, j, t;

	printf(",\"attribution\":[");
	for (i = 0; i < nw; i++) {
		printf("%s\n{\"variant\":", i ? "," : "");
		put_string(w[i].variant);
		put_member("from", w[i].from);
		printf(",\"steps\":[");
		for (j = 0; j < w[i].nsteps; j++) {
			printf("%s{\"step\":%d", j ? "," : "", w[i].steps[j].step);
			put_member("arm", w[i].steps[j].arm);
			put_member("subject", w[i].steps[j].subject);
			put_member("not_bisectable", w[i].steps[j].not_bisectable);
			printf("}");
		}
		printf("]");
		if (w[i].bisection) {
			printf(",\"bisection\":");
			json_dumpf(w[i].bisection, stdout, JSON_COMPACT);
		}
		printf(",\"changes\":[");
		for (t = 0; t < w[i].ntotals; t++) {
			printf("%s\n{\"metric\":", t ? "," : "");
			put_string(w[i].totals[t]->metric);
			put_member("param", w[i].totals[t]->param);
			put_numbers(w[i].totals[t]);
			printf(",\"steps\":[");
			for (j = 0; j < w[i].nchain; j++) {
				printf("%s{\"step\":%d,\"against_step\":%d", j ? "," : "",
				       w[i].steps[w[i].chain[j]].step,
				       j ? w[i].steps[w[i].chain[j - 1]].step : 0);
				put_member("arm", w[i].steps[w[i].chain[j]].arm);
				put_numbers(&w[i].cmp[t * w[i].nchain + j]);
				printf("}");
			}
			printf("]}");
		}
		printf("]}");
	}
	printf("\n]");
}

/* The comparison for programs: the run's provenance (its meta.json), the
 * rule's settings, one object per comparison, with the metric's
 * declaration, the race check, the changes in kind and the walks'
 * attribution. */
void print_json(const struct comparison *c, size_t n)
{
	static const char *const directions[] = { "lower", "higher", "either" };
	static const char *const kinds[] = { "sample", "count", "draw", "shape" };
	size_t i;
	int first;

	printf("{\"run\":");
	if (in->nmetas)
		put_value(in->metas[0].doc);
	else
		printf("null");
	put_member("baseline", opt.baseline);
	put_member("mode_rule", deterministic ? "gap" : "t+gap");
	put_number_member("alpha", opt.alpha);
	put_number_member("min_effect", opt.min_effect);
	printf(",\"holm_family_size\":{\"headline\":%zu,\"secondary\":%zu}",
	       family_size[HEADLINE], family_size[SECONDARY]);
	put_member("aa_arm", aa_arm);
	printf(",\"comparisons\":[");
	for (i = 0; i < n; i++) {
		const struct comparison *x = &c[i];
		int both = x->base && x->var;

		printf("%s\n{\"metric\":", i ? "," : "");
		put_string(x->metric);
		put_member("param", x->param);
		put_member("unit", x->decl->unit);
		put_member("direction", directions[x->decl->direction]);
		put_member("kind", kinds[x->decl->kind]);
		put_member("family", x->decl->family == HEADLINE ? "headline" : "secondary");
		put_member("variant", x->variant);
		printf(",\"boots_base\":%zu,\"boots_variant\":%zu", x->nb, x->nv);
		put_numbers(x);
		put_number_member("floor", both ? x->floor : NAN);
		put_number_member("rep_spread", both ? x->rep_spread : NAN);
		if (x->npairs)
			printf(",\"paired_delta\":{\"median\":%.6g,\"min\":%.6g,\"max\":%.6g}",
			       x->pair_med, x->pair_min, x->pair_max);
		printf("}");
	}
	printf("\n],\"race\":");
	if (in->nmetas && in->metas[0].race)
		put_value(in->metas[0].race);
	else
		printf("null");
	/* the counts that changed in kind, as the first screen shows them */
	printf(",\"in_kind\":[");
	for (i = 0, first = 1; i < in->nvariants; i++) {
		struct kind_change *k;
		size_t nk = kind_changes(c, n, in->variants[i], &k), j;

		for (j = 0; j < nk; j++, first = 0) {
			printf("%s\n{\"variant\":", first ? "" : ",");
			put_string(in->variants[i]);
			put_member("metric", k[j].x->metric);
			put_member("param", k[j].x->param);
			put_member("line", k[j].line);
			put_member("item", k[j].item);
			printf(",\"from\":[%ld,%ld],\"to\":[%ld,%ld]", k[j].from_lo, k[j].from_hi,
			       k[j].to_lo, k[j].to_hi);
			put_member("shared_line_changes", k[j].sites);
			printf("}");
		}
		free(k);
	}
	printf("\n]");
	print_errpaths_json();
	print_attribution_json(c, n);
	printf("}\n");
}
