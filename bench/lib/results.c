// SPDX-License-Identifier: GPL-2.0
/* The results schema; see results.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "results.h"

static const char *const key_names[PARAM_NKEYS] = {
#define PARAM_NAME(k) #k,
	PARAM_KEYS(PARAM_NAME)
#undef PARAM_NAME
};

void param_set(struct param *p, enum param_key key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->value[key], sizeof(p->value[key]), fmt, ap);
	va_end(ap);
}

int param_parse(struct param *p, const char *text)
{
	char pair[80], *eq;
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
	char list[PARAM_NKEYS * 48] = "";
	size_t len = 0;
	int k, pairs = 0;

	for (k = 0; k < PARAM_NKEYS; k++)
		if (p->value[k][0])
			len += snprintf(list + len, sizeof(list) - len, "%s%s=%s",
					pairs++ ? "," : "", key_names[k], p->value[k]);
	snprintf(buf, size, pairs > 1 ? "\"%s\"" : "%s", pairs ? list : "-");
	return buf;
}

void results_row(FILE *out, const char *variant, const char *boot, const char *metric,
		 const struct param *p, long iter, double value, int decimals,
		 const char *unit)
{
	char param[PARAM_NKEYS * 48 + 2];

	fprintf(out, "%s,%s,%s,%s,%ld,%.*f,%s\n", variant, boot, metric,
		param_csv(p, param, sizeof(param)), iter, decimals, value, unit);
}
