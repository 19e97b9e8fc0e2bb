// SPDX-License-Identifier: GPL-2.0
/*
 * join_runs, the report engine's join of two runs (make compare
 * AGAINST=, scripts/compare.sh): a run and another run's baseline, in a
 * folder that the engine then reads as one run.
 *
 *   join_runs RUN OTHER BASELINE NAME OUT
 *
 * The other run's arm BASELINE joins as BASELINE@NAME, so that nothing
 * of it can be taken for this run's:
 *   OUT/samples.csv  RUN's rows, then OTHER's rows of BASELINE, renamed
 *   OUT/meta.json    RUN's meta.json with baseline BASELINE@NAME, that
 *                    arm first among the variants (OTHER's BASELINE's),
 *                    and against: NAME, BASELINE and OTHER's run_id,
 *                    date and rig_commit (docs/meta-json.md)
 * each written whole (beside, then renamed), meta.json as jq writes JSON
 * (two-space indent, its numbers and escapes); the two meta.json files
 * read with jansson, every number a double, as jq holds them.  Refuses an OTHER without
 * an arm BASELINE; whether the two runs were measured alike is
 * join_refusal's (scripts/lib.sh), asked before.  The links to the
 * variants' folders are compare.sh's.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "join_runs: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static char *path_of(const char *dir, const char *file)
{
	size_t len = strlen(dir) + strlen(file) + 2;
	char *p = malloc(len);

	if (!p)
		die("out of memory");
	snprintf(p, len, "%s/%s", dir, file);
	return p;
}

static FILE *open_or_die(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);

	if (!f)
		die("cannot %s %s: %s", *mode == 'r' ? "read" : "write", path, strerror(errno));
	return f;
}

/* FILE of folder DIR, parsed. */
static json_t *read_json(const char *dir, const char *file)
{
	char *path = path_of(dir, file);
	json_error_t error;
	json_t *doc;
	FILE *f = open_or_die(path, "r");

	doc = json_loadf(f, JSON_DECODE_INT_AS_REAL, &error);
	fclose(f);
	if (!doc)
		die("%s: line %d, column %d: %s", path, error.line, error.column, error.text);
	free(path);
	return doc;
}

/* A finished file moved over its name. */
static void finish(FILE *f, const char *tmp, const char *path)
{
	if (ferror(f) | fclose(f) || rename(tmp, path))
		die("cannot write %s: %s", path, strerror(errno));
}

