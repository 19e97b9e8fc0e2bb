// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report engine: every (metric, param) of one or more
 * samples.csv files, each variant against the baseline.  The boot is the
 * unit: the median of a boot's repetitions is one sample.  A verdict comes
 * from a rule that fits the mode and the metric's declared kind
 * (bench/metrics.def): in icount mode, where boots repeat exactly, a gap
 * rule; in timing modes Welch's t on log per-boot medians, Holm-adjusted
 * within the headline family, guarded by the same gap; counts compare
 * exactly.  Failure-path numbers are not compared here.  Formats: text
 * (the first screen says what changed, under 80 columns), md, csv
 * (DESIGN.md's columns), series (per-variant values and ratios for the
 * plots).
 *
 * It refuses what is not comparable: files from different modes, variants
 * built with another kernel config than the baseline without declaring it
 * (meta.json's config_fragment), undeclared metrics, malformed or
 * truncated CSV.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "stats.h"

#define HEADER "variant,boot,metric,param,iter,value,unit"
#define CSV_HEADER "metric,param,baseline,variant,n_base,n_var,median_base," \
	"median_var,ratio,ci_low,ci_high,p_value,verdict,rule,floor,rep_spread," \
	"paired_median,paired_min,paired_max"
#define LEVEL 0.95

enum direction { LOWER, HIGHER, EITHER };
enum kind { SAMPLE, COUNT, DRAW };
enum family { HEADLINE, SECONDARY };

struct decl {
	const char *name, *unit;
	enum direction direction;
	enum kind kind;
	enum family family;
};

static const struct decl decls[] = {
#define METRIC(name, unit, direction, kind, family) \
	{ #name, unit, direction, kind, family },
#include "../bench/metrics.def"
#undef METRIC
};

struct group {
	char *metric, *param, *variant, *unit;
	const struct decl *decl;
	double *v;
	int *boot, *iter;
	size_t n, cap;
};

struct meta {
	char *path, *mode;
	struct json *doc;
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

static struct {
	const char *baseline, *format;
	double alpha, min_effect;
} opt = { NULL, "text", 0.05, 0.01 };

/* icount: boots repeat exactly, so the gap rule decides */
static int deterministic;
/* the A/A control arm (meta.json: an arm whose kernel is the baseline's) */
static const char *aa_arm;
static size_t family_size[2];

static struct group *groups;
static size_t ngroups, capgroups;
static char **variants;
static size_t nvariants;
static struct meta *metas;
static size_t nmetas;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "compare: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* Grow an array; realloc(NULL, ...) goes through xmalloc. */
static void *xrealloc(void *p, size_t size)
{
	if (!p)
		return xmalloc(size);
	p = realloc(p, size ? size : 1);	/* never a free */
	if (!p)
		die("out of memory");
	return p;
}

/* A stream into a growing buffer, for text that is wrapped afterwards. */
static FILE *xmemstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		die("out of memory");
	return f;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

static void add_variant(const char *v)
{
	size_t i;

	for (i = 0; i < nvariants; i++)
		if (!strcmp(variants[i], v))
			return;
	variants = xrealloc(variants, (nvariants + 1) * sizeof(*variants));
	variants[nvariants++] = xstrdup(v);
}

static struct group *find_group(const char *metric, const char *param,
				const char *variant)
{
	size_t i;

	for (i = 0; i < ngroups; i++)
		if (!strcmp(groups[i].metric, metric) &&
		    !strcmp(groups[i].param, param) &&
		    !strcmp(groups[i].variant, variant))
			return &groups[i];
	return NULL;
}

static void add_sample(const char *file, int line, char **f)
{
	struct group *g = find_group(f[2], f[3], f[0]);
	char *end;
	double value = strtod(f[5], &end);
	long boot = strtol(f[1], NULL, 10), iter = strtol(f[4], NULL, 10);
	const struct decl *d = NULL;
	size_t i;

	if (end == f[5] || *end || !isfinite(value))
		die("%s:%d: value '%s' is not a number", file, line, f[5]);
	for (i = 0; i < sizeof(decls) / sizeof(decls[0]); i++)
		if (!strcmp(decls[i].name, f[2]))
			d = &decls[i];
	if (!d)
		die("%s:%d: metric %s is not declared in bench/metrics.def", file, line, f[2]);
	if (strcmp(d->unit, f[6]))
		die("%s:%d: %s is in %s here, declared in %s", file, line, f[2], f[6], d->unit);
	if (!g) {
		if (ngroups == capgroups) {
			capgroups = capgroups ? 2 * capgroups : 64;
			groups = xrealloc(groups, capgroups * sizeof(*groups));
		}
		g = &groups[ngroups++];
		*g = (struct group){ .metric = xstrdup(f[2]), .param = xstrdup(f[3]),
				     .variant = xstrdup(f[0]), .unit = xstrdup(f[6]),
				     .decl = d };
		add_variant(f[0]);
	}
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->v = xrealloc(g->v, g->cap * sizeof(*g->v));
		g->boot = xrealloc(g->boot, g->cap * sizeof(*g->boot));
		g->iter = xrealloc(g->iter, g->cap * sizeof(*g->iter));
	}
	g->v[g->n] = value;
	g->iter[g->n] = (int)iter;
	g->boot[g->n++] = (int)boot;
}

/* Split a CSV line in place into at most max fields; a field may be in
 * double quotes (param "n=10,pos=tail").  Returns the count, -1 on an
 * unterminated quote or too many fields. */
static int split_csv(char *line, char **fields, int max)
{
	int n = 0;
	char *out;

	for (;;) {
		if (n == max)
			return -1;
		if (*line == '"') {
			fields[n++] = out = ++line;
			while (*line && !(line[0] == '"' && line[1] != '"')) {
				if (*line == '"')	/* "" is a quote */
					line++;
				*out++ = *line++;
			}
			if (*line != '"')
				return -1;
			*out = '\0';
			line++;
			if (*line && *line != ',')
				return -1;
		} else {
			fields[n++] = line;
			line += strcspn(line, ",");
		}
		if (!*line)
			return n;
		*line++ = '\0';
	}
}

/* A param as CSV wants it: quoted when it holds a comma. */
static const char *csv_param(const char *param)
{
	static char buf[256];

	if (!strchr(param, ','))
		return param;
	snprintf(buf, sizeof(buf), "\"%s\"", param);
	return buf;
}

static void read_samples(const char *file)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		die("cannot open %s: %s", file, strerror(errno));
	while ((len = getline(&line, &cap, f)) > 0) {
		char *fields[7], *s = line;
		int n = 0;

		lineno++;
		if (line[len - 1] != '\n')
			die("%s:%d: truncated line (no newline at the end)", file, lineno);
		line[--len] = '\0';
		if (lineno == 1) {
			if (strcmp(line, HEADER))
				die("%s:1: header is not '%s'", file, HEADER);
			continue;
		}
		n = split_csv(s, fields, 7);
		if (n != 7)
			die("%s:%d: expected 7 fields (%s)", file, lineno, HEADER);
		for (n = 0; n < 7; n++)
			if (!fields[n][0])
				die("%s:%d: field %d is empty", file, lineno, n + 1);
		add_sample(file, lineno, fields);
	}
	if (lineno == 0)
		die("%s: empty file", file);
	free(line);
	fclose(f);
}

static void read_meta(const char *samples)
{
	char *dir = xstrdup(samples), path[4096], err[128], *text;
	struct json *doc;
	long size;
	FILE *f;

	snprintf(path, sizeof(path), "%s/meta.json", dirname(dir));
	free(dir);
	f = fopen(path, "r");
	if (!f)
		return;		/* a synthetic samples.csv has no meta.json */
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = calloc(1, size + 1);
	if (!text || fread(text, 1, size, f) != (size_t)size)
		die("cannot read %s", path);
	fclose(f);
	doc = json_parse(text, err, sizeof(err));
	free(text);
	if (!doc)
		die("%s: %s", path, err);
	metas = xrealloc(metas, (nmetas + 1) * sizeof(*metas));
	metas[nmetas++] = (struct meta){ xstrdup(path),
		xstrdup(json_get_string(doc, "mode", "unknown")), doc };
}

static const struct json *variant_meta(const char *variant, const char **path)
{
	size_t i;

	for (i = 0; i < nmetas; i++) {
		const struct json *v = json_get(json_get(metas[i].doc, "variants"),
						variant);
		if (v) {
			*path = metas[i].path;
			return v;
		}
	}
	return NULL;
}

/* Modes never mix; configs differ from the baseline's only where declared. */
static void check_comparable(void)
{
	const struct json *bm, *vm;
	const char *bpath, *vpath, *bsha, *vsha;
	size_t i;

	for (i = 1; i < nmetas; i++)
		if (strcmp(metas[i].mode, metas[0].mode))
			die("cannot compare: %s is %s mode, %s is %s mode",
			    metas[0].path, metas[0].mode, metas[i].path, metas[i].mode);
	bm = variant_meta(opt.baseline, &bpath);
	if (!bm)
		return;
	bsha = json_get_string(bm, "config_sha256", "");
	for (i = 0; i < nvariants; i++) {
		vm = variant_meta(variants[i], &vpath);
		if (!vm || vm == bm)
			continue;
		vsha = json_get_string(vm, "config_sha256", "");
		if (strcmp(bsha, vsha) && !json_get_string(vm, "config_fragment", NULL))
			die("cannot compare: %s was built with another kernel config than %s (%.12s vs %.12s) and declares no config fragment",
			    variants[i], opt.baseline, vsha, bsha);
	}
}

/* Natural order: digit runs compare as numbers, so n=10 < n=100. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			double x = strtod(a, &ea), y = strtod(b, &eb);

			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
		} else if (*a != *b) {
			return (unsigned char)*a - (unsigned char)*b;
		} else {
			a++;
			b++;
		}
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int cmp_group(const void *x, const void *y)
{
	const struct group *a = x, *b = y;

	return strcmp(a->metric, b->metric) ?: natural_cmp(a->param, b->param);
}

/* The boot is the unit: the median of each boot's repetitions, in boot
 * order, into med (g->n long); returns the number of boots.  *rep_spread
 * gets the largest relative range of repetitions within one boot. */
static size_t boot_medians(const struct group *g, double *med, double *rep_spread)
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

static double min_of(const double *v, size_t n)
{
	double m = INFINITY;

	while (n--)
		m = fmin(m, v[n]);
	return m;
}

static double max_of(const double *v, size_t n)
{
	double m = -INFINITY;

	while (n--)
		m = fmax(m, v[n]);
	return m;
}

/* The spread of per-boot medians relative to their median: the A/A
 * floor.  NAN with one boot or a zero median. */
static double boot_spread(const double *med, size_t nb)
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

static struct comparison *compare_all(size_t *count)
{
	struct comparison *c = NULL;
	size_t i, j, n = 0;
	int f;

	qsort(groups, ngroups, sizeof(*groups), cmp_group);
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i], *base;

		/* one comparison per (metric, param, variant != baseline);
		 * failure-path numbers have their own section */
		if (!strcmp(g->variant, opt.baseline) || g->decl->kind == DRAW)
			continue;
		base = find_group(g->metric, g->param, opt.baseline);
		c = xrealloc(c, (n + 1) * sizeof(*c));
		c[n++] = (struct comparison){ .base = base, .var = g, .decl = g->decl,
					      .metric = g->metric, .param = g->param,
					      .variant = g->variant };
	}
	/* and the baseline's groups that a variant lacks */
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];

		if (strcmp(g->variant, opt.baseline) || g->decl->kind == DRAW)
			continue;
		for (j = 0; j < nvariants; j++)
			if (strcmp(variants[j], opt.baseline) &&
			    !find_group(g->metric, g->param, variants[j])) {
				c = xrealloc(c, (n + 1) * sizeof(*c));
				c[n++] = (struct comparison){ .base = g, .decl = g->decl,
							      .metric = g->metric,
							      .param = g->param,
							      .variant = variants[j] };
			}
	}
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
	for (f = HEADLINE; f <= SECONDARY; f++) {
		double *p = xmalloc((n ? n : 1) * sizeof(*p));
		size_t np = 0;

		for (i = 0; i < n; i++)
			if (c[i].rule && !strcmp(c[i].rule, "t+gap") &&
			    c[i].decl->family == (enum family)f)
				p[np++] = c[i].p;
		holm_adjust(p, np);
		family_size[f] = np;
		for (i = 0, j = 0; i < n; i++) {
			struct comparison *x = &c[i];
			int dir;

			if (!x->rule || strcmp(x->rule, "t+gap") ||
			    x->decl->family != (enum family)f)
				continue;
			x->p = p[j++];
			dir = gap(x, fmax(opt.min_effect, isnan(x->floor) ? 0 : x->floor));
			x->verdict = x->p < opt.alpha && dir ?
				     direction_verdict(x, dir > 0) : "same";
		}
		free(p);
	}
	*count = n;
	return c;
}

