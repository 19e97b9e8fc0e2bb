// SPDX-License-Identifier: GPL-2.0
/*
 * compare, rendering for programs: compare.csv (DESIGN.md's columns and
 * the rule's), series.csv (per-variant values and ratios for the plots).
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
	char b[8][32];
	size_t i;

	printf("%s\n", CSV_HEADER);
	for (i = 0; i < n; i++) {
		const struct comparison *x = &c[i];

		if (!x->base || !x->var) {
			printf("%s,%s,%s,%s,%zu,%zu,,,,,,,missing,,,,,,\n", x->metric,
			       csv_param(x->param), opt.baseline, x->variant,
			       x->base ? x->base->n : 0, x->var ? x->var->n : 0);
			continue;
		}
		printf("%s,%s,%s,%s,%zu,%zu,%.6g,%.6g,%s,%s,%s,%s,%s,%s,%s,%.6g,",
		       x->metric, csv_param(x->param), opt.baseline, x->variant,
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

/* For the plots, per variant and (metric, param): the median of per-boot
 * medians and the range of the boots; against the baseline the ratio, its
 * interval and the A/A band (the A/A arm's interval, or one minus and
 * plus the baseline's boot spread without one).  Param keys in columns of
 * their own. */
void print_series(const struct comparison *c, size_t n)
{
	static const char *const keys[] = { "n", "majors", "minors", "pos", "threads" };
	char buf[5][32], cells[5][32];
	size_t i, k;

	printf("metric,variant,n,majors,minors,pos,threads,boots,median,low,high,unit,"
	       "ratio,ratio_low,ratio_high,aa_low,aa_high\n");
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];
		const struct comparison *x = NULL, *aa = NULL;
		double *med = xmalloc(g->n * sizeof(*med)), spread;
		size_t nb = boot_medians(g, med, &spread);

		if (g->decl->kind == DRAW) {
			free(med);
			continue;
		}
		printf("%s,%s", g->metric, g->variant);
		for (k = 0; k < 5; k++)
			printf(",%s", param_value(g->param, keys[k], buf[k], sizeof(buf[k])));
		printf(",%zu,%.6g,%.6g,%.6g,%s", nb, median(med, nb), min_of(med, nb),
		       max_of(med, nb), g->unit);
		free(med);
		if (strcmp(g->variant, opt.baseline))
			x = find_comparison(c, n, g->metric, g->param, g->variant);
		if (aa_arm)
			aa = find_comparison(c, n, g->metric, g->param, aa_arm);
		if (!x || !x->var || !x->base) {
			printf(",,,,,\n");
			continue;
		}
		cell(cells[0], 32, x->ratio);
		cell(cells[1], 32, x->lo);
		cell(cells[2], 32, x->hi);
		cell(cells[3], 32, aa && aa->var ? aa->lo : 1 - x->floor);
		cell(cells[4], 32, aa && aa->var ? aa->hi : 1 + x->floor);
		printf(",%s,%s,%s,%s,%s\n", cells[0], cells[1], cells[2], cells[3], cells[4]);
	}
}
