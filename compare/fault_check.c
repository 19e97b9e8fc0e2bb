// SPDX-License-Identifier: GPL-2.0
/*
 * compare --format fault-problems: the failure-path phase's pass rule,
 * which scripts/fault-check.sh applies to each fault boot.  It lives in
 * the engine so that the check reads the fail_* rows as the report's
 * "Failure paths" section (failure_paths.c) does.
 */
#include <stdio.h>
#include <string.h>
#include "compare.h"

/*
 * The failure-path phase's pass rule, for scripts/fault-check.sh: every
 * flavour that unwinds as its API asks (all but cdev_init_noput, whose
 * leaks are the cost being measured) leaks nothing by kmemleak's count
 * and leaves no sysfs entry or major behind, and no flavour changes the
 * references on the /sys/cdev ksets.  One line per problem, none when the
 * phase passed.
 */
void print_fault_problems(void)
{
	static const char *const must_be_zero[] = { "fail_leaked_bytes", "fail_sysfs_left",
						    "fail_majors_left" };
	char flav[64];
	size_t i, k;

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];
		int checked = !strcmp(g->metric, "fail_kset_refs_left");

		param_value(g->param, "flavour", flav, sizeof(flav));
		for (k = 0; k < sizeof(must_be_zero) / sizeof(must_be_zero[0]); k++)
			checked |= !strcmp(g->metric, must_be_zero[k]) &&
				   strcmp(flav, "cdev_init_noput");
		if (checked && g->n && g->v[0] != 0)
			printf("%s %s=%g\n", g->param, g->metric, g->v[0]);
	}
}