static int changed(const struct comparison *x)
{
	return strcmp(x->verdict, "same") && strcmp(x->verdict, "missing") &&
	       strcmp(x->verdict, "unclear");
}

/* A number for a CSV cell: empty when there is none. */
static const char *cell(char *buf, size_t size, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, size, "%.6g", v);
	return buf;
}

static void print_csv(const struct comparison *c, size_t n)
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

/* The value of key in a param such as "n=10,pos=tail", "" when absent. */
static const char *param_value(const char *param, const char *key, char *buf,
			       size_t size)
{
	size_t klen = strlen(key);
	const char *p = param;

	buf[0] = '\0';
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - klen - 1), p + klen + 1);
			break;
		}
		p += len + (p[len] == ',');
	}
	return buf;
}

static const struct comparison *find_comparison(const struct comparison *c, size_t n,
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

/* For the plots, per variant and (metric, param): the median of per-boot
 * medians and the range of the boots; against the baseline the ratio, its
 * interval and the A/A band (the A/A arm's interval, or one minus and
 * plus the baseline's boot spread without one).  Param keys in columns of
 * their own. */
static void print_series(const struct comparison *c, size_t n)
{
	static const char *const keys[] = { "n", "majors", "minors", "pos", "threads" };
	char buf[5][32], cells[5][32];
	size_t i, k;

	printf("metric,variant,n,majors,minors,pos,threads,boots,median,low,high,unit,"
	       "ratio,ratio_low,ratio_high,aa_low,aa_high\n");
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];
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

static const char *meta_field(const char *key, char *buf, size_t size)
{
	const struct json *v = nmetas ? json_get(metas[0].doc, key) : NULL;

	if (!v)
		return "?";
	if (v->type == JSON_STRING)
		return v->string;
	if (v->type == JSON_ARRAY) {
		const struct json *e;
		size_t len = 0;

		buf[0] = '\0';
		for (e = v->child; e && len < size; e = e->next)
			len += snprintf(buf + len, size - len, "%s%g",
					e == v->child ? "" : " ", e->number);
		return buf;
	}
	if (v->type == JSON_BOOL)
		return v->number ? "true" : "false";
	snprintf(buf, size, "%g", v->number);
	return buf;
}

/* A ratio as a change in percent, whole percent once it is large. */
static void format_pct(char *buf, size_t size, double ratio, const char *sign)
{
	double pct = (ratio - 1) * 100;

	if (isnan(ratio))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, fabs(pct) >= 100 ? "%+.0f%s" : "%+.1f%s", pct, sign);
}

