// SPDX-License-Identifier: GPL-2.0
/* Statistics for compare: medians, Mann-Whitney U, bootstrap, Student's
 * and Welch's t, Holm. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

#define EXACT_MAX_N	8

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

double quantile_sorted(const double *sorted, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (pos - (double)i) * (sorted[i + 1] - sorted[i]);
}

/*
 * Exact two-sided p: 2 * P(U >= u_max) under H0, counting the arrangements
 * of m x's among m + n ranks by U with the recurrence
 * f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u).
 */
static double exact_p(size_t m, size_t n, double u_max)
{
	size_t umax = m * n, i, j, u;
	/* f[j][u] for the current i: j in 0..n, u in 0..umax */
	double *prev = calloc((n + 1) * (umax + 1), sizeof(double));
	double *cur = calloc((n + 1) * (umax + 1), sizeof(double));
	double total = 0, tail = 0, *t;

	if (!prev || !cur)
		abort();
	for (j = 0; j <= n; j++)
		prev[j * (umax + 1)] = 1;	/* i = 0: one arrangement, U = 0 */
	for (i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * (umax + 1) * sizeof(double));
		cur[0] = 1;			/* j = 0: U = 0 */
		for (j = 1; j <= n; j++)
			for (u = 0; u <= i * j; u++)
				cur[j * (umax + 1) + u] =
					(u >= j ? prev[j * (umax + 1) + u - j] : 0) +
					cur[(j - 1) * (umax + 1) + u];
		t = prev;
		prev = cur;
		cur = t;
	}
	for (u = 0; u <= umax; u++) {
		total += prev[n * (umax + 1) + u];
		if ((double)u >= u_max - 1e-9)
			tail += prev[n * (umax + 1) + u];
	}
	free(prev);
	free(cur);
	return fmin(1.0, 2 * tail / total);
}

struct ranked {
	double v;
	int from_x;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v,
			  &((const struct ranked *)b)->v);
}

double mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny,
		      int *exact)
{
	size_t n = nx + ny, i, j;
	struct ranked *all;
	double r1 = 0, tie_term = 0, u1, u2, u, mu, sigma, z;
	int ties = 0;

	*exact = 0;
	if (!nx || !ny)
		return NAN;
	all = malloc(n * sizeof(*all));
	if (!all)
		abort();
	for (i = 0; i < nx; i++)
		all[i] = (struct ranked){ x[i], 1 };
	for (i = 0; i < ny; i++)
		all[nx + i] = (struct ranked){ y[i], 0 };
	qsort(all, n, sizeof(*all), cmp_ranked);

	/* Mid-ranks for ties; sum of x's ranks and the tie term sum(t^3 - t). */
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		t = (double)(j - i);
		rank = (double)(i + j + 1) / 2;	/* mean of ranks i+1 .. j */
		if (t > 1) {
			ties = 1;
			tie_term += t * t * t - t;
		}
		for (size_t k = i; k < j; k++)
			if (all[k].from_x)
				r1 += rank;
	}
	free(all);
	u1 = r1 - (double)nx * (nx + 1) / 2;
	u2 = (double)nx * ny - u1;
	u = fmax(u1, u2);

	if (!ties && (nx <= EXACT_MAX_N || ny <= EXACT_MAX_N)) {
		*exact = 1;
		return exact_p(nx, ny, u);
	}
	mu = (double)nx * ny / 2;
	sigma = sqrt((double)nx * ny / 12 *
		     ((n + 1) - tie_term / ((double)n * (n - 1))));
	if (sigma == 0)
		return 1.0;		/* every value equal */
	z = (u - mu - 0.5) / sigma;
	return fmin(1.0, erfc(z / M_SQRT2));	/* 2 * (1 - Phi(z)) */
}

/* splitmix64: small, fast, and the same sequence on every machine. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double resampled_median(const double *v, size_t n, double *buf,
			       uint64_t *state)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = v[(size_t)(((unsigned __int128)next_random(state) * n) >> 64)];
	qsort(buf, n, sizeof(*buf), cmp_double);
	return median_sorted(buf, n);
}

/* Statistic of each resample (median(y*)/median(x*), or median(x*) when
 * y is NULL), then the percentile interval. */
static void bootstrap(const double *x, size_t nx, const double *y, size_t ny,
		      unsigned int resamples, uint64_t seed, double level,
		      double *low, double *high)
{
	double *stat = malloc(resamples * sizeof(*stat));
	double *buf = malloc((nx > ny ? nx : ny) * sizeof(*buf));
	uint64_t state = seed;
	unsigned int r;

	if (!stat || !buf)
		abort();
	for (r = 0; r < resamples; r++) {
		double mx = resampled_median(x, nx, buf, &state);

		stat[r] = y ? resampled_median(y, ny, buf, &state) / mx : mx;
	}
	qsort(stat, resamples, sizeof(*stat), cmp_double);
	*low = quantile_sorted(stat, resamples, (1 - level) / 2);
	*high = quantile_sorted(stat, resamples, 1 - (1 - level) / 2);
	free(stat);
	free(buf);
}

void bootstrap_ratio_ci(const double *x, size_t nx, const double *y, size_t ny,
			unsigned int resamples, uint64_t seed, double level,
			double *low, double *high)
{
	bootstrap(x, nx, y, ny, resamples, seed, level, low, high);
}

void bootstrap_median_ci(const double *x, size_t nx, unsigned int resamples,
			 uint64_t seed, double level, double *low, double *high)
{
	bootstrap(x, nx, NULL, 0, resamples, seed, level, low, high);
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
