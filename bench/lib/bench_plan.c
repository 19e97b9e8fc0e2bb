// SPDX-License-Identifier: GPL-2.0
/*
 * bench_plan: bench/benchmarks.def, compiled in, for all that is not C:
 * the runs a boot makes (guest-init/suite runs what it lists), the
 * benchmarks and settings the declarations name, and the metrics (the
 * table of docs/metrics.md).  The one reader of the sweeps' axes.
 *
 * usage: bench_plan runs timing          the timed pass: the BENCH runs
 *        bench_plan runs pmu|share CPUS  a plugin boot's PMU_RUN runs of
 *                                        that phase, on CPUS vCPUs
 *        bench_plan traced NAME...       every BENCH run of NAME..., for
 *                                        the traced pass (USER NONE only)
 *        bench_plan benches              "name where" of each benchmark
 *        bench_plan settings             the settings the axes name
 *        bench_plan metrics              "name unit direction kind family"
 *        bench_plan metrics-table        docs/metrics.md's table (markdown)
 *
 * A run is a line "name where fixture param", in the declared order,
 * each line's axes outer first; param is "-" or key=value pairs joined by
 * commas (majors and minors left out when 1, as the module writes them).
 * runs and traced read the settings the axes name from the environment
 * (the guest's suite.env); runs and benches keep to the benchmarks that
 * BENCHES names (every one where it is empty or unset) and refuse a name
 * that is not declared.  Every declaration is checked first: an axis
 * that is neither key=values nor key>=number, a key that is not a param
 * key of results.h, MODULE with HOLD, one name with two wheres, a metric
 * declared twice.  Exits 1 on what it refuses, naming the declaration's
 * line; 2 on a usage error.  (An unknown where, fixture, phase,
 * direction, kind or family does not compile.)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"

#ifndef BENCHMARKS_DEF	/* tests/test_12_benchmarks.sh builds one of its own */
#define BENCHMARKS_DEF "../benchmarks.def"
#endif

enum line_type { L_BENCH, L_PMU_RUN, L_METRIC };
enum where { W_MODULE, W_USER };
enum fixture { F_NONE, F_HOLD };
enum phase { PHASE_TIMING, P_pmu, P_share };	/* a PMU_RUN's is pmu or share */
enum direction { D_LOWER, D_HIGHER, D_EITHER };
enum kind { K_SAMPLE, K_COUNT, K_DRAW, K_SHAPE };
enum family { FAM_HEADLINE, FAM_SECONDARY };

static const char *const wheres[] = { "MODULE", "USER" };
static const char *const fixtures[] = { "NONE", "HOLD" };
static const char *const phases[] = { "timing", "pmu", "share" };
static const char *const directions[] = { "lower", "higher", "either" };
static const char *const kinds[] = { "sample", "count", "draw", "shape" };
static const char *const families[] = { "headline", "secondary" };