/* A median in at most 7 columns. */
static void format_median(char *buf, size_t size, double v)
{
	snprintf(buf, size, fabs(v) >= 1e6 ? "%.1e" : fabs(v) >= 100 ? "%.0f" : "%.1f", v);
}

/* An interval "lo..hi" of ratios as changes in percent. */
static void format_interval(char *buf, size_t size, double lo, double hi)
{
	char a[16], b[16];

	if (isnan(lo) || isnan(hi)) {
		snprintf(buf, size, "n/a");
		return;
	}
	format_pct(a, sizeof(a), lo, "");
	format_pct(b, sizeof(b), hi, "");
	snprintf(buf, size, "%s..%s", a, b);
}

static void format_delta(char *buf, size_t size, double d)
{
	snprintf(buf, size, fabs(d) >= 10 || d == round(d) ? "%+.0f" : "%+.1f", d);
}

/* The paired deltas of an icount comparison: "median (min..max)", or the
 * median alone when every pair gave the same. */
static void format_pairs(char *buf, size_t size, const struct comparison *x)
{
	char m[16], lo[16], hi[16];

	if (!x->npairs) {
		snprintf(buf, size, "-");
		return;
	}
	format_delta(m, sizeof(m), x->pair_med);
	format_delta(lo, sizeof(lo), x->pair_min);
	format_delta(hi, sizeof(hi), x->pair_max);
	if (x->pair_min == x->pair_max)
		snprintf(buf, size, "%s", m);
	else
		snprintf(buf, size, "%s (%s..%s)", m, lo, hi);
}

