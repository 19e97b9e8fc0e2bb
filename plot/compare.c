// SPDX-License-Identifier: GPL-2.0
/*
 * compare: every (metric, param) of one or more samples.csv files, each
 * variant against the baseline, as DESIGN.md's compare contract says:
 * medians, ratio of medians with a percentile-bootstrap 95% interval,
 * two-sided Mann-Whitney U p-value (Holm-adjusted over all comparisons of
 * the report) and a verdict.  Formats: text (under 80 columns), md, csv
 * (DESIGN.md's header), series (per-variant medians for the plots).
 *
 * It refuses what is not comparable: files from different modes, variants
 * built with another kernel config than the baseline without declaring it
 * (meta.json's config_fragment), malformed or truncated CSV.
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
	"median_var,ratio,ci_low,ci_high,p_value,verdict"
#define LEVEL 0.95

struct group {
	char *metric, *param, *variant, *unit;
	double *v;
	int *boot;
	size_t n, cap;
};

struct meta {
	char *path, *mode;
	struct json *doc;
};

struct comparison {
	const struct group *base, *var;
	const char *metric, *param, *variant;
	double mb, mv, ratio, lo, hi, p, noise;
	const char *verdict;
};

static struct {
	const char *baseline, *format;
	double alpha, min_effect;
	unsigned long long seed;
	unsigned int resamples;
} opt = { NULL, "text", 0.01, 0.01, 1, 10000 };

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

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		die("out of memory");
	return p;
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
	long boot = strtol(f[1], NULL, 10);

	if (end == f[5] || *end || !isfinite(value))
		die("%s:%d: value '%s' is not a number", file, line, f[5]);
	if (!g) {
		if (ngroups == capgroups) {
			capgroups = capgroups ? 2 * capgroups : 64;
			groups = xrealloc(groups, capgroups * sizeof(*groups));
		}
		g = &groups[ngroups++];
		*g = (struct group){ .metric = xstrdup(f[2]), .param = xstrdup(f[3]),
				     .variant = xstrdup(f[0]), .unit = xstrdup(f[6]) };
		add_variant(f[0]);
	} else if (strcmp(g->unit, f[6])) {
		die("%s:%d: %s is in %s here and in %s before", file, line,
		    f[2], f[6], g->unit);
	}
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->v = xrealloc(g->v, g->cap * sizeof(*g->v));
		g->boot = xrealloc(g->boot, g->cap * sizeof(*g->boot));
	}
	g->v[g->n] = value;
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

static int lower_is_better(const char *unit)
{
	return !strcmp(unit, "ns") || !strcmp(unit, "bytes") || !strcmp(unit, "count");
}

/* Spread of the per-boot medians of a group, relative to its median: the
 * A/A noise floor next to every effect.  NAN with a single boot. */
static double boot_spread(const struct group *g)
{
	double lo = INFINITY, hi = -INFINITY, *v = malloc(g->n * sizeof(*v));
	int boots = 0, done[256] = { 0 };
	size_t i, j, k;

	if (!v)
		die("out of memory");
	for (i = 0; i < g->n; i++) {
		int b = g->boot[i] & 255;

		if (done[b])
			continue;
		done[b] = 1;
		for (j = i, k = 0; j < g->n; j++)
			if (g->boot[j] == g->boot[i])
				v[k++] = g->v[j];
		lo = fmin(lo, median(v, k));
		hi = fmax(hi, median(v, k));
		boots++;
	}
	free(v);
	return boots > 1 ? (hi - lo) / median(g->v, g->n) : NAN;
}

static struct comparison *compare_all(size_t *count)
{
	struct comparison *c = NULL;
	double *p = NULL;
	size_t i, j, n = 0, np = 0;

