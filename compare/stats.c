// SPDX-License-Identifier: GPL-2.0
/* Statistics for compare: medians, Student's and Welch's t, Holm. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
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

/* Continued fraction of the regularized incomplete beta function
 * (modified Lentz), valid for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 300; m++) {
		double num, delta;

		/* even step */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		/* odd step */
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function. */
static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double student_t_p(double t, double df)
{
	if (isnan(t) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double student_t_quantile(double q, double df)
{
	double lo = 0, hi = 1;
	int i;

	if (q <= 0.5)
		return q == 0.5 ? 0 : -student_t_quantile(1 - q, df);
	/* P(T > t) = p(t) / 2 falls with t: widen, then bisect */
	while (student_t_p(hi, df) / 2 > 1 - q)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_t_p(mid, df) / 2 > 1 - q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
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