/* An exact count comparison: "0 -> 2", with ranges where boots differ. */
static void format_counts(char *buf, size_t size, const struct comparison *x)
{
	double bmin = min_of(x->bmed, x->nb), bmax = max_of(x->bmed, x->nb);
	double vmin = min_of(x->vmed, x->nv), vmax = max_of(x->vmed, x->nv);
	char b[32], v[32];

	snprintf(b, sizeof(b), bmin == bmax ? "%g" : "%g..%g", bmin, bmax);
	snprintf(v, sizeof(v), vmin == vmax ? "%g" : "%g..%g", vmin, vmax);
	snprintf(buf, size, "%s -> %s", b, v);
}

/* Text broken at spaces into lines of at most width columns, each after
 * indent. */
static void print_wrapped(const char *text, int width, const char *indent)
{
	int col = 0;

	while (*text) {
		int len = (int)strcspn(text, " ");

		if (col && col + 1 + len > width) {
			printf("\n");
			col = 0;
		}
		if (!col)
			col = printf("%s", indent) - 1;
		printf("%s%.*s", col > (int)strlen(indent) - 1 ? " " : "", len, text);
		col += 1 + len;
		text += len;
		text += strspn(text, " ");
	}
	printf("\n");
}

static const char *rule_text(void)
{
	return deterministic ?
		"the boot is the unit (the median of its repetitions). icount is "
		"deterministic: 'gap' calls a change when every boot of one side is "
		"beyond every boot of the other by more than --min-effect and more "
		"than the baseline's boot-to-boot spread; no p-values. Counts: "
		"'exact' (0 -> 2)." :
		"the boot is the unit (the median of its repetitions). 't+gap' "
		"calls a change when Welch's t on log per-boot medians, "
		"Holm-adjusted within its family, is below alpha and every boot of "
		"one side is beyond every boot of the other by more than "
		"--min-effect and the baseline's boot-to-boot spread; the interval "
		"is Welch's. Counts: 'exact' (0 -> 2).";
}

