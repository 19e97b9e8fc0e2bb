// SPDX-License-Identifier: GPL-2.0
/* Statistics for compare: medians, Student's and Welch's t, Holm; the t
 * distribution's tail and quantile from GSL. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		abort();
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = sorted_copy(v, n);
	m = median_sorted(s, n);
	free(s);
	return m;
}

void holm_adjust(double *p, size_t k)
{
	size_t *order = malloc((k ? k : 1) * sizeof(*order)), i, j;
	double running = 0;

	if (!order)
		abort();
	for (i = 0; i < k; i++)
		order[i] = i;
	/* insertion sort of indices by p; k is small (a report's comparisons) */
	for (i = 1; i < k; i++)
		for (j = i; j > 0 && p[order[j]] < p[order[j - 1]]; j--) {
			size_t t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (i = 0; i < k; i++) {
		double adj = fmin(1.0, (double)(k - i) * p[order[i]]);

		running = fmax(running, adj);
		p[order[i]] = running;
	}
	free(order);
}

/* P(|T| > |t|) = I_x(df/2, 1/2) with x = df/(df + t^2), the regularized
 * incomplete beta function.  Not 2 * gsl_cdf_tdist_Q(|t|, df): above 30
 * degrees of freedom that is a Cornish-Fisher expansion, off by up to
 * 1e-6 (relative) in the far tail, where this is within 1e-13. */
double student_t_p(double t, double df)
{
	if (isnan(t) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	/* GSL's default handler would abort the report: a value GSL cannot
	 * compute comes back NaN instead */
	gsl_set_error_handler_off();
	return gsl_cdf_beta_P(df / (df + t * t), df / 2, 0.5);
}

/* Above the median from the upper tail, whose probability 1 - q is
 * exact there. */
double student_t_quantile(double q, double df)
{
	if (isnan(q) || df <= 0)
		return NAN;
	gsl_set_error_handler_off();
	return q > 0.5 ? gsl_cdf_tdist_Qinv(1 - q, df) : gsl_cdf_tdist_Pinv(q, df);
}

static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*var = ss / (double)(n - 1);
}

int welch_t(const double *x, size_t nx, const double *y, size_t ny,
	    double *diff, double *se, double *df)
{
	double mx, vx, my, vy, sx, sy;

	if (nx < 2 || ny < 2)
		return -1;
	mean_var(x, nx, &mx, &vx);
	mean_var(y, ny, &my, &vy);
	sx = vx / (double)nx;
	sy = vy / (double)ny;
	*diff = my - mx;
	*se = sqrt(sx + sy);
	if (*se == 0)
		return -1;
	*df = (sx + sy) * (sx + sy) /
	      (sx * sx / (double)(nx - 1) + sy * sy / (double)(ny - 1));
	return 0;
}
