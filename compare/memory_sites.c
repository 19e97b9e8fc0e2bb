// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the slab bytes per cdev that cdev_add() kept, by allocation
 * site (cdev_mem.bt's mem_traced_site_bytes_per_cdev): the report's
 * "Memory by allocation site" section (a block of the report's model,
 * report_model.h) and its plot's data (--format sites), from one reading
 * of the rows.  Sites are sorted as the shared
 * lines are (shared_lines.c), the largest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

static struct site *sites;
static size_t nsites;

/* Collects the sites once; 0 where a variant has none. */
static int read_sites(void)
{
	static int done, complete;
	size_t i, j;

	if (done)
		return complete;
	done = 1;
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->metric, "mem_traced_site_bytes_per_cdev"))
			continue;
		sites = xrealloc(sites, (nsites + 1) * sizeof(*sites));
		sites[nsites].variant = g->variant;
		param_value(g->param, "site", sites[nsites].name, sizeof(sites[0].name));
		sites[nsites++].value = median_of_boots(g);
	}
	complete = nsites > 0;
	for (i = 0; i < in->nvariants; i++) {
		for (j = 0; j < nsites && strcmp(sites[j].variant, in->variants[i]); j++)
			;
		complete &= j < nsites;
	}
	return complete;
}

int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return (y->value > x->value) - (y->value < x->value);
}

void build_memory_sites(struct doc *d)
{
	size_t i, j;

	if (!read_sites())
		return;
	doc_heading(d, FOR_MD, 2, "Memory by allocation site");
	doc_code(d, FOR_BOTH, 0);
	doc_lines(d, FOR_BOTH,
		  "Slab bytes per cdev kept by cdev_add(), by allocation site (cdev_mem.bt,\n"
		  "median of boots)\n");
	for (i = 0; i < in->nvariants; i++) {
		struct site *v = xmalloc(nsites * sizeof(*v));
		size_t n = 0;

		for (j = 0; j < nsites; j++)
			if (!strcmp(sites[j].variant, in->variants[i]))
				v[n++] = sites[j];
		qsort(v, n, sizeof(*v), cmp_site);
		for (j = 0; j < n; j++)
			doc_line(d, FOR_BOTH, "  %-16s %-36s %8.1f", v[j].variant, v[j].name,
				 v[j].value);
		free(v);
	}
	doc_code(d, FOR_BOTH, 1);
}

/* The plot's data: a row per variant, a column per site (0 where a
 * variant has none), sites in order of first appearance. */
void print_sites_matrix(void)
{
	size_t i, j, k;

	if (!read_sites())
		die("no mem_traced_site_bytes_per_cdev rows for every variant");
	printf("variant");
	for (j = 0; j < nsites; j++) {
		for (k = 0; k < j && strcmp(sites[k].name, sites[j].name); k++)
			;
		if (k == j)
			printf(" %s", sites[j].name);
	}
	printf("\n");
	for (i = 0; i < in->nvariants; i++) {
		printf("%s", in->variants[i]);
		for (j = 0; j < nsites; j++) {
			double b = 0;

			for (k = 0; k < j && strcmp(sites[k].name, sites[j].name); k++)
				;
			if (k < j)
				continue;	/* a column already printed */
			for (k = 0; k < nsites; k++)
				if (!strcmp(sites[k].variant, in->variants[i]) &&
				    !strcmp(sites[k].name, sites[j].name))
					b = sites[k].value;
			printf(" %.1f", b);
		}
		printf("\n");
	}
}