	qsort(groups, ngroups, sizeof(*groups), cmp_group);
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i], *base;

		/* one comparison per (metric, param, variant != baseline) */
		if (!strcmp(g->variant, opt.baseline))
			continue;
		base = find_group(g->metric, g->param, opt.baseline);
		c = xrealloc(c, (n + 1) * sizeof(*c));
		c[n] = (struct comparison){ .base = base, .var = g, .metric = g->metric,
					    .param = g->param, .variant = g->variant };
		n++;
	}
	/* and the baseline's groups that no variant has */
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];

		if (strcmp(g->variant, opt.baseline))
			continue;
		for (j = 0; j < nvariants; j++)
			if (strcmp(variants[j], opt.baseline) &&
			    !find_group(g->metric, g->param, variants[j])) {
				c = xrealloc(c, (n + 1) * sizeof(*c));
				c[n++] = (struct comparison){ .base = g, .metric = g->metric,
							      .param = g->param,
							      .variant = variants[j] };
			}
	}
	for (i = 0; i < n; i++) {
		struct comparison *x = &c[i];

		if (!x->base || !x->var) {
			x->verdict = "missing";
			continue;
		}
		x->mb = median(x->base->v, x->base->n);
		x->mv = median(x->var->v, x->var->n);
		/* No ratio from a zero baseline (a count the variant adds). */
		x->ratio = x->lo = x->hi = NAN;
		if (x->mb != 0) {
			x->ratio = x->mv / x->mb;
			bootstrap_ratio_ci(x->base->v, x->base->n, x->var->v,
					   x->var->n, opt.resamples, opt.seed,
					   LEVEL, &x->lo, &x->hi);
		}
		x->p = mann_whitney_p(x->base->v, x->base->n, x->var->v,
				      x->var->n, &(int){ 0 });
		x->noise = boot_spread(x->base);
		p = xrealloc(p, (np + 1) * sizeof(*p));
		p[np++] = isnan(x->p) ? 1 : x->p;
	}
	holm_adjust(p, np);
	for (i = 0, j = 0; i < n; i++) {
		struct comparison *x = &c[i];
		int significant;

		if (!x->base || !x->var)
			continue;
		x->p = p[j++];
		if (isnan(x->ratio))	/* from zero: any significant change counts */
			significant = x->p < opt.alpha && x->mv != 0;
		else
			significant = x->p < opt.alpha && (x->hi < 1 || x->lo > 1) &&
				      fabs(x->ratio - 1) >= opt.min_effect;
		if (!significant)
			x->verdict = "same";
		else if ((x->mv < x->mb) == lower_is_better(x->base->unit))
			x->verdict = "better";
		else
			x->verdict = "worse";
	}
	free(p);
	*count = n;
	return c;
}

