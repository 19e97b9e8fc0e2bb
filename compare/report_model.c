// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's model (report_model.h): its nodes, added and
 * copied; and the words and numbers its builders share.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"
#include "stats.h"

static struct node *add(struct doc *d, enum node_kind kind, int formats)
{
	struct node *x = xmalloc(sizeof(*x));

	*x = (struct node){ .kind = kind, .formats = formats,
			    .text_layout = { .first = "", .rest = "" },
			    .md_layout = { .first = "", .rest = "" } };
	if (d->tail)
		d->tail->next = x;
	else
		d->head = x;
	d->tail = x;
	return x;
}

static char *vformat(const char *fmt, va_list ap)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = xmemstream(&text, &len);

	vfprintf(f, fmt, ap);
	fclose(f);
	return text;
}

struct node *doc_heading(struct doc *d, int formats, int level, const char *fmt, ...)
{
	struct node *x = add(d, NODE_HEADING, formats);
	va_list ap;

	va_start(ap, fmt);
	x->text = vformat(fmt, ap);
	va_end(ap);
	x->level = level;
	return x;
}

struct node *doc_para(struct doc *d, int formats, const char *fmt, ...)
{
	struct node *x = add(d, NODE_PARA, formats);
	va_list ap;

	va_start(ap, fmt);
	x->text = vformat(fmt, ap);
	va_end(ap);
	x->text_layout.width = 78;
	return x;
}

struct node *doc_line(struct doc *d, int formats, const char *fmt, ...)
{
	struct node *x = add(d, NODE_LINE, formats);
	va_list ap;

	va_start(ap, fmt);
	x->text = vformat(fmt, ap);
	va_end(ap);
	return x;
}

void doc_blank(struct doc *d, int formats)
{
	add(d, NODE_BLANK, formats);
}

void doc_code(struct doc *d, int formats, int end)
{
	add(d, NODE_CODE, formats)->end = end;
}

void doc_raw(struct doc *d, int formats, char *text, char *md)
{
	struct node *x = add(d, NODE_RAW, formats);

	x->text = text;
	x->md = md;
}

void doc_lines(struct doc *d, int formats, const char *text)
{
	while (*text) {
		int len = (int)strcspn(text, "\n");

		doc_line(d, formats, "%.*s", len, text);
		text += len + (text[len] == '\n');
	}
}

FILE *doc_begin(struct doc_piece *p)
{
	*p = (struct doc_piece){ 0 };
	p->f = xmemstream(&p->text, &p->len);
	return p->f;
}

struct node *doc_end(struct doc_piece *p, struct doc *d, enum node_kind kind, int formats)
{
	struct node *x = add(d, kind, formats);

	fclose(p->f);
	x->text = p->text;
	if (kind == NODE_PARA)
		x->text_layout.width = 78;
	return x;
}

struct table *doc_table(struct doc *d, int formats, size_t ncols)
{
	struct table *t = xmalloc(sizeof(*t));

	*t = (struct table){ .ncols = ncols, .indent = "" };
	t->width = xmalloc(ncols * sizeof(*t->width));
	t->right = xmalloc(ncols);
	t->clip = xmalloc(ncols);
	memset(t->width, 0, ncols * sizeof(*t->width));
	memset(t->right, 0, ncols);
	memset(t->clip, 0, ncols);
	add(d, NODE_TABLE, formats)->table = t;
	return t;
}

void table_cell(struct table *t, const char *fmt, ...)
{
	va_list ap;

	if (t->ncells == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8 * t->ncols;
		t->cells = xrealloc(t->cells, t->cap * sizeof(*t->cells));
	}
	va_start(ap, fmt);
	t->cells[t->ncells++] = vformat(fmt, ap);
	va_end(ap);
	t->nrows = t->ncells / t->ncols;
}

