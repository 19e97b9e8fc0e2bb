/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's results schema (DESIGN.md), owned here for every program that
 * writes or reads it (the guest programs, the host's trace step and
 * compare): rows of samples.csv, "variant,boot,metric,param,iter,value,unit",
 * and the param in them: "-", or key=value pairs in the one declared key
 * order below, in double quotes when they hold a comma.  README.md lists
 * the same keys in the same order.
 */
#ifndef CDEVBENCH_RESULTS_H
#define CDEVBENCH_RESULTS_H

#include <stdio.h>

#define RESULTS_HEADER "variant,boot,metric,param,iter,value,unit"
/* A row's fields, in the header's order. */
enum results_field { F_VARIANT, F_BOOT, F_METRIC, F_PARAM, F_ITER, F_VALUE, F_UNIT,
		     RESULTS_NFIELDS };

/* A run's per-operation files (BOOT/raw/NAME.csv): one line per timed
 * operation, no header; iter the repetition, op the operation in it. */
#define RAW_COLUMNS "metric,param,iter,op,ns"
enum raw_field { R_METRIC, R_PARAM, R_ITER, R_OP, R_NS, RAW_NFIELDS };

/* Param keys, in the order a param lists them. */
#define PARAM_KEYS(KEY) \
	KEY(bench) KEY(n) KEY(majors) KEY(minors) KEY(pos) KEY(threads) KEY(nodes) \
	KEY(sched) KEY(alloc) KEY(files) KEY(kib) KEY(clock) KEY(phase) KEY(lock) KEY(wait) \
	KEY(bucket_ns) KEY(site) KEY(flavour) KEY(prob)

enum param_key {
#define PARAM_ENUM(k) PARAM_##k,
	PARAM_KEYS(PARAM_ENUM)
#undef PARAM_ENUM
	PARAM_NKEYS
};

struct param {
	char value[PARAM_NKEYS][48];	/* "" where the key is absent */
};

/* A key's name, as params and series.csv's columns spell it. */
const char *param_key_name(enum param_key key);

/* Set one key; printf-style value. */
void param_set(struct param *p, enum param_key key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Parse "key=value,..." or "-" in any key order; -1 and a message on
 * stderr for an unknown or repeated key or a malformed pair. */
int param_parse(struct param *p, const char *text);
/* The param as a CSV field: "-", k=v or "k=v,k=v" in key order. */
const char *param_csv(const struct param *p, char *buf, size_t size);
/* A param's text as a CSV field: in double quotes when it holds a comma. */
const char *param_field(const char *text, char *buf, size_t size);

/* One row; value printed with @decimals decimals. */
void results_row(FILE *out, const char *variant, const char *boot, const char *metric,
		 const struct param *p, long iter, double value, int decimals,
		 const char *unit);
/* One line of a per-operation file. */
void results_raw_row(FILE *out, const char *metric, const struct param *p, long iter,
		     long op, long ns);

/*
 * Reading a samples.csv file:
 *
 *	struct results_reader r;
 *	if (results_open(&r, file)) ...
 *	while ((rc = results_next(&r)) > 0)
 *		use r.fields[F_METRIC] ... (line r.line)
 *	results_close(&r);	rc < 0: a malformed line
 *
 * The header is checked; each row is split into its fields, the param
 * unquoted, none empty.  raw_open() reads a per-operation file the same
 * way, its fields in r.fields[R_...].  -1 with a message "FILE:LINE: ..." on stderr for
 * a file that cannot be opened, is empty or has a malformed line (a
 * failed results_open() has closed what it opened).
 */
struct results_reader {
	const char *file;
	int nfields;	/* RESULTS_NFIELDS, or RAW_NFIELDS for a raw file */
	FILE *f;
	char *text, *fields[RESULTS_NFIELDS];
	size_t cap;
	int line;
};

int results_open(struct results_reader *r, const char *file);
int raw_open(struct results_reader *r, const char *file);
/* 1: a row in r->fields; 0: the end of the file; -1: a malformed line. */
int results_next(struct results_reader *r);
void results_close(struct results_reader *r);

#endif