static int cmp_effect(const void *a, const void *b)
{
	const struct comparison *x = *(const struct comparison *const *)a;
	const struct comparison *y = *(const struct comparison *const *)b;
	double ex = isnan(x->ratio) ? INFINITY : fabs(log(x->ratio));
	double ey = isnan(y->ratio) ? INFINITY : fabs(log(y->ratio));

	return (ey > ex) - (ey < ex);
}

/* One line per (metric, verdict) of a variant's headline comparisons:
 * the changes, largest first, then the metrics that did not change. */
static void print_changes(const struct comparison *c, size_t n, const char *variant)
{
	const struct comparison **rows = xmalloc((n ? n : 1) * sizeof(*rows));
	size_t i, j, k, nr = 0, secondary = 0, secondary_changed = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(c[i].variant, variant))
			continue;
		if (c[i].decl->family != HEADLINE) {
			secondary++;
			secondary_changed += changed(&c[i]);
			continue;
		}
		rows[nr++] = &c[i];
	}
	/* each metric's largest change decides its place */
	qsort(rows, nr, sizeof(*rows), cmp_effect);
	for (i = 0; i < nr; i++) {
		const struct comparison *x = rows[i];
		size_t params = 0, hits = 0;
		double lo = INFINITY, hi = -INFINITY;
		char range[80], a[16], b[16], iv[40], ci[48];

		if (!changed(x))
			continue;
		for (j = 0; j < i; j++)	/* printed with a larger change */
			if (!strcmp(rows[j]->metric, x->metric) &&
			    !strcmp(rows[j]->verdict, x->verdict))
				break;
		if (j < i)
			continue;
		for (k = 0; k < nr; k++) {
			if (strcmp(rows[k]->metric, x->metric))
				continue;
			params++;
			if (strcmp(rows[k]->verdict, x->verdict))
				continue;
			hits++;
			lo = fmin(lo, rows[k]->ratio);
			hi = fmax(hi, rows[k]->ratio);
		}
		if (x->decl->kind == COUNT) {
			format_counts(range, sizeof(range), x);
			ci[0] = '\0';
		} else {
			format_pct(a, sizeof(a), lo, "%");
			format_pct(b, sizeof(b), hi, "%");
			snprintf(range, sizeof(range), lo == hi ? "%s" : "%s..%s", a, b);
			format_interval(iv, sizeof(iv), x->lo, x->hi);
			snprintf(ci, sizeof(ci), "[%s] ", iv);
		}
		printf("  %-6s %-22s %2zu/%-2zu %-14s %s%s\n", x->verdict, x->metric,
		       hits, params, range, ci, x->rule);
	}
	for (i = 0; i < nr; i++) {
		const struct comparison *x = rows[i];
		size_t params = 0, same = 0;
		double lo = INFINITY, hi = -INFINITY;
		char a[16], b[16];

		for (j = 0; j < i && strcmp(rows[j]->metric, x->metric); j++)
			;
		if (j < i)
			continue;	/* one line per metric */
		for (k = 0; k < nr; k++) {
			if (strcmp(rows[k]->metric, x->metric))
				continue;
			params++;
			if (changed(rows[k]))
				break;
			same += !strcmp(rows[k]->verdict, "same");
			if (!isnan(rows[k]->ratio)) {
				lo = fmin(lo, rows[k]->ratio);
				hi = fmax(hi, rows[k]->ratio);
			}
		}
		if (k < nr)
			continue;	/* it changed somewhere: listed above */
		format_pct(a, sizeof(a), lo, "%");
		format_pct(b, sizeof(b), hi, "%");
		printf("  %-6s %-22s %2zu/%-2zu", same == params ? "same" : "-",
		       x->metric, same, params);
		if (x->decl->kind == COUNT && same == params) {
			char counts[80];

			format_counts(counts, sizeof(counts), x);
			printf(" %s\n", counts);
		} else if (lo <= hi) {
			printf(" %s..%s%s\n", a, b, same == params ? "" : ", some unclear");
		} else {
			printf(" missing or unclear\n");
		}
	}
	if (secondary)
		printf("  %zu of %zu secondary comparisons changed (tables below)\n",
		       secondary_changed, secondary);
	free(rows);
}

