// SPDX-License-Identifier: GPL-2.0
/*
 * compare, what each cleanup after a failed cdev_add() does: the outcome
 * of every systematic group of the failure-path phase (a flavour of
 * bench/module/cdev_faults.c is a driver's cleanup pattern) per base and
 * variant, from what scripts/fault-check.sh read in the boot's serial log
 * and the phase's own counts.  The report's "Cleanup after a failed
 * cdev_add()" section and compare.json's "errpaths" show the table;
 * --format errpaths (make errpaths, scripts/errpaths.sh) adds the
 * in-tree callers of each pattern (--census, scripts/census.sh's TSV)
 * and an answer in words.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* What a pattern's driver does, in the answer's words. */
static const struct pattern {
	const char *name, *words;
} patterns[] = {
	{ "alloc_put", "cdev_alloc(), then kobject_put()" },
	{ "alloc_del", "cdev_alloc(), then cdev_del()" },
	{ "alloc_kfree", "cdev_alloc(), then kfree()" },
	{ "alloc_none", "cdev_alloc(), then nothing" },
	{ "alloc_name_put", "cdev_alloc() and a name, then kobject_put()" },
	{ "alloc_name_del", "cdev_alloc() and a name, then cdev_del()" },
	{ "alloc_name_kfree", "cdev_alloc() and a name, then kfree()" },
	{ "embed_put", "an embedded cdev, then kobject_put()" },
	{ "embed_del", "an embedded cdev, then cdev_del()" },
	{ "embed_none", "an embedded cdev, then nothing" },
	{ "embed_name_put", "an embedded cdev and a name, then kobject_put()" },
	{ "embed_name_del", "an embedded cdev and a name, then cdev_del()" },
	{ "embed_name_none", "an embedded cdev and a name, then nothing" },
	{ "embed_parent_put", "cdev_set_parent(), then kobject_put()" },
	{ "embed_parent_del", "cdev_set_parent(), then cdev_del()" },
	{ "embed_parent_none", "cdev_set_parent(), then nothing" },
	{ "device_put", "cdev_device_add(), then put_device()" },
	{ "device_del_put", "cdev_device_add(), then cdev_del() and put_device()" },
};

static const char *pattern_words(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		if (!strcmp(patterns[i].name, name))
			return patterns[i].words;
	return name;
}

/* A draw of (arm, metric, flavour=@pattern), 0 where absent. */
static double draw_of(const char *arm, const char *metric, const char *pattern)
{
	char param[96];
	const struct group *g;

	snprintf(param, sizeof(param), "flavour=%s", pattern);
	g = find_group(metric, param, arm);
	return g && g->n ? g->v[0] : 0;
}

/*
 * Slab bytes that a group kept without kmemleak reporting a suspect of
 * it: a leak a stale pointer hid from its scans, or a cache that grew
 * for good (an IDA's bitmap), which the counters, summed over every
 * cache, cannot tell apart; weaker than kmemleak's word, so a word of
 * its own ("kept").  Not where the group damaged memory or did not
 * finish: slab debugging takes a damaged slab out of use, and the bytes
 * it holds are the damage's.
 */
static int kept_bytes(const char *arm, const char *pattern)
{
	return draw_of(arm, "fail_slab_delta_bytes", pattern) > 0 &&
	       !draw_of(arm, "fail_leaked_objects", pattern) &&
	       !draw_of(arm, "fail_memory_errors", pattern) && !draw_of(arm, "fail_crashed", pattern) &&
	       !draw_of(arm, "fail_aborted", pattern);
}

/* Did @arm's fault boot start @pattern's systematic group?  fault-check.sh
 * writes fail_crashed for every group that started, ended or not. */
static int ran(const char *arm, const char *pattern)
{
	char param[96];

	snprintf(param, sizeof(param), "flavour=%s", pattern);
	return find_group("fail_crashed", param, arm) != NULL;
}

