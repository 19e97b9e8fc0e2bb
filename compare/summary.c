// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's first screen as the model's nodes (report_model.h):
 * the lead and each variant's answer (answer.c), the matrix of headline
 * verdicts, how the run was made and is read, the walks' blocks (walk.c)
 * and each variant's block; report.txt's fitted to SCREEN_LINES.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"
#include "stats.h"

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

/* One line per (metric, verdict) of a variant's headline comparisons:
 * the changes, largest first; then the metrics that did not change, all
 * in one wrapped "same" line, and any that are unclear or missing. */
static void build_changes(struct doc *d, const struct comparison *c, size_t n, const char *variant,
			  size_t max_changes, size_t max_kind)
{
	const struct comparison **rows = xmalloc((n ? n : 1) * sizeof(*rows));
	size_t i, j, k, nr = 0, secondary = 0, secondary_changed = 0, nsame = 0;
	size_t shown = 0, hidden = 0;
	struct doc_piece same_line;
	FILE *same_words = NULL;	/* begun with the first metric that is the same */
	struct node *x_same;

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
		doc_line(d, FOR_BOTH, "  %-6s %-22s %2zu/%-2zu %-14s %s%s", x->verdict, x->metric,
			 hits, params, range, ci, x->rule);
	}
	if (hidden)
		doc_line(d, FOR_BOTH, "  %zu more change%s, smaller or equal (tables below)", hidden,
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
				same_words = doc_begin(&same_line);
			fprintf(same_words, "%s %s %zu/%zu %s", nsame++ ? ";" : "same  ", x->metric,
				same, params, counts);
			continue;
		}
		if (lo <= hi)
			doc_line(d, FOR_BOTH, "  %-6s %-22s %2zu/%-2zu %s..%s, some unclear", "-",
				 x->metric, same, params, a, b);
		else
			doc_line(d, FOR_BOTH, "  %-6s %-22s %2zu/%-2zu missing or unclear", "-",
				 x->metric, same, params);
	}
	if (same_words) {
		/* wrapped in report.md too: it is a block's line */
		x_same = doc_end(&same_line, d, NODE_LINE, FOR_BOTH);
		x_same->text_layout = x_same->md_layout =
			(struct layout){ .width = 78, .first = "  ", .rest = "  " };
	}
	build_kind_changes(d, c, n, variant, max_kind, 78);
	if (secondary)
		doc_line(d, FOR_BOTH, "  %zu of %zu secondary comparisons changed (tables below)",
			 secondary_changed, secondary);
	free(rows);
}

/* A variant on another base than the baseline's: how their configs
 * differ, in the options both trees know (the first few; meta.json has
 * them all). */
#define CONFIG_DIFFERENCES_SHOWN 4
static void write_config_differences(FILE *out, const json_t *vm)
{
	const json_t *d = json_object_get(vm, "config_differences");
	size_t count = json_array_size(d), shown;

	fprintf(out, "n base %s, its config differs from the baseline's in %zu option%s both trees know: ",
		member_string(vm, "base", "?"), count, count == 1 ? "" : "s");
	for (shown = 0; shown < count && shown < CONFIG_DIFFERENCES_SHOWN; shown++)
		fprintf(out, "%s%s", shown ? ", " : "", json_string_value(json_array_get(d, shown)));
	if (count > shown)
		fprintf(out, " and %zu more (meta.json)", count - shown);
}

/* A variant's heading: its kernel, patch subjects and series hash, so a
 * pasted report says what ran; one paragraph in report.txt, a heading and
 * its sentences in report.md. */
