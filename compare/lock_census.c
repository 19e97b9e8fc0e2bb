// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the report's "Lock census" section: lock_census.bt's
 * lock_acquisitions_per_op rows, a table per phase of the benchmarks, a
 * column per variant.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

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

/*
 * The lock census (lock_census.bt): per benchmark operation, every lock
 * taken and how often, a column per variant (0 where its census did not
 * see the lock), the most taken first.
 */
void print_lock_census(int md)
{
	static const char *const phases[][2] = {
		{ "add", "cdev_add()" }, { "del", "cdev_del()" },
		{ "lookup", "open_lookup: a first open, through the map" },
		{ "cached", "open_cached: an open and close of a cached node" },
	};
	char phase[32], lock[64], param[128];
	struct census_lock *locks = xmalloc(in->ngroups * sizeof(*locks));
	size_t p, i, j, k, nlocks;

	for (i = 0; i < in->ngroups && strcmp(in->groups[i].metric, "lock_acquisitions_per_op");
	     i++)
		;
	if (i == in->ngroups) {
		free(locks);
		return;
	}
	printf(md ? "## Lock census\n\n" : "Lock census\n");
	paragraph(stdout, 76, md ? "" : "  ", md ? "" : "  ",
		  "Acquisitions per operation of every lock on the measured path "
		  "(lock_census.bt, median of boots, traced pass): a static lock by its "
		  "symbol, one embedded in an object as KIND@FUNCTION, the function that "
		  "took it.  RCU read sections are not counted (PREEMPT_NONE compiles "
		  "rcu_read_lock() to nothing).");
	if (!md) {
		struct paragraph columns;
		FILE *f = paragraph_begin(&columns, stdout, 76, "  ", "  ");

		fprintf(f, "Columns:");
		for (j = 0; j < in->nvariants; j++)
			fprintf(f, " [%zu] %s%s", j + 1, in->variants[j], race_mark(in->variants[j]));
		paragraph_end(&columns);
	}
	for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		nlocks = 0;
		for (i = 0; i < in->ngroups; i++) {
			const struct group *g = &in->groups[i];
			double v;

			param_value(g->param, "phase", phase, sizeof(phase));
			if (strcmp(g->metric, "lock_acquisitions_per_op") ||
			    strcmp(phase, phases[p][0]))
				continue;
			v = median_of_boots(g);
			param_value(g->param, "lock", lock, sizeof(lock));
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
		if (md) {
			printf("\n%s (`phase=%s`)\n\n| lock |", phases[p][1], phases[p][0]);
			for (j = 0; j < in->nvariants; j++)
				printf(" %s%s |", in->variants[j], race_mark(in->variants[j]));
			printf("\n|---|");
			for (j = 0; j < in->nvariants; j++)
				printf("---:|");
			printf("\n");
		} else {
			printf("\n  %s (phase=%s)\n    %-32s", phases[p][1], phases[p][0], "lock");
			for (j = 0; j < in->nvariants; j++) {
				snprintf(lock, sizeof(lock), "[%zu]", j + 1);
				printf(" %7s", lock);
			}
			printf("\n");
		}
		for (k = 0; k < nlocks; k++) {
			printf(md ? "| %s |" : "    %-32.32s", locks[k].name);
			for (j = 0; j < in->nvariants; j++) {
				double v;

				snprintf(param, sizeof(param), "phase=%s,lock=%s", phases[p][0],
					 locks[k].name);
				v = median_of_boots(find_group("lock_acquisitions_per_op", param,
							       in->variants[j]));
				if (isnan(v))
					printf(md ? " - |" : " %7s", "-");
				else
					printf(md ? " %.2f |" : " %7.2f", v);
			}
			printf("\n");
		}
	}
	printf("\n");
	free(locks);
}
