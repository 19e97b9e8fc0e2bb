// SPDX-License-Identifier: GPL-2.0
/*
 * compare, changes in kind: the counts per operation that a variant changed
 * against the baseline (the locks each phase takes, the times a teardown
 * waits, kernfs nodes per cdev, the cache lines a cached open shares and
 * which), for the first screen and compare.json.  In icount one vCPU
 * cannot show contention as time; these counts are the evidence of a
 * patch that takes a lock off a path, or puts a wait on one.
 *
 * A count changed in kind when its whole number per operation differs on
 * every boot: the census's fractions (0.01, a timer tick in a hundred
 * opens) do not count, a lock that stopped being taken does.  A side with
 * a boot further than WHOLE_SLACK from a whole number (a lock taken every
 * other operation) is no whole count, and the count is left to the
 * tables.  Every
 * COUNT metric of bench/benchmarks.def is such a count, and so is a
 * sharing boot's lines per operation (its threads in lockstep repeat
 * exactly).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* The census's phases by the operation they time (lock_census.bt). */
static const char *const phase_names[][2] = {
	{ "add", "cdev_add" }, { "del", "cdev_del" },
	{ "lookup", "first open" }, { "cached", "cached open" },
	/* and the teardown windows of its waits */
	{ "unplug_del_cached", "cdev_del of a cached cdev" },
	{ "unplug_close", "last close of a deleted cdev" },
	{ "unplug_exit", "exit holding deleted cdevs" },
};
#define NPHASES (sizeof(phase_names) / sizeof(phase_names[0]))

/* What a count is, for a reader: "locks per cached open". */
static const char *const metric_names[][2] = {
	{ "lock_acquisitions_per_op", "locks" },
	{ "shared_locks_per_op", "shared locks" },
	{ "rwsem_acquisitions_per_op", "rwsem acquisitions" },
	{ "waits_per_op", "waits" },
	{ "kernfs_nodes_per_cdev", "kernfs nodes per cdev" },
	{ "shared_lines_per_op", "shared lines" },
};

static int is_shared_lines(const struct comparison *x)
{
	return !strcmp(x->metric, "shared_lines_per_op");
}

#define WHOLE_SLACK 0.1

/* The range of @v's whole numbers; false where one is not near one. */
static int whole_range(const double *v, size_t n, long *lo, long *hi)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(v[i] - round(v[i])) > WHOLE_SLACK)
			return 0;
	*lo = lround(min_of(v, n));
	*hi = lround(max_of(v, n));
	return n > 0;
}

static size_t phase_index(const char *param)
{
	char phase[32];
	size_t i;

	param_value(param, "phase", phase, sizeof(phase));
	for (i = 0; i < NPHASES && strcmp(phase, phase_names[i][0]); i++)
		;
	return i;
}

/* The line a count is shown on: what is counted per which operation, and
 * of how many threads on how many nodes where the census counts what
 * threads share. */
static void line_title(char *buf, size_t size, const struct comparison *x)
{
	const char *what = x->metric;
	char bench[48], threads[16], nodes[16], who[48] = "";
	size_t i, p = phase_index(x->param);

	for (i = 0; i < sizeof(metric_names) / sizeof(metric_names[0]); i++)
		if (!strcmp(x->metric, metric_names[i][0]))
			what = metric_names[i][1];
	if (!is_shared_lines(x) && param_value(x->param, "threads", threads, sizeof(threads))[0])
		snprintf(who, sizeof(who), " (%s threads, %s)", threads,
			 param_value(x->param, "nodes", nodes, sizeof(nodes))[0] ? "a node each" :
										  "one node");
	if (is_shared_lines(x)) {
		param_value(x->param, "bench", bench, sizeof(bench));
		snprintf(buf, size, "%s per %s", what,
			 !strcmp(bench, "open_cached") ? "cached open" : bench);
	} else if (p < NPHASES) {
		snprintf(buf, size, "%s per %s%s", what, phase_names[p][1], who);
	} else {
		snprintf(buf, size, "%s%s", what, who);
	}
}

