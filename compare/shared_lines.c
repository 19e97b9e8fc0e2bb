// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's "Shared cache lines" section: the TCG plugin's
 * sharing boot (bench/plugin/pmu_rows.c's rows), per variant and
 * cached-open run, the lines an operation shares and the largest by name,
 * sorted as the memory sites are (memory_sites.c); a block of the
 * report's model (report_model.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* The TCG plugin's sharing boot: per variant and cached-open run (one
 * node, or a node each: nodes=many), the lines an operation shares
 * (lockstep), the transfers of the free run (none with TCG thread=multi,
 * whose callbacks do not tell the plugin the order of the accesses:
 * docs/plugin.md; none of nodes=many, which runs in lockstep only), and
 * the largest lines by name (bench/plugin/pmu_rows.c). */
void build_shared_lines(struct doc *d)
{
	char bench[48], threads[48], nodes[48], param[160], vcpus[16], inter[16], transfers[96];
	const struct group *free_run;
	struct doc_piece row;
	FILE *out;
	struct site *lines = NULL;	/* a line's name and its share per op */
	const char *at;
	size_t i, j, k, n, len;
	int any = 0;

	for (i = 0; i < in->ngroups && !any; i++)
		any = !strcmp(in->groups[i].metric, "shared_lines_per_op");
	if (!any)
		return;
	if (!strcmp(meta_field("pmu_interleave", inter, sizeof(inter)), "multi"))
		snprintf(transfers, sizeof(transfers),
			 "no transfers\n(TCG thread=multi, whose callbacks do not order the\naccesses)");
	else
		snprintf(transfers, sizeof(transfers), "transfers with\nthe threads free, TCG thread=%s",
			 inter);
	doc_heading(d, FOR_MD, 2, "Shared cache lines");
	doc_code(d, FOR_BOTH, 0);
	doc_line(d, FOR_BOTH, "Shared cache lines (TCG plugin, %s vCPUs): per operation, the lines it\n"
		 "writes that another CPU touches, threads in lockstep; %s; the largest lines by data symbol,\n"
		 "or for the heap the functions of the first store/load",
		 meta_field("pmu_vcpus", vcpus, sizeof(vcpus)), transfers);
	/* one node's runs first, then a node each's */
	for (k = 0; k < 2 * in->ngroups; k++) {
		const struct group *g = &in->groups[k % in->ngroups];

		if (strcmp(g->metric, "shared_lines_per_op") ||
		    (param_value(g->param, "nodes", nodes, sizeof(nodes))[0] != '\0') !=
			    (k >= in->ngroups))
			continue;
		param_value(g->param, "bench", bench, sizeof(bench));
		param_value(g->param, "threads", threads, sizeof(threads));
		free_run = NULL;
		at = strstr(g->param, "sched=lockstep");
		if (at) {
			snprintf(param, sizeof(param), "%.*ssched=free%s", (int)(at - g->param),
				 g->param, at + strlen("sched=lockstep"));
			free_run = find_group("transfers_per_op", param, g->variant);
		}
		out = doc_begin(&row);
		fprintf(out, "  %-16s %s threads=%s%s%s: %.1f lines/op", g->variant, bench, threads,
			nodes[0] ? ",nodes=" : "", nodes, median_of_boots(g));
		if (free_run)
			fprintf(out, ", %.2f transfers/op", median_of_boots(free_run));
		fprintf(out, "%s", race_mark(g->variant));
		doc_end(&row, d, NODE_LINE, FOR_BOTH);
		n = 0;
		len = strlen(g->param);
		for (j = 0; j < in->ngroups; j++) {
			const struct group *l = &in->groups[j];

			/* its lines: its param and a site */
			if (strcmp(l->metric, "shared_line_per_op") || strcmp(l->variant, g->variant) ||
			    strncmp(l->param, g->param, len) || strncmp(l->param + len, ",site=", 6))
				continue;
			lines = xrealloc(lines, (n + 1) * sizeof(*lines));
			lines[n].variant = l->variant;
			snprintf(lines[n].name, sizeof(lines[n].name), "%s", l->param + len + 6);
			lines[n++].value = median_of_boots(l);
		}
		if (n)
			qsort(lines, n, sizeof(*lines), cmp_site);
		for (j = 0; j < n; j++)
			doc_line(d, FOR_BOTH, "    %-46s %5.2f", lines[j].name, lines[j].value);
	}
	free(lines);
	doc_code(d, FOR_BOTH, 1);
}
