// SPDX-License-Identifier: GPL-2.0
/*
 * compare, rendering for people: report.txt (fixed width, the first screen
 * says what changed) and report.md; and the one paragraph writer
 * (compare.h), with which every part of the report wraps its text.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "stats.h"

/* A ratio as a change in percent, whole percent once it is large. */
void format_pct(char *buf, size_t size, double ratio, const char *sign)
{
	double pct = (ratio - 1) * 100;

	if (isnan(ratio))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, fabs(pct) >= 100 ? "%+.0f%s" : "%+.1f%s", pct, sign);
}

/* A median in at most 7 columns. */
void format_median(char *buf, size_t size, double v)
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
void format_counts(char *buf, size_t size, const struct comparison *x)
{
	double bmin = min_of(x->bmed, x->nb), bmax = max_of(x->bmed, x->nb);
	double vmin = min_of(x->vmed, x->nv), vmax = max_of(x->vmed, x->nv);
	char b[32], v[32];

	snprintf(b, sizeof(b), bmin == bmax ? "%g" : "%g..%g", bmin, bmax);
	snprintf(v, sizeof(v), vmin == vmax ? "%g" : "%g..%g", vmin, vmax);
	snprintf(buf, size, "%s -> %s", b, v);
}

/* The change of a metric over the comparisons whose ratios span lo..hi,
 * led by x, the largest: a count's values ("0 -> 2"), else the ratio's
 * range as changes in percent. */
static void format_range(char *buf, size_t size, const struct comparison *x, double lo, double hi)
{
	char a[16], b[16];

	if (x->decl->kind == COUNT) {
		format_counts(buf, size, x);
		return;
	}
	format_pct(a, sizeof(a), lo, "%");
	format_pct(b, sizeof(b), hi, "%");
	snprintf(buf, size, lo == hi ? "%s" : "%s..%s", a, b);
}

/* Text broken at spaces into lines of at most width columns, the first
 * after first, the others after rest. */
static void wrap(FILE *out, const char *text, int width, const char *first, const char *rest)
{
	const char *indent = first;
	int col = 0;

	while (*text) {
		int len = (int)strcspn(text, " ");

		/* "0 -> 2" is one word: a line that ends in "0" says nothing */
		while (!strncmp(text + len, " -> ", 4))
			len += 4 + (int)strcspn(text + len + 4, " ");

		if (col && col + 1 + len > width) {
			fprintf(out, "\n");
			col = 0;
			indent = rest;
		}
		if (!col)
			col = fprintf(out, "%s", indent) - 1;
		fprintf(out, "%s%.*s", col > (int)strlen(indent) - 1 ? " " : "", len, text);
		col += 1 + len;
		text += len;
		text += strspn(text, " ");
	}
	fprintf(out, "\n");
}

FILE *paragraph_begin(struct paragraph *p, FILE *out, int width, const char *first,
		      const char *rest)
{
	*p = (struct paragraph){ .out = out, .width = width, .first = first, .rest = rest };
	p->f = xmemstream(&p->text, &p->len);
	return p->f;
}

void paragraph_end(struct paragraph *p)
{
	fclose(p->f);
	if (p->width)
		wrap(p->out, p->text, p->width, p->first, p->rest);
	else
		fputs(p->text, p->out);
	free(p->text);
}

void paragraph(FILE *out, int width, const char *first, const char *rest, const char *fmt, ...)
{
	struct paragraph p;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(paragraph_begin(&p, out, width, first, rest), fmt, ap);
	va_end(ap);
	paragraph_end(&p);
}

static const char *rule_text(void)
{
	return deterministic ?
		"the boot is the unit (the median of its repetitions). icount is "
		"deterministic: 'gap' calls a change when every boot of one side is "
		"beyond every boot of the other by more than --min-effect and more "
		"than the baseline's boot-to-boot spread; no p-values. Counts: "
		"'exact', a change where the boots' counts do not overlap (0 -> 2: "
		"the baseline's count, then the variant's)." :
		"the boot is the unit (the median of its repetitions). 't+gap' "
		"calls a change when Welch's t on log per-boot medians, "
		"Holm-adjusted within its family, is below alpha and every boot of "
		"one side is beyond every boot of the other by more than "
		"--min-effect and the baseline's boot-to-boot spread; the interval "
		"is Welch's. Counts: 'exact', a change where the boots' counts do not "
		"overlap (0 -> 2: the baseline's count, then the variant's).";
}

int cmp_effect(const void *a, const void *b)
{
	const struct comparison *x = *(const struct comparison *const *)a;
	const struct comparison *y = *(const struct comparison *const *)b;
	double ex = isnan(x->ratio) ? INFINITY : fabs(log(x->ratio));
	double ey = isnan(y->ratio) ? INFINITY : fabs(log(y->ratio));

	return (ey > ex) - (ey < ex);
}

/* One line per (metric, verdict) of a variant's headline comparisons:
 * the changes, largest first; then the metrics that did not change, all
 * in one wrapped "same" line, and any that are unclear or missing. */