static void print_csv(const struct comparison *c, size_t n)
{
	size_t i;

	printf("%s\n", CSV_HEADER);
	for (i = 0; i < n; i++) {
		const struct comparison *x = &c[i];

		if (!x->base || !x->var) {
			printf("%s,%s,%s,%s,%zu,%zu,,,,,,,missing\n", x->metric,
			       csv_param(x->param), opt.baseline, x->variant,
			       x->base ? x->base->n : 0, x->var ? x->var->n : 0);
			continue;
		}
		if (isnan(x->ratio))
			printf("%s,%s,%s,%s,%zu,%zu,%.6g,%.6g,,,,%.3g,%s\n",
			       x->metric, csv_param(x->param), opt.baseline,
			       x->variant, x->base->n, x->var->n, x->mb, x->mv,
			       x->p, x->verdict);
		else
			printf("%s,%s,%s,%s,%zu,%zu,%.6g,%.6g,%.6f,%.6f,%.6f,%.3g,%s\n",
			       x->metric, csv_param(x->param), opt.baseline,
			       x->variant, x->base->n, x->var->n, x->mb, x->mv,
			       x->ratio, x->lo, x->hi, x->p, x->verdict);
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

/* Per-variant median and its interval for every group, for the plots,
 * with the param's keys in columns of their own. */
static void print_series(void)
{
	char n[32], majors[32], minors[32], pos[32], threads[32];
	size_t i;

	qsort(groups, ngroups, sizeof(*groups), cmp_group);
	printf("metric,variant,n,majors,minors,pos,threads,samples,median,ci_low,ci_high,unit\n");
	for (i = 0; i < ngroups; i++) {
		const struct group *g = &groups[i];
		double lo, hi;

		bootstrap_median_ci(g->v, g->n, opt.resamples, opt.seed, LEVEL,
				    &lo, &hi);
		printf("%s,%s,%s,%s,%s,%s,%s,%zu,%.6g,%.6g,%.6g,%s\n", g->metric,
		       g->variant, param_value(g->param, "n", n, sizeof(n)),
		       param_value(g->param, "majors", majors, sizeof(majors)),
		       param_value(g->param, "minors", minors, sizeof(minors)),
		       param_value(g->param, "pos", pos, sizeof(pos)),
		       param_value(g->param, "threads", threads, sizeof(threads)),
		       g->n, median(g->v, g->n), lo, hi, g->unit);
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

/* A median in at most 8 columns. */
static void format_median(char *buf, size_t size, double v)
{
	snprintf(buf, size, fabs(v) >= 1e7 ? "%.2e" : fabs(v) >= 100 ? "%.0f" : "%.1f", v);
}

/* Text broken at spaces into lines of at most width columns. */
static void print_wrapped(const char *text, int width)
{
	int col = 0;

	while (*text) {
		int len = (int)strcspn(text, " ");

		if (col && col + 1 + len > width) {
			printf("\n");
			col = 0;
		}
		printf("%s%.*s", col ? " " : "", len, text);
		col += (col ? 1 : 0) + len;
		text += len;
		text += strspn(text, " ");
	}
	printf("\n");
}

/* What was compared, the statistics used, and the significant changes. */
static void print_preamble(const struct comparison *c, size_t n, int md)
{
	char b[9][256], *line = NULL;
	size_t linelen = 0;
	FILE *out;
	const char *path, *bullet = md ? "- " : "";
	size_t i, j, k, m, tested = 0;

	for (i = 0; i < n; i++)
		tested += c[i].base && c[i].var;

	printf(md ? "# cdevbench comparison\n\n" : "cdevbench comparison\n\n");
	if (nmetas) {
		out = open_memstream(&line, &linelen);
		fprintf(out, "%srun %s, %s mode, %s vCPU, %s boots x %s repetitions, N in {%s}; host: %s (%s cores), %s",
			bullet, meta_field("run_id", b[0], sizeof(b[0])),
			meta_field("mode", b[1], sizeof(b[1])),
			meta_field("vcpus", b[2], sizeof(b[2])),
			meta_field("boots", b[3], sizeof(b[3])),
			meta_field("reps", b[4], sizeof(b[4])),
			meta_field("sweep_n", b[5], sizeof(b[5])),
			meta_field("host_cpu", b[6], sizeof(b[6])),
			meta_field("host_cores", b[7], sizeof(b[7])),
			meta_field("qemu_version", b[8], sizeof(b[8])));
		fclose(out);
		print_wrapped(line, 78);
		free(line);
	}
	for (i = 0; i < nvariants; i++) {
		const struct json *vm = variant_meta(variants[i], &path);

		printf("%s%s%s: kernel %s%s\n", bullet, variants[i],
		       strcmp(variants[i], opt.baseline) ? "" : " (baseline)",
		       json_get_string(vm, "kernel_release", "?"),
		       json_get_string(vm, "config_fragment", NULL) ?
		       ", own config fragment" : "");
	}
	printf("%sp: two-sided Mann-Whitney U, Holm-adjusted over %zu comparisons;\n"
	       "%sverdict better/worse needs p < %g, the 95%% bootstrap interval\n"
	       "%s(%u resamples, seed %llu) excluding 1 and a change >= %g%%;\n"
	       "%snoise: the baseline's spread of per-boot medians (A/A).\n\n",
	       bullet, tested, md ? "  " : "", opt.alpha, md ? "  " : "", opt.resamples,
	       opt.seed, opt.min_effect * 100, bullet);

	/* Mann-Whitney's smallest p for each comparison's sample sizes
	 * (complete separation), times Holm's first factor: where it is not
	 * below alpha, no verdict can be better or worse whatever the effect. */
	for (i = 0, k = 0, m = 0; i < n; i++) {
		int exact;
		size_t nb, nv;
		double *a, *b, pmin;

		if (!c[i].base || !c[i].var)
			continue;
		nb = c[i].base->n;
		nv = c[i].var->n;
		a = calloc(nb, sizeof(*a));
		b = calloc(nv, sizeof(*b));
		if (!a || !b)
			die("out of memory");
		for (j = 0; j < nb; j++)
			a[j] = (double)j;
		for (j = 0; j < nv; j++)
			b[j] = (double)(nb + j);
		pmin = mann_whitney_p(a, nb, b, nv, &exact) * (double)tested;
		free(a);
		free(b);
		if (pmin >= opt.alpha) {
			k++;
			if (!m || (nb < nv ? nb : nv) < m)
				m = nb < nv ? nb : nv;
		}
	}
	if (k)
		printf("Note: %zu of %zu comparisons (as few as %zu samples a side, e.g. one\n"
		       "row per boot) cannot reach p < %g after Holm: 'same' there is no\n"
		       "verdict. Raise BOOTS (or REPS) for them; the intervals still hold.\n\n",
		       k, tested, m, opt.alpha);

	/* the summary paragraph, one sentence per variant */
	for (i = 0; i < nvariants; i++) {
		size_t better = 0, worse = 0, missing = 0, total = 0;
		char *text = NULL;
		size_t textlen = 0;
		FILE *out = open_memstream(&text, &textlen);

		if (!strcmp(variants[i], opt.baseline))
			continue;
		for (j = 0; j < n; j++) {
			if (strcmp(c[j].variant, variants[i]))
				continue;
			total++;
			better += !strcmp(c[j].verdict, "better");
			worse += !strcmp(c[j].verdict, "worse");
			missing += !strcmp(c[j].verdict, "missing");
		}
		fprintf(out, "%s against %s: %zu of %zu comparisons worse, %zu better",
			variants[i], opt.baseline, worse, total, better);
		if (missing)
			fprintf(out, ", %zu missing on one side", missing);
		/* per metric: how many params changed, and the range of change */
		for (j = 0, k = 0, m = 0; j < n; j = m) {
			size_t params = 0, changed = 0;
			double lo = INFINITY, hi = -INFINITY;
			int from_zero = 0;

			for (m = j; m < n && !strcmp(c[m].metric, c[j].metric); m++) {
				const struct comparison *x = &c[m];

				if (strcmp(x->variant, variants[i]))
					continue;
				params++;
				if (strcmp(x->verdict, "better") && strcmp(x->verdict, "worse"))
					continue;
				changed++;
				if (isnan(x->ratio)) {
					from_zero = 1;
					continue;
				}
				lo = fmin(lo, (x->ratio - 1) * 100);
				hi = fmax(hi, (x->ratio - 1) * 100);
			}
			if (!changed)
				continue;
			fprintf(out, "%s %s in %zu of %zu params", k++ ? ";" : ":",
				c[j].metric, changed, params);
			if (lo <= hi)
				fprintf(out, lo == hi ? " (%+.0f%%)" : " (%+.0f%% to %+.0f%%)", lo, hi);
			if (from_zero)
				fprintf(out, " (from 0)");
		}
		fprintf(out, "%s", better + worse ? "." : "; the rest within noise.");
		fclose(out);
		print_wrapped(text, 78);
		free(text);
	}
	printf("\n");
}

static void print_table(const struct comparison *c, size_t n, int md)
{
	size_t i, j, k, pw = 5;

	for (i = 0; i < nvariants; i++) {
		const char *last_metric = "";

		if (!strcmp(variants[i], opt.baseline))
			continue;
		if (md)
			printf("## %s against %s\n\n| metric | param | %s | %s | change | 95%% CI | p | verdict | noise |\n|---|---|---:|---:|---:|---|---:|---|---:|\n",
			       variants[i], opt.baseline, opt.baseline, variants[i]);
		else
			printf("%s against %s\n", variants[i], opt.baseline);
		for (j = 0; j < n; j++) {
			const struct comparison *x = &c[j];
			char ch[16], lo[16], hi[16], noise[16], mb[16], mv[16], ci[40], p[16];

			if (strcmp(x->variant, variants[i]))
				continue;
			if (!md && strcmp(last_metric, x->metric)) {
				/* the param column as wide as this metric needs */
				for (k = j, pw = 5; k < n && !strcmp(c[k].metric, x->metric); k++)
					pw = strlen(c[k].param) > pw ? strlen(c[k].param) : pw;
				printf("\n  %s (%s)\n  %-*s %8s %8s %7s %13s %5s %-6s %5s\n",
				       x->metric, (x->base ? x->base : x->var)->unit,
				       (int)pw, "param", "base", "variant", "change",
				       "95% CI", "p", "result", "noise");
				last_metric = x->metric;
			}
			if (!x->base || !x->var) {
				const char *b = x->base ? "present" : "-";
				const char *v = x->var ? "present" : "-";

				if (md)
					printf("| %s | %s | %s | %s | | | | missing | |\n",
					       x->metric, x->param, b, v);
				else
					printf("  %-*s %8s %8s missing on one side\n",
					       (int)pw, x->param, b, v);
				continue;
			}
			format_pct(ch, sizeof(ch), x->ratio, "%");
			format_pct(lo, sizeof(lo), x->lo, md ? "%" : "");
			format_pct(hi, sizeof(hi), x->hi, md ? "%" : "");
			format_median(mb, sizeof(mb), x->mb);
			format_median(mv, sizeof(mv), x->mv);
			if (isnan(x->noise))
				snprintf(noise, sizeof(noise), "n/a");
			else
				snprintf(noise, sizeof(noise), "%.1f%%", x->noise * 100);
			snprintf(ci, sizeof(ci), "%s..%s", lo, hi);
			snprintf(p, sizeof(p), x->p < 0.001 ? "%.0e" : "%.3f", x->p);
			if (md)
				printf("| %s | %s | %s | %s | %s | [%s, %s] | %.2g | %s | %s |\n",
				       x->metric, x->param, mb, mv, ch, lo, hi,
				       x->p, x->verdict, noise);
			else
				printf("  %-*s %8s %8s %7s %13s %5s %-6s %5s\n",
				       (int)pw, x->param, mb, mv, ch,
				       isnan(x->ratio) ? "n/a" : ci, p, x->verdict,
				       noise);
		}
		printf("\n");
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: compare [--baseline V] [--format text|md|csv|series] [--alpha A]\n"
		"               [--min-effect E] [--seed S] [--resamples R] samples.csv...\n");
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
		{ "seed", required_argument, NULL, 's' },
		{ "resamples", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct comparison *c;
	size_t n, i;
	int ch;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b': opt.baseline = optarg; break;
		case 'f': opt.format = optarg; break;
		case 'a': opt.alpha = parse_number("alpha", optarg, 0, 1); break;
		case 'e': opt.min_effect = parse_number("min-effect", optarg, 0, 100); break;
		case 's': opt.seed = (unsigned long long)parse_number("seed", optarg, 0, 1e18); break;
		case 'r': opt.resamples = (unsigned int)parse_number("resamples", optarg, 100, 1e7); break;
		default: usage();
		}
	}
	if (optind == argc)
		usage();
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

	if (!strcmp(opt.format, "series")) {
		print_series();
		return 0;
	}
	c = compare_all(&n);
	if (!strcmp(opt.format, "csv")) {
		print_csv(c, n);
		return 0;
	}
	print_preamble(c, n, !strcmp(opt.format, "md"));
	print_table(c, n, !strcmp(opt.format, "md"));
	return 0;
}
