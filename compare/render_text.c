// SPDX-License-Identifier: GPL-2.0
/*
 * compare, report.txt's renderer: the report's model (report_model.h) in
 * fixed width, paragraphs wrapped at their width, tables in columns; and
 * the one paragraph writer (compare.h), with which the parts written by
 * their own files wrap their text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* Text broken at spaces into lines of at most width columns, the first
 * after first, the others after rest. */
static void wrap(FILE *out, const char *text, int width, const char *first, const char *rest)
{
	const char *indent = first;
	int col = 0;

	while (*text) {
		int len = (int)strcspn(text, " ");

		/* "0 -> 2" is one word: a line that ends in "0" says nothing */
		while (!strncmp(text + len, " -> ", 4))
			len += 4 + (int)strcspn(text + len + 4, " ");

		if (col && col + 1 + len > width) {
			fprintf(out, "\n");
			col = 0;
			indent = rest;
		}
		if (!col)
			col = fprintf(out, "%s", indent) - 1;
		fprintf(out, "%s%.*s", col > (int)strlen(indent) - 1 ? " " : "", len, text);
		col += 1 + len;
		text += len;
		text += strspn(text, " ");
	}
	fprintf(out, "\n");
}

FILE *paragraph_begin(struct paragraph *p, FILE *out, int width, const char *first,
		      const char *rest)
{
	*p = (struct paragraph){ .out = out, .width = width, .first = first, .rest = rest };
	p->f = xmemstream(&p->text, &p->len);
	return p->f;
}

void paragraph_end(struct paragraph *p)
{
	fclose(p->f);
	if (p->width)
		wrap(p->out, p->text, p->width, p->first, p->rest);
	else
		fputs(p->text, p->out);
	free(p->text);
}

void paragraph(FILE *out, int width, const char *first, const char *rest, const char *fmt, ...)
{
	struct paragraph p;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(paragraph_begin(&p, out, width, first, rest), fmt, ap);
	va_end(ap);
	paragraph_end(&p);
}

/* A paragraph or a line as @l lays it out, in either format. */
void lay_out(FILE *out, const char *text, const struct layout *l)
{
	if (l->width)
		wrap(out, text, l->width, l->first, l->rest);
	else
		fprintf(out, "%s%s\n", l->first, text);
}

static void text_cell(FILE *f, const struct table *t, size_t r, size_t k)
{
	const char *cell = t->cells[r * t->ncols + k];

	fprintf(f, t->right[k] ? "%*.*s" : "%-*.*s", t->width[k],
		t->clip[k] ? t->width[k] : (int)strlen(cell), cell);
}

/* A row of columns 0 and from..to-1, the trailing spaces cut. */
static void text_row(FILE *out, const struct table *t, size_t r, size_t from, size_t to)
{
	char *row = NULL;
	size_t len = 0, k;
	FILE *f = xmemstream(&row, &len);

	fputs(t->indent, f);
	text_cell(f, t, r, 0);
	for (k = from; k < to; k++) {
		fputc(' ', f);
		text_cell(f, t, r, k);
	}
	fclose(f);
	while (len > 0 && row[len - 1] == ' ')
		row[--len] = '\0';
	fprintf(out, "%s\n", row);
	free(row);
}

static void text_table(FILE *out, const struct table *t)
{
	size_t step = t->chunk ? t->chunk : t->ncols - 1, from, to, r;

	for (from = 1;; from += step) {
		to = from + step < t->ncols ? from + step : t->ncols;
		for (r = 0; r < t->nrows; r++)
			text_row(out, t, r, from, to);
		if (to >= t->ncols)
			break;
	}
}

void render_text(FILE *out, const struct doc *d)
{
	const struct node *x;

	for (x = d->head; x; x = x->next) {
		if (!(x->formats & FOR_TEXT))
			continue;
		switch (x->kind) {
		case NODE_HEADING:
			fprintf(out, "%s\n", x->text);
			break;
		case NODE_PARA:
		case NODE_LINE:
			lay_out(out, x->text, &x->text_layout);
			break;
		case NODE_BLANK:
			fputc('\n', out);
			break;
		case NODE_CODE:
			if (x->end)
				fputc('\n', out);
			break;
		case NODE_TABLE:
			text_table(out, x->table);
			break;
		case NODE_RAW:
			fputs(x->text, out);
			break;
		}
	}
}

size_t text_lines(const struct doc *d)
{
	char *text = NULL, *p;
	size_t len = 0, lines = 0;
	FILE *f = xmemstream(&text, &len);

	render_text(f, d);
	fclose(f);
	for (p = text; *p; p++)
		lines += *p == '\n';
	free(text);
	return lines;
}