/* ---- JSON as jq 1.6 writes it ---- */

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\b')
			fputs("\\b", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\f')
			fputs("\\f", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* The shortest digits that read back as d, placed as jq places them:
 * 17 significant digits at most, an exponent beyond them (1e+17). */
static void put_number(FILE *f, double d)
{
	char buf[40], digits[24], *p;
	int prec, nd = 0, decpt, i;

	if (isnan(d)) {
		fputs("null", f);
		return;
	}
	d = fmax(-DBL_MAX, fmin(DBL_MAX, d));
	if (d == 0) {
		fputs(signbit(d) ? "-0" : "0", f);
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*e", prec - 1, d);
	for (p = buf + (*buf == '-'); *p != 'e'; p++)
		if (*p != '.')
			digits[nd++] = *p;
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	decpt = (int)strtol(p + 1, NULL, 10) + 1;
	if (d < 0)
		fputc('-', f);
	if (decpt <= -4 || decpt > nd + 15) {
		fprintf(f, "%c%s%s", digits[0], nd > 1 ? "." : "", digits + 1);
		fprintf(f, "e%c%02d", decpt - 1 < 0 ? '-' : '+', abs(decpt - 1));
	} else if (decpt <= 0) {
		fputs("0.", f);
		for (i = decpt; i < 0; i++)
			fputc('0', f);
		fputs(digits, f);
	} else {
		for (i = 0; i < nd || i < decpt; i++) {
			if (i == decpt)
				fputc('.', f);
			fputc(i < nd ? digits[i] : '0', f);
		}
	}
}

static void put_indent(FILE *f, int depth)
{
	fprintf(f, "\n%*s", 2 * depth, "");
}

/* A member's name, after the one before it. */
static void put_key(FILE *f, const char *key, int depth, int first)
{
	if (!first)
		fputc(',', f);
	put_indent(f, depth);
	put_string(f, key);
	fputs(": ", f);
}

static void put_value(FILE *f, const json_t *j, int depth)
{
	const char *key;
	json_t *e;
	size_t i;

	switch (j ? json_typeof(j) : JSON_NULL) {
	case JSON_NULL: fputs("null", f); break;
	case JSON_TRUE: fputs("true", f); break;
	case JSON_FALSE: fputs("false", f); break;
	case JSON_INTEGER:
	case JSON_REAL: put_number(f, json_number_value(j)); break;
	case JSON_STRING: put_string(f, json_string_value(j)); break;
	case JSON_ARRAY:
		if (!json_array_size(j)) {
			fputs("[]", f);
			break;
		}
		fputc('[', f);
		json_array_foreach(j, i, e) {
			if (i)
				fputc(',', f);
			put_indent(f, depth + 1);
			put_value(f, e, depth + 1);
		}
		put_indent(f, depth);
		fputc(']', f);
		break;
	case JSON_OBJECT:
		if (!json_object_size(j)) {
			fputs("{}", f);
			break;
		}
		fputc('{', f);
		i = 0;
		json_object_foreach((json_t *)j, key, e) {
			put_key(f, key, depth + 1, !i++);
			put_value(f, e, depth + 1);
		}
		put_indent(f, depth);
		fputc('}', f);
		break;
	}
}

/* ---- the join ---- */

struct join {
	const char *baseline, *name;
	char *alias;
	const json_t *run, *other, *arm;
};

/* The joined run's variants: the other run's baseline first, as alias,
 * then the run's (jq: { (alias): X } + .variants). */
static void put_variants(FILE *f, const struct join *jn, const json_t *variants)
{
	const json_t *own = json_object_get(variants, jn->alias);
	const char *key;
	json_t *e;

	fputc('{', f);
	put_key(f, jn->alias, 2, 1);
	put_value(f, own ? own : jn->arm, 2);
	json_object_foreach((json_t *)variants, key, e) {
		if (e == own)
			continue;
		put_key(f, key, 2, 0);
		put_value(f, e, 2);
	}
	put_indent(f, 1);
	fputc('}', f);
}

static void put_against(FILE *f, const struct join *jn)
{
	static const char *const from_other[] = { "run_id", "date", "rig_commit" };
	size_t i;

	fputc('{', f);
	put_key(f, "name", 2, 1);
	put_string(f, jn->name);
	put_key(f, "variant", 2, 0);
	put_string(f, jn->baseline);
	for (i = 0; i < sizeof(from_other) / sizeof(*from_other); i++) {
		put_key(f, from_other[i], 2, 0);
		put_value(f, json_object_get(jn->other, from_other[i]), 2);
	}
	put_indent(f, 1);
	fputc('}', f);
}

/* One of the three members the join sets. */
static void put_joined(FILE *f, const struct join *jn, const char *key)
{
	if (!strcmp(key, "baseline"))
		put_string(f, jn->alias);
	else if (!strcmp(key, "variants"))
		put_variants(f, jn, json_object_get(jn->run, "variants"));
	else
		put_against(f, jn);
}

/* jq: . + { baseline, variants, against }: the run's members in order,
 * those three given their joined values where the run has them, and
 * after the others where it has not. */
static void write_meta(const struct join *jn, const char *out)
{
	static const char *const joined[] = { "baseline", "variants", "against" };
	char *path = path_of(out, "meta.json"), *tmp = path_of(out, "meta.json.tmp");
	FILE *f = open_or_die(tmp, "w");
	const char *key;
	json_t *e;
	int first = 1;
	size_t i, k;

	fputc('{', f);
	json_object_foreach((json_t *)jn->run, key, e) {
		put_key(f, key, 1, first);
		first = 0;
		for (k = 0; k < 3 && strcmp(key, joined[k]); k++)
			;
		if (k < 3)
			put_joined(f, jn, key);
		else
			put_value(f, e, 1);
	}
	for (i = 0; i < 3; i++) {
		if (json_object_get(jn->run, joined[i]))
			continue;
		put_key(f, joined[i], 1, first);
		first = 0;
		put_joined(f, jn, joined[i]);
	}
	fputs("\n}\n", f);
	finish(f, tmp, path);
	free(tmp);
	free(path);
}

/* The run's rows as they are, then the other's baseline's renamed (its
 * header left out). */
static void write_samples(const struct join *jn, const char *run_dir, const char *other_dir,
			  const char *out)
{
	char *path = path_of(out, "samples.csv"), *tmp = path_of(out, "samples.csv.tmp");
	char *run_path = path_of(run_dir, "samples.csv"), *other_path = path_of(other_dir, "samples.csv");
	char *line = NULL, buf[65536];
	size_t cap = 0, n, blen = strlen(jn->baseline);
	ssize_t len;
	long lineno = 0;
	FILE *f = open_or_die(tmp, "w"), *src = open_or_die(run_path, "r");

	while ((n = fread(buf, 1, sizeof(buf), src)) > 0)
		fwrite(buf, 1, n, f);
	if (ferror(src))
		die("cannot read %s", run_path);
	fclose(src);
	src = open_or_die(other_path, "r");
	while ((len = getline(&line, &cap, src)) != -1) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (++lineno == 1 || strncmp(line, jn->baseline, blen) ||
		    (line[blen] != ',' && line[blen] != '\0'))
			continue;
		fprintf(f, "%s%s\n", jn->alias, line + blen);
	}
	if (ferror(src))
		die("cannot read %s", other_path);
	fclose(src);
	free(line);
	finish(f, tmp, path);
	free(other_path);
	free(run_path);
	free(tmp);
	free(path);
}

int main(int argc, char **argv)
{
	struct join jn;
	json_t *run, *other;
	size_t len;

	if (argc != 6) {
		fprintf(stderr, "usage: join_runs RUN OTHER BASELINE NAME OUT\n");
		return 2;
	}
	run = read_json(argv[1], "meta.json");
	other = read_json(argv[2], "meta.json");
	if (!json_is_object(run))
		die("%s/meta.json is not a JSON object", argv[1]);
	jn = (struct join){ .baseline = argv[3], .name = argv[4], .run = run, .other = other,
			    .arm = json_object_get(json_object_get(other, "variants"), argv[3]) };
	if (!jn.arm)
		die("cannot compare: %s has no variant %s (BASELINE)", argv[2], argv[3]);
	len = strlen(argv[3]) + strlen(argv[4]) + 2;
	jn.alias = malloc(len);
	if (!jn.alias)
		die("out of memory");
	snprintf(jn.alias, len, "%s@%s", argv[3], argv[4]);
	write_samples(&jn, argv[1], argv[2], argv[5]);
	write_meta(&jn, argv[5]);
	free(jn.alias);
	json_decref(other);
	json_decref(run);
	return 0;
}
