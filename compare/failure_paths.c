// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's "Failure paths" section: the failure-path phase's
 * draws (fail_* rows, one fault boot per variant, so no verdicts) per
 * flavour, systematic and swept, then the kset references and kernel
 * warnings: a block of the report's model (report_model.h), fenced in
 * report.md.  The phase's pass rule reads the same rows in fault_check.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* The failure-path value of a (variant, metric, param) in @buf, "-" if
 * absent. */
static const char *draw(const char *variant, const char *metric, const char *param,
			char *buf, size_t size)
{
	const struct group *g = find_group(metric, param, variant);

	if (!g || !g->n)
		snprintf(buf, size, "-");
	else	/* one fault boot: one draw */
		snprintf(buf, size, "%g", g->v[0]);
	return buf;
}

/* "bytes(objects)" leaked by a flavour's group. */
static const char *leaked(const char *variant, const char *param, char *buf, size_t size)
{
	char b[32], o[32];

	snprintf(buf, size, "%s(%s)", draw(variant, "fail_leaked_bytes", param, b, sizeof(b)),
		 draw(variant, "fail_leaked_objects", param, o, sizeof(o)));
	return buf;
}

/* The rows of one table, under the variant's name: systematic (a
 * fail_points group per flavour, param "flavour=F") or the sweep (a
 * fail_registered group per "flavour=F,prob=P"). */
static void failure_rows(struct doc *d, const char *variant, int sweep)
{
	static const char *const counts[2][3] = {
		{ "fail_points", "fail_handled", "fail_tolerated" },
		{ "fail_registered", "fail_handled", "fail_setup_failed" },
	};
	char flav[64], prob[16], b[6][80];
	struct doc_piece row;
	size_t i, rows = 0;
	FILE *out;

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];
		const char *p = g->param;

		if (strcmp(g->variant, variant) ||
		    strcmp(g->metric, sweep ? "fail_registered" : "fail_points"))
			continue;
		if (!rows++)
			doc_line(d, FOR_BOTH, "  %s", variant);
		param_value(p, "flavour", flav, sizeof(flav));
		param_value(p, "prob", prob, sizeof(prob));
		draw(variant, counts[sweep][0], p, b[0], 80);
		draw(variant, counts[sweep][1], p, b[1], 80);
		draw(variant, counts[sweep][2], p, b[2], 80);
		out = doc_begin(&row);
		if (sweep)
			fprintf(out, "    %-16s %3s%% %5s %6s %5s", flav, prob, b[0], b[1], b[2]);
		else
			fprintf(out, "    %-16s %6s %7s %9s", flav, b[0], b[1], b[2]);
		fprintf(out, " %11s %5s %6s", leaked(variant, p, b[3], 80),
			draw(variant, "fail_sysfs_left", p, b[4], 80),
			draw(variant, "fail_majors_left", p, b[5], 80));
		doc_end(&row, d, NODE_LINE, FOR_BOTH);
	}
}

/* The kset reference line of a variant: unchanged, or which groups. */
static void kset_refs(struct doc *d, const char *variant)
{
	char flav[64], prob[16], *text = NULL;
	size_t i, len = 0, groups = 0, changes = 0;
	FILE *out = xmemstream(&text, &len);

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->variant, variant) || strcmp(g->metric, "fail_kset_refs_left"))
			continue;
		groups++;
		if (g->v[0] == 0)
			continue;
		param_value(g->param, "flavour", flav, sizeof(flav));
		param_value(g->param, "prob", prob, sizeof(prob));
		fprintf(out, "%s %s%s%s %+g", changes++ ? "," : " changed:", flav,
			prob[0] ? " " : "", prob, g->v[0]);
	}
	fclose(out);
	if (changes)
		doc_line(d, FOR_BOTH, "    %s:%s", variant, text);
	else if (groups)
		doc_line(d, FOR_BOTH, "    %s: unchanged in all %zu groups", variant, groups);
	free(text);
}

void build_failure_paths(struct doc *d)
{
	char b[32];
	size_t i;
	int any = 0;

	for (i = 0; i < in->ngroups && !any; i++)
		any = in->groups[i].decl->kind == DRAW;
	if (in->nmetas && !strcmp(meta_field("faults", b, sizeof(b)), "false")) {
		doc_heading(d, FOR_MD, 2, "Failure paths");
		doc_para(d, FOR_MD, "Skipped (FAULTS=0: no fault kernels were booted).");
		doc_line(d, FOR_TEXT, "Failure paths: skipped (FAULTS=0: no fault kernels were booted)");
		doc_blank(d, FOR_TEXT);
		return;
	}
	if (!any)
		return;
	doc_heading(d, FOR_BOTH, 2, "Failure paths");
	doc_code(d, FOR_BOTH, 0);
	doc_lines(d, FOR_BOTH,
		  "Fault kernels (rig.config + patches/fault.config), one boot per variant;\n"
		  "kmemleak's reports in <variant>/fault-1/kmemleak.txt; leaks are its\n"
		  "suspects allocated through the registration.  Single draws, no verdicts.\n");
	doc_blank(d, FOR_BOTH);
	doc_line(d, FOR_BOTH, "  systematic: the k-th slab allocation of one registration fails, every k");
	doc_line(d, FOR_BOTH, "    %-16s %6s %7s %9s %11s %5s %6s", "flavour", "points", "handled",
		 "tolerated", "leaked B(n)", "sysfs", "majors");
	for (i = 0; i < in->nvariants; i++)
		failure_rows(d, in->variants[i], 0);
	doc_blank(d, FOR_BOTH);
	doc_lines(d, FOR_BOTH,
		  "  failslab sweep: 200 rounds per probability, only this task failing; a\n"
		  "  round whose driver structure failed to allocate (setup) registers nothing\n");
	doc_line(d, FOR_BOTH, "    %-16s %4s %5s %6s %5s %11s %5s %6s", "flavour", "prob", "regd",
		 "failed", "setup", "leaked B(n)", "sysfs", "majors");
	for (i = 0; i < in->nvariants; i++)
		failure_rows(d, in->variants[i], 1);
	doc_blank(d, FOR_BOTH);
	doc_lines(d, FOR_BOTH,
		  "  references on the /sys/cdev and /sys/cdev/major ksets, after minus\n"
		  "  before each group (kernels with cdevs in sysfs):\n");
	for (i = 0; i < in->nvariants; i++)
		kset_refs(d, in->variants[i]);
	doc_line(d, FOR_BOTH, "  kernel warnings (WARN/BUG/oops) in the fault boots:");
	for (i = 0; i < in->nvariants; i++)
		if (find_group("fail_warnings", "-", in->variants[i]))
			doc_line(d, FOR_BOTH, "    %-16s %s", in->variants[i],
				 draw(in->variants[i], "fail_warnings", "-", b, sizeof(b)));
	doc_lines(d, FOR_BOTH,
		  "  embed_put, embed_del, alloc_put and device_put unwind as the API asks:\n"
		  "  they must come out clean (the run fails otherwise); the other flavours\n"
		  "  are drivers' patterns, whose outcome is the next section's finding.\n");
	doc_code(d, FOR_BOTH, 1);
}