static void print_changes(FILE *scr, const struct comparison *c, size_t n, const char *variant,
			  size_t max_changes, size_t max_kind)
{
	const struct comparison **rows = xmalloc((n ? n : 1) * sizeof(*rows));
	size_t i, j, k, nr = 0, secondary = 0, secondary_changed = 0, nsame = 0;
	size_t shown = 0, hidden = 0;
	struct paragraph same_line;
	FILE *same_words = NULL;	/* begun with the first metric that is the same */

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
		char range[80], iv[40], ci[48];

		if (!changed(x))
			continue;
		for (j = 0; j < i; j++)	/* printed with a larger change */
			if (!strcmp(rows[j]->metric, x->metric) &&
			    !strcmp(rows[j]->verdict, x->verdict))
				break;
		if (j < i)
			continue;
		if (shown == max_changes) {
			hidden++;
			continue;
		}
		shown++;
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
		format_range(range, sizeof(range), x, lo, hi);
		ci[0] = '\0';
		if (x->decl->kind != COUNT) {
			format_interval(iv, sizeof(iv), x->lo, x->hi);
			snprintf(ci, sizeof(ci), "[%s] ", iv);
		}
		fprintf(scr, "  %-6s %-22s %2zu/%-2zu %-14s %s%s\n", x->verdict, x->metric,
		       hits, params, range, ci, x->rule);
	}
	if (hidden)
		fprintf(scr, "  %zu more change%s, smaller or equal (tables below)\n", hidden,
			hidden == 1 ? "" : "s");
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
		if (same == params) {
			char counts[80];

			if (x->decl->kind == COUNT)
				format_counts(counts, sizeof(counts), x);
			else
				snprintf(counts, sizeof(counts), "%s..%s", a, b);
			if (!same_words)
				same_words = paragraph_begin(&same_line, scr, 78, "  ", "  ");
			fprintf(same_words, "%s %s %zu/%zu %s", nsame++ ? ";" : "same  ", x->metric,
				same, params, counts);
			continue;
		}
		fprintf(scr, "  %-6s %-22s %2zu/%-2zu", "-", x->metric, same, params);
		if (lo <= hi)
			fprintf(scr, " %s..%s, some unclear\n", a, b);
		else
			fprintf(scr, " missing or unclear\n");
	}
	if (same_words)
		paragraph_end(&same_line);
	print_kind_changes(scr, c, n, variant, max_kind, 78);
	if (secondary)
		fprintf(scr, "  %zu of %zu secondary comparisons changed (tables below)\n",
		       secondary_changed, secondary);
	free(rows);
}

/* A variant on another base than the baseline's: how their configs
 * differ, in the options both trees know (the first few; meta.json has
 * them all). */
#define CONFIG_DIFFERENCES_SHOWN 4
static void print_config_differences(FILE *out, const json_t *vm, int md)
{
	const json_t *d = json_object_get(vm, "config_differences");
	size_t count = json_array_size(d), shown;

	if (!count)
		return;
	fprintf(out, "%sn base %s, its config differs from the baseline's in %zu option%s both trees know: ",
		md ? "O" : "; o", member_string(vm, "base", "?"), count, count == 1 ? "" : "s");
	for (shown = 0; shown < count && shown < CONFIG_DIFFERENCES_SHOWN; shown++)
		fprintf(out, "%s%s", shown ? ", " : "", json_string_value(json_array_get(d, shown)));
	if (count > shown)
		fprintf(out, " and %zu more (meta.json)", count - shown);
	fprintf(out, md ? ".\n\n" : "");
}

/* A variant's heading: its kernel, patch subjects and series hash, so a
 * pasted report says what ran. */
static void print_variant_heading(FILE *scr, const char *variant, int md)
{
	const char *path;
	const json_t *vm = variant_meta(variant, &path), *p;
	size_t count = json_array_size(json_object_get(vm, "patches")), i;
	struct paragraph heading;
	FILE *out = paragraph_begin(&heading, scr, md ? 0 : 78, "", "");

	fprintf(out, md ? "### %s%s against %s\n\n" : "%s%s against %s", variant, race_mark(variant),
		opt.baseline);
	if (vm)
		fprintf(out, md ? "Kernel %s, %zu patch%s, series sha256 %.12s%s.\n\n" :
				  ": kernel %s, %zu patch%s, series %.12s%s",
			member_string(vm, "kernel_release", "?"), count,
			count == 1 ? "" : "es", member_string(vm, "series_sha256", "?"),
			member_string(vm, "config_fragment", NULL) ?
			", own config fragment" : "");
	print_config_differences(out, vm, md);
	paragraph_end(&heading);
	json_array_foreach(json_object_get(vm, "patches"), i, p)
		fprintf(scr, md ? "- %s\n" : "  | %s\n", json_string_value(p));
	json_array_foreach(json_object_get(vm, "links"), i, p)
		fprintf(scr, md ? "- Link: <%s>\n" : "  | Link: %s\n", json_string_value(p));
	if (md && count)
		fprintf(scr, "\n");
}

void write_base(FILE *out, const json_t *b)
{
	fprintf(out, "%s", member_string(b, "kernel_version", "?"));
	if (member_string(b, "package", NULL))
		fprintf(out, " (%s %s)", member_string(b, "package", "?"),
			member_string(b, "package_version", "?"));
	else
		fprintf(out, " (tree %s%s%s%s)", member_string(b, "tree", "?"),
			member_string(b, "git_describe", NULL) ? ", " : "",
			member_string(b, "git_describe", ""),
			json_is_true(json_object_get(b, "git_dirty")) ? "-dirty" : "");
}

/* The kernel sources the run's variants were applied to (meta.json's
 * bases). */
