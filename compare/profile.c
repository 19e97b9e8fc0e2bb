// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's last lines, where the boots' time went: the
 * run's profile.tsv (merge.sh), the most expensive steps: in the
 * report's model (report_model.h), a line each, which the formats lay
 * out apart (columns in report.txt, a list in report.md).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* The run's five most expensive boot steps (profile.tsv, which merge.sh
 * sums from every boot's steps.tsv: phase, step, boots, host seconds, the
 * most expensive first). */
#define PROFILE_SHOWN 5
void build_profile(struct doc *d)
{
	char path[4096], line[1024], *dir;
	size_t shown = 0;
	FILE *f;

	if (!in->nmetas)
		return;
	dir = xstrdup(in->metas[0].path);
	snprintf(path, sizeof(path), "%s/profile.tsv", dirname(dir));
	free(dir);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {	/* the header */
		doc_blank(d, FOR_BOTH);
		doc_heading(d, FOR_MD, 2, "Where the boots' time went");
		doc_para(d, FOR_MD, "Host seconds summed over boots, the five most expensive steps (`profile.tsv` has every step):");
		doc_lines(d, FOR_TEXT,
			  "Where the boots' time went: host seconds summed over boots, the\n"
			  "five most expensive steps (profile.tsv has every step)\n");
	}
	while (shown < PROFILE_SHOWN && fgets(line, sizeof(line), f)) {
		char *phase = strtok(line, "\t\n"), *step = strtok(NULL, "\t\n");
		char *boots = strtok(NULL, "\t\n"), *seconds = strtok(NULL, "\t\n");
		int cut;	/* a step's name cut to 78 columns, marked where cut */

		if (!seconds)
			continue;
		cut = strlen(step) > 47;
		doc_line(d, FOR_MD, "- %s s, %s, %s boot%s: %s", seconds, phase, boots,
			 strcmp(boots, "1") ? "s" : "", step);
		doc_line(d, FOR_TEXT, "  %7s s  %-6s %3s boot%s  %.*s%s", seconds, phase, boots,
			 strcmp(boots, "1") ? "s" : "", cut ? 44 : (int)strlen(step), step,
			 cut ? "..." : "");
		shown++;
	}
	fclose(f);
}
