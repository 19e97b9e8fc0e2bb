// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the selftest.tap reader: each boot's KTAP output beside the
 * variant's meta.json, for the selftest's declared failures: the first
 * screen's sentence on the selftest and each variant's count
 * (answer.c).
 */
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

/*
 * The selftest's known failures (KTAP "# XFAIL" and "# XPASS" lines in
 * each boot's selftest.tap, beside the variant's meta.json): per case
 * and variant, failed as declared or passed, in how many of its boots.
 */
#define MAX_OUTCOMES 64

struct known_outcome {
	char name[128];
	int xpass;
	size_t variant, boots, of;
};

/* Add this variant's XFAIL and XPASS lines of @tap to @o. */
static void read_known_outcomes(const char *tap, size_t variant, size_t boots,
				struct known_outcome *o, size_t *n)
{
	char line[1024], name[128];
	FILE *f = fopen(tap, "r");
	size_t k;

	while (f && fgets(line, sizeof(line), f)) {
		int xpass = !!strstr(line, " # XPASS ");

		if ((!xpass && !strstr(line, " # XFAIL ")) ||
		    sscanf(line, "ok %*d %127s", name) != 1)
			continue;
		for (k = 0; k < *n; k++)
			if (!strcmp(o[k].name, name) && o[k].xpass == xpass &&
			    o[k].variant == variant)
				break;
		if (k == *n) {
			if (*n == MAX_OUTCOMES)
				continue;
			o[k] = (struct known_outcome){ .xpass = xpass, .variant = variant,
						       .of = boots };
			snprintf(o[k].name, sizeof(o[k].name), "%s", name);
			(*n)++;
		}
		o[k].boots++;
	}
	if (f)
		fclose(f);
}

/* Every arm's outcomes, read once: the lead and the answers ask. */
static struct known_outcome outcomes[MAX_OUTCOMES];
static size_t noutcomes;

static void read_all_outcomes(void)
{
	static int done;
	char pattern[4096], *dir;
	const char *path;
	size_t i, j;
	glob_t taps;

	if (done++)
		return;
	for (i = 0; i < in->nvariants; i++) {
		/* the A/A arm boots the baseline's kernel: it says nothing new */
		if ((aa_arm && !strcmp(in->variants[i], aa_arm)) ||
		    !variant_meta(in->variants[i], &path) || !path)
			continue;
		dir = xstrdup(path);
		snprintf(pattern, sizeof(pattern), "%s/%s/boot-*/selftest.tap", dirname(dir),
			 in->variants[i]);
		free(dir);
		if (glob(pattern, 0, NULL, &taps))
			continue;
		for (j = 0; j < taps.gl_pathc; j++)
			read_known_outcomes(taps.gl_pathv[j], i, taps.gl_pathc, outcomes,
					    &noutcomes);
		globfree(&taps);
	}
}

void known_failure_counts(const char *variant, size_t *xfail, size_t *xpass)
{
	size_t k;

	read_all_outcomes();
	*xfail = *xpass = 0;
	for (k = 0; k < noutcomes; k++)
		if (!strcmp(in->variants[outcomes[k].variant], variant))
			++*(outcomes[k].xpass ? xpass : xfail);
}

/* "Selftest: ..." a sentence: a pass is every case on every boot but
 * those a kernel is declared to fail, each named once with the arms it
 * failed on as declared (XFAIL) and those it passed on (XPASS). */
void print_selftest_outcome(FILE *out)
{
	const struct known_outcome *o = outcomes;
	char listed[MAX_OUTCOMES] = { 0 };
	size_t j, k;

	read_all_outcomes();
	fprintf(out, "Selftest (first on every boot): every case passed on every boot of every arm%s",
		any_boot_failed() ? " but the boots that failed (above)" : "");
	if (noutcomes)
		fprintf(out, " but the known failures (patches/*/known-failures):");
	for (k = 0; k < noutcomes; k++) {
		char list[2][1024] = { "", "" };

		if (listed[k])
			continue;
		for (j = k; j < noutcomes; j++) {
			char *l = list[o[j].xpass];
			size_t len = strlen(l);

			if (strcmp(o[j].name, o[k].name))
				continue;
			listed[j] = 1;
			len += snprintf(l + len, sizeof(list[0]) - len, "%s%s", len ? ", " : "",
					in->variants[o[j].variant]);
			if (o[j].boots < o[j].of && len < sizeof(list[0]))
				snprintf(l + len, sizeof(list[0]) - len, " (%zu of %zu boots)",
					 o[j].boots, o[j].of);
		}
		fprintf(out, "%s %s", k ? ";" : "", o[k].name);
		if (list[0][0])
			fprintf(out, " failed on %s, as declared", list[0]);
		if (list[1][0])
			fprintf(out, "%s passed on %s (fixed, or a stale declaration)",
				list[0][0] ? ", and" : "", list[1]);
	}
	fprintf(out, ".");
}