/* What a count is of within its line: the lock, or the param less its
 * phase ("n=100"), a wait first ("schedule (alloc=embedded)"); empty for
 * a line of one count. */
static void item_name(char *buf, size_t size, const struct comparison *x)
{
	char *out = buf, wait[48], rest[96];
	const char *p = x->param;

	buf[0] = '\0';
	if (is_shared_lines(x)) {
		char threads[16], nodes[16];

		snprintf(buf, size, "%s threads%s",
			 param_value(x->param, "threads", threads, sizeof(threads)),
			 param_value(x->param, "nodes", nodes, sizeof(nodes))[0] ? " (a node each)" : "");
		return;
	}
	if (!strcmp(x->param, "-"))
		return;
	if (param_value(x->param, "lock", buf, size)[0])
		return;
	param_value(x->param, "wait", wait, sizeof(wait));
	while (*p) {
		size_t len = strcspn(p, ",");

		if (strncmp(p, "phase=", 6) && strncmp(p, "wait=", 5)) {
			if ((size_t)(out - buf) + len + 5 > size) {
				strcpy(out, ",...");	/* never two params as one item */
				break;
			}
			out += sprintf(out, "%s%.*s", out == buf ? "" : ",", (int)len, p);
		}
		p += len + (p[len] == ',');
	}
	if (wait[0]) {
		snprintf(rest, sizeof(rest), "%s", buf);
		snprintf(buf, size, rest[0] ? "%s (%s)" : "%s", wait, rest);
	}
}

/* The names of the shared lines one side's sharing run has (a share of
 * at least half a line per operation), for @x's run (its param and a
 * site). */
static size_t shared_sites(const struct comparison *x, const char *variant, char ***names)
{
	size_t i, n = 0, len = strlen(x->param);
	const char *site;

	*names = NULL;
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->metric, "shared_line_per_op") || strcmp(g->variant, variant) ||
		    strncmp(g->param, x->param, len) || strncmp(g->param + len, ",site=", 6) ||
		    !(median_of_boots(g) >= 0.5))
			continue;
		/* a user-space line is named by its address, which ASLR moves
		 * from boot to boot */
		site = g->param + len + 6;
		if (!strncmp(site, "user@", 5))
			continue;
		*names = xrealloc(*names, (n + 1) * sizeof(**names));
		(*names)[n++] = xstrdup(site);
	}
	return n;
}

static int has_name(char **names, size_t n, const char *name)
{
	while (n--)
		if (!strcmp(names[n], name))
			return 1;
	return 0;
}

/* "gone A, B; new C": the lines one side shares and the other does not,
 * SITES_SHOWN of each at most. */
#define SITES_SHOWN 3
static void site_changes(char *buf, size_t size, const struct comparison *x)
{
	char **base, **var;
	size_t nb = shared_sites(x, opt.baseline, &base);
	size_t nv = shared_sites(x, x->variant, &var), i, len = 0;
	int side;

	buf[0] = '\0';
	for (side = 0; side < 2; side++) {
		char **from = side ? var : base, **to = side ? base : var;
		size_t nfrom = side ? nv : nb, nto = side ? nb : nv, shown = 0;

		size_t more = 0;

		for (i = 0; i < nfrom; i++) {
			int need;

			if (has_name(to, nto, from[i]))
				continue;
			need = snprintf(NULL, 0, "%s%s%s", shown ? ", " : len ? "; " : "",
					shown ? "" : side ? "new " : "gone ", from[i]);
			/* room kept for " and N more" */
			if (shown == SITES_SHOWN || len + (size_t)need + 24 >= size) {
				more++;
				continue;
			}
			len += (size_t)sprintf(buf + len, "%s%s%s", shown ? ", " : len ? "; " : "",
					       shown ? "" : side ? "new " : "gone ", from[i]);
			shown++;
		}
		if (more)
			len += (size_t)sprintf(buf + len, "%s%s %zu more", shown ? " and" : len ? "; " : "",
					       shown ? "" : side ? "new:" : "gone:", more);
	}
	for (i = 0; i < nb; i++)
		free(base[i]);
	for (i = 0; i < nv; i++)
		free(var[i]);
	free(base);
	free(var);
}