static void print_bases(FILE *out)
{
	const json_t *bases = json_object_get(in->metas[0].doc, "bases"), *b;
	size_t count = json_array_size(bases), i;

	if (!count)
		return;
	fprintf(out, "; base%s ", count == 1 ? "" : "s");
	json_array_foreach(bases, i, b) {
		fprintf(out, "%s", i ? ", " : "");
		write_base(out, b);
	}
}

/* A baseline from another run (make compare AGAINST=, scripts/compare.sh):
 * which, so that no reader takes it for this run's. */
static void print_against(FILE *out)
{
	const json_t *a = json_object_get(in->metas[0].doc, "against");

	if (a)
		fprintf(out, "; the baseline, %s, is %s of run %s (%s, rig %.12s)", opt.baseline,
			member_string(a, "variant", "?"), member_string(a, "run_id", "?"),
			member_string(a, "date", "?"), member_string(a, "rig_commit", "?"));
}

/* A run finished by make resume: each later sitting and its units, so
 * that a reader knows which boots ran apart from the others. */
static void print_sittings(FILE *out)
{
	const json_t *s, *u;
	size_t i, j;

	json_array_foreach(json_object_get(in->metas[0].doc, "sittings"), i, s) {
		const json_t *units = json_object_get(s, "units");
		size_t count = json_array_size(units);

		fprintf(out, "; resumed %s: %zu unit%s ran in that sitting", member_string(s, "date", "?"),
			count, count == 1 ? "" : "s");
		json_array_foreach(units, j, u)
			fprintf(out, "%s%s", j ? ", " : " (", json_string_value(u));
		fprintf(out, count ? ")" : "");
	}
}

/* A walk's prefix has no column or block: its steps are in its walk's
 * block. */
int is_reported(const char *variant)
{
	return strcmp(variant, opt.baseline) && !(aa_arm && !strcmp(variant, aa_arm)) &&
	       !is_walk_prefix(variant);
}

/* The variants' blocks of the first screen, each with at most
 * max_changes lines of changes, after a legend of their figures; then
 * the comparisons a side is missing. */
static char *variant_blocks(const struct comparison *c, size_t n, int md, size_t max_changes,
			   size_t max_kind)
{
	char *text = NULL;
	const char **not_booted;
	size_t len = 0, i, j, nnot = not_booted_arms(&not_booted);
	FILE *scr = xmemstream(&text, &len);

	for (i = 0; i < in->nvariants && !is_reported(in->variants[i]); i++)
		;
	if (i < in->nvariants || nnot)
		paragraph(scr, md ? 0 : 78, "", "",
			  "Per variant, the headline metrics that changed, largest first: verdict, k/m params, the range of the change, [%s], rule; then the rest.%s",
			  deterministic ? "the largest's at its lowest..highest boot" :
			  "the largest's 95% interval, Welch's", md ? "\n\n" : "");
	for (i = 0; i < in->nvariants; i++) {
		if (!is_reported(in->variants[i]))
			continue;
		print_variant_heading(scr, in->variants[i], md);
		if (md)
			fprintf(scr, "```\n");
		print_changes(scr, c, n, in->variants[i], max_changes, max_kind);
		fprintf(scr, md ? "```\n\n" : "\n");
	}
	/* a variant that did not boot: why, in place of its changes */
	for (i = 0; i < nnot; i++) {
		print_variant_heading(scr, not_booted[i], md);
		if (md)
			fprintf(scr, "```\n");
		print_did_not_boot_block(scr, not_booted[i], md);
		fprintf(scr, md ? "```\n\n" : "\n");
	}
	free(not_booted);
	for (i = 0, j = 0; i < n; i++)
		j += !strcmp(c[i].verdict, "missing");
	if (j)
		fprintf(scr, "%zu comparisons have a side missing (tables below).\n\n", j);
	fclose(scr);
	return text;
}

/* A walk's step as a reader names it: "patch 2/3", or "patches 1-2/3"
 * after a step that was left out. */
static void step_name(char *buf, size_t size, const struct walk *w, size_t j)
{
	int last = w->steps[w->chain[j]].step;
	int first = j ? w->steps[w->chain[j - 1]].step + 1 : 1;

	if (first == last)
		snprintf(buf, size, "patch %d/%zu", last, w->nsteps);
	else
		snprintf(buf, size, "patches %d-%d/%zu", first, last, w->nsteps);
}

/* A step's changes to the params of one line of a walk's block: at step
 * chain[j], in one direction, at hits params, x the largest. */
struct step_part {
	size_t j, hits;
	const struct comparison *x;
	double lo, hi;
};

static int cmp_part(const void *a, const void *b)
{
	const struct comparison *x = ((const struct step_part *)a)->x;
	const struct comparison *y = ((const struct step_part *)b)->x;

	return cmp_effect(&x, &y);
}

/* One line of a walk's block: a headline metric that changed one way
 * from the walk's baseline to the whole series (at the params of the
 * totals ts, x the largest), and the steps that changed it, largest
 * first, at most max_changes; named[j] set for each step named. */
