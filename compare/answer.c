// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the first screen's lead (compare.h): what a reviewer asks
 * before the matrix.  Each variant's answer is built once (struct
 * answer) and written as text, wrapped to 78 columns, or as markdown.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

/* The headline metric that answers "memory per cdev", at its largest N
 * with one major and minor a cdev (a param of n alone), as the memory
 * plot shows it. */
#define MEMORY_METRIC "mem_bytes_per_cdev"

enum way { WORSE, BETTER, UNCLEAR, WAYS };
static const char *const way_name[WAYS] = { "worse", "better", "unclear" };

/* A variant's answer: its headline metrics by the way they changed,
 * each metric once per way, at its largest change, largest first
 * (by[way][0] is the largest change that way); memory per cdev; its
 * known failures of the selftest that failed and passed. */
struct answer {
	const struct comparison **by[WAYS];
	size_t nby[WAYS];
	const struct comparison *memory;
	size_t xfail, xpass;
};

/* WAYS where it did not change ("same"). */
static enum way way_of(const struct comparison *x)
{
	if (!strcmp(x->verdict, "worse"))
		return WORSE;
	if (!strcmp(x->verdict, "better"))
		return BETTER;
	return strcmp(x->verdict, "same") ? UNCLEAR : WAYS;
}

static struct answer answer_of(const struct comparison *c, size_t n, const char *variant)
{
	const struct comparison **rows = xmalloc((n ? n : 1) * sizeof(*rows));
	struct answer a = { .nby = { 0 } };
	size_t nr = 0, i, j;
	long memory_n = -1;
	int w;

	for (i = 0; i < n; i++) {
		const char *p = c[i].param;
		char *end;
		long at;

		if (strcmp(c[i].variant, variant) || c[i].decl->family != HEADLINE)
			continue;
		rows[nr++] = &c[i];
		if (strcmp(c[i].metric, MEMORY_METRIC) || strncmp(p, "n=", 2))
			continue;
		at = strtol(p + 2, &end, 10);
		if (!*end && at > memory_n) {
			memory_n = at;
			a.memory = &c[i];
		}
	}
	qsort(rows, nr, sizeof(*rows), cmp_effect);
	for (w = 0; w < WAYS; w++)
		a.by[w] = xmalloc((nr ? nr : 1) * sizeof(*a.by[w]));
	for (i = 0; i < nr; i++) {
		w = way_of(rows[i]);
		if (w == WAYS)
			continue;
		for (j = 0; j < a.nby[w] && strcmp(a.by[w][j]->metric, rows[i]->metric); j++)
			;
		if (j == a.nby[w])
			a.by[w][a.nby[w]++] = rows[i];
	}
	free(rows);
	known_failure_counts(variant, &a.xfail, &a.xpass);
	return a;
}

/* "cdev_del_ns at n=1000, 3287 -> 286 ns (-91.3%)": the baseline's
 * median of boots, then the variant's; a count's values ("0 -> 2"). */
static void write_change(FILE *out, const struct comparison *x)
{
	char from[16], to[16], pct[16], counts[80];

	fprintf(out, "%s at %s, ", x->metric, x->param);
	if (x->decl->kind == COUNT) {
		format_counts(counts, sizeof(counts), x);
		fprintf(out, "%s", counts);
		return;
	}
	format_median(from, sizeof(from), x->mb);
	format_median(to, sizeof(to), x->mv);
	format_pct(pct, sizeof(pct), x->ratio, "%");
	fprintf(out, "%s -> %s %s (%s)", from, to, x->decl->unit, pct);
}

static void write_answer(FILE *out, const struct answer *a, const char *variant, int md)
{
	const struct comparison *m = a->memory;
	char from[16], to[16], pct[16];
	size_t i;
	int w;

	fprintf(out, md ? "- **%s%s**:" : "%s%s:", variant, race_mark(variant));
	for (w = 0; w < WAYS; w++) {
		if (w == UNCLEAR && !a->nby[w])
			continue;	/* "unclear in none" would say nothing */
		fprintf(out, "%s %s in", w ? ";" : "", way_name[w]);
		for (i = 0; i < a->nby[w]; i++)
			fprintf(out, "%s %s", i ? "," : "", a->by[w][i]->metric);
		fprintf(out, a->nby[w] ? "" : " none");
	}
	fprintf(out, ".");
	for (w = WORSE; w <= BETTER; w++)
		if (a->nby[w]) {
			fprintf(out, " Most %s: ", way_name[w]);
			write_change(out, a->by[w][0]);
			fprintf(out, ".");
		}
	if (m && m->base && m->var) {
		format_median(from, sizeof(from), m->mb);
		format_median(to, sizeof(to), m->mv);
		format_pct(pct, sizeof(pct), m->ratio, "%");
		fprintf(out, " Memory per cdev at %s: %s -> %s %s (%s, %s).", m->param, from, to,
			m->decl->unit, pct, m->verdict);
	} else {
		fprintf(out, " Memory per cdev: not measured.");
	}
	fprintf(out, " Selftest passed");
	if (a->xfail)
		fprintf(out, " but for %zu known failure%s", a->xfail, a->xfail == 1 ? "" : "s");
	if (a->xpass)
		fprintf(out, "%s %zu known failure%s passed", a->xfail ? ", and" : ";", a->xpass,
			a->xpass == 1 ? "" : "s");
	fprintf(out, ".");
	write_boot_failures(out, variant);
}