static int cmp_kind_change(const void *a, const void *b)
{
	const struct kind_change *x = a, *y = b;
	long dx = labs(x->to_lo - x->from_lo), dy = labs(y->to_lo - y->from_lo);

	if (x->line_zero != y->line_zero)
		return y->line_zero - x->line_zero;
	if (x->order != y->order)
		return x->order - y->order;
	if (strcmp(x->line, y->line))	/* a line's counts together */
		return strcmp(x->line, y->line);
	if (x->zero != y->zero)
		return y->zero - x->zero;
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->item, y->item);
}

size_t kind_changes(const struct comparison *c, size_t n, const char *variant,
		    struct kind_change **out)
{
	struct kind_change *k = NULL;
	size_t i, j, nk = 0;

	for (i = 0; i < n; i++) {
		const struct comparison *x = &c[i];
		struct kind_change ch = { .x = x };
		size_t d;

		if (strcmp(x->variant, variant) || !x->base || !x->var ||
		    (x->decl->kind != COUNT && !is_shared_lines(x)))
			continue;
		if (!whole_range(x->bmed, x->nb, &ch.from_lo, &ch.from_hi) ||
		    !whole_range(x->vmed, x->nv, &ch.to_lo, &ch.to_hi))
			continue;
		if (is_shared_lines(x))
			site_changes(ch.sites, sizeof(ch.sites), x);
		if (ch.to_lo <= ch.from_hi && ch.from_lo <= ch.to_hi && !ch.sites[0])
			continue;	/* the same whole numbers somewhere */
		line_title(ch.line, sizeof(ch.line), x);
		item_name(ch.item, sizeof(ch.item), x);
		/* a named shared line that went or came counts as a lock that did */
		ch.zero = (ch.from_hi == 0) != (ch.to_hi == 0) || ch.sites[0];
		for (d = 0; d < ndecls && strcmp(decls[d].name, x->metric); d++)
			;
		ch.order = (int)(d * (NPHASES + 1) + phase_index(x->param));
		k = xrealloc(k, (nk + 1) * sizeof(*k));
		k[nk++] = ch;
	}
	/* a line with a count that went to or from zero leads */
	for (i = 0; i < nk; i++)
		for (j = 0; j < nk; j++)
			if (!strcmp(k[i].line, k[j].line))
				k[i].line_zero |= k[j].zero;
	if (nk)
		qsort(k, nk, sizeof(*k), cmp_kind_change);
	*out = k;
	return nk;
}

static void format_whole(char *buf, size_t size, long lo, long hi)
{
	snprintf(buf, size, lo == hi ? "%ld" : "%ld..%ld", lo, hi);
}

/* "1 -> 0" */
static void format_move(char *buf, size_t size, const struct kind_change *k)
{
	char a[48], b[48];

	format_whole(a, sizeof(a), k->from_lo, k->from_hi);
	format_whole(b, sizeof(b), k->to_lo, k->to_hi);
	snprintf(buf, size, "%s -> %s", a, b);
}

/* One line per count and operation, at most max_lines, each wrapped:
 * "locks per cached open: cdev_lock 1 -> 0". */
/* Line k[i..j) of the changes (one "line", such as "locks per cached
 * open"), as it is written unwrapped. */