static void print_walk_line(FILE *out, const struct walk *w, const struct comparison *x,
			    const size_t *ts, size_t nts, size_t max_changes, int *named)
{
	struct step_part *parts = xmalloc(w->nchain * nts * sizeof(*parts));
	const struct comparison *largest = NULL;
	size_t i, k, t, j, largest_j = 0, params = 0, nparts = 0;
	double lo = INFINITY, hi = -INFINITY;
	char range[80], name[48];

	for (i = 0; i < in->ngroups; i++)
		params += !strcmp(in->groups[i].variant, w->variant) &&
			  !strcmp(in->groups[i].metric, x->metric);
	for (t = 0; t < nts; t++) {
		lo = fmin(lo, w->totals[ts[t]]->ratio);
		hi = fmax(hi, w->totals[ts[t]]->ratio);
	}
	format_range(range, sizeof(range), x, lo, hi);
	fprintf(out, "%s %s %s (%zu/%zu):", x->metric, x->verdict, range, nts, params);
	/* the steps' changes, one part per step and direction */
	for (j = 0; j < w->nchain; j++)
		for (t = 0; t < nts; t++) {
			const struct comparison *y = &w->cmp[ts[t] * w->nchain + j];

			if (y->base && y->var && !isnan(y->ratio) &&
			    (!largest || cmp_effect(&y, &largest) < 0)) {
				largest = y;
				largest_j = j;
			}
			if (!changed(y))
				continue;
			for (k = 0; k < nparts && (parts[k].j != j ||
						   strcmp(parts[k].x->verdict, y->verdict)); k++)
				;
			if (k == nparts)
				parts[nparts++] = (struct step_part){ .j = j, .x = y, .lo = INFINITY,
								      .hi = -INFINITY };
			parts[k].hits++;
			parts[k].lo = fmin(parts[k].lo, y->ratio);
			parts[k].hi = fmax(parts[k].hi, y->ratio);
			if (cmp_effect(&y, &parts[k].x) < 0)
				parts[k].x = y;
		}
	qsort(parts, nparts, sizeof(*parts), cmp_part);
	for (k = 0; k < nparts && k < max_changes; k++) {
		step_name(name, sizeof(name), w, parts[k].j);
		format_range(range, sizeof(range), parts[k].x, parts[k].lo, parts[k].hi);
		fprintf(out, "%s %s %s %s (%zu/%zu)", k ? "," : "", name, parts[k].x->verdict, range,
			parts[k].hits, nts);
		named[parts[k].j] = 1;
	}
	if (nparts > k)
		fprintf(out, ", %zu more", nparts - k);
	if (!nparts && largest) {
		/* a change of small steps, none beyond the threshold alone */
		step_name(name, sizeof(name), w, largest_j);
		format_range(range, sizeof(range), largest, largest->ratio, largest->ratio);
		fprintf(out, " no step alone (the largest, %s, %s %s)", name, range, largest->verdict);
	} else if (!nparts) {
		fprintf(out, " no step measured");
	}
	free(parts);
}

/* A line of a walk's block, written to the stream walk_line_begin()
 * returns: as it is in report.md, under a hanging indent in report.txt. */
static FILE *walk_line_begin(struct paragraph *line, FILE *scr, int md)
{
	return paragraph_begin(line, scr, md ? 0 : 78, "  ", "    ");
}

static void walk_line_end(struct paragraph *line, int md)
{
	if (md)
		fputc('\n', line->f);
	paragraph_end(line);
}

static void __attribute__((format(printf, 3, 4))) walk_line(FILE *scr, int md, const char *fmt, ...)
{
	struct paragraph line;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(walk_line_begin(&line, scr, md), fmt, ap);
	va_end(ap);
	walk_line_end(&line, md);
}

/* A bisection's line (make bench BISECT=): the first patch after which
 * its figure changed, or that it did not, and the steps it decided. */
static void print_bisection(FILE *scr, const struct walk *w, int md)
{
	/* numbers as meta.json is read: reals (input.c) */
	const json_t *b = w->bisection, *steps = json_object_get(b, "steps"), *s;
	const json_t *first = json_object_get(b, "first_changed");
	int last_same = (int)json_number_value(json_object_get(b, "last_same"));
	int per_step = (int)json_number_value(json_object_get(b, "boots_per_step"));
	struct paragraph line;
	size_t i, decided = 0;
	FILE *out;

	json_array_foreach(steps, i, s)
		decided += json_number_value(json_object_get(s, "step")) < w->nsteps;
	out = walk_line_begin(&line, scr, md);
	fprintf(out, "bisection of %s at %s: ", member_string(b, "metric", "?"),
		member_string(b, "param", "?"));
	if (!json_is_number(first))
		fprintf(out, "not changed from %s to the whole series, nothing to bisect", w->from);
	else if ((int)json_number_value(first) == last_same + 1)
		fprintf(out, "first changed at patch %d/%zu", (int)json_number_value(first), w->nsteps);
	else if ((int)json_number_value(first) == last_same + 2)
		fprintf(out, "first changed at patch %d/%zu or %d, which is not bisectable",
			(int)json_number_value(first), w->nsteps, last_same + 1);
	else
		fprintf(out, "first changed at patch %d/%zu or one of %d-%d, which are not bisectable",
			(int)json_number_value(first), w->nsteps, last_same + 1,
			(int)json_number_value(first) - 1);
	fprintf(out, "; %zu of %zu prefixes decided, %d boot%s a step:", decided, w->nsteps - 1,
		per_step, per_step == 1 ? "" : "s");
	json_array_foreach(steps, i, s)
		fprintf(out, "%s step %d %s %.2fx", i ? "," : "",
			(int)json_number_value(json_object_get(s, "step")),
			member_string(s, "verdict", "?"), json_number_value(json_object_get(s, "ratio")));
	walk_line_end(&line, md);
}