/* A variant's heading: its kernel, patch subjects and series hash, so a
 * pasted report says what ran. */
static void print_variant_heading(const char *variant, int md)
{
	const char *path;
	const struct json *vm = variant_meta(variant, &path), *p;
	char *text = NULL;
	size_t count = 0, len = 0;
	FILE *out = xmemstream(&text, &len);

	for (p = vm ? json_get(vm, "patches") : NULL, p = p ? p->child : NULL; p; p = p->next)
		count++;
	fprintf(out, md ? "### %s against %s\n\n" : "%s against %s", variant, opt.baseline);
	if (vm)
		fprintf(out, md ? "Kernel %s, %zu patch%s, series sha256 %.12s%s.\n\n" :
				  ": kernel %s, %zu patch%s, series %.12s%s",
			json_get_string(vm, "kernel_release", "?"), count,
			count == 1 ? "" : "es", json_get_string(vm, "series_sha256", "?"),
			json_get_string(vm, "config_fragment", NULL) ?
			", own config fragment" : "");
	fclose(out);
	if (md)
		printf("%s", text);
	else
		print_wrapped(text, 78, "");
	free(text);
	for (p = vm ? json_get(vm, "patches") : NULL, p = p ? p->child : NULL; p; p = p->next)
		printf(md ? "- %s\n" : "  | %s\n", p->string);
	if (md && count)
		printf("\n");
}

/* The first screen: what was run, the rule, the A/A control and, per
 * variant, what changed. */
static void print_summary(const struct comparison *c, size_t n, int md)
{
	char b[9][256], *line = NULL;
	size_t linelen = 0, i, j;
	FILE *out;

	printf(md ? "# cdevbench comparison\n\n" : "cdevbench comparison\n");
	if (nmetas) {
		out = xmemstream(&line, &linelen);
		fprintf(out, "run %s, %s mode, %s vCPU, %s boots x %s repetitions, N in {%s}; host: %s (%s cores), %s",
			meta_field("run_id", b[0], sizeof(b[0])), meta_field("mode", b[1], sizeof(b[1])),
			meta_field("vcpus", b[2], sizeof(b[2])), meta_field("boots", b[3], sizeof(b[3])),
			meta_field("reps", b[4], sizeof(b[4])), meta_field("sweep_n", b[5], sizeof(b[5])),
			meta_field("host_cpu", b[6], sizeof(b[6])),
			meta_field("host_cores", b[7], sizeof(b[7])),
			meta_field("qemu_version", b[8], sizeof(b[8])));
		fclose(out);
		print_wrapped(line, 78, "");
		free(line);
		if (md)
			printf("\n");
	}
	line = NULL;
	out = xmemstream(&line, &linelen);
	fprintf(out, "Verdicts: %s", rule_text());
	if (!deterministic)
		fprintf(out, " Holm family: the %zu headline comparisons (metrics declared headline in bench/metrics.def), alpha %g; secondary: its own family of %zu.",
			family_size[HEADLINE], opt.alpha, family_size[SECONDARY]);
	fprintf(out, " --min-effect %g%%.", opt.min_effect * 100);
	{
		double *f = xmalloc(ngroups * sizeof(*f)), spread;
		size_t nf = 0;

		for (i = 0; i < ngroups; i++) {
			const struct group *g = &groups[i];
			double *med;
			size_t nb;

			if (strcmp(g->variant, opt.baseline) || g->decl->family != HEADLINE ||
			    g->decl->kind != SAMPLE)
				continue;
			med = xmalloc(g->n * sizeof(*med));
			nb = boot_medians(g, med, &spread);
			f[nf] = boot_spread(med, nb);
			nf += !isnan(f[nf]);
			free(med);
		}
		if (nf)
			fprintf(out, " The baseline's boot-to-boot spread, measured in this run over its %zu headline rows: median %.2f%%, largest %.2f%%.",
				nf, median(f, nf) * 100, max_of(f, nf) * 100);
		free(f);
	}
	fclose(out);
	print_wrapped(line, 78, "");
	free(line);
	if (md)
		printf("\n");
	if (aa_arm) {
		size_t fp = 0, total = 0;
		double largest = 0;

		for (i = 0; i < n; i++)
			if (!strcmp(c[i].variant, aa_arm) && c[i].decl->family == HEADLINE) {
				total++;
				fp += !strcmp(c[i].verdict, "better") ||
				      !strcmp(c[i].verdict, "worse");
				if (!isnan(c[i].ratio))
					largest = fmax(largest, fabs(c[i].ratio - 1));
			}
		printf("A/A control %s: %zu of %zu headline comparisons better or worse\n"
		       "(false positives), largest change %.2f%%.\n",
		       aa_arm, fp, total, largest * 100);
	}
	if (nmetas && !strcmp(meta_field("faults", b[0], sizeof(b[0])), "false"))
		printf("Failure-path phase: skipped (FAULTS=0).\n");
	printf("\n");
	for (i = 0; i < nvariants; i++) {
		if (!strcmp(variants[i], opt.baseline) ||
		    (aa_arm && !strcmp(variants[i], aa_arm)))
			continue;
		print_variant_heading(variants[i], md);
		if (md)
			printf("```\n");
		print_changes(c, n, variants[i]);
		printf(md ? "```\n\n" : "\n");
	}
	for (i = 0, j = 0; i < n; i++)
		j += !strcmp(c[i].verdict, "missing");
	if (j)
		printf("%zu comparisons have a side missing (tables below).\n\n", j);
}

