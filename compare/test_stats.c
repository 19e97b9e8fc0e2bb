// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of stats.c: medians and Holm against hand-worked examples,
 * Student's t against printed critical values, Welch's t against a
 * worked example.  Prints KTAP; exits non-zero on a failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "stats.h"

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

static int median_case(void)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	int failed = 0;

	check(&failed, median(odd, 3) == 3, "median", "odd", median(odd, 3), 3);
	check(&failed, median(even, 4) == 2.5, "median", "even", median(even, 4), 2.5);
	check(&failed, median(one, 1) == 7, "median", "one", median(one, 1), 7);
	check(&failed, isnan(median(one, 0)), "median", "none", median(one, 0), NAN);
	return failed;
}

int main(void)
{
	static const struct { const char *name; int (*run)(void); } cases[] = {
		{ "median", median_case },
		{ "holm", holm_case },
		{ "student_t_and_welch", t_case },
	};
	int failures = 0;
	size_t i;

	printf("KTAP version 1\n1..%zu\n", sizeof(cases) / sizeof(cases[0]));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int failed = cases[i].run();

		printf("%sok %zu %s\n", failed ? "not " : "", i + 1, cases[i].name);
		failures += failed;
	}
	return failures ? 1 : 0;
}