static void write_kind_line(FILE *out, const struct kind_change *k, size_t i, size_t j)
{
	char move[112];
	size_t m;
	int same = 1;

	for (m = i; m < j; m++)
		same &= k[m].from_lo == k[i].from_lo && k[m].from_hi == k[i].from_hi &&
			k[m].to_lo == k[i].to_lo && k[m].to_hi == k[i].to_hi;
	fprintf(out, "%s:", k[i].line);
	format_move(move, sizeof(move), &k[i]);
	/* counts of a param each (kernfs nodes at each N) that all moved
	 * alike: the move once, then where */
	if (same && j - i > 1 && strchr(k[i].item, '=')) {
		fprintf(out, " %s at", move);
		for (m = i; m < j; m++)
			fprintf(out, "%s %s", m > i ? "," : "", k[m].item);
	} else {
		int same_sites = 1;

		for (m = i; m < j; m++)
			same_sites &= !strcmp(k[m].sites, k[i].sites);
		for (m = i; m < j; m++) {
			format_move(move, sizeof(move), &k[m]);
			fprintf(out, "%s%s%s %s", m > i ? "," : "", k[m].item[0] ? " " : "",
				k[m].item, move);
			if (k[m].sites[0] && (!same_sites || m == j - 1))
				fprintf(out, "; %s", k[m].sites);
		}
	}
}

/* The end of the line that starts at k[i]. */
static size_t kind_line_end(const struct kind_change *k, size_t nk, size_t i)
{
	size_t j;

	for (j = i; j < nk && !strcmp(k[j].line, k[i].line); j++)
		;
	return j;
}

void build_kind_changes(struct doc *d, const struct comparison *c, size_t n, const char *variant,
			size_t max_lines, int width)
{
	struct kind_change *k;
	size_t nk = kind_changes(c, n, variant, &k), i, j, lines = 0, hidden = 0;
	struct doc_piece line;
	struct node *x;

	for (i = 0; i < nk; i = j) {
		j = kind_line_end(k, nk, i);
		if (lines == max_lines) {
			hidden++;
			continue;
		}
		if (!lines++)
			doc_line(d, FOR_BOTH, "  changed in kind (whole counts per operation, on every boot):");
		/* a block's line: wrapped in report.md too */
		write_kind_line(doc_begin(&line), k, i, j);
		x = doc_end(&line, d, NODE_LINE, FOR_BOTH);
		x->text_layout = x->md_layout =
			(struct layout){ .width = width, .first = "    ", .rest = "    " };
	}
	if (hidden)
		doc_line(d, FOR_BOTH, "    %zu more line%s of changed counts (Lock census, Shared cache lines below)",
			 hidden, hidden == 1 ? "" : "s");
	free(k);
}

void print_kind_changes(FILE *scr, const struct comparison *c, size_t n, const char *variant,
			size_t max_lines, int width)
{
	struct doc d = { 0 };

	build_kind_changes(&d, c, n, variant, max_lines, width);
	render_text(scr, &d);
	doc_free(&d);
}

char *first_kind_change(const struct comparison *c, size_t n, const char *variant,
			size_t *lines)
{
	struct kind_change *k;
	size_t nk = kind_changes(c, n, variant, &k), i, len = 0;
	char *text = NULL;
	FILE *out = xmemstream(&text, &len);

	for (i = 0, *lines = 0; i < nk; i = kind_line_end(k, nk, i))
		(*lines)++;
	if (nk)
		write_kind_line(out, k, 0, kind_line_end(k, nk, 0));
	fclose(out);
	free(k);
	return text;
}

void print_first_kind_change(FILE *scr, const struct comparison *c, size_t n,
			     const char *variant, int more)
{
	size_t lines;
	char *text = first_kind_change(c, n, variant, &lines);

	if (lines)
		paragraph(scr, 78, "  ", "    ", "%s, %s", variant, text);
	if (more && lines > 1)
		fprintf(scr, "    and %zu more line%s in its block\n", lines - 1,
			lines == 2 ? "" : "s");
	free(text);
}
