// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of stats.c against tests/fixtures/stats.csv (reference values
 * from scipy and numpy, see make_stats_fixtures.py there), plus Holm
 * against a hand-worked example.  Prints KTAP; exits non-zero on a failure.
 * usage: test_stats FIXTURE_CSV
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#define MAXV		64
#define SEED		7	/* as in make_stats_fixtures.py */
#define RESAMPLES	2000

static int parse_values(char *s, double *v)
{
	int n = 0;

	for (char *tok = strtok(s, " "); tok && n < MAXV; tok = strtok(NULL, " "))
		v[n++] = strtod(tok, NULL);
	return n;
}

static int close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fmax(fabs(want), 1e-300);
}

static int check(int *failed, int ok, const char *name, const char *what,
		 double got, double want)
{
	if (!ok) {
		printf("# %s: %s = %.12g, want %.12g\n", name, what, got, want);
		*failed = 1;
	}
	return ok;
}

static int holm_case(void)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 };
	/* sorted 0.005 0.01 0.03 0.04 -> 0.02 0.03 0.06 0.06 (monotone) */
	double want[] = { 0.03, 0.06, 0.06, 0.02 };
	int i, failed = 0;

	holm_adjust(p, 4);
	for (i = 0; i < 4; i++)
		check(&failed, close_to(p[i], want[i], 1e-12), "holm", "p", p[i],
		      want[i]);
	return failed;
}

/* Student's t against printed two-sided critical values (p = 0.05 and
 * 0.01), and Welch's t against a hand-worked example. */
static int t_case(void)
{
	static const struct { double t, df, p; } crit[] = {
		{ 12.706205, 1, 0.05 }, { 2.776445, 4, 0.05 }, { 4.604095, 4, 0.01 },
		{ 2.228139, 10, 0.05 }, { 3.169273, 10, 0.01 }, { 1.959966, 1e6, 0.05 },
	};
	double x[] = { 1, 2, 3 }, y[] = { 4, 5, 6, 7 }, flat[] = { 2, 2, 2 };
	double diff, se, df;
	int failed = 0;
	size_t i;

	for (i = 0; i < sizeof(crit) / sizeof(crit[0]); i++) {
		check(&failed, close_to(student_t_p(crit[i].t, crit[i].df), crit[i].p, 1e-5),
		      "student_t", "p", student_t_p(crit[i].t, crit[i].df), crit[i].p);
		check(&failed, close_to(student_t_quantile(1 - crit[i].p / 2, crit[i].df),
					crit[i].t, 1e-5), "student_t", "quantile",
		      student_t_quantile(1 - crit[i].p / 2, crit[i].df), crit[i].t);
	}
	/* means 2 and 5.5, variances 1 and 5/3: se^2 = 1/3 + 5/12 = 3/4,
	 * df = (3/4)^2 / ((1/3)^2 / 2 + (5/12)^2 / 3) = 4.959184 */
	check(&failed, !welch_t(x, 3, y, 4, &diff, &se, &df), "welch", "defined", 0, 0);
	check(&failed, close_to(diff, 3.5, 1e-12), "welch", "diff", diff, 3.5);
	check(&failed, close_to(se, sqrt(0.75), 1e-12), "welch", "se", se, sqrt(0.75));
	check(&failed, close_to(df, 0.5625 / (1.0 / 18 + 25.0 / 432), 1e-12), "welch",
	      "df", df, 0.5625 / (1.0 / 18 + 25.0 / 432));
	check(&failed, welch_t(flat, 3, flat, 3, &diff, &se, &df) == -1, "welch",
	      "defined without spread", 1, 0);
	check(&failed, welch_t(x, 1, y, 4, &diff, &se, &df) == -1, "welch",
	      "defined with one value", 1, 0);
	return failed;
}

int main(int argc, char **argv)
{
	char line[4096], *name, *xs, *ys, *rest;
	double x[MAXV], y[MAXV];
	int tests = 0, failures = 0, exact;
	FILE *f;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: test_stats FIXTURE_CSV\n");
		return 2;
	}
	printf("KTAP version 1\n");
	if (!fgets(line, sizeof(line), f))
		return 2;
	while (fgets(line, sizeof(line), f)) {
		double mx, my, p, lo, hi, got_lo, got_hi, got_p;
		int want_exact, nx, ny, failed = 0;

		name = strtok(line, ",");
		xs = strtok(NULL, ",");
		ys = strtok(NULL, ",");
		rest = strtok(NULL, "\n");
		if (!name || !xs || !ys || !rest ||
		    sscanf(rest, "%lf,%lf,%lf,%d,%lf,%lf", &mx, &my, &p,
			   &want_exact, &lo, &hi) != 6) {
			fprintf(stderr, "test_stats: malformed fixture line\n");
			return 2;
		}
		nx = parse_values(xs, x);
		ny = parse_values(ys, y);
		check(&failed, close_to(median(x, nx), mx, 1e-12), name, "median_x",
		      median(x, nx), mx);
		check(&failed, close_to(median(y, ny), my, 1e-12), name, "median_y",
		      median(y, ny), my);
		got_p = mann_whitney_p(x, nx, y, ny, &exact);
		check(&failed, close_to(got_p, p, 1e-9), name, "p", got_p, p);
		check(&failed, exact == want_exact, name, "exact", exact, want_exact);
		bootstrap_ratio_ci(x, nx, y, ny, RESAMPLES, SEED, 0.95, &got_lo, &got_hi);
		check(&failed, close_to(got_lo, lo, 1e-9), name, "ci_low", got_lo, lo);
		check(&failed, close_to(got_hi, hi, 1e-9), name, "ci_high", got_hi, hi);
		printf("%sok %d %s\n", failed ? "not " : "", ++tests, name);
		failures += failed;
	}
	fclose(f);
	failures += holm_case() ? (printf("not ok %d holm\n", ++tests), 1)
				: (printf("ok %d holm\n", ++tests), 0);
	failures += t_case() ? (printf("not ok %d student_t_and_welch\n", ++tests), 1)
			     : (printf("ok %d student_t_and_welch\n", ++tests), 0);
	printf("1..%d\n", tests);
	return failures ? 1 : 0;
}
