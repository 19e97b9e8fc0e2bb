// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the kernels' failures (compare.h): meta.json's failures,
 * which scripts/merge.sh writes from the units' failure.json
 * (scripts/unit.sh): per arm, its timing boots, how many failed because
 * of the kernel (a panic, an oops, a warning, a hang, the selftest or
 * another step of the guest), each failed unit's kind, first complaint
 * line, function and signature.  An arm whose every timing boot failed
 * "did not boot": it has no rows, so no comparison; the first screen
 * gives its first complaint in its line, its column and its block.  An
 * arm with some boots failed has its figures from the others, and its
 * line says how many failed and why.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "report_model.h"

const json_t *arm_failures(const char *arm)
{
	size_t i;

	for (i = 0; i < in->nmetas; i++) {
		const json_t *f = json_object_get(json_object_get(in->metas[i].doc, "failures"), arm);

		if (f)
			return f;
	}
	return NULL;
}

int did_not_boot(const char *arm)
{
	return json_is_true(json_object_get(arm_failures(arm), "did_not_boot"));
}

/* An arm with rows, or one that did not boot, that the first screen
 * reports on: not the baseline, an A/A control or a walk's prefix. */
int reported_arm(const char *arm)
{
	const char *path;

	return is_reported(arm) && !json_object_get(variant_meta(arm, &path), "aa_of");
}

size_t not_booted_arms(const char ***out)
{
	const char **arms = NULL;
	size_t n = 0, i;

	for (i = 0; i < in->nmetas; i++) {
		const char *arm;
		const json_t *f;

		json_object_foreach(json_object_get(in->metas[i].doc, "failures"), arm, f) {
			size_t j;

			if (!json_is_true(json_object_get(f, "did_not_boot")) || !reported_arm(arm))
				continue;
			for (j = 0; j < in->nvariants && strcmp(in->variants[j], arm); j++)
				;
			if (j < in->nvariants)
				continue;	/* rows of its own after all: a join's */
			arms = xrealloc(arms, (n + 1) * sizeof(*arms));
			arms[n++] = arm;
		}
	}
	*out = arms;
	return n;
}

/* The first of an arm's failed units, of its timing boots where
 * @timing: the phase booted in rounds (scripts/phases.def), whose boots
 * its figures come from and merge.sh counts in "boots". */
static const json_t *first_unit(const json_t *f, int timing)
{
	const json_t *u;
	size_t i;

	json_array_foreach(json_object_get(f, "units"), i, u)
		if (!timing || !strcmp(member_string(u, "phase", ""), "timing"))
			return u;
	return NULL;
}

/* "an oops", "its selftest failed", ... */
static const char *kind_phrase(const char *kind)
{
	static const char *const phrases[][2] = {
		{ "panic", "a panic" }, { "oops", "an oops" }, { "warning", "a warning" },
		{ "hang", "a hang" }, { "selftest", "its selftest failed" },
		{ "step", "a step of the guest failed" },
	};
	size_t i;

	for (i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if (!strcmp(kind, phrases[i][0]))
			return phrases[i][1];
	return kind;
}

/* Where a failure came from: "(kobj_lookup)", "(in step timed_pass)" */
static void write_where(FILE *out, const json_t *u)
{
	const char *function = member_string(u, "function", NULL);

	if (function)
		fprintf(out, "(%s)", function);
	else
		fprintf(out, "(in step %s)", member_string(u, "step", "?"));
}

/* Whether every failed unit of @f's timing boots failed as @u did. */
static int all_alike(const json_t *f, const json_t *u)
{
	const char *sig = member_string(u, "signature", "");
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(f, "units"), i, v)
		if (!strcmp(member_string(v, "phase", ""), "timing") &&
		    strcmp(member_string(v, "signature", ""), sig))
			return 0;
	return 1;
}

static size_t count_of(const json_t *f, const char *key)
{
	return (size_t)json_number_value(json_object_get(f, key));
}

void write_did_not_boot(FILE *out, const char *arm, int md)
{
	const json_t *f = arm_failures(arm), *u = first_unit(f, 1);
	size_t boots = count_of(f, "boots");
	const char *what;

	fprintf(out, md ? "- **%s**: did not boot: %s " : "%s: did not boot: %s ", arm,
		member_string(u, "line", "?"));
	write_where(out, u);
	what = kind_phrase(member_string(u, "kind", "?"));
	fprintf(out, ". %c%s on %zu of %zu boots", toupper((unsigned char)what[0]), what + 1,
		count_of(f, "failed"), boots);
	if (count_of(f, "failed") > 1)
		fprintf(out, all_alike(f, u) ? ", the same way each time" : ", not all the same way");
	/* make resume's attempts of its boots count too */
	if (count_of(u, "times") > count_of(f, "failed"))
		fprintf(out, ", and again when make resume booted it (%zu times)", count_of(u, "times"));
	if (!json_is_true(json_object_get(u, "settled")))
		fprintf(out, "; make resume tries it again");
	fprintf(out, "; no verdicts (%s/serial.log).", member_string(u, "unit", "?"));
	if (md)
		fputc('\n', out);
}

void write_boot_failures(FILE *out, const char *arm)
{
	const json_t *f = arm_failures(arm), *u;
	size_t failed = count_of(f, "failed"), boots = count_of(f, "boots"), i;

	if (!f)
		return;
	if (failed && !did_not_boot(arm)) {
		u = first_unit(f, 1);
		fprintf(out, " %zu of %zu boots failed, %s: %s ", failed, boots,
			kind_phrase(member_string(u, "kind", "?")), member_string(u, "line", "?"));
		write_where(out, u);
		fprintf(out, "; its figures come from the other %zu.", boots - failed);
	}
	json_array_foreach(json_object_get(f, "units"), i, u) {
		if (!strcmp(member_string(u, "phase", ""), "timing"))
			continue;
		fprintf(out, " Its %s boot failed, %s: %s ", member_string(u, "phase", "?"),
			kind_phrase(member_string(u, "kind", "?")), member_string(u, "line", "?"));
		write_where(out, u);
		fprintf(out, ".");
	}
}

int any_boot_failed(void)
{
	size_t i;

	for (i = 0; i < in->nmetas; i++)
		if (json_object_size(json_object_get(in->metas[i].doc, "failures")))
			return 1;
	return 0;
}

/* A line of the block: wrapped in report.txt, as written in report.md. */
static void block_line(struct node *x)
{
	x->text_layout = (struct layout){ .width = 78, .first = "  ", .rest = "    " };
}

void build_did_not_boot_block(struct doc *d, const char *arm)
{
	const json_t *f = arm_failures(arm), *u = first_unit(f, 1);
	struct doc_piece p;
	FILE *out = doc_begin(&p);

	fprintf(out, "did not boot: %zu of %zu boots, %s", count_of(f, "failed"), count_of(f, "boots"),
		kind_phrase(member_string(u, "kind", "?")));
	if (member_string(u, "function", NULL))
		fprintf(out, " in %s", member_string(u, "function", "?"));
	fprintf(out, " (in step %s)%s", member_string(u, "step", "?"),
		count_of(f, "failed") > 1 && all_alike(f, u) ? ", the same way each time" : "");
	block_line(doc_end(&p, d, NODE_LINE, FOR_BOTH));
	block_line(doc_line(d, FOR_BOTH, "%s", member_string(u, "line", "?")));
	block_line(doc_line(d, FOR_BOTH, "its serial log, with the call trace: %s/serial.log",
			    member_string(u, "unit", "?")));
}
