// SPDX-License-Identifier: GPL-2.0
/* The results schema; see results.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"

static const char *const key_names[PARAM_NKEYS] = {
#define PARAM_NAME(k) #k,
	PARAM_KEYS(PARAM_NAME)
#undef PARAM_NAME
};

const char *param_key_name(enum param_key key)
{
	return key_names[key];
}

void param_set(struct param *p, enum param_key key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->value[key], sizeof(p->value[key]), fmt, ap);
	va_end(ap);
}

int param_parse(struct param *p, const char *text)
{
	char pair[96], *eq;
	size_t len;
	int k;

	memset(p, 0, sizeof(*p));
	if (!strcmp(text, "-"))
		return 0;
	while (*text) {
		len = strcspn(text, ",");
		snprintf(pair, sizeof(pair), "%.*s", (int)len, text);
		eq = strchr(pair, '=');
		if (!eq || eq == pair || !eq[1] || len >= sizeof(pair) ||
		    strlen(eq + 1) >= sizeof(p->value[0])) {
			fprintf(stderr, "param: '%s' is not key=value\n", pair);
			return -1;
		}
		*eq = '\0';
		for (k = 0; k < PARAM_NKEYS && strcmp(key_names[k], pair); k++)
			;
		if (k == PARAM_NKEYS || p->value[k][0]) {
			fprintf(stderr, "param: key '%s' is %s\n", pair,
				k == PARAM_NKEYS ? "not declared in bench/lib/results.h" :
						   "given twice");
			return -1;
		}
		snprintf(p->value[k], sizeof(p->value[k]), "%s", eq + 1);
		text += len + (text[len] == ',');
	}
	return 0;
}

const char *param_csv(const struct param *p, char *buf, size_t size)
{
	char list[PARAM_NKEYS * 64] = "";
	size_t len = 0;
	int k, pairs = 0;

	for (k = 0; k < PARAM_NKEYS; k++)
		if (p->value[k][0])
			len += snprintf(list + len, sizeof(list) - len, "%s%s=%s",
					pairs++ ? "," : "", key_names[k], p->value[k]);
	return param_field(pairs ? list : "-", buf, size);
}

const char *param_field(const char *text, char *buf, size_t size)
{
	snprintf(buf, size, strchr(text, ',') ? "\"%s\"" : "%s", text);
	return buf;
}

void results_row(FILE *out, const char *variant, const char *boot, const char *metric,
		 const struct param *p, long iter, double value, int decimals,
		 const char *unit)
{
	char param[PARAM_NKEYS * 64 + 2];

	fprintf(out, "%s,%s,%s,%s,%ld,%.*f,%s\n", variant, boot, metric,
		param_csv(p, param, sizeof(param)), iter, decimals, value, unit);
}

void results_raw_row(FILE *out, const char *metric, const struct param *p, long iter,
		     long op, long ns)
{
	char param[PARAM_NKEYS * 64 + 2];

	fprintf(out, "%s,%s,%ld,%ld,%ld\n", metric, param_csv(p, param, sizeof(param)), iter,
		op, ns);
}

/* Split a CSV line in place into at most max fields; a field may be in
 * double quotes (param "n=10,pos=tail").  Returns the count, -1 on an
 * unterminated quote or too many fields. */
static int split_csv(char *line, char **fields, int max)
{
	int n = 0;
	char *out;

	for (;;) {
		if (n == max)
			return -1;
		if (*line == '"') {
			fields[n++] = out = ++line;
			while (*line && !(line[0] == '"' && line[1] != '"')) {
				if (*line == '"')	/* "" is a quote */
					line++;
				*out++ = *line++;
			}
			if (*line != '"')
				return -1;
			*out = '\0';
			line++;
			if (*line && *line != ',')
				return -1;
		} else {
			fields[n++] = line;
			line += strcspn(line, ",");
		}
		if (!*line)
			return n;
		*line++ = '\0';
	}
}

/* The checks of one line; its message, or NULL where it is a row. */
static const char *check_line(const struct results_reader *r, char *line, ssize_t len,
			      char **fields)
{
	static char msg[160];
	int n;

	if (line[len - 1] != '\n')
		return "truncated line (no newline at the end)";
	line[len - 1] = '\0';
	if (r->nfields == RESULTS_NFIELDS && r->line == 1)
		return strcmp(line, RESULTS_HEADER) ? "header is not '" RESULTS_HEADER "'" : NULL;
	if (split_csv(line, fields, r->nfields) != r->nfields)
		return r->nfields == RESULTS_NFIELDS ? "expected 7 fields (" RESULTS_HEADER ")" :
						       "expected 5 fields (" RAW_COLUMNS ")";
	for (n = 0; n < r->nfields; n++)
		if (!fields[n][0]) {
			snprintf(msg, sizeof(msg), "field %d is empty", n + 1);
			return msg;
		}
	return NULL;
}

static int bad_line(struct results_reader *r, const char *err)
{
	fprintf(stderr, "%s:%d: %s\n", r->file, r->line, err);
	return -1;
}

static int open_file(struct results_reader *r, const char *file, int nfields)
{
	*r = (struct results_reader){ .file = file, .nfields = nfields, .f = fopen(file, "r") };
	if (!r->f) {
		fprintf(stderr, "cannot open %s: %s\n", file, strerror(errno));
		return -1;
	}
	return 0;
}

int raw_open(struct results_reader *r, const char *file)
{
	return open_file(r, file, RAW_NFIELDS);
}

int results_open(struct results_reader *r, const char *file)
{
	if (open_file(r, file, RESULTS_NFIELDS))
		return -1;
	switch (results_next(r)) {	/* the header */
	case 1:
		return 0;
	case 0:
		fprintf(stderr, "%s: empty file\n", file);
		break;
	}
	results_close(r);
	return -1;
}

int results_next(struct results_reader *r)
{
	ssize_t len = getline(&r->text, &r->cap, r->f);
	const char *err;

	if (len <= 0)
		return 0;
	r->line++;
	err = check_line(r, r->text, len, r->fields);
	if (err)
		return bad_line(r, err);
	return 1;
}

void results_close(struct results_reader *r)
{
	free(r->text);
	if (r->f)
		fclose(r->f);
}