/*
 * The outcome of @pattern on @arm in @buf: its findings, the worst first,
 * joined by '+' ("crash" the kernel stopped in it, "abort" the phase gave
 * up in it, "uaf" a use after free the module or slab debugging
 * reported, "warn" a WARN or a reference count's complaint, "leak"
 * kmemleak's suspects, "kept" slab bytes kept (kept_bytes), "left" a
 * sysfs entry, major or kset reference left behind), "clean", or "-"
 * where the arm's fault boot did not run it.
 */
static const char *outcome(const char *arm, const char *pattern, char *buf, size_t size)
{
	static const struct finding {
		const char *word, *metric;
	} findings[] = {
		{ "crash", "fail_crashed" },
		{ "abort", "fail_aborted" },
		{ "uaf", "fail_memory_errors" },
		{ "warn", "fail_warn_lines" },
		{ "leak", "fail_leaked_objects" },
		{ "kept", NULL },
		{ "left", "fail_sysfs_left" },
		{ "left", "fail_majors_left" },
		{ "left", "fail_kset_refs_left" },
	};
	size_t i, len = 0;

	if (!ran(arm, pattern)) {
		snprintf(buf, size, "-");
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < sizeof(findings) / sizeof(findings[0]) && len < size; i++)
		if ((findings[i].metric ? draw_of(arm, findings[i].metric, pattern) != 0 :
					  kept_bytes(arm, pattern)) &&
		    !strstr(buf, findings[i].word))
			len += snprintf(buf + len, size - len, "%s%s", len ? "+" : "",
					findings[i].word);
	if (!len)
		snprintf(buf, size, "clean");
	return buf;
}

/* The patterns the run's fault boots ran (systematic groups), in the
 * phase's order. */
static size_t run_patterns(const char ***out)
{
	const char **names = NULL;
	char flav[64];
	size_t i, k, n = 0;

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->metric, "fail_crashed") || strchr(g->param, ','))
			continue;	/* a sweep's group: "flavour=F,prob=P" */
		param_value(g->param, "flavour", flav, sizeof(flav));
		for (k = 0; k < n && strcmp(names[k], flav); k++)
			;
		if (k == n) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(flav);
		}
	}
	*out = names;
	return n;
}

/* An arm's base: its meta.json's, else what follows ':' in its name
 * (make bench BASES=, scripts/errpaths.sh), else "?". */
static const char *arm_base(const char *arm)
{
	const char *path, *colon = strchr(arm, ':');
	const json_t *v = variant_meta(arm, &path);

	if (v && member_string(v, "base", NULL))
		return member_string(v, "base", NULL);
	return colon ? colon + 1 : "?";
}

/* An arm's variant: its name up to ':'. */
static const char *arm_variant(const char *arm, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s", (int)strcspn(arm, ":"), arm);
	return buf;
}

/* The arms that ran the fault phase, and the bases among them in order. */
static size_t fault_arms(const char ***arms, const char ***bases, size_t *nbases)
{
	const char **a = xmalloc((in->nvariants + 1) * sizeof(*a));
	const char **b = xmalloc((in->nvariants + 1) * sizeof(*b));
	size_t i, k, n = 0;

	*nbases = 0;
	for (i = 0; i < in->nvariants; i++) {
		const char *base = arm_base(in->variants[i]);
		size_t j;
		int booted = 0;

		for (j = 0; j < in->ngroups && !booted; j++)
			booted = !strcmp(in->groups[j].metric, "fail_crashed") &&
				 !strcmp(in->groups[j].variant, in->variants[i]);
		if (!booted)
			continue;
		a[n++] = in->variants[i];
		for (k = 0; k < *nbases && strcmp(b[k], base); k++)
			;
		if (k == *nbases)
			b[(*nbases)++] = base;
	}
	*arms = a;
	*bases = b;
	return n;
}

/* What the run's fault boots ran: the arms that booted one, the bases
 * among them and the patterns (systematic groups), in the run's order. */
struct fault_runs {
	const char **arms, **bases, **names;
	size_t narms, nbases, npatterns;
};

static void load_fault_runs(struct fault_runs *r)
{
	r->npatterns = run_patterns(&r->names);
	r->narms = fault_arms(&r->arms, &r->bases, &r->nbases);
}

