// SPDX-License-Identifier: GPL-2.0
/*
 * compare, deciding: per-boot medians, the rule that fits the mode and the
 * metric's kind ('gap' in icount, 't+gap' with Holm over a family
 * elsewhere, 'exact' for counts), and a verdict per comparison.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "stats.h"

int deterministic;
const char *aa_arm;
size_t family_size[2];

/* The boot is the unit: the median of each boot's repetitions, in boot
 * order, into med (g->n long); returns the number of boots.  *rep_spread
 * gets the largest relative range of repetitions within one boot. */
size_t boot_medians(const struct group *g, double *med, double *rep_spread)
{
	double *v = xmalloc(g->n * sizeof(*v));
	int *ids = xmalloc(g->n * sizeof(*ids));
	size_t i, j, k, nb = 0;

	*rep_spread = 0;
	for (i = 0; i < g->n; i++) {
		for (j = 0; j < nb && ids[j] != g->boot[i]; j++)
			;
		if (j == nb)
			ids[nb++] = g->boot[i];
	}
	/* boots in ascending order, so that boot k pairs with boot k */
	for (i = 1; i < nb; i++)
		for (j = i; j > 0 && ids[j] < ids[j - 1]; j--) {
			int t = ids[j];

			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	for (j = 0; j < nb; j++) {
		double lo = INFINITY, hi = -INFINITY;

		for (i = 0, k = 0; i < g->n; i++)
			if (g->boot[i] == ids[j]) {
				v[k++] = g->v[i];
				lo = fmin(lo, g->v[i]);
				hi = fmax(hi, g->v[i]);
			}
		med[j] = median(v, k);
		if (med[j] != 0)
			*rep_spread = fmax(*rep_spread, (hi - lo) / fabs(med[j]));
	}
	free(v);
	free(ids);
	return nb;
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

double min_of(const double *v, size_t n)
{
	double m = INFINITY;

	while (n--)
		m = fmin(m, v[n]);
	return m;
}

double max_of(const double *v, size_t n)
{
	double m = -INFINITY;

	while (n--)
		m = fmax(m, v[n]);
	return m;
}

/* The spread of per-boot medians relative to their median: the A/A
 * floor.  NAN with one boot or a zero median. */
double boot_spread(const double *med, size_t nb)
{
	double m = median(med, nb);

	return nb > 1 && m != 0 ? (max_of(med, nb) - min_of(med, nb)) / fabs(m) : NAN;
}

/* Which way the variant moved, from the declared direction. */
static const char *direction_verdict(const struct comparison *x, int up)
{
	switch (x->decl->direction) {
	case LOWER: return up ? "worse" : "better";
	case HIGHER: return up ? "better" : "worse";
	default: return up ? "higher" : "lower";
	}
}

/* +1 when every boot of the variant is above every boot of the baseline
 * by more than thr of the baseline's median, -1 when below, else 0. */
static int gap(const struct comparison *x, double thr)
{
	double bmin = min_of(x->bmed, x->nb), bmax = max_of(x->bmed, x->nb);
	double vmin = min_of(x->vmed, x->nv), vmax = max_of(x->vmed, x->nv);
	double margin = thr * fabs(x->mb);

	if (vmin > bmax && vmin - bmax > margin)
		return 1;
	if (vmax < bmin && bmin - vmax > margin)
		return -1;
	return 0;
}

/* Differences of the variant's and the baseline's value for every
 * (boot, repetition) present on both sides: in icount mode boot k of
 * both ran the same sequence, so each is an exact effect. */
static void paired_deltas(struct comparison *x)
{
	double *d = xmalloc(x->base->n * sizeof(*d));
	size_t i, j;

	x->npairs = 0;
	for (i = 0; i < x->base->n; i++)
		for (j = 0; j < x->var->n; j++)
			if (x->var->boot[j] == x->base->boot[i] &&
			    x->var->iter[j] == x->base->iter[i]) {
				d[x->npairs++] = x->var->v[j] - x->base->v[i];
				break;
			}
	if (x->npairs) {
		x->pair_med = median(d, x->npairs);
		x->pair_min = min_of(d, x->npairs);
		x->pair_max = max_of(d, x->npairs);
	}
	free(d);
}

/* Welch's t on log per-boot medians (raw ones where a value is not
 * positive): the raw p and the interval of the ratio of geometric means,
 * which is the interval of the ratio where boots vary little. */
static void welch_test(struct comparison *x)
{
	double *b = xmalloc(x->nb * sizeof(*b));
	double *v = xmalloc(x->nv * sizeof(*v));
	int logs = min_of(x->bmed, x->nb) > 0 && min_of(x->vmed, x->nv) > 0;
	double diff, se, df, tq;
	size_t i;

	for (i = 0; i < x->nb; i++)
		b[i] = logs ? log(x->bmed[i]) : x->bmed[i];
	for (i = 0; i < x->nv; i++)
		v[i] = logs ? log(x->vmed[i]) : x->vmed[i];
	if (welch_t(b, x->nb, v, x->nv, &diff, &se, &df)) {
		/* no spread on either side: the difference is exact */
		x->p = median(v, x->nv) == median(b, x->nb) ? 1 : 0;
		if (logs)
			x->lo = x->hi = x->ratio;
	} else {
		x->p = student_t_p(diff / se, df);
		tq = student_t_quantile(1 - (1 - LEVEL) / 2, df);
		if (logs) {
			x->lo = exp(diff - tq * se);
			x->hi = exp(diff + tq * se);
		}
	}
	free(b);
	free(v);
}

static void decide(struct comparison *x)
{
	double bmin, bmax, vmin, vmax, thr;
	int dir;

	bmin = min_of(x->bmed, x->nb);
	bmax = max_of(x->bmed, x->nb);
	vmin = min_of(x->vmed, x->nv);
	vmax = max_of(x->vmed, x->nv);
	x->ratio = x->lo = x->hi = x->p = NAN;
	if (x->mb != 0)
		x->ratio = x->mv / x->mb;
	x->floor = boot_spread(x->bmed, x->nb);
	thr = fmax(opt.min_effect, isnan(x->floor) ? 0 : x->floor);
	if (x->decl->kind == COUNT) {
		x->rule = "exact";
		if (vmin > bmax || vmax < bmin)
			x->verdict = direction_verdict(x, vmin > bmax);
		else
			x->verdict = bmin == bmax && vmin == vmax && bmin == vmin ?
				     "same" : "unclear";
		return;
	}
	if (deterministic) {
		x->rule = "gap";
		if (bmin > 0) {
			x->lo = vmin / bmax;
			x->hi = vmax / bmin;
		}
		paired_deltas(x);
		dir = gap(x, thr);
		x->verdict = dir ? direction_verdict(x, dir > 0) : "same";
		return;
	}
	if (x->nb < 2 || x->nv < 2) {
		x->rule = "1 boot";
		x->verdict = "unclear";
		return;
	}
	x->rule = "t+gap";
	welch_test(x);	/* the verdict waits for Holm over the family */
}

/* Is the group's metric one that gets a verdict? */
int tested(const struct group *g)
{
	return g->decl->kind == SAMPLE || g->decl->kind == COUNT;
}

/* Decide comparisons whose groups are set (a side without one is
 * "missing"): per-boot medians, the rule, and in t+gap Holm within each
 * family of these comparisons, whose sizes go to family.  With
 * @apart_prefixes, a walk's prefixes against the baseline are families
 * of their own, so that WALK=1 leaves the other arms' verdicts as they
 * would be without it. */
void decide_all(struct comparison *c, size_t n, size_t family[2], int apart_prefixes)
{
	size_t i, j;
	int f, prefixes;

	for (i = 0; i < n; i++) {
		struct comparison *x = &c[i];
		double spread;

		if (!x->base || !x->var) {
			x->verdict = "missing";
			x->rule = "";
			continue;
		}
		x->bmed = xmalloc(x->base->n * sizeof(double));
		x->vmed = xmalloc(x->var->n * sizeof(double));
		x->nb = boot_medians(x->base, x->bmed, &x->rep_spread);
		x->nv = boot_medians(x->var, x->vmed, &spread);
		x->rep_spread = fmax(x->rep_spread, spread);
		x->mb = median(x->bmed, x->nb);
		x->mv = median(x->vmed, x->nv);
		decide(x);
	}
	/* Holm within each family over the comparisons that got a p-value */
	for (prefixes = 0; prefixes <= apart_prefixes; prefixes++)
	for (f = HEADLINE; f <= SECONDARY; f++) {
		double *p = xmalloc((n ? n : 1) * sizeof(*p));
		size_t np = 0;

		for (i = 0; i < n; i++)
			if (c[i].rule && !strcmp(c[i].rule, "t+gap") &&
			    c[i].decl->family == (enum family)f &&
			    (!apart_prefixes || is_walk_prefix(c[i].variant) == prefixes))
				p[np++] = c[i].p;
		holm_adjust(p, np);
		if (!prefixes)
			family[f] = np;
		for (i = 0, j = 0; i < n; i++) {
			struct comparison *x = &c[i];
			int dir;

			if (!x->rule || strcmp(x->rule, "t+gap") ||
			    x->decl->family != (enum family)f ||
			    (apart_prefixes && is_walk_prefix(x->variant) != prefixes))
				continue;
			x->p = p[j++];
			dir = gap(x, fmax(opt.min_effect, isnan(x->floor) ? 0 : x->floor));
			x->verdict = x->p < opt.alpha && dir ?
				     direction_verdict(x, dir > 0) : "same";
		}
		free(p);
	}
}

struct comparison *compare_all(size_t *count)
{
	struct comparison *c = NULL;
	size_t i, j, n = 0;

	qsort(in->groups, in->ngroups, sizeof(*in->groups), cmp_group);
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i], *base;

		/* one comparison per (metric, param, variant != baseline);
		 * failure-path numbers and shapes have sections of their own */
		if (!strcmp(g->variant, opt.baseline) || !tested(g))
			continue;
		base = find_group(g->metric, g->param, opt.baseline);
		if (!base && calibration_param(g->param))
			continue;
		c = xrealloc(c, (n + 1) * sizeof(*c));
		c[n++] = (struct comparison){ .base = base, .var = g, .decl = g->decl,
					      .metric = g->metric, .param = g->param,
					      .variant = g->variant };
	}
	/* and the baseline's groups that a variant lacks, but for the
	 * calibration, which only one arm runs */
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->variant, opt.baseline) || !tested(g) || calibration_param(g->param))
			continue;
		for (j = 0; j < in->nvariants; j++)
			if (strcmp(in->variants[j], opt.baseline) &&
			    !find_group(g->metric, g->param, in->variants[j])) {
				c = xrealloc(c, (n + 1) * sizeof(*c));
				c[n++] = (struct comparison){ .base = g, .decl = g->decl,
							      .metric = g->metric,
							      .param = g->param,
							      .variant = in->variants[j] };
			}
	}
	decide_all(c, n, family_size, 1);
	*count = n;
	return c;
}

int changed(const struct comparison *x)
{
	return strcmp(x->verdict, "same") && strcmp(x->verdict, "missing") &&
	       strcmp(x->verdict, "unclear");
}

const struct comparison *find_comparison(const struct comparison *c, size_t n,
					 const char *metric, const char *param,
					 const char *variant)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].metric, metric) && !strcmp(c[i].param, param) &&
		    !strcmp(c[i].variant, variant))
			return &c[i];
	return NULL;
}
