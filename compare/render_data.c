// SPDX-License-Identifier: GPL-2.0
/*
 * compare, rendering for programs: compare.csv (DESIGN.md's columns and
 * the rule's), series.csv (per-variant values and ratios for the plots),
 * compare.json (every comparison with the run's provenance).
 */
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

/* series.csv's columns; --where and --select name them. */
static const char *const series_columns[] = {
	"metric", "variant", "n", "majors", "minors", "pos", "threads", "boots", "median",
	"low", "high", "unit", "ratio", "ratio_low", "ratio_high", "aa_low", "aa_high",
};
#define NSERIES (sizeof(series_columns) / sizeof(series_columns[0]))
#define CELL 64

static size_t series_column(const char *name, size_t len)
{
	size_t k;

	for (k = 0; k < NSERIES; k++)
		if (strlen(series_columns[k]) == len && !strncmp(series_columns[k], name, len))
			return k;
	die("series.csv has no column '%.*s'", (int)len, name);
	return 0;
}

/* Does a row pass every term of --where: "col=value" (an empty value: the
 * column is empty) or "col!=value", separated by commas? */
static int series_where(char f[][CELL])
{
	const char *t = opt.where, *end, *eq;
	size_t k, vlen;
	int negate, equal;

	for (; t && *t; t = *end ? end + 1 : end) {
		end = t + strcspn(t, ",");
		eq = memchr(t, '=', end - t);
		if (!eq)
			die("--where: '%.*s' is not col=value or col!=value", (int)(end - t), t);
		negate = eq > t && eq[-1] == '!';
		k = series_column(t, eq - t - negate);
		vlen = end - eq - 1;
		equal = strlen(f[k]) == vlen && !strncmp(f[k], eq + 1, vlen);
		if (equal == negate)
			return 0;
	}
	return 1;
}

static void series_row(char f[][CELL])
{
	const char *t = opt.select, *end;
	size_t k;

	if (!t) {
		for (k = 0; k < NSERIES; k++)
			printf("%s%s", k ? "," : "", f[k]);
		putchar('\n');
		return;
	}
	if (!series_where(f))
		return;
	for (; *t; t = *end ? end + 1 : end) {
		end = t + strcspn(t, ",");
		printf("%s%s", t == opt.select ? "" : " ", f[series_column(t, end - t)]);
	}
	putchar('\n');
}

/* For the plots, per variant and (metric, param): the median of per-boot
 * medians and the range of the boots; against the baseline the ratio, its
 * interval and the A/A band (the A/A arm's interval, or one minus and
 * plus the baseline's boot spread without one).  Param keys in columns of
 * their own.  With --select, only the rows --where picks, the named
 * columns separated by spaces, as gnuplot reads them. */
void print_series(const struct comparison *c, size_t n)
{
	static const char *const keys[] = { "n", "majors", "minors", "pos", "threads" };
	char f[NSERIES][CELL];
	size_t i, k;

	if (!opt.select) {
		for (k = 0; k < NSERIES; k++)
			printf("%s%s", k ? "," : "", series_columns[k]);
		putchar('\n');
	}
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
		for (k = 0; k < 5; k++)
			param_value(g->param, keys[k], f[2 + k], CELL);
		snprintf(f[7], CELL, "%zu", nb);
		snprintf(f[8], CELL, "%.6g", median(med, nb));
		snprintf(f[9], CELL, "%.6g", min_of(med, nb));
		snprintf(f[10], CELL, "%.6g", max_of(med, nb));
		snprintf(f[11], CELL, "%s", g->unit);
		free(med);
		for (k = 12; k < NSERIES; k++)
			f[k][0] = 0;
		if (strcmp(g->variant, opt.baseline))
			x = find_comparison(c, n, g->metric, g->param, g->variant);
		if (aa_arm)
			aa = find_comparison(c, n, g->metric, g->param, aa_arm);
		if (x && x->var && x->base) {
			cell(f[12], CELL, x->ratio);
			cell(f[13], CELL, x->lo);
			cell(f[14], CELL, x->hi);
			cell(f[15], CELL, aa && aa->var ? aa->lo : 1 - x->floor);
			cell(f[16], CELL, aa && aa->var ? aa->hi : 1 + x->floor);
		}
		series_row(f);
	}
}