static void build_variant_heading(struct doc *d, const char *variant)
{
	const char *path;
	const json_t *vm = variant_meta(variant, &path), *p;
	size_t count = json_array_size(json_object_get(vm, "patches")), i;
	int differs = json_array_size(json_object_get(vm, "config_differences")) > 0;
	struct doc_piece heading, config;
	FILE *out = doc_begin(&heading);

	doc_heading(d, FOR_MD, 3, "%s%s against %s", variant, race_mark(variant), opt.baseline);
	fprintf(out, "%s%s against %s", variant, race_mark(variant), opt.baseline);
	if (vm) {
		fprintf(out, ": kernel %s, %zu patch%s, series %.12s%s",
			member_string(vm, "kernel_release", "?"), count, count == 1 ? "" : "es",
			member_string(vm, "series_sha256", "?"),
			member_string(vm, "config_fragment", NULL) ? ", own config fragment" : "");
		doc_para(d, FOR_MD, "Kernel %s, %zu patch%s, series sha256 %.12s%s.",
			 member_string(vm, "kernel_release", "?"), count, count == 1 ? "" : "es",
			 member_string(vm, "series_sha256", "?"),
			 member_string(vm, "config_fragment", NULL) ? ", own config fragment" : "");
	}
	if (differs) {
		write_config_differences(doc_begin(&config), vm);
		fclose(config.f);
		fprintf(out, "; o%s", config.text);
		doc_para(d, FOR_MD, "O%s.", config.text);
		free(config.text);
	}
	doc_end(&heading, d, NODE_PARA, FOR_TEXT);
	json_array_foreach(json_object_get(vm, "patches"), i, p) {
		struct node *x = doc_line(d, FOR_BOTH, "%s", json_string_value(p));

		x->text_layout.first = "  | ";
		x->md_layout.first = "- ";
	}
	json_array_foreach(json_object_get(vm, "links"), i, p) {
		doc_line(d, FOR_TEXT, "  | Link: %s", json_string_value(p));
		doc_line(d, FOR_MD, "- Link: <%s>", json_string_value(p));
	}
	if (count)
		doc_blank(d, FOR_MD);
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

/* The variants' blocks of the first screen, each with at most
 * max_changes lines of changes, after a legend of their figures; then
 * the comparisons a side is missing. */
static void build_variant_blocks(struct doc *d, const struct comparison *c, size_t n,
				 size_t max_changes, size_t max_kind)
{
	const char **not_booted;
	size_t i, j, nnot = not_booted_arms(&not_booted);

	for (i = 0; i < in->nvariants && !is_reported(in->variants[i]); i++)
		;
	if (i < in->nvariants || nnot)
		doc_para(d, FOR_BOTH, "Per variant, the headline metrics that changed, largest first: verdict, k/m params, the range of the change, [%s], rule; then the rest.",
			 deterministic ? "the largest's at its lowest..highest boot" :
			 "the largest's 95% interval, Welch's");
	for (i = 0; i < in->nvariants; i++) {
		if (!is_reported(in->variants[i]))
			continue;
		build_variant_heading(d, in->variants[i]);
		doc_code(d, FOR_BOTH, 0);
		build_changes(d, c, n, in->variants[i], max_changes, max_kind);
		doc_code(d, FOR_BOTH, 1);
	}
	/* a variant that did not boot: why, in place of its changes */
	for (i = 0; i < nnot; i++) {
		build_variant_heading(d, not_booted[i]);
		doc_code(d, FOR_BOTH, 0);
		build_did_not_boot_block(d, not_booted[i]);
		doc_code(d, FOR_BOTH, 1);
	}
	free(not_booted);
	for (i = 0, j = 0; i < n; i++)
		j += !strcmp(c[i].verdict, "missing");
	if (j) {
		doc_line(d, FOR_BOTH, "%zu comparisons have a side missing (tables below).", j);
		doc_blank(d, FOR_BOTH);
	}
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
static void build_matrix(struct doc *d, const struct comparison *c, size_t n)
{
	const char *cols[64], **not_booted;
	size_t ncols = 0, i, j, k, nnot = not_booted_arms(&not_booted);
	char cell[96];
	struct doc_piece legend;
	struct table *t;
	FILE *out;

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
	doc_para(d, FOR_BOTH, "Headline metrics against %s: %s", opt.baseline, MATRIX_LEGEND);
	out = doc_begin(&legend);
	for (k = 0; k < ncols; k++)
		fprintf(out, "%s[%zu] %s%s", k ? ", " : "", k + 1, cols[k], race_mark(cols[k]));
	doc_end(&legend, d, NODE_PARA, FOR_TEXT);
	t = doc_table(d, FOR_BOTH, ncols + 1);
	t->indent = "  ";
	t->chunk = MATRIX_COLUMNS;
	for (k = 0; k <= ncols; k++)
		t->width[k] = k ? MATRIX_CELL : 21;
	/* the header, then a row per headline metric that was measured */
	table_cell(t, "%s", "");
	table_md_header(t, 0, "metric");
	for (k = 0; k < ncols; k++) {
		table_cell(t, "[%zu]", k + 1);
		table_md_header(t, k + 1, "%s%s", cols[k], race_mark(cols[k]));
	}
	for (j = 0; j < ndecls; j++) {
		if (!is_matrix_row(c, n, &decls[j]) && !(nnot && baseline_measured(&decls[j])))
			continue;
		table_cell(t, "%s", decls[j].name);
		for (k = 0; k < ncols; k++) {
			if (did_not_boot(cols[k]))
				snprintf(cell, sizeof(cell), "did not boot");
			else
				matrix_cell(cell, sizeof(cell), c, n, decls[j].name, cols[k]);
			table_cell(t, "%s", cell);
		}
	}
	doc_blank(d, FOR_BOTH);
	free(not_booted);
}

/* Each variant's first change in kind, under a heading, where any has
 * one, in at most @room lines: without "and N more" where that would not
 * fit, then with as many variants as fit and the others named. */
static void build_first_kind_changes(struct doc *d, const struct comparison *c, size_t n,
				     size_t room)
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
		doc_raw(d, FOR_TEXT, text, NULL);
	else
		free(text);
}

/* How the run was made and how to read it: the run, what a selftest
 * pass can mean, the rule, the baseline's spread, the phases skipped. */
/* A paragraph of the details: wrapped at 78 columns in report.md too. */
static void details_end(struct doc_piece *para, struct doc *d)
{
	doc_end(para, d, NODE_PARA, FOR_BOTH)->md_layout.width = 78;
}

static void build_details(struct doc *d)
{
	char b[9][256];
	const char *qemu;
	int qemu_len;
	size_t i;
	struct doc_piece para;
	FILE *out;

	if (in->nmetas) {
		out = doc_begin(&para);
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
		details_end(&para, d);
		/* what the selftest's pass (the lead's) can mean in this run */
		out = doc_begin(&para);
		if (!strcmp(b[2], "1"))
			fprintf(out, "Correctness: on 1 vCPU the selftest's race cases interleave at syscall boundaries only: a pass does not show a variant free of in-kernel races (MODE=tcg with several vCPUs runs them at once).");
		else
			fprintf(out, "Correctness: on %s vCPUs the selftest's race cases run at once.",
				b[2]);
		print_race_outcome(out);
		details_end(&para, d);
	}
	out = doc_begin(&para);
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
	details_end(&para, d);
	if (in->nmetas && !strcmp(meta_field("faults", b[0], sizeof(b[0])), "false"))
		doc_line(d, FOR_BOTH, "Failure-path phase: skipped (FAULTS=0).");
	doc_blank(d, FOR_BOTH);
}

/* A part of the first screen written by its own file (answer.c), in
 * both formats. */
static void build_written(struct doc *d, void (*print)(FILE *, const struct comparison *, size_t, int),
			  const struct comparison *c, size_t n)
{
	char *text[2] = { NULL, NULL };
	size_t len, md;

	for (md = 0; md < 2; md++) {
		FILE *f = xmemstream(&text[md], &len);

		print(f, c, n, (int)md);
		fclose(f);
	}
	doc_raw(d, FOR_BOTH, text[0], text[1]);
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
 * follow too.  report.md has every change, in the first order: where
 * report.txt's differs, each format has its own copy of the parts. */
#define SCREEN_LINES 60
#define BELOW_FIRST_SCREEN "Per variant (below the first screen)"
void build_summary(struct doc *d, const struct comparison *c, size_t n)
{
	struct doc lead = { 0 }, answers = { 0 }, matrix = { 0 }, details = { 0 };
	struct doc walks = { 0 }, blocks = { 0 }, all_walks = { 0 }, all_blocks = { 0 };
	size_t max_changes = SIZE_MAX, max_kind = SIZE_MAX, top, rest;
	int text;		/* the formats that read the parts in the first order */

	build_written(&lead, print_lead, c, n);
	build_written(&answers, print_answers, c, n);
	build_matrix(&matrix, c, n);
	build_details(&details);
	build_walk_blocks(&all_walks, c, n, max_kind);
	build_variant_blocks(&all_blocks, c, n, max_changes, max_kind);

	top = text_lines(&lead) + text_lines(&answers) + text_lines(&matrix);
	rest = text_lines(&details) + text_lines(&all_walks) + text_lines(&all_blocks);
	while (top + rest > SCREEN_LINES && !(max_changes == 1 && max_kind == 1)) {
		doc_free(&walks);
		doc_free(&blocks);
		/* the headline changes give way first: the matrix has their
		 * verdicts, nothing above has a walk's steps or the changes in
		 * kind */
		if (max_changes > 1)
			max_changes = max_changes == SIZE_MAX ? 6 : max_changes - 1;
		else
			max_kind = max_kind == SIZE_MAX ? 6 : max_kind - 1;
		build_walk_blocks(&walks, c, n, max_kind);
		build_variant_blocks(&blocks, c, n, max_changes, max_kind);
		rest = text_lines(&details) + text_lines(&walks) + text_lines(&blocks);
	}
	text = top + rest <= SCREEN_LINES ? FOR_TEXT : 0;
	doc_copy(d, &lead, FOR_BOTH);
	doc_copy(d, &answers, FOR_MD | text);
	doc_copy(d, &matrix, FOR_MD | text);
	doc_copy(d, &details, FOR_MD | text);
	/* report.txt's shortened blocks where it has them */
	doc_copy(d, &all_walks, FOR_MD | (walks.head ? 0 : text));
	doc_copy(d, &walks, text);
	doc_copy(d, &all_blocks, FOR_MD | (blocks.head ? 0 : text));
	doc_copy(d, &blocks, text);
	if (!text) {
		/* too many variants for their blocks, even of one change
		 * each: the answers (each variant's first change in kind
		 * among them, what a patch that takes a lock off a path did,
		 * where its column says "=") or where they do not fit, the
		 * first changes in kind alone, then the matrix and the walks
		 * are the first screen; the rest follows */
		const struct doc *w = walks.head ? &walks : &all_walks;
		const struct doc *b = blocks.head ? &blocks : &all_blocks;
		size_t room;

		top += text_lines(w) + 2;	/* and BELOW_FIRST_SCREEN */
		rest = top + text_lines(&details) <= SCREEN_LINES;	/* the details fit too */
		if (top <= SCREEN_LINES)
			doc_copy(d, &answers, FOR_TEXT);
		doc_copy(d, &matrix, FOR_TEXT);
		doc_copy(d, w, FOR_TEXT);
		room = SCREEN_LINES + text_lines(&answers);
		if (top > SCREEN_LINES)
			build_first_kind_changes(d, c, n, room > top ? room - top : 0);
		if (rest)
			doc_copy(d, &details, FOR_TEXT);
		doc_line(d, FOR_TEXT, "%s", BELOW_FIRST_SCREEN);
		doc_blank(d, FOR_TEXT);
		if (top > SCREEN_LINES)
			doc_copy(d, &answers, FOR_TEXT);
		if (!rest)
			doc_copy(d, &details, FOR_TEXT);
		doc_copy(d, b, FOR_TEXT);
	}
	doc_free(&lead);
	doc_free(&answers);
	doc_free(&matrix);
	doc_free(&details);
	doc_free(&walks);
	doc_free(&blocks);
	doc_free(&all_walks);
	doc_free(&all_blocks);
}