/* One line of the declarations, where it stands. */
static const struct decl {
	enum line_type type;
	int line;
	const char *name;
	enum where where;		/* BENCH, PMU_RUN */
	enum fixture fixture;
	enum phase phase;
	const char *axes;
	const char *unit;		/* METRIC */
	enum direction direction;
	enum kind kind;
	enum family family;
} decls[] = {
#define BENCH(name_, where_, fixture_, axes_)						\
	{ .type = L_BENCH, .line = __LINE__, .name = #name_, .where = W_##where_,	\
	  .fixture = F_##fixture_, .phase = PHASE_TIMING, .axes = axes_ },
#define PMU_RUN(name_, where_, fixture_, phase_, axes_)					\
	{ .type = L_PMU_RUN, .line = __LINE__, .name = #name_, .where = W_##where_,	\
	  .fixture = F_##fixture_, .phase = P_##phase_, .axes = axes_ },
#define METRIC(name_, unit_, direction_, kind_, family_)				\
	{ .type = L_METRIC, .line = __LINE__, .name = #name_, .unit = unit_,		\
	  .direction = D_##direction_, .kind = K_##kind_, .family = FAM_##family_ },
#include BENCHMARKS_DEF
#undef METRIC
#undef PMU_RUN
#undef BENCH
};
#define NDECLS (sizeof(decls) / sizeof(decls[0]))

static const char *const param_keys[] = {
#define PARAM_KEY_NAME(key) #key,
	PARAM_KEYS(PARAM_KEY_NAME)
#undef PARAM_KEY_NAME
};

#define MAX_AXES	8
#define MAX_TEXT	512	/* an axis's values, settings expanded; a param */

static void __attribute__((noreturn, format(printf, 2, 3))) die(const struct decl *d,
								  const char *fmt, ...)
{
	va_list ap;

	if (d)
		fprintf(stderr, "bench_plan: benchmarks.def:%d: %s: ", d->line, d->name);
	else
		fprintf(stderr, "bench_plan: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* One axis of a sweep: "key=v1,v2" (values) or "key>=min" (at_least). */
struct axis {
	char key[32];
	int at_least;
	long min;
	char values[MAX_TEXT];
};

static int is_param_key(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(param_keys) / sizeof(param_keys[0]); i++)
		if (!strcmp(key, param_keys[i]))
			return 1;
	return 0;
}

/* A value that names a setting: capitals and '_' only. */
static int is_setting(const char *v, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((v[i] < 'A' || v[i] > 'Z') && v[i] != '_')
			return 0;
	return len > 0;
}

/* A whole number, or -1. */
static long number(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end ? -1 : v;
}

/* The axes of a BENCH or PMU_RUN line, or dies naming the one it refuses. */
static int parse_axes(const struct decl *d, struct axis *axes)
{
	const char *p = d->axes, *word, *eq;
	char text[MAX_TEXT];
	size_t len, klen;
	int n = 0;

	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			return n;
		word = p;
		p += strcspn(p, " \t");
		len = (size_t)(p - word);
		if (len >= sizeof(text) || n == MAX_AXES)
			die(d, "more than %d axes, or one longer than %zu characters", MAX_AXES,
			    sizeof(text) - 1);
		memcpy(text, word, len);
		text[len] = '\0';
		eq = strchr(text, '=');
		if (!eq)
			die(d, "axis '%s' is neither key=values nor key>=number", text);
		klen = (size_t)(eq - text);
		axes[n].at_least = klen > 0 && eq[-1] == '>';
		klen -= (size_t)axes[n].at_least;
		if (!klen || klen >= sizeof(axes[n].key) || !eq[1] ||
		    (axes[n].at_least && number(eq + 1) < 0))
			die(d, "axis '%s' is neither key=values nor key>=number", text);
		memcpy(axes[n].key, text, klen);
		axes[n].key[klen] = '\0';
		if (!is_param_key(axes[n].key))
			die(d, "axis '%s': '%s' is not a param key of bench/lib/results.h", text,
			    axes[n].key);
		axes[n].min = axes[n].at_least ? number(eq + 1) : 0;
		snprintf(axes[n].values, sizeof(axes[n].values), "%s", eq + 1);
		n++;
	}
}

/* Every declaration checked, before anything is listed. */
static void check_decls(void)
{
	struct axis axes[MAX_AXES];
	size_t i, j;

	for (i = 0; i < NDECLS; i++) {
		const struct decl *d = &decls[i];

		for (j = 0; j < i; j++) {
			if (strcmp(decls[j].name, d->name))
				continue;
			if ((d->type == L_METRIC) != (decls[j].type == L_METRIC))
				die(d, "a metric and a benchmark of one name");
			if (d->type == L_METRIC)
				die(d, "a metric declared twice (line %d)", decls[j].line);
			if (d->where != decls[j].where)
				die(d, "%s here, %s on line %d", wheres[d->where],
				    wheres[decls[j].where], decls[j].line);
		}
		if (d->type == L_METRIC)
			continue;
		if (d->where == W_MODULE && d->fixture != F_NONE)
			die(d, "'%s' with fixture '%s'", wheres[d->where], fixtures[d->fixture]);
		parse_axes(d, axes);
	}
}

/* The value of KEY in PARAM, "key=value,...", the first it holds, or NULL. */
static const char *param_value(const char *param, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key), len;
	const char *p = param, *end;

	while (*p) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, size, "%.*s", (int)(len - klen - 1), p + klen + 1);
			return buf;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return NULL;
}

/* The number KEY has in PARAM, 1 where it has none. */
static long param_number(const struct decl *d, const char *param, const char *key)
{
	char buf[MAX_TEXT];
	const char *v = param_value(param, key, buf, sizeof(buf));
	long n;

	if (!v)
		return 1;
	n = number(v);
	if (n < 0)
		die(d, "%s=%s is not a number", key, v);
	return n;
}

/* An axis's values, blank-separated, each setting's words in its place. */
static void axis_values(const struct decl *d, const struct axis *a, char *out, size_t size)
{
	const char *p = a->values, *end, *v;
	char name[64];
	size_t len, used = 0;

	out[0] = '\0';
	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		v = NULL;
		if (is_setting(p, len)) {
			snprintf(name, sizeof(name), "%.*s", (int)len, p);
			v = getenv(name);
			if (!v)
				die(d, "no guest setting %s (suite.env, scripts/settings.def)", name);
		}
		if (len && used + len + (v ? strlen(v) : 0) + 2 > size)
			die(d, "the values of axis %s are longer than %zu characters", a->key, size - 1);
		if (v)
			used += (size_t)snprintf(out + used, size - used, "%s ", v);
		else if (len)
			used += (size_t)snprintf(out + used, size - used, "%.*s ", (int)len, p);
		if (!end)
			return;
		p = end + 1;
	}
}

