/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare, the report's model: report.txt and report.md are one document,
 * a list of nodes built once from the comparisons (report_model.c, the
 * first screen in summary.c, every comparison in tables.c), then written
 * by two renderers that know nothing of the data: render_text.c and
 * render_md.c.  A node is for both formats, or for one where the formats
 * say it differently (report.txt numbers the matrix's columns, report.md
 * names them; report.txt has a table per metric, report.md one per
 * variant).
 */
#ifndef CDEVBENCH_REPORT_MODEL_H
#define CDEVBENCH_REPORT_MODEL_H

#include <stddef.h>
#include <stdio.h>
#include "compare.h"

/* The formats a node is written in. */
#define FOR_TEXT 1
#define FOR_MD 2
#define FOR_BOTH (FOR_TEXT | FOR_MD)

/* How a format lays a paragraph or line out: broken at spaces into lines
 * of at most width columns, the first after first, the others after rest;
 * where width is 0, first and the text as it was written. */
struct layout {
	int width;
	const char *first, *rest;
};

enum node_kind {
	NODE_HEADING,	/* text: the title and a newline; md: "#" level times, a blank line */
	NODE_PARA,	/* laid out; md: then a blank line */
	NODE_LINE,	/* a line of a block, laid out: in md as in text, no blank line */
	NODE_BLANK,	/* an empty line */
	NODE_CODE,	/* md's fences around the lines of a block: begin, then end */
	NODE_TABLE,	/* a table: header row and cells */
	NODE_RAW,	/* text laid out already, per format (what is left written
			 * by its own file: answer.c's lead and answers, and
			 * report.txt's first changes in kind when the first
			 * screen is full) */
};

/* A table: nrows rows of ncols cells, row 0 the header (in md, md_header
 * where it names the columns otherwise).  In text, each row after indent,
 * its cells padded to width[k] (right-aligned where right[k]) and joined by
 * a space, the trailing spaces cut; where chunk, at most chunk columns
 * after the first at a time, each chunk a table of its own.  In md, right
 * aligns a column right.  In text, where clip[k], a cell of column k is
 * cut to width[k]. */
struct table {
	size_t ncols, nrows, ncells, cap;
	char **cells;
	char **md_header;
	const char *indent;
	int *width;
	unsigned char *right, *clip;
	size_t chunk;
};

struct node {
	enum node_kind kind;
	int formats;
	int level;		/* a heading's */
	int end;		/* NODE_CODE: the end of the block */
	char *text;		/* a heading's, a paragraph's or a line's; raw: report.txt's */
	char *md;		/* raw: report.md's */
	struct layout text_layout, md_layout;
	struct table *table;
	struct node *next;
};

struct doc {
	struct node *head, *tail;
};

/* Nodes added at the end of @d, for @formats: a heading; a paragraph and
 * a line (md unwrapped, text wrapped at 78 columns: change their layouts
 * through the node returned); an empty line; a code block's begin or end;
 * text laid out already, owned by the node. */
struct node *doc_heading(struct doc *d, int formats, int level, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct node *doc_para(struct doc *d, int formats, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct node *doc_line(struct doc *d, int formats, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void doc_blank(struct doc *d, int formats);
void doc_code(struct doc *d, int formats, int end);
void doc_raw(struct doc *d, int formats, char *text, char *md);
/* A block's lines written already (each ended by a newline), a line
 * node each, as written in both formats. */
void doc_lines(struct doc *d, int formats, const char *text);
/* A paragraph or line written in pieces: to the stream doc_begin()
 * returns, added by doc_end(). */
struct doc_piece {
	FILE *f;
	char *text;
	size_t len;
};
FILE *doc_begin(struct doc_piece *p);
struct node *doc_end(struct doc_piece *p, struct doc *d, enum node_kind kind, int formats);
/* A table of @ncols columns, its header the cells of row 0. */
struct table *doc_table(struct doc *d, int formats, size_t ncols);
/* A cell of the row being filled (a row is full at ncols cells). */
void table_cell(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* md's name of column @k where it differs from the header's. */
void table_md_header(struct table *t, size_t k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Copies of @from's nodes added at the end of @to, each for the formats
 * of @formats it is for (a part the formats place apart). */
void doc_copy(struct doc *to, const struct doc *from, int formats);
void doc_free(struct doc *d);

/* The renderers: report.txt and report.md from the model. */
void render_text(FILE *out, const struct doc *d);
void render_md(FILE *out, const struct doc *d);
/* A paragraph's or a line's text as @l lays it out (render_text.c). */
void lay_out(FILE *out, const char *text, const struct layout *l);
/* The lines @d has in report.txt. */
size_t text_lines(const struct doc *d);

/* The builders: the first screen (summary.c), with each walk's block
 * (walk.c) in at most max_changes lines of changes, and every comparison
 * (tables.c); the sections after them are compare.h's REPORT_SECTIONS. */
void build_summary(struct doc *d, const struct comparison *c, size_t n);
void build_walk_blocks(struct doc *d, const struct comparison *c, size_t n, size_t max_changes);
void build_tables(struct doc *d, const struct comparison *c, size_t n);
/* The lines of a variant's block that say why it did not boot
 * (failures.c). */
void build_did_not_boot_block(struct doc *d, const char *arm);
/* @variant's changes in kind under a heading, at most @max_lines lines
 * of @width columns, and how many more there are (kind.c): a block's
 * lines. */
void build_kind_changes(struct doc *d, const struct comparison *c, size_t n, const char *variant,
			size_t max_lines, int width);

/* The words and numbers the builders share (report_model.c). */
/* An interval "lo..hi" of ratios as changes in percent. */
void format_interval(char *buf, size_t size, double lo, double hi);
/* The change of a metric over the comparisons whose ratios span lo..hi,
 * led by x, the largest: a count's values ("0 -> 2"), else the ratio's
 * range as changes in percent. */
void format_range(char *buf, size_t size, const struct comparison *x, double lo, double hi);

#endif
