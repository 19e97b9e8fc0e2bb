// SPDX-License-Identifier: GPL-2.0
/*
 * compare, every comparison, per variant and metric, as the report's
 * model's nodes (report_model.h): in report.txt a table per metric under
 * its unit, direction and rule; in report.md one table per variant.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "report_model.h"

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

/* report.txt's table of a metric's rows: its columns, @pw the param's;
 * under its heading where @header. */
static struct table *text_table(struct doc *d, const struct comparison *x, int pw, int header)
{
	/* param, then: a count's values; icount's base, change, all boots,
	 * paired delta; or base, variant, change, 95% CI, p; and the result */
	static const char *const count_cols[] = { "per-boot values", "result" };
	static const char *const icount_cols[] = { "base", "change", "all boots", "paired delta",
						   "result" };
	static const char *const timing_cols[] = { "base", "variant", "change", "95% CI", "p",
						   "result", "floor" };
	static const int count_width[] = { 20, 0 }, icount_width[] = { 7, 7, 11, 20, 0 },
			 timing_width[] = { 7, 7, 7, 11, 6, 6, 5 };
	static const unsigned char count_right[] = { 0, 0 }, icount_right[] = { 1, 1, 1, 0, 0 },
				   timing_right[] = { 1, 1, 1, 1, 1, 0, 1 };
	const char *const *cols = x->decl->kind == COUNT ? count_cols :
				  deterministic ? icount_cols : timing_cols;
	const int *width = x->decl->kind == COUNT ? count_width :
			   deterministic ? icount_width : timing_width;
	const unsigned char *right = x->decl->kind == COUNT ? count_right :
				     deterministic ? icount_right : timing_right;
	size_t ncols = x->decl->kind == COUNT ? 2 : deterministic ? 5 : 7, k;
	struct table *t = doc_table(d, FOR_TEXT, ncols + 1);

	t->indent = "  ";
	t->width[0] = pw;
	for (k = 0; k < ncols; k++) {
		t->width[k + 1] = width[k];
		t->right[k + 1] = right[k];
	}
	if (header) {
		table_cell(t, "param");
		for (k = 0; k < ncols; k++)
			table_cell(t, "%s", cols[k]);
	}
	return t;
}

/* report.txt's heading of a metric's table: its unit, direction and
 * family, its rule and spreads. */
static void text_table_heading(struct doc *d, const struct comparison *x,
			       const struct comparison *c, size_t n, size_t j)
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
	doc_blank(d, FOR_TEXT);
	doc_line(d, FOR_TEXT, "  %s (%s, %s, %s)", x->metric, x->decl->unit,
		 dirs[x->decl->direction], x->decl->family == HEADLINE ? "headline" : "secondary");
	if (x->decl->kind == COUNT) {
		doc_line(d, FOR_TEXT, "  rule exact");
		return;
	}
	doc_line(d, FOR_TEXT, "  rule %s; spread of the baseline's boots <= %.1f%%, of repetitions",
		 x->rule ? x->rule : "?", floor * 100);
	doc_line(d, FOR_TEXT, "  within a boot <= %.1f%%", reps * 100);
}

static void text_row(struct table *t, const struct comparison *x)
{
	char ch[16], ci[40], mb[16], mv[16], pairs[64], p[16], fl[16];

	table_cell(t, "%s", x->param);
	if (x->decl->kind == COUNT) {
		format_counts(pairs, sizeof(pairs), x);
		table_cell(t, "%s", pairs);
		table_cell(t, "%s", x->verdict);
		return;
	}
	format_pct(ch, sizeof(ch), x->ratio, "%");
	format_interval(ci, sizeof(ci), x->lo, x->hi);
	format_median(mb, sizeof(mb), x->mb);
	format_median(mv, sizeof(mv), x->mv);
	if (deterministic) {
		/* the variant's value is the base plus the paired delta */
		format_pairs(pairs, sizeof(pairs), x);
		table_cell(t, "%s", mb);
		table_cell(t, "%s", ch);
		table_cell(t, "%s", ci);
		table_cell(t, "%s", pairs);
		table_cell(t, "%s", x->verdict);
		return;
	}
	snprintf(p, sizeof(p), isnan(x->p) ? "-" : x->p < 0.001 ? "%.0e" : "%.3f", x->p);
	snprintf(fl, sizeof(fl), isnan(x->floor) ? "n/a" : "%.1f%%", x->floor * 100);
	table_cell(t, "%s", mb);
	table_cell(t, "%s", mv);
	table_cell(t, "%s", ch);
	table_cell(t, "%s", ci);
	table_cell(t, "%s", p);
	table_cell(t, "%s", x->verdict);
	table_cell(t, "%s", fl);
}