/* What one sweep lists: its declaration, axes and vCPUs (0: any). */
struct sweep {
	const struct decl *d;
	struct axis axes[MAX_AXES];
	int naxes;
	long cpus;
};

/* One run: left out where a spread over majors leaves a chain fewer than
 * 10 cdevs (the chain-length effect must be told from the count effect),
 * or in a plugin boot where it has more threads than vCPUs (the plugin
 * counts a window on one vCPU). */
static void list_run(const struct sweep *s, const char *param)
{
	char out[MAX_TEXT];
	const char *p = param, *end;
	long majors = param_number(s->d, param, "majors");
	size_t len, used = 0;

	if (majors != 1 && param_number(s->d, param, "n") < majors * 10)
		return;
	if (s->cpus && param_number(s->d, param, "threads") > s->cpus)
		return;
	out[0] = '\0';
	while (*p) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (!(len == 8 && (!strncmp(p, "majors=1", len) || !strncmp(p, "minors=1", len))))
			used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%.*s",
						 used ? "," : "", (int)len, p);
		if (!end)
			break;
		p = end + 1;
	}
	printf("%s %s %s %s\n", s->d->name, wheres[s->d->where], fixtures[s->d->fixture],
	       used ? out : "-");
}

/* Every combination of the axes from I on, outer first. */
static void sweep_from(const struct sweep *s, int i, const char *param)
{
	const struct axis *a = &s->axes[i];
	char values[MAX_TEXT], next[MAX_TEXT], *v, *save = NULL;

	if (i == s->naxes) {
		list_run(s, param);
		return;
	}
	if (a->at_least) {
		if (param_number(s->d, param, a->key) >= a->min)
			sweep_from(s, i + 1, param);
		return;
	}
	axis_values(s->d, a, values, sizeof(values));
	for (v = strtok_r(values, " \t\n", &save); v; v = strtok_r(NULL, " \t\n", &save)) {
		if ((size_t)snprintf(next, sizeof(next), "%s%s%s=%s", param, *param ? "," : "",
				     a->key, v) >= sizeof(next))
			die(s->d, "a param longer than %zu characters", sizeof(next) - 1);
		sweep_from(s, i + 1, next);
	}
}

