// SPDX-License-Identifier: GPL-2.0
/*
 * compare, report.md's renderer: the report's model (report_model.h) in
 * markdown, headings with "#", a blank line after each paragraph, blocks
 * fenced, tables with pipes.
 */
#include <stdio.h>
#include "report_model.h"

static void md_row(FILE *out, char *const *cells, const struct table *t, size_t r)
{
	size_t k;

	fputc('|', out);
	for (k = 0; k < t->ncols; k++) {
		const char *cell = !r && t->md_header && t->md_header[k] ? t->md_header[k] :
				   cells[k];

		fprintf(out, *cell ? " %s |" : " |", cell);
	}
	fputc('\n', out);
}

static void md_table(FILE *out, const struct table *t)
{
	size_t r, k;

	for (r = 0; r < t->nrows; r++) {
		md_row(out, t->cells + r * t->ncols, t, r);
		if (r)
			continue;
		fputc('|', out);
		for (k = 0; k < t->ncols; k++)
			fputs(t->right[k] ? "---:|" : "---|", out);
		fputc('\n', out);
	}
}

void render_md(FILE *out, const struct doc *d)
{
	const struct node *x;

	for (x = d->head; x; x = x->next) {
		if (!(x->formats & FOR_MD))
			continue;
		switch (x->kind) {
		case NODE_HEADING:
			fprintf(out, "%.*s %s\n\n", x->level, "######", x->text);
			break;
		case NODE_PARA:
			lay_out(out, x->text, &x->md_layout);
			fputc('\n', out);
			break;
		case NODE_LINE:
			lay_out(out, x->text, &x->md_layout);
			break;
		case NODE_BLANK:
			fputc('\n', out);
			break;
		case NODE_CODE:
			fputs(x->end ? "```\n\n" : "```\n", out);
			break;
		case NODE_TABLE:
			md_table(out, x->table);
			break;
		case NODE_RAW:
			fputs(x->md, out);
			break;
		}
	}
}
