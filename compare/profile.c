// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's last lines, where the boots' time went: the
 * run's profile.tsv (merge.sh), the most expensive steps.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

/* The run's five most expensive boot steps (profile.tsv, which merge.sh
 * sums from every boot's steps.tsv: phase, step, boots, host seconds, the
 * most expensive first). */
#define PROFILE_SHOWN 5
void print_profile(int md)
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
	if (fgets(line, sizeof(line), f))	/* the header */
		printf(md ? "\n## Where the boots' time went\n\nHost seconds summed over boots, the five most expensive steps (`profile.tsv` has every step):\n\n" :
			    "\nWhere the boots' time went: host seconds summed over boots, the\nfive most expensive steps (profile.tsv has every step)\n");
	while (shown < PROFILE_SHOWN && fgets(line, sizeof(line), f)) {
		char *phase = strtok(line, "\t\n"), *step = strtok(NULL, "\t\n");
		char *boots = strtok(NULL, "\t\n"), *seconds = strtok(NULL, "\t\n");
		int cut;	/* a step's name cut to 78 columns, marked where cut */

		if (!seconds)
			continue;
		cut = !md && strlen(step) > 47;
		printf(md ? "- %s s, %s, %s boot%s: %.*s%s\n" : "  %7s s  %-6s %3s boot%s  %.*s%s\n",
		       seconds, phase, boots, strcmp(boots, "1") ? "s" : "", cut ? 44 : (int)strlen(step),
		       step, cut ? "..." : "");
		shown++;
	}
	fclose(f);
}
