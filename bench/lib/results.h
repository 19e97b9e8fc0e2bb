/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's results schema (DESIGN.md), owned here for every guest
 * program: rows of samples.csv, "variant,boot,metric,param,iter,value,unit",
 * and the param in them: "-", or key=value pairs in the one declared key
 * order below, in double quotes when they hold a comma.  README.md lists
 * the same keys in the same order.
 */
#ifndef CDEVBENCH_RESULTS_H
#define CDEVBENCH_RESULTS_H

#include <stdio.h>

#define RESULTS_HEADER "variant,boot,metric,param,iter,value,unit"

/* Param keys, in the order a param lists them. */
#define PARAM_KEYS(KEY) \
	KEY(n) KEY(majors) KEY(minors) KEY(pos) KEY(threads) KEY(clock) \
	KEY(phase) KEY(flavour) KEY(prob)

enum param_key {
#define PARAM_ENUM(k) PARAM_##k,
	PARAM_KEYS(PARAM_ENUM)
#undef PARAM_ENUM
	PARAM_NKEYS
};

struct param {
	char value[PARAM_NKEYS][32];	/* "" where the key is absent */
};

/* Set one key; printf-style value. */
void param_set(struct param *p, enum param_key key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Parse "key=value,..." or "-" in any key order; -1 and a message on
 * stderr for an unknown or repeated key or a malformed pair. */
int param_parse(struct param *p, const char *text);
/* The param as a CSV field: "-", k=v or "k=v,k=v" in key order. */
const char *param_csv(const struct param *p, char *buf, size_t size);

/* One row; value printed with @decimals decimals. */
void results_row(FILE *out, const char *variant, const char *boot, const char *metric,
		 const struct param *p, long iter, double value, int decimals,
		 const char *unit);

#endif