/* What a patch that takes a lock off a path did, where no metric of the
 * answer changed: the variant's first change in kind. */
static void write_first_kind(FILE *out, const struct comparison *c, size_t n, const char *variant)
{
	size_t lines;
	char *kind = first_kind_change(c, n, variant, &lines);

	if (lines)
		fprintf(out, " Changed in kind: %s%s.", kind, lines > 1 ? ", and more below" : "");
	free(kind);
}

/* A variant's answer as a paragraph of @width columns (0: unwrapped,
 * markdown), with its first change in kind where @kind. */
static void print_answer_of(FILE *out, int width, const struct comparison *c, size_t n,
			    const char *variant, int md, int kind)
{
	struct answer a = answer_of(c, n, variant);
	struct paragraph p;
	FILE *f = paragraph_begin(&p, out, width, "", "  ");
	int w;

	write_answer(f, &a, variant, md);
	if (kind)
		write_first_kind(f, c, n, variant);
	if (md)
		fputc('\n', f);
	paragraph_end(&p);
	for (w = 0; w < WAYS; w++)
		free(a.by[w]);
}

void print_answer(FILE *out, int width, const struct comparison *c, size_t n, const char *variant)
{
	print_answer_of(out, width, c, n, variant, 0, 0);
}

void write_mode_note(FILE *f)
{
	char mode[16], quick[8], boots[16];

	meta_field("mode", mode, sizeof(mode));
	if (!strcmp(mode, "icount"))
		fprintf(f, "icount mode: the guest's clock counts instructions, so 1 \"ns\" is 1 instruction, and a figure repeats to the digit for its kernel and seed.");
	else if (!strcmp(mode, "tcg"))
		fprintf(f, "tcg mode: \"ns\" are nanoseconds of the guest's clock under TCG, an emulator many times slower than the host: they compare the arms, not hardware.");
	else if (!strcmp(mode, "kvm"))
		fprintf(f, "kvm mode: \"ns\" are nanoseconds of the guest's clock on the host's CPU.");
	else
		fprintf(f, "Mode unknown (no meta.json): what an \"ns\" is depends on it.");
	if (!strcmp(meta_field("quick", quick, sizeof(quick)), "true"))
		fprintf(f, " QUICK run (%s boots an arm, the smallest sweep): a first look, not figures to quote.",
			meta_field("boots", boots, sizeof(boots)));
}

void print_lead(FILE *out, const struct comparison *c, size_t n, int md)
{
	struct paragraph p;
	size_t i;

	fprintf(out, md ? "# cdevbench comparison\n\n" : "cdevbench comparison\n");
	write_mode_note(paragraph_begin(&p, out, md ? 0 : 78, "", ""));
	paragraph_end(&p);
	fprintf(out, md ? "\n\n" : "\n");
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
		paragraph(out, md ? 0 : 78, "", "",
			  "A/A control %s: %zu of %zu headline comparisons better or worse (false positives), largest change %.2f%%.%s",
			  aa_arm, fp, total, largest * 100, md ? "\n\n" : "\n");
	}
}

void print_answers(FILE *out, const struct comparison *c, size_t n, int md)
{
	struct paragraph p;
	const char **not_booted, *arm;
	size_t i, nnot = not_booted_arms(&not_booted);
	const json_t *fail;
	FILE *f;

	paragraph(out, md ? 0 : 78, "", "",
		  "Against %s (a -> b: %s's median of boots, then the variant's):%s",
		  opt.baseline, opt.baseline, md ? "\n\n" : "");
	/* the baseline's and the A/A control's boots that failed */
	json_object_foreach(in->nmetas ? json_object_get(in->metas[0].doc, "failures") : NULL, arm, fail) {
		if (reported_arm(arm) || is_walk_prefix(arm))
			continue;
		f = paragraph_begin(&p, out, md ? 0 : 78, "", "  ");
		if (did_not_boot(arm)) {
			write_did_not_boot(f, arm, md);
		} else {
			fprintf(f, md ? "- **%s** (%s):" : "%s (%s):", arm,
				strcmp(arm, opt.baseline) ? "the A/A control" : "the baseline");
			write_boot_failures(f, arm);
			fprintf(f, md ? "\n" : "");
		}
		paragraph_end(&p);
	}
	for (i = 0; i < in->nvariants; i++)
		if (is_reported(in->variants[i]))
			print_answer_of(out, md ? 0 : 78, c, n, in->variants[i], md, 1);
	/* the variants that did not boot: their first complaint */
	for (i = 0; i < nnot; i++) {
		write_did_not_boot(paragraph_begin(&p, out, md ? 0 : 78, "", "  "), not_booted[i], md);
		paragraph_end(&p);
	}
	free(not_booted);
	if (md)
		fputc('\n', out);
	print_selftest_outcome(paragraph_begin(&p, out, md ? 0 : 78, "", ""));
	paragraph_end(&p);
	fprintf(out, md ? "\n\n" : "\n");
}
