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
 * The failure-path phase's pass rule, for scripts/fault-check.sh: the
 * flavours that unwind as the API asks on every base (the ones the
 * failslab sweeps run, but embed_none, whose leaks on kernels with cdevs
 * in sysfs are a cost being measured) come out clean in every group: no
 * leak by kmemleak's count, no sysfs entry, major or kset reference left
 * behind, no complaint of the kernel in their window, no crash.  The
 * other flavours are drivers' patterns whose outcome is the finding
 * (errpaths.c), but a crash in any group is a failed phase.  One line per
 * problem, none when the phase passed.
 */
void print_fault_problems(void)
{
	static const char *const api_flavours[] = { "embed_put", "embed_del", "alloc_put",
						    "device_put" };
	static const char *const must_be_zero[] = {
		"fail_leaked_bytes", "fail_sysfs_left", "fail_majors_left", "fail_kset_refs_left",
		"fail_warn_lines", "fail_memory_errors",
	};
	char flav[64];
	size_t i, k;

	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];
		int checked = !strcmp(g->metric, "fail_crashed") ||
			      !strcmp(g->metric, "fail_aborted"), api = 0;

		param_value(g->param, "flavour", flav, sizeof(flav));
		for (k = 0; k < sizeof(api_flavours) / sizeof(api_flavours[0]); k++)
			api |= !strcmp(flav, api_flavours[k]);
		for (k = 0; k < sizeof(must_be_zero) / sizeof(must_be_zero[0]); k++)
			checked |= api && !strcmp(g->metric, must_be_zero[k]);
		if (checked && g->n && g->v[0] != 0)
			printf("%s %s=%g\n", g->param, g->metric, g->v[0]);
	}
}