static void list_runs(const struct decl *d, long cpus)
{
	struct sweep s = { .d = d, .cpus = cpus };

	s.naxes = parse_axes(d, s.axes);
	sweep_from(&s, 0, "");
}

/* Whether NAME is a word of the list LIST (blank-separated; strchr
 * finds the string's end too). */
static int listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || strchr(" \t\n", p[-1])) && strchr(" \t\n", p[len]))
			return 1;
		p += len;
	}
	return 0;
}

/* Whether line I is the first of its name of the benchmarks' lines. */
static int first_of_name(size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (decls[j].type != L_METRIC && !strcmp(decls[j].name, decls[i].name))
			return 0;
	return 1;
}

/* BENCHES, each of its names declared: the subset, or NULL for all. */
static const char *benches_subset(void)
{
	const char *list = getenv("BENCHES"), *p;
	size_t i, len;

	if (!list || !list[strspn(list, " \t\n")])
		return NULL;
	for (p = list + strspn(list, " \t\n"); *p; p += len + strspn(p + len, " \t\n")) {
		len = strcspn(p, " \t\n");
		for (i = 0; i < NDECLS; i++)
			if (decls[i].type != L_METRIC && strlen(decls[i].name) == len &&
			    !strncmp(decls[i].name, p, len))
				break;
		if (i < NDECLS)
			continue;
		fprintf(stderr, "bench_plan: BENCHES names '%.*s', which bench/benchmarks.def does not declare; it declares:",
			(int)len, p);
		for (i = 0; i < NDECLS; i++)
			if (decls[i].type != L_METRIC && first_of_name(i))
				fprintf(stderr, " %s", decls[i].name);
		fputc('\n', stderr);
		exit(1);
	}
	return list;
}

static void print_benches(void)
{
	const char *subset = benches_subset();
	size_t i;

	for (i = 0; i < NDECLS; i++)
		if (decls[i].type != L_METRIC && first_of_name(i) &&
		    (!subset || listed(subset, decls[i].name)))
			printf("%s %s\n", decls[i].name, wheres[decls[i].where]);
}

/* The settings the axes name, each once, in the order they first appear. */
static void print_settings(void)
{
	struct axis axes[MAX_AXES];
	char seen[MAX_TEXT * 4] = " ", name[64];
	const char *p, *end;
	size_t i, len;
	int a, n;

	for (i = 0; i < NDECLS; i++) {
		if (decls[i].type == L_METRIC)
			continue;
		n = parse_axes(&decls[i], axes);
		for (a = 0; a < n; a++) {
			for (p = axes[a].at_least ? "" : axes[a].values; *p; p = end + 1) {
				end = strchr(p, ',');
				len = end ? (size_t)(end - p) : strlen(p);
				snprintf(name, sizeof(name), "%.*s", (int)len, p);
				if (is_setting(p, len) && !listed(seen, name) &&
				    strlen(seen) + len + 2 < sizeof(seen)) {
					strcat(strcat(seen, name), " ");
					printf("%s\n", name);
				}
				if (!end)
					break;
			}
		}
	}
}

static void print_metrics(void)
{
	size_t i;

	for (i = 0; i < NDECLS; i++)
		if (decls[i].type == L_METRIC)
			printf("%s %s %s %s %s\n", decls[i].name, decls[i].unit,
			       directions[decls[i].direction], kinds[decls[i].kind],
			       families[decls[i].family]);
}

/*
 * The metrics as a markdown table for docs/metrics.md: each metric's name,
 * unit, direction, kind, family and the benchmark that files it, in the
 * order of the declarations.  The benchmark is where the declaration
 * stands: a METRIC belongs to the BENCH or PMU_RUN lines above it (the
 * group of lines of one kind since the last METRIC: a BENCH declared
 * last of the timed runs is not one of the plugin's), as do the METRIC
 * lines after it, each on the line after the one before; a METRIC set
 * apart from the METRIC before it by a comment or a blank line belongs to
 * none ("-": the harness's clock, the traced pass, the failure-path
 * phase), and nor do those that follow it, until the next BENCH or
 * PMU_RUN.
 */