static void print_table_header(const struct comparison *x, const struct comparison *c,
			       size_t n, size_t j, int pw)
{
	static const char *const dirs[] = { "lower is better", "higher is better",
					    "either way" };
	double floor = 0, reps = 0;
	size_t k;

	for (k = j; k < n && !strcmp(c[k].metric, x->metric); k++) {
		if (strcmp(c[k].variant, x->variant) || !c[k].base || !c[k].var)
			continue;
		if (!isnan(c[k].floor))
			floor = fmax(floor, c[k].floor);
		reps = fmax(reps, c[k].rep_spread);
	}
	printf("\n  %s (%s, %s, %s)\n", x->metric, x->decl->unit,
	       dirs[x->decl->direction],
	       x->decl->family == HEADLINE ? "headline" : "secondary");
	if (x->decl->kind == COUNT) {
		printf("  rule exact\n  %-*s %-20s %s\n", pw, "param", "per-boot values", "result");
		return;
	}
	printf("  rule %s; spread of the baseline's boots <= %.1f%%, of repetitions\n"
	       "  within a boot <= %.1f%%\n", x->rule ? x->rule : "?", floor * 100, reps * 100);
	if (deterministic)
		printf("  %-*s %7s %7s %11s %-20s %s\n", pw, "param", "base",
		       "change", "all boots", "paired delta", "result");
	else
		printf("  %-*s %7s %7s %7s %11s %6s %-6s %5s\n", pw, "param", "base",
		       "variant", "change", "95% CI", "p", "result", "floor");
}

static void print_row_text(const struct comparison *x, int pw)
{
	char ch[16], ci[40], mb[16], mv[16], pairs[64], p[16], fl[16];

	if (x->decl->kind == COUNT) {
		format_counts(pairs, sizeof(pairs), x);
		printf("  %-*s %-20s %s\n", pw, x->param, pairs, x->verdict);
		return;
	}
	format_pct(ch, sizeof(ch), x->ratio, "%");
	format_interval(ci, sizeof(ci), x->lo, x->hi);
	format_median(mb, sizeof(mb), x->mb);
	format_median(mv, sizeof(mv), x->mv);
	if (deterministic) {
		/* the variant's value is the base plus the paired delta */
		format_pairs(pairs, sizeof(pairs), x);
		printf("  %-*s %7s %7s %11s %-20s %s\n", pw, x->param, mb, ch, ci,
		       pairs, x->verdict);
		return;
	}
	snprintf(p, sizeof(p), isnan(x->p) ? "-" : x->p < 0.001 ? "%.0e" : "%.3f", x->p);
	snprintf(fl, sizeof(fl), isnan(x->floor) ? "n/a" : "%.1f%%", x->floor * 100);
	printf("  %-*s %7s %7s %7s %11s %6s %-6s %5s\n", pw, x->param, mb, mv, ch,
	       ci, p, x->verdict, fl);
}

