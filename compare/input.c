// SPDX-License-Identifier: GPL-2.0
/*
 * compare, reading: samples.csv files into groups (variant, metric,
 * param), each metric checked against its declaration in
 * bench/benchmarks.def; meta.json beside each; what may not be compared
 * refused.  Also the allocation helpers the other parts use.
 */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

const struct decl decls[] = {
#define BENCH(name, where, fixture, axes)
#define METRIC(name, unit, direction, kind, family) \
	{ #name, unit, direction, kind, family },
#include "../bench/benchmarks.def"
#undef METRIC
#undef BENCH
};
const size_t ndecls = sizeof(decls) / sizeof(decls[0]);

static struct input store;
struct input *const in = &store;

void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "compare: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* Grow an array; realloc(NULL, ...) goes through xmalloc. */
void *xrealloc(void *p, size_t size)
{
	if (!p)
		return xmalloc(size);
	p = realloc(p, size ? size : 1);	/* never a free */
	if (!p)
		die("out of memory");
	return p;
}

/* A stream into a growing buffer, for text that is wrapped afterwards. */
FILE *xmemstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		die("out of memory");
	return f;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die("out of memory");
	return d;
}

/*
 * GCC 12's analyzer loses track of a pointer stored into a buffer that
 * realloc has moved and reports it as leaked; everything stored here lives
 * in the global store until exit.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
static void add_variant(const char *v)
{
	size_t i;

	for (i = 0; i < store.nvariants; i++)
		if (!strcmp(store.variants[i], v))
			return;
	store.variants = xrealloc(store.variants, (store.nvariants + 1) * sizeof(*store.variants));
	store.variants[store.nvariants++] = xstrdup(v);
}

struct group *find_group(const char *metric, const char *param, const char *variant)
{
	size_t i;

	for (i = 0; i < store.ngroups; i++)
		if (!strcmp(store.groups[i].metric, metric) &&
		    !strcmp(store.groups[i].param, param) &&
		    !strcmp(store.groups[i].variant, variant))
			return &store.groups[i];
	return NULL;
}

static void add_sample(const char *file, int line, char **f)
{
	struct group *g = find_group(f[F_METRIC], f[F_PARAM], f[F_VARIANT]);
	char *end;
	double value = strtod(f[F_VALUE], &end);
	long boot = strtol(f[F_BOOT], NULL, 10), iter = strtol(f[F_ITER], NULL, 10);
	const struct decl *d = NULL;
	size_t i;

	if (end == f[F_VALUE] || *end || !isfinite(value))
		die("%s:%d: value '%s' is not a number", file, line, f[F_VALUE]);
	for (i = 0; i < ndecls; i++)
		if (!strcmp(decls[i].name, f[F_METRIC]))
			d = &decls[i];
	if (!d)
		die("%s:%d: metric %s is not declared in bench/benchmarks.def", file, line, f[F_METRIC]);
	if (strcmp(d->unit, f[F_UNIT]))
		die("%s:%d: %s is in %s here, declared in %s", file, line, f[F_METRIC], f[F_UNIT], d->unit);
	if (!g) {
		if (store.ngroups == store.capgroups) {
			store.capgroups = store.capgroups ? 2 * store.capgroups : 64;
			store.groups = xrealloc(store.groups, store.capgroups * sizeof(*store.groups));
		}
		g = &store.groups[store.ngroups++];
		*g = (struct group){ .metric = xstrdup(f[F_METRIC]), .param = xstrdup(f[F_PARAM]),
				     .variant = xstrdup(f[F_VARIANT]), .unit = xstrdup(f[F_UNIT]),
				     .decl = d };
		add_variant(f[F_VARIANT]);
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
#pragma GCC diagnostic pop

void read_samples(const char *file)
{
	struct results_reader r;
	int rc;

	if (results_open(&r, file))
		exit(1);
	while ((rc = results_next(&r)) > 0)
		add_sample(file, r.line, r.fields);
	results_close(&r);
	if (rc)
		exit(1);
}

/*
 * A count lists what a boot saw (the lock census files a row per lock it
 * met): a (metric, param) of kind COUNT that a variant's boots lack, while
 * they file that metric, is 0 in each of those boots.
 */
void fill_absent_counts(void)
{
	size_t i, j, k, n = store.ngroups;
	char boot[16], zero[] = "0", *f[RESULTS_NFIELDS];

	for (i = 0; i < n; i++) {
		if (store.groups[i].decl->kind != COUNT)
			continue;
		for (j = 0; j < store.nvariants; j++) {
			char *metric = store.groups[i].metric, *v = store.variants[j];
			struct group *probe;
			int boots[64], nboots = 0, b;

			if (find_group(metric, store.groups[i].param, v))
				continue;
			for (k = 0; k < store.ngroups; k++) {
				probe = &store.groups[k];
				if (strcmp(probe->metric, metric) || strcmp(probe->variant, v))
					continue;
				for (size_t s = 0; s < probe->n; s++) {
					for (b = 0; b < nboots && boots[b] != probe->boot[s]; b++)
						;
					if (b == nboots && nboots < 64)
						boots[nboots++] = probe->boot[s];
				}
			}
			for (b = 0; b < nboots; b++) {
				snprintf(boot, sizeof(boot), "%d", boots[b]);
				f[F_VARIANT] = v;
				f[F_BOOT] = boot;
				f[F_METRIC] = metric;
				f[F_PARAM] = store.groups[i].param;
				f[F_ITER] = zero;
				f[F_VALUE] = zero;
				f[F_UNIT] = store.groups[i].unit;
				add_sample("(absent count)", 0, f);
			}
		}
	}
}