void table_md_header(struct table *t, size_t k, const char *fmt, ...)
{
	va_list ap;

	if (!t->md_header) {
		t->md_header = xmalloc(t->ncols * sizeof(*t->md_header));
		memset(t->md_header, 0, t->ncols * sizeof(*t->md_header));
	}
	va_start(ap, fmt);
	t->md_header[k] = vformat(fmt, ap);
	va_end(ap);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct table *copy_table(const struct table *t)
{
	struct table *c = xmalloc(sizeof(*c));
	size_t k;

	*c = *t;
	c->cap = t->ncells;
	c->cells = xmalloc((t->ncells ? t->ncells : 1) * sizeof(*c->cells));
	for (k = 0; k < t->ncells; k++)
		c->cells[k] = xstrdup(t->cells[k]);
	c->md_header = NULL;
	if (t->md_header) {
		c->md_header = xmalloc(t->ncols * sizeof(*c->md_header));
		for (k = 0; k < t->ncols; k++)
			c->md_header[k] = dup_or_null(t->md_header[k]);
	}
	c->width = xmalloc(t->ncols * sizeof(*c->width));
	memcpy(c->width, t->width, t->ncols * sizeof(*c->width));
	c->right = xmalloc(t->ncols);
	memcpy(c->right, t->right, t->ncols);
	c->clip = xmalloc(t->ncols);
	memcpy(c->clip, t->clip, t->ncols);
	return c;
}

void doc_copy(struct doc *to, const struct doc *from, int formats)
{
	const struct node *x;

	for (x = from->head; x; x = x->next) {
		struct node *y;

		if (!(x->formats & formats))
			continue;
		y = add(to, x->kind, x->formats & formats);
		y->level = x->level;
		y->end = x->end;
		y->text = dup_or_null(x->text);
		y->md = dup_or_null(x->md);
		y->text_layout = x->text_layout;
		y->md_layout = x->md_layout;
		y->table = x->table ? copy_table(x->table) : NULL;
	}
}

static void free_table(struct table *t)
{
	size_t k;

	for (k = 0; k < t->ncells; k++)
		free(t->cells[k]);
	for (k = 0; t->md_header && k < t->ncols; k++)
		free(t->md_header[k]);
	free(t->cells);
	free(t->md_header);
	free(t->width);
	free(t->right);
	free(t->clip);
	free(t);
}

void doc_free(struct doc *d)
{
	struct node *x, *next;

	for (x = d->head; x; x = next) {
		next = x->next;
		free(x->text);
		free(x->md);
		if (x->table)
			free_table(x->table);
		free(x);
	}
	*d = (struct doc){ 0 };
}

/* A ratio as a change in percent, whole percent once it is large. */
void format_pct(char *buf, size_t size, double ratio, const char *sign)
{
	double pct = (ratio - 1) * 100;

	if (isnan(ratio))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, fabs(pct) >= 100 ? "%+.0f%s" : "%+.1f%s", pct, sign);
}

/* A median in at most 7 columns. */
void format_median(char *buf, size_t size, double v)
{
	snprintf(buf, size, fabs(v) >= 1e6 ? "%.1e" : fabs(v) >= 100 ? "%.0f" : "%.1f", v);
}

void format_interval(char *buf, size_t size, double lo, double hi)
{
	char a[16], b[16];

	if (isnan(lo) || isnan(hi)) {
		snprintf(buf, size, "n/a");
		return;
	}
	format_pct(a, sizeof(a), lo, "");
	format_pct(b, sizeof(b), hi, "");
	snprintf(buf, size, "%s..%s", a, b);
}

/* An exact count comparison: "0 -> 2", with ranges where boots differ. */
void format_counts(char *buf, size_t size, const struct comparison *x)
{
	double bmin = min_of(x->bmed, x->nb), bmax = max_of(x->bmed, x->nb);
	double vmin = min_of(x->vmed, x->nv), vmax = max_of(x->vmed, x->nv);
	char b[32], v[32];

	snprintf(b, sizeof(b), bmin == bmax ? "%g" : "%g..%g", bmin, bmax);
	snprintf(v, sizeof(v), vmin == vmax ? "%g" : "%g..%g", vmin, vmax);
	snprintf(buf, size, "%s -> %s", b, v);
}

void format_range(char *buf, size_t size, const struct comparison *x, double lo, double hi)
{
	char a[16], b[16];

	if (x->decl->kind == COUNT) {
		format_counts(buf, size, x);
		return;
	}
	format_pct(a, sizeof(a), lo, "%");
	format_pct(b, sizeof(b), hi, "%");
	snprintf(buf, size, lo == hi ? "%s" : "%s..%s", a, b);
}

int cmp_effect(const void *a, const void *b)
{
	const struct comparison *x = *(const struct comparison *const *)a;
	const struct comparison *y = *(const struct comparison *const *)b;
	double ex = isnan(x->ratio) ? INFINITY : fabs(log(x->ratio));
	double ey = isnan(y->ratio) ? INFINITY : fabs(log(y->ratio));

	return (ey > ex) - (ey < ex);
}

/* A walk's prefix has no column or block: its steps are in its walk's
 * block. */
int is_reported(const char *variant)
{
	return strcmp(variant, opt.baseline) && !(aa_arm && !strcmp(variant, aa_arm)) &&
	       !is_walk_prefix(variant);
}

void write_base(FILE *out, const json_t *b)
{
	fprintf(out, "%s", member_string(b, "kernel_version", "?"));
	if (member_string(b, "package", NULL))
		fprintf(out, " (%s %s)", member_string(b, "package", "?"),
			member_string(b, "package_version", "?"));
	else
		fprintf(out, " (tree %s%s%s%s)", member_string(b, "tree", "?"),
			member_string(b, "git_describe", NULL) ? ", " : "",
			member_string(b, "git_describe", ""),
			json_is_true(json_object_get(b, "git_dirty")) ? "-dirty" : "");
}