static void free_fault_runs(struct fault_runs *r)
{
	free(r->arms);
	free(r->bases);
	while (r->npatterns--)
		free((char *)r->names[r->npatterns]);
	free(r->names);
}

/* An arm's fault boot, in a run: <arm>/<folder of the fault phase in
 * scripts/phases.def>-1, its one boot. */
#define FAULT_BOOT "fault-1"

/* The first complaint of (arm, pattern) that fault-check.sh kept in the
 * arm's fault boot's complaints.tsv ("param<TAB>point<TAB>line"), in @buf;
 * NULL where there is none. */
static const char *first_complaint(const char *arm, const char *pattern, char *buf, size_t size)
{
	char *dir = xstrdup(first_samples), path[4096], *line = NULL, param[96], *text;
	const char *found = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/" FAULT_BOOT "/complaints.tsv", dirname(dir), arm);
	free(dir);
	snprintf(param, sizeof(param), "flavour=%s\t", pattern);
	f = fopen(path, "r");
	while (f && !found && getline(&line, &cap, f) > 0) {
		text = strncmp(line, param, strlen(param)) ? NULL : strchr(line + strlen(param), '\t');
		if (text) {
			text[strcspn(text, "\n")] = '\0';
			snprintf(buf, size, "%s", text + 1);
			found = buf;
		}
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/* @line without its trailing spaces, and a newline, to @out. */
static void put_line(FILE *out, char *line)
{
	size_t len = strlen(line);

	while (len && line[len - 1] == ' ')
		line[--len] = '\0';
	fprintf(out, "%s\n", line);
}

/* One table per base, and per as many of its variants as 78 columns
 * hold: a row per pattern, a column per variant, as wide as the longest
 * name or outcome. */
static void print_table(FILE *out, const struct fault_runs *r)
{
	const char **cols = xmalloc((r->narms + 1) * sizeof(*cols));
	char cell[64], var[64], line[512];
	size_t b, i, p, c, from, ncols, len, width = 11, per_table;
	int w;

	for (i = 0; i < r->narms; i++) {
		width = strlen(arm_variant(r->arms[i], var, sizeof(var))) > width ? strlen(var) : width;
		for (p = 0; p < r->npatterns; p++)
			if (strlen(outcome(r->arms[i], r->names[p], cell, sizeof(cell))) > width)
				width = strlen(cell);
	}
	w = (int)width;
	per_table = (78 - 22) / (width + 1) ?: 1;
	for (b = 0; b < r->nbases; b++) {
		for (i = ncols = 0; i < r->narms; i++)
			if (!strcmp(arm_base(r->arms[i]), r->bases[b]))
				cols[ncols++] = r->arms[i];
		fprintf(out, "  on %s:\n", r->bases[b]);
		for (from = 0; from < ncols; from += per_table) {
			len = snprintf(line, sizeof(line), "    %-18s", "pattern");
			for (c = from; c < ncols && c < from + per_table && len < sizeof(line); c++)
				len += snprintf(line + len, sizeof(line) - len, " %-*s", w,
						arm_variant(cols[c], var, sizeof(var)));
			put_line(out, line);
			for (p = 0; p < r->npatterns; p++) {
				len = snprintf(line, sizeof(line), "    %-18s", r->names[p]);
				for (c = from; c < ncols && c < from + per_table && len < sizeof(line);
				     c++)
					len += snprintf(line + len, sizeof(line) - len, " %-*s", w,
							outcome(cols[c], r->names[p], cell,
								sizeof(cell)));
				put_line(out, line);
			}
		}
	}
	free(cols);
}

/* What (arm, pattern) showed, but its name: the outcome, the failure point
 * (the k-th allocation of the registration that failed) of the first
 * complaint and the kernel's first line, or kmemleak's and the counters'
 * figures; "" where it was clean or did not run. */
static const char *evidence(const char *arm, const char *pattern, char *buf, size_t size)
{
	char cell[64], line[512];
	const char *what = outcome(arm, pattern, cell, sizeof(cell));
	size_t len;

	buf[0] = '\0';
	if (!strcmp(what, "clean") || !strcmp(what, "-"))
		return buf;
	len = snprintf(buf, size, "%s", what);
	if (first_complaint(arm, pattern, line, sizeof(line)) && len < size)
		len += snprintf(buf + len, size - len, "; failure point %g: %s",
				draw_of(arm, "fail_first_point", pattern), line);
	if (strstr(what, "leak") && len < size)
		len += snprintf(buf + len, size - len, "; kmemleak: %g object(s), %g bytes; slab %+g bytes",
				draw_of(arm, "fail_leaked_objects", pattern),
				draw_of(arm, "fail_leaked_bytes", pattern),
				draw_of(arm, "fail_slab_delta_bytes", pattern));
	if (strstr(what, "left") && len < size)
		snprintf(buf + len, size - len, "; left: %g sysfs, %g majors, %+g kset refs",
			 draw_of(arm, "fail_sysfs_left", pattern),
			 draw_of(arm, "fail_majors_left", pattern),
			 draw_of(arm, "fail_kset_refs_left", pattern));
	return buf;
}

/* What was found where, a paragraph per pattern and evidence, naming the
 * arms that showed the same. */
static void print_evidence(FILE *out, const struct fault_runs *r)
{
	char *seen = xmalloc(r->narms), this[1024], other[1024];
	struct paragraph para;
	size_t i, k, p;
	FILE *f;

	for (p = 0; p < r->npatterns; p++) {
		memset(seen, 0, r->narms);
		for (i = 0; i < r->narms; i++) {
			if (seen[i] || !*evidence(r->arms[i], r->names[p], this, sizeof(this)))
				continue;
			f = paragraph_begin(&para, out, 78, "    ", "      ");
			fprintf(f, "%s on %s", r->names[p], r->arms[i]);
			for (k = i + 1; k < r->narms; k++)
				if (!strcmp(evidence(r->arms[k], r->names[p], other, sizeof(other)), this)) {
					seen[k] = 1;
					fprintf(f, ", %s", r->arms[k]);
				}
			fprintf(f, ": %s", this);
			paragraph_end(&para);
		}
	}
	free(seen);
}

static void write_section(FILE *out, const struct fault_runs *r)
{
	if (!r->npatterns || !r->narms)
		return;
	fprintf(out, "Cleanup after a failed cdev_add(): each pattern's outcome over every\n"
		     "failure point of its systematic group (clean, or crash, abort, uaf, warn,\n"
		     "leak, kept, left: docs/errpaths.md), per base and variant, one fault\n"
		     "boot each\n");
	print_table(out, r);
	fprintf(out, "  where it was not clean:\n");
	print_evidence(out, r);
}

/* The report's section: write_section's lines, a block of the report's
 * model, fenced in report.md. */
void build_errpaths(struct doc *d)
{
	struct fault_runs r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&text, &len);

	load_fault_runs(&r);
	write_section(f, &r);
	free_fault_runs(&r);
	fclose(f);
	if (len) {
		doc_heading(d, FOR_MD, 2, "Cleanup after a failed cdev_add()");
		doc_code(d, FOR_BOTH, 0);
		doc_lines(d, FOR_BOTH, text);
		doc_code(d, FOR_BOTH, 1);
	}
	free(text);
}

/* compare.json's "errpaths": an object per (arm, pattern) the fault
 * boots ran. */
void print_errpaths_json(void)
{
	struct fault_runs r;
	char cell[64], var[64], line[512];
	size_t i, p;
	int first = 1;

	load_fault_runs(&r);
	printf(",\"errpaths\":[");
	for (p = 0; p < r.npatterns; p++)
		for (i = 0; i < r.narms; i++, first = 0) {
			printf("%s\n{\"pattern\":", first ? "" : ",");
			put_string(r.names[p]);
			put_member("arm", r.arms[i]);
			put_member("variant", arm_variant(r.arms[i], var, sizeof(var)));
			put_member("base", arm_base(r.arms[i]));
			put_member("outcome", outcome(r.arms[i], r.names[p], cell, sizeof(cell)));
			put_number_member("first_point", draw_of(r.arms[i], "fail_first_point",
								 r.names[p]));
			put_member("first_complaint",
				   first_complaint(r.arms[i], r.names[p], line, sizeof(line)));
			printf("}");
		}
	printf("\n]");
	free_fault_runs(&r);
}

/* The in-tree callers of scripts/census.sh's TSV ("base file function
 * pattern line", a header first). */
struct caller {
	char base[32], file[256], function[128], pattern[64];
};

static size_t read_census(const char *path, struct caller **out)
{
	struct caller *c = NULL;
	char *line = NULL;
	size_t n = 0, lineno = 0, cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read the census %s", path);
	while (getline(&line, &cap, f) > 0) {
		if (!lineno++)
			continue;
		c = xrealloc(c, (n + 1) * sizeof(*c));
		if (sscanf(line, "%31[^\t]\t%255[^\t]\t%127[^\t]\t%63[^\t\n]", c[n].base, c[n].file,
			   c[n].function, c[n].pattern) != 4)
			die("%s:%zu: not base, file, function, pattern", path, lineno);
		n++;
	}
	free(line);
	fclose(f);
	*out = c;
	return n;
}

/* The arm of @variant on @base, or NULL. */
static const char *arm_of(const struct fault_runs *r, const char *variant, const char *base)
{
	char var[64];
	size_t i;

	for (i = 0; i < r->narms; i++)
		if (!strcmp(arm_base(r->arms[i]), base) &&
		    !strcmp(arm_variant(r->arms[i], var, sizeof(var)), variant))
			return r->arms[i];
	return NULL;
}

/* The callers whose pattern is not clean on @baseline, or with @unjudged
 * those whose pattern no fault boot ran. */
static void print_callers(const struct caller *c, size_t ncallers, const struct fault_runs *r,
			  const char *baseline, int unjudged)
{
	char cell[64];
	size_t i;

	for (i = 0; i < ncallers; i++) {
		const char *arm = arm_of(r, baseline, c[i].base);
		const char *what = arm ? outcome(arm, c[i].pattern, cell, sizeof(cell)) : "-";

		if (unjudged ? !strcmp(what, "-") : strcmp(what, "clean") && strcmp(what, "-"))
			printf("  %s %s:%s() %s%s%s\n", c[i].base, c[i].file, c[i].function,
			       c[i].pattern, unjudged ? "" : ": ", unjudged ? "" : what);
	}
}

/* Per base: the callers per pattern, and those whose pattern is not clean
 * on the baseline's kernel, with the outcome. */
static void print_census(const struct caller *c, size_t ncallers, const struct fault_runs *r,
			 const char *baseline)
{
	char cell[64];
	size_t b, i, k, total;

	printf("\nIn-tree callers of cdev_add() and cdev_device_add() by cleanup pattern\n"
	       "(scripts/census.sh, Coccinelle), with the pattern's outcome on %s:\n", baseline);
	for (b = 0; b < r->nbases; b++) {
		const char *arm = arm_of(r, baseline, r->bases[b]);

		for (i = total = 0; i < ncallers; i++)
			total += !strcmp(c[i].base, r->bases[b]);
		printf("  on %s: %zu callers\n", r->bases[b], total);
		for (i = 0; i < ncallers; i++) {
			for (k = 0; k < i && (strcmp(c[k].base, c[i].base) ||
					     strcmp(c[k].pattern, c[i].pattern)); k++)
				;
			if (k < i || strcmp(c[i].base, r->bases[b]))
				continue;
			for (k = i, total = 0; k < ncallers; k++)
				total += !strcmp(c[k].base, r->bases[b]) &&
					 !strcmp(c[k].pattern, c[i].pattern);
			printf("    %-18s %4zu  %s\n", c[i].pattern, total,
			       arm ? outcome(arm, c[i].pattern, cell, sizeof(cell)) : "-");
		}
	}
	printf("\nCallers whose cleanup is not clean on %s:\n", baseline);
	print_callers(c, ncallers, r, baseline, 0);
	printf("\nCallers the census could not put in a pattern the fault phase runs\n"
	       "(device_other, panic, other: its reason column says why), not judged:\n");
	print_callers(c, ncallers, r, baseline, 1);
}

/* The answer in words, per base: which cleanups came out clean at every
 * failure point on the baseline, which did not and how, what the
 * variants change, and how many callers to fix. */
static void print_reply(const struct caller *c, size_t ncallers, const struct fault_runs *r,
			const char *baseline)
{
	char cell[64], other[64], var[64];
	struct paragraph para;
	size_t b, i, p, k;

	printf("\nThe answer, per base (one fault boot per kernel, every failure point\n"
	       "inside cdev_add() failed in turn by fail_nth):\n");
	for (b = 0; b < r->nbases; b++) {
		const char *arm = arm_of(r, baseline, r->bases[b]);
		FILE *f;
		int any;

		if (!arm)
			continue;
		f = paragraph_begin(&para, stdout, 76, "- ", "  ");
		fprintf(f, "On %s (%s), after cdev_add() fails, these leave nothing behind:", r->bases[b],
			baseline);
		for (p = 0, any = 0; p < r->npatterns; p++)
			if (!strcmp(outcome(arm, r->names[p], cell, sizeof(cell)), "clean"))
				fprintf(f, "%s %s", any++ ? ";" : "", pattern_words(r->names[p]));
		fprintf(f, "%s. These do not:", any ? "" : " none");
		for (p = 0, any = 0; p < r->npatterns; p++) {
			const char *what = outcome(arm, r->names[p], cell, sizeof(cell));

			if (strcmp(what, "clean") && strcmp(what, "-"))
				fprintf(f, "%s %s (%s)", any++ ? ";" : "", pattern_words(r->names[p]), what);
		}
		fprintf(f, "%s.", any ? "" : " none");
		for (p = 0; p < r->npatterns && !strstr(r->names[p], "_del"); p++)
			;
		if (p < r->npatterns)
			fprintf(f, " A cdev_del() after a failed cdev_add() unmaps its numbers from"
				   " whoever holds them: clean here, where no other cdev had them;"
				   " the selftest's identical_del_older is the other case.");
		for (i = 0; i < r->narms; i++) {
			if (r->arms[i] == arm || strcmp(arm_base(r->arms[i]), r->bases[b]))
				continue;
			for (p = 0, any = 0; p < r->npatterns; p++) {
				outcome(arm, r->names[p], cell, sizeof(cell));
				outcome(r->arms[i], r->names[p], other, sizeof(other));
				if (!strcmp(cell, other))
					continue;
				if (!any++)
					fprintf(f, " Under %s:", arm_variant(r->arms[i], var, sizeof(var)));
				else
					fputc(',', f);
				fprintf(f, " %s %s -> %s", r->names[p], cell, other);
			}
			if (any)
				fputc('.', f);
		}
		if (ncallers) {
			size_t fix = 0, all = 0, unjudged = 0;

			for (k = 0; k < ncallers; k++) {
				const char *what;

				if (strcmp(c[k].base, r->bases[b]))
					continue;
				all++;
				what = outcome(arm, c[k].pattern, cell, sizeof(cell));
				fix += strcmp(what, "clean") && strcmp(what, "-");
				unjudged += !strcmp(what, "-");
			}
			fprintf(f, " In-tree callers: %zu; with a cleanup that is not clean here: %zu;"
				   " not matched to a pattern the phase runs: %zu (both listed above).",
				all, fix, unjudged);
		}
		paragraph_end(&para);
	}
}

/* --format errpaths: the table, the census joined with it, the answer. */
void print_errpaths_answer(void)
{
	struct fault_runs r;
	struct caller *callers = NULL;
	size_t ncallers = 0;
	char var[64];

	load_fault_runs(&r);
	if (!r.npatterns || !r.narms)
		die("no systematic fault groups in these rows: no fault boot ran");
	write_section(stdout, &r);
	if (opt.census)
		ncallers = read_census(opt.census, &callers);
	arm_variant(opt.baseline, var, sizeof(var));
	if (ncallers)
		print_census(callers, ncallers, &r, var);
	print_reply(callers, ncallers, &r, var);
	free(callers);
	free_fault_runs(&r);
}