json_t *read_json_file(const char *path, int optional, size_t flags)
{
	char where[64] = "";
	json_error_t error;
	json_t *doc;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	doc = json_loadf(f, flags, &error);
	fclose(f);
	if (doc)
		return doc;
	if (error.line > 0)
		snprintf(where, sizeof(where), "line %d, column %d: ", error.line, error.column);
	if (!optional)
		die("%s: %s%s", path, where, error.text);
	fprintf(stderr, "compare: warning: %s left out: %s%s\n", path, where, error.text);
	return NULL;
}

const char *member_string(const json_t *obj, const char *key, const char *fallback)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : fallback;
}

void read_meta(const char *samples)
{
	char *copy = xstrdup(samples), path[4096];
	const char *dir = dirname(copy);
	json_t *doc;
	struct meta *m;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	doc = read_json_file(path, 0, JSON_DECODE_INT_AS_REAL);
	if (!doc) {
		free(copy);
		return;		/* a synthetic samples.csv has no meta.json */
	}
	store.metas = xrealloc(store.metas, (store.nmetas + 1) * sizeof(*store.metas));
	m = &store.metas[store.nmetas++];
	m->doc = doc;
	m->path = xstrdup(path);
	m->mode = member_string(doc, "mode", "unknown");	/* doc is kept */
	snprintf(path, sizeof(path), "%s/race.json", dir);
	m->race = read_json_file(path, 1, JSON_DECODE_INT_AS_REAL);
	free(copy);
}

const json_t *variant_meta(const char *variant, const char **path)
{
	size_t i;

	for (i = 0; i < store.nmetas; i++) {
		const json_t *v = json_object_get(json_object_get(store.metas[i].doc, "variants"),
						  variant);
		if (v) {
			*path = store.metas[i].path;
			return v;
		}
	}
	return NULL;
}

const char *meta_field(const char *key, char *buf, size_t size)
{
	const json_t *v = store.nmetas ? json_object_get(store.metas[0].doc, key) : NULL;

	/* always in buf, which callers may read again */
	if (!v)
		snprintf(buf, size, "?");
	else if (json_is_string(v))
		snprintf(buf, size, "%s", json_string_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, size, "%s", json_is_true(v) ? "true" : "false");
	if (!v || json_is_string(v) || json_is_boolean(v))
		return buf;
	if (json_is_array(v)) {
		const json_t *e;
		size_t len = 0, i;

		buf[0] = '\0';
		json_array_foreach(v, i, e) {
			if (len >= size)
				break;
			len += snprintf(buf + len, size - len, "%s%g", i ? " " : "",
					json_number_value(e));
		}
		return buf;
	}
	snprintf(buf, size, "%g", json_number_value(v));
	return buf;
}

/* Modes never mix; configs differ from the baseline's only where declared
 * or where the variant is on another base. */
void check_comparable(void)
{
	const json_t *bm, *vm, *d;
	const char *bpath, *vpath, *bsha, *vsha;
	size_t i;

	for (i = 1; i < store.nmetas; i++)
		if (strcmp(store.metas[i].mode, store.metas[0].mode))
			die("cannot compare: %s is %s mode, %s is %s mode",
			    store.metas[0].path, store.metas[0].mode, store.metas[i].path, store.metas[i].mode);
	bm = variant_meta(opt.baseline, &bpath);
	if (!bm)
		return;
	bsha = member_string(bm, "config_sha256", "");
	for (i = 0; i < store.nvariants; i++) {
		vm = variant_meta(store.variants[i], &vpath);
		if (!vm || vm == bm)
			continue;
		vsha = member_string(vm, "config_sha256", "");
		/* another base's config differs necessarily, but never in an
		 * option the shared fragments ask for */
		d = json_object_get(vm, "rig_config_differences");
		if (json_array_size(d))
			die("cannot compare: %s sets %s, which the rig's config fragments ask for, otherwise than %s (%s)",
			    store.variants[i], json_string_value(json_array_get(d, 0)), opt.baseline, vpath);
		if (strcmp(member_string(bm, "base", ""), member_string(vm, "base", "")))
			continue;
		if (strcmp(bsha, vsha) && !member_string(vm, "config_fragment", NULL))
			die("cannot compare: %s was built with another kernel config than %s (%.12s vs %.12s) and declares no config fragment",
			    store.variants[i], opt.baseline, vsha, bsha);
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

int cmp_group(const void *x, const void *y)
{
	const struct group *a = x, *b = y;

	return strcmp(a->metric, b->metric) ?: natural_cmp(a->param, b->param);
}

/* The value of key in a param such as "n=10,pos=tail", "" when absent. */
const char *param_value(const char *param, const char *key, char *buf, size_t size)
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

/* Is @param a run of the plugin's calibration (meta.json's calibration):
 * one arm of a run runs it, and the others' lack of it is no missing side. */
int calibration_param(const char *param)
{
	char bench[64];
	const json_t *b;
	size_t i, j;

	if (!*param_value(param, "bench", bench, sizeof(bench)))
		return 0;
	for (i = 0; i < store.nmetas; i++) {
		const json_t *benches = json_object_get(json_object_get(store.metas[i].doc,
									 "calibration"), "benches");

		json_array_foreach(benches, j, b)
			if (json_is_string(b) && !strcmp(json_string_value(b), bench))
				return 1;
	}
	return 0;
}