static void json_string(const char *s)
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

static void json_number(double v)
{
	if (isfinite(v))
		printf("%.6g", v);
	else
		printf("null");
}

/* A parsed JSON value written back, compactly. */
static void json_value(const struct json *j)
{
	const struct json *e;

	switch (j->type) {
	case JSON_NULL: printf("null"); break;
	case JSON_BOOL: printf(j->number ? "true" : "false"); break;
	case JSON_NUMBER: json_number(j->number); break;
	case JSON_STRING: json_string(j->string); break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		putchar(j->type == JSON_ARRAY ? '[' : '{');
		for (e = j->child; e; e = e->next) {
			if (e != j->child)
				putchar(',');
			if (j->type == JSON_OBJECT) {
				json_string(e->key);
				putchar(':');
			}
			json_value(e);
		}
		putchar(j->type == JSON_ARRAY ? ']' : '}');
		break;
	}
}

static void json_member(const char *key, const char *s)
{
	printf(",\"%s\":", key);
	if (s)
		json_string(s);
	else
		printf("null");
}

static void json_number_member(const char *key, double v)
{
	printf(",\"%s\":", key);
	json_number(v);
}

/* The comparison for programs: the run's provenance (its meta.json), the
 * rule's settings, and one object per comparison, with the metric's
 * declaration. */
void print_json(const struct comparison *c, size_t n)
{
	static const char *const directions[] = { "lower", "higher", "either" };
	static const char *const kinds[] = { "sample", "count", "draw" };
	size_t i;

	printf("{\"run\":");
	if (in->nmetas)
		json_value(in->metas[0].doc);
	else
		printf("null");
	json_member("baseline", opt.baseline);
	json_member("mode_rule", deterministic ? "gap" : "t+gap");
	json_number_member("alpha", opt.alpha);
	json_number_member("min_effect", opt.min_effect);
	printf(",\"holm_family_size\":{\"headline\":%zu,\"secondary\":%zu}",
	       family_size[HEADLINE], family_size[SECONDARY]);
	json_member("aa_arm", aa_arm);
	printf(",\"comparisons\":[");
	for (i = 0; i < n; i++) {
		const struct comparison *x = &c[i];
		int both = x->base && x->var;

		printf("%s\n{\"metric\":", i ? "," : "");
		json_string(x->metric);
		json_member("param", x->param);
		json_member("unit", x->decl->unit);
		json_member("direction", directions[x->decl->direction]);
		json_member("kind", kinds[x->decl->kind]);
		json_member("family", x->decl->family == HEADLINE ? "headline" : "secondary");
		json_member("variant", x->variant);
		printf(",\"boots_base\":%zu,\"boots_variant\":%zu", x->nb, x->nv);
		json_number_member("median_base", both ? x->mb : NAN);
		json_number_member("median_variant", both ? x->mv : NAN);
		json_number_member("ratio", both ? x->ratio : NAN);
		json_number_member("ratio_low", both ? x->lo : NAN);
		json_number_member("ratio_high", both ? x->hi : NAN);
		json_number_member("p_value", both ? x->p : NAN);
		json_member("verdict", x->verdict);
		json_member("rule", x->rule);
		json_number_member("floor", both ? x->floor : NAN);
		json_number_member("rep_spread", both ? x->rep_spread : NAN);
		if (x->npairs)
			printf(",\"paired_delta\":{\"median\":%.6g,\"min\":%.6g,\"max\":%.6g}",
			       x->pair_med, x->pair_min, x->pair_max);
		printf("}");
	}
	printf("\n]}\n");
}