/* A walk's block (make bench WALK=1): per headline metric and way it
 * changed from the walk's baseline to the whole series, largest first,
 * the steps that changed it (at most max_changes lines, the rest
 * counted); the subjects of the patches named; the steps left out as
 * not bisectable, with the reason. */
static void print_walk(FILE *scr, const struct walk *w, int md, size_t max_changes)
{
	const struct comparison **rows = xmalloc((w->ntotals ? w->ntotals : 1) * sizeof(*rows));
	size_t *ts = xmalloc((w->ntotals ? w->ntotals : 1) * sizeof(*ts));
	int *named = calloc(w->nchain ? w->nchain : 1, sizeof(*named));
	size_t i, j, t, nts, shown = 0, hidden = 0;
	struct paragraph intro, line;
	FILE *out;
	int p;

	if (!named)
		die("out of memory");
	out = paragraph_begin(&intro, scr, md ? 0 : 78, "", "");
	fprintf(out, md ? "### %s, patch by patch\n\n" : "%s, patch by patch: ", w->variant);
	fprintf(out, "%s of its %zu patches against the step measured before it, from %s (rule %s; a step not named did not change the metric)%s",
		md ? "Each" : "each", w->nsteps, w->from,
		deterministic ? "gap" : "t+gap, Holm over these steps", md ? "." : "");
	fprintf(out, md ? "\n\n```\n" : "");
	paragraph_end(&intro);
	if (w->bisection)
		print_bisection(scr, w, md);
	if (w->ntotals)
		memcpy(rows, w->totals, w->ntotals * sizeof(*rows));
	qsort(rows, w->ntotals, sizeof(*rows), cmp_effect);
	for (i = 0; i < w->ntotals; i++) {
		for (j = 0; j < i && (strcmp(rows[j]->metric, rows[i]->metric) ||
				      strcmp(rows[j]->verdict, rows[i]->verdict)); j++)
			;
		if (j < i)
			continue;	/* on the line of a larger change */
		if (shown == max_changes) {
			hidden++;
			continue;
		}
		shown++;
		for (t = 0, nts = 0; t < w->ntotals; t++)
			if (!strcmp(w->totals[t]->metric, rows[i]->metric) &&
			    !strcmp(w->totals[t]->verdict, rows[i]->verdict))
				ts[nts++] = t;
		out = walk_line_begin(&line, scr, md);
		print_walk_line(out, w, rows[i], ts, nts, max_changes, named);
		walk_line_end(&line, md);
	}
	if (!w->ntotals)
		walk_line(scr, md, "%s", w->cmp ? "no headline metric changed" :
			  "nothing to attribute: the baseline or the whole series has no samples");
	if (hidden)
		walk_line(scr, md, "%zu more change%s (report.md, compare.json)", hidden,
			  hidden == 1 ? "" : "s");
	for (j = 0; j < w->nchain; j++)
		for (p = j ? w->steps[w->chain[j - 1]].step + 1 : 1;
		     named[j] && p <= w->steps[w->chain[j]].step; p++) {
			const char *subject = w->steps[p - 1].subject;
			char head[32];
			int room;

			/* report.txt: the subject cut to the line, whole in its
			 * variant's heading */
			room = 78 - snprintf(head, sizeof(head), "  patch %d/%zu: ", p, w->nsteps);
			if (md)
				fprintf(scr, "patch %d/%zu: %s\n", p, w->nsteps, subject);
			else if ((int)strlen(subject) <= room)
				fprintf(scr, "%s%s\n", head, subject);
			else
				fprintf(scr, "%s%.*s...\n", head, room - 3, subject);
		}
	for (i = 0; i < w->nsteps; i++)
		if (w->steps[i].not_bisectable)
			walk_line(scr, md, "not bisectable at patch %d: %s", w->steps[i].step,
				  w->steps[i].not_bisectable);
	fprintf(scr, md ? "```\n\n" : "\n");
	free(rows);
	free(ts);
	free(named);
}

/* Every walk's block, each with at most max_changes lines of changes. */
static char *walk_blocks(const struct comparison *c, size_t n, int md, size_t max_changes)
{
	const struct walk *w;
	size_t nw = find_walks(c, n, &w), i;
	char *text = NULL;
	size_t len = 0;
	FILE *scr = xmemstream(&text, &len);

	for (i = 0; i < nw; i++)
		print_walk(scr, &w[i], md, max_changes);
	fclose(scr);
	return text;
}

static size_t count_lines(const char *text)
{
	size_t lines = 0;

	for (; *text; text++)
		lines += *text == '\n';
	return lines;
}

/* One end of a change for the matrix: a percentage under 2x, else a
 * factor ("-99%", "+45%", "8.8x"). */
static void format_change(char *buf, size_t size, double ratio)
{
	if (isnan(ratio))
		snprintf(buf, size, "n/a");
	else if (ratio >= 2)
		snprintf(buf, size, "%.1fx", ratio);
	else
		snprintf(buf, size, "%+.0f%%", (ratio - 1) * 100);
}