static void print_metrics_table(void)
{
	char bench[512] = "-";
	size_t i, j, len = 0, first = 0;
	int in_group = 0, pmu = 0;

	printf("| metric | unit | direction | kind | family | benchmark |\n");
	printf("|---|---|---|---|---|---|\n");
	for (i = 0; i < NDECLS; i++) {
		const struct decl *d = &decls[i];

		if (d->type != L_METRIC) {
			if (!in_group || decls[i - 1].type != d->type) {	/* a new group */
				in_group = 1;
				pmu = 0;
				len = 0;
				first = i;
				bench[0] = '\0';
			}
			for (j = first; j < i && strcmp(decls[j].name, d->name); j++)
				;
			if (j == i && len < sizeof(bench))	/* each named once */
				len += (size_t)snprintf(bench + len, sizeof(bench) - len, "%s`%s`",
							len ? ", " : "", d->name);
			pmu |= d->type == L_PMU_RUN;
			continue;
		}
		if (in_group && pmu && len < sizeof(bench))
			snprintf(bench + len, sizeof(bench) - len, " (PMU_RUN)");
		if (!in_group && i > 0 && decls[i - 1].type == L_METRIC &&
		    d->line != decls[i - 1].line + 1)
			snprintf(bench, sizeof(bench), "-");	/* set apart */
		in_group = 0;
		printf("| `%s` | %s | %s | %s | %s | %s |\n", d->name, d->unit,
		       directions[d->direction], kinds[d->kind], families[d->family], bench);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_plan runs timing | runs pmu|share CPUS | traced NAME...\n"
			"       bench_plan benches | settings | metrics | metrics-table\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *subset;
	enum phase phase;
	size_t i;
	long cpus = 0;
	int a, any;

	if (argc < 2)
		return usage();
	check_decls();
	if (!strcmp(argv[1], "runs")) {
		if (argc == 3 && !strcmp(argv[2], phases[PHASE_TIMING]))
			phase = PHASE_TIMING;
		else if (argc == 4 && !strcmp(argv[2], phases[P_pmu]) && number(argv[3]) > 0)
			phase = P_pmu;
		else if (argc == 4 && !strcmp(argv[2], phases[P_share]) && number(argv[3]) > 0)
			phase = P_share;
		else
			return usage();
		if (phase != PHASE_TIMING)
			cpus = number(argv[3]);
		subset = benches_subset();
		for (i = 0; i < NDECLS; i++)
			if (decls[i].type != L_METRIC && decls[i].phase == phase &&
			    (!subset || listed(subset, decls[i].name)))
				list_runs(&decls[i], cpus);
	} else if (!strcmp(argv[1], "traced") && argc > 2) {
		for (a = 2; a < argc; a++) {
			for (any = 0, i = 0; i < NDECLS; i++) {
				if (decls[i].type != L_BENCH || strcmp(decls[i].name, argv[a]))
					continue;
				if (decls[i].where != W_USER || decls[i].fixture != F_NONE)
					die(&decls[i], "the traced pass runs USER NONE benchmarks only");
				list_runs(&decls[i], 0);
				any = 1;
			}
			if (!any)
				die(NULL, "no BENCH(%s, ...) in bench/benchmarks.def", argv[a]);
		}
	} else if (argc == 2 && !strcmp(argv[1], "benches")) {
		print_benches();
	} else if (argc == 2 && !strcmp(argv[1], "settings")) {
		print_settings();
	} else if (argc == 2 && !strcmp(argv[1], "metrics")) {
		print_metrics();
	} else if (argc == 2 && !strcmp(argv[1], "metrics-table")) {
		print_metrics_table();
	} else {
		return usage();
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("bench_plan: writing the list");
		return 1;
	}
	return 0;
}