static void print_row_md(const struct comparison *x)
{
	char ch[16], ci[40], mb[16], mv[16], pairs[64], p[16], fl[16], counts[80];

	format_pct(ch, sizeof(ch), x->ratio, "%");
	format_interval(ci, sizeof(ci), x->lo, x->hi);
	format_median(mb, sizeof(mb), x->mb);
	format_median(mv, sizeof(mv), x->mv);
	format_pairs(pairs, sizeof(pairs), x);
	format_counts(counts, sizeof(counts), x);
	snprintf(p, sizeof(p), isnan(x->p) ? "-" : "%.2g", x->p);
	snprintf(fl, sizeof(fl), isnan(x->floor) ? "n/a" : "%.1f%%", x->floor * 100);
	if (x->decl->kind == COUNT)
		printf("| %s | %s | %s | | | | | exact | %s | | |\n", x->metric,
		       x->param, counts, x->verdict);
	else
		printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
		       x->metric, x->param, mb, mv, ch, ci, p, pairs, x->rule,
		       x->verdict, fl);
}

/* Every comparison, per variant and metric. */
static void print_tables(const struct comparison *c, size_t n, int md)
{
	size_t i, j, k;

	printf(md ? "## All comparisons\n\n" : "All comparisons\n");
	for (i = 0; i < nvariants; i++) {
		const char *last_metric = "";
		int pw = 5;

		if (!strcmp(variants[i], opt.baseline))
			continue;
		if (md)
			printf("### %s against %s\n\n| metric | param | %s | %s | change | interval | p | paired delta | rule | verdict | floor |\n|---|---|---:|---:|---:|---|---:|---|---|---|---:|\n",
			       variants[i], opt.baseline, opt.baseline, variants[i]);
		else
			printf("\n%s against %s\n", variants[i], opt.baseline);
		for (j = 0; j < n; j++) {
			const struct comparison *x = &c[j];

			if (strcmp(x->variant, variants[i]))
				continue;
			if (!x->base || !x->var) {
				if (md)
					printf("| %s | %s | %s | %s | | | | | | missing | |\n",
					       x->metric, x->param, x->base ? "present" : "-",
					       x->var ? "present" : "-");
				else
					printf("  %s %s: missing on the %s side\n", x->metric,
					       x->param, x->base ? "variant's" : "baseline's");
				continue;
			}
			if (md) {
				print_row_md(x);
				continue;
			}
			if (strcmp(last_metric, x->metric)) {
				/* the param column as wide as this metric needs */
				for (k = j, pw = 5; k < n && !strcmp(c[k].metric, x->metric); k++)
					pw = (int)strlen(c[k].param) > pw ? (int)strlen(c[k].param) : pw;
				print_table_header(x, c, n, j, pw);
				last_metric = x->metric;
			}
			print_row_text(x, pw);
		}
		printf("\n");
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: compare [--baseline V] [--format text|md|csv|series] [--alpha A]\n"
		"               [--min-effect E] samples.csv...\n"
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
		{ NULL, 0, NULL, 0 }
	};
	struct comparison *c;
	const char *meta_key = NULL;
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
		default: usage();
		}
	}
	if (optind == argc)
		usage();
	if (meta_key) {
		read_meta(argv[optind]);
		if (!nmetas || !json_get(metas[0].doc, meta_key))
			die("%s: no meta.json beside it, or no '%s' in it", argv[optind], meta_key);
		puts(meta_field(meta_key, buf, sizeof(buf)));
		return 0;
	}
	if (strcmp(opt.format, "text") && strcmp(opt.format, "md") &&
	    strcmp(opt.format, "csv") && strcmp(opt.format, "series"))
		die("--format: '%s' is not text, md, csv or series", opt.format);
	for (i = optind; i < (size_t)argc; i++) {
		read_samples(argv[i]);
		read_meta(argv[i]);
	}
	if (!ngroups)
		die("no samples in %s", argv[optind]);
	if (!opt.baseline) {
		opt.baseline = variants[0];
		for (i = 0; i < nvariants; i++)
			if (!strcmp(variants[i], "stock"))
				opt.baseline = "stock";
	}
	for (i = 0; i < nvariants && strcmp(variants[i], opt.baseline); i++)
		;
	if (i == nvariants)
		die("baseline '%s' has no samples", opt.baseline);
	check_comparable();
	deterministic = nmetas && !strcmp(metas[0].mode, "icount");
	for (i = 0; i < nvariants; i++) {
		const char *path;
		const struct json *vm = variant_meta(variants[i], &path);

		if (strcmp(variants[i], opt.baseline) &&
		    !strcmp(json_get_string(vm, "kernel", ""), opt.baseline))
			aa_arm = variants[i];
	}

	c = compare_all(&n);
	if (!strcmp(opt.format, "series"))
		print_series(c, n);
	else if (!strcmp(opt.format, "csv"))
		print_csv(c, n);
	else {
		print_summary(c, n, !strcmp(opt.format, "md"));
		print_tables(c, n, !strcmp(opt.format, "md"));
	}
	return 0;
}
