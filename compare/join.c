// SPDX-License-Identifier: GPL-2.0
/*
 * compare --join: the join of two runs (make compare AGAINST=,
 * scripts/compare.sh), a run and another run's baseline in one folder
 * that the engine then reads as a run.
 *
 *   compare --join NAME --baseline BASELINE RUN/samples.csv OTHER/samples.csv
 *
 * OTHER's arm BASELINE joins as BASELINE@NAME, so that nothing of it can
 * be taken for RUN's; in RUN/against-NAME/, which compare.sh makes:
 *   samples.csv  RUN's rows, then OTHER's rows of BASELINE, renamed
 *   meta.json    RUN's meta.json with baseline BASELINE@NAME, that arm
 *                first among the variants (OTHER's BASELINE's), and
 *                against: NAME, BASELINE and OTHER's run_id, date and
 *                rig_commit (docs/meta-json.md)
 * each written whole (beside, then renamed).  meta.json is jansson's
 * json_dumpf of the joined document, two-space indent, the keys in the
 * order they came: byte for byte what jq wrote before, for every value
 * meta.json's writer (scripts/lib/meta.sh) writes, whole numbers below 1e17
 * and strings; a real, a larger number or a control character other
 * than \b \f \n \r \t would be the same JSON spelt otherwise (0.1 as
 * 0.10000000000000001, \u000b as \u000B).  Refuses an OTHER without an
 * arm BASELINE; whether the two runs were measured alike is
 * join_refusal's (scripts/lib/runs.sh), asked before.  The links to the
 * variants' folders are compare.sh's.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"

/* A file beside a samples.csv, or in the folder beside it. */
static char *beside(const char *samples, const char *sub, const char *file)
{
	char *copy = xstrdup(samples), *path;
	const char *dir = dirname(copy);
	size_t len = strlen(dir) + strlen(sub) + strlen(file) + 3;

	path = xmalloc(len);
	snprintf(path, len, "%s/%s%s%s", dir, sub, *sub ? "/" : "", file);
	free(copy);
	return path;
}

static FILE *open_or_die(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);

	if (!f)
		die("cannot %s %s: %s", *mode == 'r' ? "read" : "write", path, strerror(errno));
	return f;
}

/* A finished file moved over its name. */
static void finish(FILE *f, const char *tmp, const char *path)
{
	if (ferror(f) | fclose(f) || rename(tmp, path))
		die("cannot write %s: %s", path, strerror(errno));
}

/* A member, or null where there is none (jq: .key of an object without
 * it). */
static json_t *member_or_null(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return v ? v : json_null();
}

/* jq: . + { baseline: ALIAS, variants: ({ (ALIAS): OTHER.variants[B] }
 * + .variants), against: { name, variant, run_id, date, rig_commit } }:
 * the run's members keep their places, those it lacks come after. */
static void join_meta(json_t *run, json_t *arm, const json_t *other, const char *baseline,
		      const char *name, const char *alias)
{
	json_t *variants = json_object(), *v;
	const char *key;

	json_object_set(variants, alias, arm);
	json_object_foreach(json_object_get(run, "variants"), key, v)
		json_object_set(variants, key, v);
	if (json_object_set_new(run, "baseline", json_string(alias)) ||
	    json_object_set_new(run, "variants", variants) ||
	    json_object_set_new(run, "against",
				json_pack("{s:s, s:s, s:O, s:O, s:O}", "name", name, "variant", baseline,
					  "run_id", member_or_null(other, "run_id"),
					  "date", member_or_null(other, "date"),
					  "rig_commit", member_or_null(other, "rig_commit"))))
		die("out of memory");
}

static void write_meta(const json_t *doc, const char *path)
{
	char *tmp = xmalloc(strlen(path) + 5);
	FILE *f;

	sprintf(tmp, "%s.tmp", path);
	f = open_or_die(tmp, "w");
	if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
		die("cannot write %s", tmp);
	fputc('\n', f);
	finish(f, tmp, path);
	free(tmp);
}

/* The run's rows as they are, then the other's baseline's renamed (its
 * header left out). */
static void write_samples(const char *run_samples, const char *other_samples,
			  const char *baseline, const char *alias, const char *path)
{
	char *tmp = xmalloc(strlen(path) + 5), *line = NULL, buf[65536];
	size_t cap = 0, n, blen = strlen(baseline);
	ssize_t len;
	long lineno = 0;
	FILE *f, *src;

	sprintf(tmp, "%s.tmp", path);
	f = open_or_die(tmp, "w");
	src = open_or_die(run_samples, "r");
	while ((n = fread(buf, 1, sizeof(buf), src)) > 0)
		fwrite(buf, 1, n, f);
	if (ferror(src))
		die("cannot read %s", run_samples);
	fclose(src);
	src = open_or_die(other_samples, "r");
	while ((len = getline(&line, &cap, src)) != -1) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (++lineno == 1 || strncmp(line, baseline, blen) ||
		    (line[blen] != ',' && line[blen] != '\0'))
			continue;
		fprintf(f, "%s%s\n", alias, line + blen);
	}
	if (ferror(src))
		die("cannot read %s", other_samples);
	fclose(src);
	free(line);
	finish(f, tmp, path);
	free(tmp);
}

void join_runs(const char *run_samples, const char *other_samples, const char *baseline,
	       const char *name)
{
	char *run_path = beside(run_samples, "", "meta.json");
	char *other_path = beside(other_samples, "", "meta.json");
	char *sub = xmalloc(strlen(name) + 9), *alias = xmalloc(strlen(baseline) + strlen(name) + 2);
	char *out_samples, *out_meta;
	/* every number as it was written, whole numbers as integers: see
	 * above */
	json_t *run = read_json_file(run_path, 0, 0), *other = read_json_file(other_path, 0, 0), *arm;

	if (!run || !other)
		die("cannot compare: no %s", run ? other_path : run_path);
	if (!json_is_object(run))
		die("%s is not a JSON object", run_path);
	arm = json_object_get(json_object_get(other, "variants"), baseline);
	if (!arm)
		die("cannot compare: %s has no variant %s (BASELINE)", dirname(other_path), baseline);
	sprintf(sub, "against-%s", name);
	sprintf(alias, "%s@%s", baseline, name);
	out_samples = beside(run_samples, sub, "samples.csv");
	out_meta = beside(run_samples, sub, "meta.json");
	write_samples(run_samples, other_samples, baseline, alias, out_samples);
	join_meta(run, arm, other, baseline, name, alias);
	write_meta(run, out_meta);
	json_decref(run);
	json_decref(other);
	free(out_meta);
	free(out_samples);
	free(alias);
	free(sub);
	free(other_path);
	free(run_path);
}