static void md_row(struct table *t, const struct comparison *x)
{
	char ch[16], ci[40], mb[16], mv[16], pairs[64], p[16], fl[16], counts[80];
	const char *row[11];
	size_t k;

	format_pct(ch, sizeof(ch), x->ratio, "%");
	format_interval(ci, sizeof(ci), x->lo, x->hi);
	format_median(mb, sizeof(mb), x->mb);
	format_median(mv, sizeof(mv), x->mv);
	format_pairs(pairs, sizeof(pairs), x);
	format_counts(counts, sizeof(counts), x);
	snprintf(p, sizeof(p), isnan(x->p) ? "-" : "%.2g", x->p);
	snprintf(fl, sizeof(fl), isnan(x->floor) ? "n/a" : "%.1f%%", x->floor * 100);
	if (x->decl->kind == COUNT) {
		/* as report.md has had it: "exact" and the verdict one
		 * column left of the rule's and the verdict's */
		const char *count_row[11] = { x->metric, x->param, counts, "", "", "", "",
					      "exact", x->verdict, "", "" };

		memcpy(row, count_row, sizeof(row));
	} else {
		const char *sample_row[11] = { x->metric, x->param, mb, mv, ch, ci, p, pairs,
					       x->rule, x->verdict, fl };

		memcpy(row, sample_row, sizeof(row));
	}
	for (k = 0; k < 11; k++)
		table_cell(t, "%s", row[k]);
}

/* report.md's table of a variant's comparisons. */
static struct table *md_table(struct doc *d, const char *variant)
{
	static const unsigned char right[11] = { 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1 };
	struct table *t = doc_table(d, FOR_MD, 11);
	const char *header[11] = { "metric", "param", opt.baseline, variant, "change", "interval",
				   "p", "paired delta", "rule", "verdict", "floor" };
	size_t k;

	memcpy(t->right, right, sizeof(right));
	for (k = 0; k < 11; k++)
		table_cell(t, "%s", header[k]);
	return t;
}

void build_tables(struct doc *d, const struct comparison *c, size_t n)
{
	const char **not_booted;
	size_t i, j, k, nnot = not_booted_arms(&not_booted);

	doc_heading(d, FOR_BOTH, 2, "All comparisons");
	for (i = 0; i < in->nvariants; i++) {
		const char *last_metric = "";
		struct table *md, *text = NULL;
		int pw = 5;

		if (!strcmp(in->variants[i], opt.baseline))
			continue;
		doc_blank(d, FOR_TEXT);
		doc_heading(d, FOR_BOTH, 3, "%s%s against %s", in->variants[i],
			    race_mark(in->variants[i]), opt.baseline);
		md = md_table(d, in->variants[i]);
		for (j = 0; j < n; j++) {
			const struct comparison *x = &c[j];

			if (strcmp(x->variant, in->variants[i]))
				continue;
			if (!x->base || !x->var) {
				table_cell(md, "%s", x->metric);
				table_cell(md, "%s", x->param);
				table_cell(md, "%s", x->base ? "present" : "-");
				table_cell(md, "%s", x->var ? "present" : "-");
				for (k = 4; k < 11; k++)
					table_cell(md, "%s", k == 9 ? "missing" : "");
				doc_line(d, FOR_TEXT, "  %s %s: missing on the %s side", x->metric,
					 x->param, x->base ? "variant's" : "baseline's");
				text = NULL;	/* the metric's rows go on below the line */
				continue;
			}
			md_row(md, x);
			if (strcmp(last_metric, x->metric)) {
				/* the param column as wide as this metric needs */
				for (k = j, pw = 5; k < n && !strcmp(c[k].metric, x->metric); k++)
					pw = (int)strlen(c[k].param) > pw ? (int)strlen(c[k].param) : pw;
				text_table_heading(d, x, c, n, j);
				text = text_table(d, x, pw, 1);
				last_metric = x->metric;
			} else if (!text) {
				text = text_table(d, x, pw, 0);
			}
			text_row(text, x);
		}
		doc_blank(d, FOR_BOTH);
	}
	for (i = 0; i < nnot; i++) {
		doc_heading(d, FOR_MD, 3, "%s against %s", not_booted[i], opt.baseline);
		doc_para(d, FOR_MD, "Did not boot (above): no rows.");
		doc_blank(d, FOR_TEXT);
		doc_line(d, FOR_TEXT, "%s against %s: did not boot (above), no rows", not_booted[i],
			 opt.baseline);
		doc_blank(d, FOR_TEXT);
	}
	free(not_booted);
}
