// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's "Lock census" section: lock_census.bt's
 * lock_acquisitions_per_op rows, a table per phase of the benchmarks, and
 * its shared_locks_per_op rows, a table per run of two threads, a column
 * per variant: tables of the report's model (report_model.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

struct census_lock {
	char name[64];
	double most;	/* the largest count of any variant: the sort key */
};

static int cmp_census_lock(const void *a, const void *b)
{
	const struct census_lock *x = a, *y = b;

	if (x->most != y->most)
		return x->most < y->most ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The lock of @param if it is @params (a table's) and a lock, or NULL. */
static const char *lock_of(const char *param, const char *params)
{
	size_t len = strlen(params);

	return strncmp(param, params, len) || strncmp(param + len, ",lock=", 6) ? NULL :
		param + len + 6;
}

/*
 * The lock census (lock_census.bt): per benchmark operation, every lock
 * taken and how often, a column per variant (0 where its census did not
 * see the lock), the most taken first; then the locks two threads'
 * cached opens share, on one node and on a node each.
 */
void build_lock_census(struct doc *d)
{
	static const struct { const char *metric, *params, *title; } tables[] = {
		{ "lock_acquisitions_per_op", "phase=add", "cdev_add()" },
		{ "lock_acquisitions_per_op", "phase=del", "cdev_del()" },
		{ "lock_acquisitions_per_op", "phase=lookup",
		  "open_lookup: a first open, through the map" },
		{ "lock_acquisitions_per_op", "phase=cached",
		  "open_cached: an open and close of a cached node" },
		{ "shared_locks_per_op", "threads=2,phase=cached", "locks 2 threads share, one node" },
		{ "shared_locks_per_op", "threads=2,nodes=many,phase=cached",
		  "locks 2 threads share, a node each" },
	};
	char param[160];
	struct census_lock *locks = xmalloc(in->ngroups * sizeof(*locks));
	const char *lock;
	size_t t, i, j, k, nlocks;
	struct doc_piece columns;
	struct table *tab;
	struct node *x;
	FILE *f;

	for (i = 0; i < in->ngroups && strcmp(in->groups[i].metric, "lock_acquisitions_per_op");
	     i++)
		;
	if (i == in->ngroups) {
		free(locks);
		return;
	}
	doc_heading(d, FOR_BOTH, 2, "Lock census");
	x = doc_line(d, FOR_BOTH,
		     "Acquisitions per operation of every lock on the measured path "
		     "(lock_census.bt, median of boots, traced pass): a static lock by its "
		     "symbol, one embedded in an object as KIND@FUNCTION, the function that "
		     "took it.  RCU read sections are not counted (PREEMPT_NONE compiles "
		     "rcu_read_lock() to nothing).  Then the locks two threads share, per "
		     "cached open of open_cached: the acquisitions of a lock at an "
		     "address both threads took (shared_locks_per_op), on one node, and "
		     "on a node each, where a lock of the node is no longer shared (the "
		     "threads' fd table is one, as threads' is: processes would not "
		     "share its lock).");
	x->text_layout = (struct layout){ .width = 76, .first = "  ", .rest = "  " };
	x->md_layout.width = 76;
	/* report.md names the columns in each table's header */
	f = doc_begin(&columns);
	fprintf(f, "Columns:");
	for (j = 0; j < in->nvariants; j++)
		fprintf(f, " [%zu] %s%s", j + 1, in->variants[j], race_mark(in->variants[j]));
	x = doc_end(&columns, d, NODE_LINE, FOR_TEXT);
	x->text_layout = (struct layout){ .width = 76, .first = "  ", .rest = "  " };
	for (t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		nlocks = 0;
		for (i = 0; i < in->ngroups; i++) {
			const struct group *g = &in->groups[i];
			double v;

			if (strcmp(g->metric, tables[t].metric) ||
			    !(lock = lock_of(g->param, tables[t].params)))
				continue;
			v = median_of_boots(g);
			for (k = 0; k < nlocks && strcmp(locks[k].name, lock); k++)
				;
			if (k == nlocks) {
				snprintf(locks[k].name, sizeof(locks[k].name), "%s", lock);
				locks[nlocks++].most = v;
			} else if (v > locks[k].most) {
				locks[k].most = v;
			}
		}
		if (!nlocks)
			continue;
		qsort(locks, nlocks, sizeof(*locks), cmp_census_lock);
		doc_blank(d, FOR_BOTH);
		doc_line(d, FOR_TEXT, "  %s (%s)", tables[t].title, tables[t].params);
		doc_line(d, FOR_MD, "%s (`%s`)", tables[t].title, tables[t].params);
		doc_blank(d, FOR_MD);
		tab = doc_table(d, FOR_BOTH, in->nvariants + 1);
		tab->indent = "    ";
		tab->width[0] = 32;
		tab->clip[0] = 1;
		table_cell(tab, "lock");
		for (j = 0; j < in->nvariants; j++) {
			tab->width[j + 1] = 7;
			tab->right[j + 1] = 1;
			table_cell(tab, "[%zu]", j + 1);
			table_md_header(tab, j + 1, "%s%s", in->variants[j],
					race_mark(in->variants[j]));
		}
		for (k = 0; k < nlocks; k++) {
			table_cell(tab, "%s", locks[k].name);
			for (j = 0; j < in->nvariants; j++) {
				double v;

				snprintf(param, sizeof(param), "%s,lock=%s", tables[t].params,
					 locks[k].name);
				v = median_of_boots(find_group(tables[t].metric, param,
							       in->variants[j]));
				if (isnan(v))
					table_cell(tab, "-");
				else
					table_cell(tab, "%.2f", v);
			}
		}
	}
	doc_blank(d, FOR_BOTH);
	free(locks);
}
