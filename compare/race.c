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

static const json_t *race_doc(void)
{
	return in->nmetas ? in->metas[0].race : NULL;
}

static const json_t *race_entry(const char *arm)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(race_doc(), "checks"), i, e)
		if (!strcmp(member_string(e, "arm", ""), arm))
			return e;
	return NULL;
}

const char *race_mark(const char *arm)
{
	const json_t *e = race_entry(arm);

	if (!e || !strcmp(member_string(e, "result", ""), "pass"))
		return "";
	return !strcmp(member_string(e, "expected", ""), "fail") ?
	       " (control, race check FAIL)" : " (race check FAIL)";
}

/* "Race check (tcg, 4 vCPUs, 400000 rounds, slab poisoning):", and the
 * checker kernel's boot where the check booted one. */
static void write_race_setup(FILE *out, const json_t *doc)
{
	const json_t *checker_rounds = json_object_get(doc, "checker_rounds");

	fprintf(out, "Race check (%s, %.0f vCPUs, %.0f rounds, slab poisoning",
		member_string(doc, "mode", "?"), json_number_value(json_object_get(doc, "vcpus")),
		json_number_value(json_object_get(doc, "rounds")));
	if (checker_rounds)
		fprintf(out, "; %.0f rounds, lockdep, KCSAN, list and sleep checks",
			json_number_value(checker_rounds));
	fprintf(out, "):");
}

/* The evidence of a failure: the console's line, up to its carriage
 * return (race.json written before the race check stripped it). */
static void write_evidence(FILE *out, const json_t *e)
{
	const char *evidence = member_string(e, "evidence", "");

	if (strcmp(member_string(e, "result", "?"), "pass") && evidence[0])
		fprintf(out, ": %.*s", (int)strcspn(evidence, "\r\n"), evidence);
}

void print_race_of(FILE *out, const char *arm)
{
	const json_t *doc = race_doc(), *e = race_entry(arm);
	char buf[16];

	if (doc && e) {
		write_race_setup(out, doc);
		fprintf(out, " %s", !strcmp(member_string(e, "result", "?"), "pass") ? "pass" : "FAIL");
		write_evidence(out, e);
		fprintf(out, ".");
	} else if (doc) {
		fprintf(out, "Race check: %s was not among the arms it checked.", arm);
	} else if (in->nmetas && !strcmp(meta_field("race", buf, sizeof(buf)), "true")) {
		fprintf(out, "Race check: asked for (RACE=1), but the run has no race.json: it stopped before the check.");
	} else {
		fprintf(out, "Race check: not run in this run (make race-check, or RACE=1).");
	}
}

/* "stock pass; cdev-x FAIL: BUG ...; control cdev-y FAIL as it must: ..."
 * A control that passed says the check did not catch its planted bug. */
void print_race_outcome(FILE *out)
{
	const json_t *doc = race_doc(), *e, *unfinished, *checks;
	size_t i;

	if (!doc) {
		char buf[16];

		if (in->nmetas && !strcmp(meta_field("race", buf, sizeof(buf)), "false"))
			fprintf(out, " Race check: not run (RACE=1 runs it).");
		else if (in->nmetas && !strcmp(buf, "true"))
			fprintf(out, " Race check: asked for (RACE=1), but the run has no race.json: it stopped before the check.");
		return;
	}
	checks = json_object_get(doc, "checks");
	if (json_array_size(checks)) {
		fprintf(out, " ");
		write_race_setup(out, doc);
	} else {
		fprintf(out, " Race check: no outcome");
	}
	json_array_foreach(checks, i, e) {
		const char *result = member_string(e, "result", "?");
		int control = !strcmp(member_string(e, "expected", ""), "fail");

		fprintf(out, "%s %s%s %s", i ? ";" : "",
			control ? "control " : "", member_string(e, "arm", "?"),
			!strcmp(result, "pass") ? "pass" : "FAIL");
		if (control)
			fprintf(out, !strcmp(result, "pass") ?
				" (it must fail: this check did not catch its planted bug)" :
				" as it must");
		write_evidence(out, e);
	}
	unfinished = json_object_get(doc, "unfinished");
	json_array_foreach(unfinished, i, e)
		if (json_is_string(e))
			fprintf(out, "%s on base %s it did not finish (see the run's race-%s/)",
				i ? ", " : "; ", json_string_value(e), json_string_value(e));
	fprintf(out, ".");
}
