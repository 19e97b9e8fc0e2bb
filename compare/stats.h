/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics for compare: medians, Student's and Welch's t, Holm. */
#ifndef CDEVBENCH_STATS_H
#define CDEVBENCH_STATS_H

#include <stddef.h>

/* Median of n values (the mean of the middle two when n is even). */
double median(const double *v, size_t n);

/* Two-sided p-value of Student's t with df degrees of freedom. */
double student_t_p(double t, double df);

/* The q-quantile of Student's t with df degrees of freedom. */
double student_t_quantile(double q, double df);

/* Welch's unequal-variance t statistic of mean(y) - mean(x): the
 * difference, its standard error and the Welch-Satterthwaite degrees of
 * freedom.  -1 when it is undefined (fewer than 2 values a side, or no
 * spread at all). */
int welch_t(const double *x, size_t nx, const double *y, size_t ny,
	    double *diff, double *se, double *df);

/* Holm step-down adjustment of k p-values, in place. */
void holm_adjust(double *p, size_t k);

#endif
