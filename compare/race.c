// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the race check of a run (make bench RACE=1): race.json beside
 * meta.json, the outcome per arm and negative control.  The correctness
 * paragraph gives each one's result, and a variant that failed is marked
 * wherever its figures are shown.
 */
#include <stdio.h>
#include <string.h>
#include "compare.h"

static const struct json *race_doc(void)
{
	return in->nmetas ? in->metas[0].race : NULL;
}

static const struct json *race_entry(const char *arm)
{
	const struct json *checks = race_doc() ? json_get(race_doc(), "checks") : NULL, *e;

	for (e = checks ? checks->child : NULL; e; e = e->next)
		if (!strcmp(json_get_string(e, "arm", ""), arm))
			return e;
	return NULL;
}

const char *race_mark(const char *arm)
{
	const struct json *e = race_entry(arm);

	if (!e || !strcmp(json_get_string(e, "result", ""), "pass"))
		return "";
	return !strcmp(json_get_string(e, "expected", ""), "fail") ?
	       " (control, race check FAIL)" : " (race check FAIL)";
}

/* "stock pass; cdev-x FAIL: BUG ...; control cdev-y FAIL as it must: ..."
 * A control that passed says the check did not catch its planted bug. */
void print_race_outcome(FILE *out)
{
	const struct json *doc = race_doc(), *e, *unfinished, *checks;
	char rounds[32];

	if (!doc) {
		char buf[16];

		if (in->nmetas && !strcmp(meta_field("race", buf, sizeof(buf)), "false"))
			fprintf(out, " Race check: not run (RACE=1 runs it).");
		else if (in->nmetas && !strcmp(buf, "true"))
			fprintf(out, " Race check: asked for (RACE=1), but the run has no race.json: it stopped before the check.");
		return;
	}
	checks = json_get(doc, "checks");
	if (checks && checks->child) {
		snprintf(rounds, sizeof(rounds), "%.0f", json_get(doc, "rounds") ?
			 json_get(doc, "rounds")->number : 0);
		fprintf(out, " Race check (%s, %.0f vCPUs, %s rounds, slab poisoning):",
			json_get_string(doc, "mode", "?"),
			json_get(doc, "vcpus") ? json_get(doc, "vcpus")->number : 0, rounds);
	} else {
		fprintf(out, " Race check: no outcome");
	}
	for (e = checks ? checks->child : NULL; e; e = e->next) {
		const char *result = json_get_string(e, "result", "?");
		const char *evidence = json_get_string(e, "evidence", "");
		int control = !strcmp(json_get_string(e, "expected", ""), "fail");

		fprintf(out, "%s %s%s %s", e == checks->child ? "" : ";",
			control ? "control " : "", json_get_string(e, "arm", "?"),
			!strcmp(result, "pass") ? "pass" : "FAIL");
		if (control)
			fprintf(out, !strcmp(result, "pass") ?
				" (it must fail: this check did not catch its planted bug)" :
				" as it must");
		/* the console's line, up to its carriage return (race.json
		 * written before the race check stripped it) */
		if (strcmp(result, "pass") && evidence[0])
			fprintf(out, ": %.*s", (int)strcspn(evidence, "\r\n"), evidence);
	}
	unfinished = json_get(doc, "unfinished");
	for (e = unfinished ? unfinished->child : NULL; e; e = e->next)
		if (e->type == JSON_STRING)
			fprintf(out, "%s on base %s it did not finish (see the run's race-%s/)",
				e == unfinished->child ? "; " : ", ", e->string, e->string);
	fprintf(out, ".");
}