void matrix_cell(char *buf, size_t size, const struct comparison *c, size_t n,
			const char *metric, const char *variant)
{
	size_t i, better = 0, worse = 0, same = 0, seen = 0;
	double lo = INFINITY, hi = -INFINITY;
	const struct comparison *first = NULL;
	char a[16], b[16], range[40];

	for (i = 0; i < n; i++) {
		if (strcmp(c[i].metric, metric) || strcmp(c[i].variant, variant))
			continue;
		seen++;
		same += !strcmp(c[i].verdict, "same");
		if (!changed(&c[i]))
			continue;
		better += !strcmp(c[i].verdict, "better");
		worse += !strcmp(c[i].verdict, "worse");
		first = first ? first : &c[i];
		if (!isnan(c[i].ratio)) {
			lo = fmin(lo, c[i].ratio);
			hi = fmax(hi, c[i].ratio);
		}
	}
	if (!seen) {
		snprintf(buf, size, "-");
		return;
	}
	if (!first) {
		snprintf(buf, size, same == seen ? "=" : "?");
		return;
	}
	if (first->decl->kind == COUNT) {
		format_counts(range, sizeof(range), first);
	} else {
		format_change(a, sizeof(a), lo);
		format_change(b, sizeof(b), hi);
		/* two percentages: the sign once, at the end ("-62..-7%") */
		if (strcmp(a, b) && a[strlen(a) - 1] == '%' && b[strlen(b) - 1] == '%')
			a[strlen(a) - 1] = '\0';
		snprintf(range, sizeof(range), strcmp(a, b) ? "%s..%s" : "%s", a, b);
	}
	snprintf(buf, size, "%s %zu/%zu %s", better && worse ? "B+W" : better ? "B" : "W",
		 better + worse, seen, range);
}

int is_matrix_row(const struct comparison *c, size_t n, const struct decl *d)
{
	size_t i;

	for (i = 0; i < n && strcmp(c[i].metric, d->name); i++)
		;
	return d->family == HEADLINE && i < n;
}

/* A headline metric of the baseline's rows: a row of the matrix where
 * only variants that did not boot would have a cell in it. */
static int baseline_measured(const struct decl *d)
{
	size_t i;

	for (i = 0; i < in->ngroups; i++)
		if (in->groups[i].decl == d && d->family == HEADLINE &&
		    !strcmp(in->groups[i].variant, opt.baseline))
			return 1;
	return 0;
}

/* The matrix of the first screen, as lkp's ncompare and mmtests'
 * compare tables lead: a row per headline metric, a column per variant
 * (numbered in text, MATRIX_COLUMNS at a time so that it fits 78
 * columns; named in markdown). */
#define MATRIX_COLUMNS 3
#define MATRIX_CELL 17
static void print_matrix(FILE *scr, const struct comparison *c, size_t n, int md)
{
	const char *cols[64], **not_booted;
	size_t ncols = 0, i, j, k, from, len, nnot = not_booted_arms(&not_booted);
	char cell[96], row[512];

	for (i = 0; i < in->nvariants && ncols < 64; i++)
		if (is_reported(in->variants[i]))
			cols[ncols++] = in->variants[i];
	/* a variant that did not boot has a column that says so */
	for (i = 0; i < nnot && ncols < 64; i++)
		cols[ncols++] = not_booted[i];
	if (!ncols) {
		free(not_booted);
		return;
	}
	paragraph(scr, md ? 0 : 78, "", "", "Headline metrics against %s: %s%s", opt.baseline,
		  MATRIX_LEGEND, md ? "\n\n" : "");
	if (!md) {
		struct paragraph legend;
		FILE *out = paragraph_begin(&legend, scr, 78, "", "");

		for (k = 0; k < ncols; k++)
			fprintf(out, "%s[%zu] %s%s", k ? ", " : "", k + 1, cols[k], race_mark(cols[k]));
		paragraph_end(&legend);
	}
	for (from = 0; from < ncols; from += md ? ncols : MATRIX_COLUMNS) {
		size_t to = md ? ncols : from + MATRIX_COLUMNS < ncols ? from + MATRIX_COLUMNS : ncols;

		/* the header, then a row per headline metric that was measured */
		for (j = 0; j <= ndecls; j++) {
			if (j && !is_matrix_row(c, n, &decls[j - 1]) &&
			    !(nnot && baseline_measured(&decls[j - 1])))
				continue;
			len = (size_t)snprintf(row, sizeof(row), md ? "| %s |" : "  %-21s",
					       j ? decls[j - 1].name : md ? "metric" : "");
			for (k = from; k < to && len < sizeof(row); k++) {
				if (j && did_not_boot(cols[k]))
					snprintf(cell, sizeof(cell), "did not boot");
				else if (j)
					matrix_cell(cell, sizeof(cell), c, n, decls[j - 1].name, cols[k]);
				else if (md)
					snprintf(cell, sizeof(cell), "%s%s", cols[k], race_mark(cols[k]));
				else
					snprintf(cell, sizeof(cell), "[%zu]", k + 1);
				len += (size_t)(md ? snprintf(row + len, sizeof(row) - len, " %s |", cell) :
						     snprintf(row + len, sizeof(row) - len, " %-*s", MATRIX_CELL, cell));
			}
			while (len > 0 && len < sizeof(row) && row[len - 1] == ' ')
				row[--len] = '\0';
			fprintf(scr, "%s\n", row);
			if (md && !j) {
				fprintf(scr, "|---|");
				for (k = from; k < to; k++)
					fprintf(scr, "---|");
				fprintf(scr, "\n");
			}
		}
	}
	fprintf(scr, "\n");
	free(not_booted);
}

