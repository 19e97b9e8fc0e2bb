// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's list of plots: compare.sh draws them with
 * gnuplot and hands the engine their list (--plots), so that the report
 * says what was drawn and what was skipped, and why: a line each in the
 * report's model (report_model.h), wrapped in report.txt, a list item in
 * report.md.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* The plots compare.sh drew, one "file: what" or "skipped ...: why" per
 * line of the list (--plots); nothing without one. */
void build_plots(struct doc *d)
{
	char line[1024], *dir;
	struct node *x;
	FILE *f;

	if (!opt.plots)
		return;
	f = fopen(opt.plots, "r");
	if (!f)
		die("cannot open the plot list %s", opt.plots);
	dir = xstrdup(opt.plots);
	doc_heading(d, FOR_MD, 2, "Plots");
	doc_line(d, FOR_TEXT, "Plots (in %s)", dirname(dir));
	free(dir);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		x = doc_line(d, FOR_BOTH, "%s", line);
		x->text_layout = (struct layout){ .width = 76, .first = "  ", .rest = "  " };
		x->md_layout.first = "- ";
	}
	fclose(f);
}
