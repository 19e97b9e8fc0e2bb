// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's list of plots: compare.sh draws them with
 * gnuplot and hands the engine their list (--plots), so that the report
 * says what was drawn and what was skipped, and why.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

/* The plots compare.sh drew, one "file: what" or "skipped ...: why" per
 * line of the list (--plots); nothing without one. */
void print_plots(int md)
{
	char line[1024], *dir;
	FILE *f;

	if (!opt.plots)
		return;
	f = fopen(opt.plots, "r");
	if (!f)
		die("cannot open the plot list %s", opt.plots);
	dir = xstrdup(opt.plots);
	if (md)
		printf("## Plots\n\n");
	else
		printf("Plots (in %s)\n", dirname(dir));
	free(dir);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (md)
			printf("- %s\n", line);
		else
			paragraph(stdout, 76, "  ", "  ", "%s", line);
	}
	fclose(f);
}