/* Each variant's first change in kind, under a heading, where any has
 * one, in at most @room lines: without "and N more" where that would not
 * fit, then with as many variants as fit and the others named. */
static void print_first_kind_changes(const struct comparison *c, size_t n, size_t room)
{
	char *text = NULL, *one = NULL;
	size_t len = 0, one_len, i, shown, left;
	int more;
	FILE *scr, *var;

	for (more = 1; more >= 0; more--) {
		free(text);
		text = NULL;
		scr = xmemstream(&text, &len);
		fprintf(scr, "Changed in kind (whole counts per operation, on every boot), each\nvariant's first:\n");
		shown = left = 0;
		for (i = 0; i < in->nvariants; i++) {
			if (!is_reported(in->variants[i]))
				continue;
			var = xmemstream(&one, &one_len);
			print_first_kind_change(var, c, n, in->variants[i], more);
			fclose(var);
			fflush(scr);
			/* a line kept for the others' count, one for the blank */
			if (one_len && count_lines(text) + count_lines(one) + 2 > room) {
				left++;
			} else if (one_len) {
				fputs(one, scr);
				shown++;
			}
			free(one);
			one = NULL;
		}
		if (left)
			fprintf(scr, left == 1 ? "  and 1 other variant's in its block\n" :
				     "  and %zu other variants' in their blocks\n", left);
		fprintf(scr, "\n");
		fclose(scr);
		if (!left)
			break;
	}
	if (shown)
		fputs(text, stdout);
	free(text);
}

/* How the run was made and how to read it: the run, what a selftest
 * pass can mean, the rule, the baseline's spread, the phases skipped. */
static void print_details(FILE *scr, int md)
{
	char b[9][256];
	const char *qemu;
	int qemu_len;
	size_t i;
	struct paragraph para;
	FILE *out;

	if (in->nmetas) {
		out = paragraph_begin(&para, scr, 78, "", "");
		/* "QEMU emulator version 7.2.22 (Debian ...)": QEMU 7.2.22; the
		 * whole string is in meta.json */
		qemu = meta_field("qemu_version", b[8], sizeof(b[8]));
		if (strstr(qemu, "version "))
			qemu = strstr(qemu, "version ") + strlen("version ");
		qemu_len = (int)strcspn(qemu, " ");
		fprintf(out, "run %s, %s mode, %s vCPU, %s boots x %s repetitions, N in {%s}; host: %s (%s cores), QEMU %.*s",
			meta_field("run_id", b[0], sizeof(b[0])), meta_field("mode", b[1], sizeof(b[1])),
			meta_field("vcpus", b[2], sizeof(b[2])), meta_field("boots", b[3], sizeof(b[3])),
			meta_field("reps", b[4], sizeof(b[4])), meta_field("sweep_n", b[5], sizeof(b[5])),
			meta_field("host_cpu", b[6], sizeof(b[6])),
			meta_field("host_cores", b[7], sizeof(b[7])), qemu_len, qemu);
		print_bases(out);
		print_against(out);
		print_sittings(out);
		/* BOOT_JOBS is the local executor's */
		if (!strcmp(meta_field("executor", b[8], sizeof(b[8])), "local") &&
		    strcmp(meta_field("boot_jobs", b[8], sizeof(b[8])), "1"))
			fprintf(out, "; up to %s boots at once (BOOT_JOBS)", b[8]);
		/* a run made before boots were seeded has no "seeds" */
		if (strcmp(meta_field("seeds", b[8], sizeof(b[8])), "?"))
			fprintf(out, "; seeds: %s", b[8]);
		paragraph_end(&para);
		if (md)
			fprintf(scr, "\n");
		/* what the selftest's pass (the lead's) can mean in this run */
		out = paragraph_begin(&para, scr, 78, "", "");
		if (!strcmp(b[2], "1"))
			fprintf(out, "Correctness: on 1 vCPU the selftest's race cases interleave at syscall boundaries only: a pass does not show a variant free of in-kernel races (MODE=tcg with several vCPUs runs them at once).");
		else
			fprintf(out, "Correctness: on %s vCPUs the selftest's race cases run at once.",
				b[2]);
		print_race_outcome(out);
		paragraph_end(&para);
		if (md)
			fprintf(scr, "\n");
	}
	out = paragraph_begin(&para, scr, 78, "", "");
	fprintf(out, "Verdicts: %s", rule_text());
	if (!deterministic)
		fprintf(out, " Holm family: the %zu headline comparisons (metrics declared headline in bench/benchmarks.def), alpha %g; secondary: its own family of %zu.",
			family_size[HEADLINE], opt.alpha, family_size[SECONDARY]);
	fprintf(out, " --min-effect %g%%.", opt.min_effect * 100);
	{
		double *f = xmalloc(in->ngroups * sizeof(*f)), spread;
		size_t nf = 0;

		for (i = 0; i < in->ngroups; i++) {
			const struct group *g = &in->groups[i];
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
		/* boot k of every arm runs seed k: one boot a side is one
		 * layout, exactly (docs/determinism.md) */
		else if (deterministic &&
			 !strcmp(meta_field("boots", b[8], sizeof(b[8])), "1"))
			fprintf(out, " One boot an arm: each figure is exact for its kernel and seed, and says nothing of other layouts (BOOTS=2 or more measures their spread).");
		free(f);
	}
	paragraph_end(&para);
	if (md)
		fprintf(scr, "\n");
	if (in->nmetas && !strcmp(meta_field("faults", b[0], sizeof(b[0])), "false"))
		fprintf(scr, "Failure-path phase: skipped (FAULTS=0).\n");
	fprintf(scr, "\n");
}

/* A part of the first screen, written to a string by @print. */
static char *written(void (*print)(FILE *, const struct comparison *, size_t, int),
		     const struct comparison *c, size_t n, int md)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&text, &len);

	print(f, c, n, md);
	fclose(f);
	return text;
}

