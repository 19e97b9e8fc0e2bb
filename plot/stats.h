/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics for compare: medians, Mann-Whitney U, bootstrap, Student's
 * and Welch's t, Holm. */
#ifndef CDEVBENCH_STATS_H
#define CDEVBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Median of n values (the mean of the middle two when n is even). */
double median(const double *v, size_t n);

/* Linear-interpolated q-quantile (0..1) of n sorted values, as numpy's
 * default and R's type 7. */
double quantile_sorted(const double *sorted, size_t n, double q);

/* Two-sided Mann-Whitney U p-value of x against y: exact when the smaller
 * sample has at most 8 values and there are no ties, otherwise the normal
 * approximation with tie and continuity correction.  *exact tells which. */
double mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny,
		      int *exact);

/* Percentile-bootstrap interval (level, e.g. 0.95) of
 * median(y) / median(x), from `resamples` paired resamples drawn with a
 * generator seeded by `seed`, so equal inputs give equal output. */
void bootstrap_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
			unsigned int resamples, uint64_t seed, double level,
			double *low, double *high);

/* Percentile-bootstrap interval of the median of x alone (plot error
 * bars), with the same generator as bootstrap_ratio_ci(). */
void bootstrap_median_ci(const double *x, size_t nx, unsigned int resamples,
			 uint64_t seed, double level, double *low, double *high);

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
