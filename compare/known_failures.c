// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the selftest.tap reader: each boot's KTAP output beside the
 * variant's meta.json, for the selftest's declared failures, a sentence
 * each in the first screen's correctness paragraph (render_text.c).
 */
#include <glob.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

/*
 * The selftest's known failures (KTAP "# XFAIL" and "# XPASS" lines in
 * each boot's selftest.tap, beside the variant's meta.json): a sentence
 * per case, the variants that failed it as declared and those that
 * passed it, with the boots where it did when not in all of them.
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

void print_known_failures(FILE *out)
{
	struct known_outcome o[MAX_OUTCOMES];
	char pattern[4096], *dir;
	const char *path;
	size_t i, j, k, n = 0;
	glob_t taps;

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
			read_known_outcomes(taps.gl_pathv[j], i, taps.gl_pathc, o, &n);
		globfree(&taps);
	}
	for (k = 0; k < n; k++) {
		char list[2][1024] = { "", "" };

		if (!o[k].boots)
			continue;	/* listed with an earlier entry of its case */
		for (j = k; j < n; j++) {
			char *l = list[o[j].xpass];
			size_t len = strlen(l);

			if (strcmp(o[j].name, o[k].name))
				continue;
			len += snprintf(l + len, sizeof(list[0]) - len, "%s%s", len ? ", " : "",
					in->variants[o[j].variant]);
			if (o[j].boots < o[j].of && len < sizeof(list[0]))
				snprintf(l + len, sizeof(list[0]) - len, " (%zu of %zu boots)",
					 o[j].boots, o[j].of);
			if (j != k)
				o[j].boots = 0;
		}
		fprintf(out, " Known failure %s (see selftest.tap):", o[k].name);
		if (list[0][0])
			fprintf(out, " fails on %s", list[0]);
		if (list[1][0])
			fprintf(out, "%s passes on %s (fixed, or a stale declaration)",
				list[0][0] ? ";" : "", list[1]);
		fprintf(out, ".");
	}
}