/* The first screen: the lead (the mode, QUICK, the A/A control), each
 * variant's answer, the matrix of headline verdicts, how the run was
 * made and is read, per walk which patch changed what, and per variant
 * what changed.  report.txt's fits SCREEN_LINES: where the walks' and
 * variants' blocks would not, each shows fewer of its changes, the
 * largest, down to one; where even that would not fit, the lead, the
 * answers, the matrix and the walks are the first screen, and the rest
 * follows after BELOW_FIRST_SCREEN; where the answers do not fit either,
 * each variant's first change in kind takes their place there and they
 * follow too. */
#define SCREEN_LINES 60
#define BELOW_FIRST_SCREEN "Per variant (below the first screen)"
void print_summary(const struct comparison *c, size_t n, int md)
{
	char *lead = written(print_lead, c, n, md), *answers = written(print_answers, c, n, md);
	char *matrix = written(print_matrix, c, n, md), *details = NULL, *blocks, *walks;
	size_t max_changes = SIZE_MAX, max_kind = SIZE_MAX, top, rest, len = 0;
	FILE *f = xmemstream(&details, &len);

	print_details(f, md);
	fclose(f);

	top = count_lines(lead) + count_lines(answers) + count_lines(matrix);
	for (;;) {
		walks = walk_blocks(c, n, md, max_kind);
		blocks = variant_blocks(c, n, md, max_changes, max_kind);
		rest = count_lines(details) + count_lines(walks) + count_lines(blocks);
		if (md || (max_changes == 1 && max_kind == 1) || top + rest <= SCREEN_LINES)
			break;
		free(walks);
		free(blocks);
		/* the headline changes give way first: the matrix has their
		 * verdicts, nothing above has a walk's steps or the changes in
		 * kind */
		if (max_changes > 1)
			max_changes = max_changes == SIZE_MAX ? 6 : max_changes - 1;
		else
			max_kind = max_kind == SIZE_MAX ? 6 : max_kind - 1;
	}
	fputs(lead, stdout);
	if (md || top + rest <= SCREEN_LINES) {
		printf("%s%s%s%s%s", answers, matrix, details, walks, blocks);
	} else {
		/* too many variants for their blocks, even of one change
		 * each: the answers (each variant's first change in kind
		 * among them, what a patch that takes a lock off a path did,
		 * where its column says "=") or where they do not fit, the
		 * first changes in kind alone, then the matrix and the walks
		 * are the first screen; the rest follows */
		top += count_lines(walks) + 2;	/* and BELOW_FIRST_SCREEN */
		rest = top + count_lines(details) <= SCREEN_LINES;	/* the details fit too */
		if (top <= SCREEN_LINES)
			fputs(answers, stdout);
		fputs(matrix, stdout);
		fputs(walks, stdout);
		if (top > SCREEN_LINES)
			print_first_kind_changes(c, n, SCREEN_LINES + count_lines(answers) > top ?
						 SCREEN_LINES + count_lines(answers) - top : 0);
		printf("%s%s\n\n%s%s%s", rest ? details : "", BELOW_FIRST_SCREEN,
		       top > SCREEN_LINES ? answers : "", rest ? "" : details, blocks);
	}
	free(lead);
	free(answers);
	free(matrix);
	free(details);
	free(walks);
	free(blocks);
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
void print_tables(const struct comparison *c, size_t n, int md)
{
	const char **not_booted;
	size_t i, j, k, nnot = not_booted_arms(&not_booted);

	printf(md ? "## All comparisons\n\n" : "All comparisons\n");
	for (i = 0; i < in->nvariants; i++) {
		const char *last_metric = "";
		int pw = 5;

		if (!strcmp(in->variants[i], opt.baseline))
			continue;
		if (md)
			printf("### %s%s against %s\n\n| metric | param | %s | %s | change | interval | p | paired delta | rule | verdict | floor |\n|---|---|---:|---:|---:|---|---:|---|---|---|---:|\n",
			       in->variants[i], race_mark(in->variants[i]), opt.baseline, opt.baseline,
			       in->variants[i]);
		else
			printf("\n%s%s against %s\n", in->variants[i], race_mark(in->variants[i]),
			       opt.baseline);
		for (j = 0; j < n; j++) {
			const struct comparison *x = &c[j];

			if (strcmp(x->variant, in->variants[i]))
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
	for (i = 0; i < nnot; i++)
		printf(md ? "### %s against %s\n\nDid not boot (above): no rows.\n\n" :
			    "\n%s against %s: did not boot (above), no rows\n\n", not_booted[i],
		       opt.baseline);
	free(not_booted);
}
