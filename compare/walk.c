// SPDX-License-Identifier: GPL-2.0
/*
 * compare, the walks of a run (make bench WALK=1, docs/walk.md): which
 * patch of a series changed a headline metric.  meta.json's walks give
 * each walk's steps: 0 the baseline, k the first k patches (the arm
 * <variant>~<k>), the last the whole series, and each step left out as
 * not bisectable with the reason.  For every headline (metric, param)
 * that changed from step 0 to the whole series, each measured step is
 * compared with the step measured before it, by the rule every
 * comparison is decided by (verdict.c's decide_all).  A bisection
 * (BISECT=) booted some steps only: the others have no samples and are
 * passed over as steps left out are; its own decisions are meta.json's.
 * Then each walk's block of the first screen, as the report's model's
 * nodes (report_model.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report_model.h"

/* meta.json's walks, and a walk's steps: arrays, or NULL */
static const json_t *walks_meta(void)
{
	return in->nmetas ? json_object_get(in->metas[0].doc, "walks") : NULL;
}

static const json_t *steps_meta(const json_t *walk)
{
	return json_object_get(walk, "steps");
}

int is_walk_prefix(const char *arm)
{
	const json_t *w, *s;
	size_t i, j;

	json_array_foreach(walks_meta(), i, w)
		json_array_foreach(steps_meta(w), j, s)
			if (j + 1 < json_array_size(steps_meta(w)) &&
			    !strcmp(member_string(s, "arm", ""), arm))
				return 1;
	return 0;
}

static int has_samples(const char *arm)
{
	size_t i;

	for (i = 0; i < in->nvariants; i++)
		if (!strcmp(in->variants[i], arm))
			return 1;
	return 0;
}

/* The walk's changes from step 0 to the whole series: the report's own
 * comparisons where step 0 is its baseline, so that both say the same;
 * else (a walk on another base) decided here. */
static void find_totals(struct walk *w, const struct comparison *c, size_t n)
{
	struct comparison *own = NULL;
	size_t i, nown = 0, family[2];

	if (!strcmp(w->from, opt.baseline)) {
		w->totals = xmalloc((n ? n : 1) * sizeof(*w->totals));
		for (i = 0; i < n; i++)
			if (!strcmp(c[i].variant, w->variant) && c[i].decl->family == HEADLINE &&
			    changed(&c[i]))
				w->totals[w->ntotals++] = &c[i];
		return;
	}
	own = xmalloc((in->ngroups ? in->ngroups : 1) * sizeof(*own));
	w->totals = xmalloc((in->ngroups ? in->ngroups : 1) * sizeof(*w->totals));
	for (i = 0; i < in->ngroups; i++) {
		const struct group *g = &in->groups[i];

		if (strcmp(g->variant, w->variant) || !tested(g) || g->decl->family != HEADLINE)
			continue;
		own[nown++] = (struct comparison){ .base = find_group(g->metric, g->param, w->from),
						   .var = g, .decl = g->decl, .metric = g->metric,
						   .param = g->param, .variant = g->variant };
	}
	decide_all(own, nown, family, 0);
	for (i = 0; i < nown; i++)
		if (changed(&own[i]))
			w->totals[w->ntotals++] = &own[i];
}

/* Each total's (metric, param) at every measured step against the one
 * measured before it (step 0 before the first). */
static void attribute(struct walk *w, const struct comparison *c, size_t n)
{
	size_t i, t, j, family[2];

	w->chain = xmalloc((w->nsteps ? w->nsteps : 1) * sizeof(*w->chain));
	for (i = 0; i < w->nsteps; i++)
		if (!w->steps[i].not_bisectable && has_samples(w->steps[i].arm))
			w->chain[w->nchain++] = i;
	/* nothing to attribute without both ends */
	if (!w->nchain || strcmp(w->steps[w->chain[w->nchain - 1]].arm, w->variant) ||
	    !has_samples(w->from))
		return;
	find_totals(w, c, n);
	w->cmp = xmalloc((w->ntotals ? w->ntotals * w->nchain : 1) * sizeof(*w->cmp));
	for (t = 0; t < w->ntotals; t++) {
		const struct comparison *x = w->totals[t];

		for (j = 0; j < w->nchain; j++) {
			const char *before = j ? w->steps[w->chain[j - 1]].arm : w->from;
			const char *arm = w->steps[w->chain[j]].arm;

			w->cmp[t * w->nchain + j] = (struct comparison){
				.base = find_group(x->metric, x->param, before),
				.var = find_group(x->metric, x->param, arm), .decl = x->decl,
				.metric = x->metric, .param = x->param, .variant = arm };
		}
	}
	decide_all(w->cmp, w->ntotals * w->nchain, family, 0);
}

size_t find_walks(const struct comparison *c, size_t n, const struct walk **out)
{
	static struct walk *walks;
	static size_t nwalks;
	static int done;
	const json_t *all = done ? NULL : walks_meta(), *m, *s, *b;
	size_t i, j;

	json_array_foreach(all, i, m) {
		struct walk *w;

		walks = xrealloc(walks, (nwalks + 1) * sizeof(*walks));
		w = &walks[nwalks++];
		*w = (struct walk){ .variant = member_string(m, "variant", "?"),
				    .from = member_string(m, "from", "?") };
		b = json_object_get(in->metas[0].doc, "bisection");
		if (b && !strcmp(member_string(b, "walk", ""), w->variant))
			w->bisection = b;
		/* step k is the k-th, as bench.sh lists them */
		json_array_foreach(steps_meta(m), j, s) {
			w->steps = xrealloc(w->steps, (w->nsteps + 1) * sizeof(*w->steps));
			w->steps[w->nsteps] = (struct walk_step){
				.step = (int)w->nsteps + 1,
				.arm = member_string(s, "arm", "?"),
				.subject = member_string(s, "subject", "?"),
				.not_bisectable = member_string(s, "not_bisectable", NULL) };
			w->nsteps++;
		}
		attribute(w, c, n);
	}
	done = 1;
	*out = walks;
	return nwalks;
}

/* A walk's step as a reader names it: "patch 2/3", or "patches 1-2/3"
 * after a step that was left out. */
static void step_name(char *buf, size_t size, const struct walk *w, size_t j)
{
	int last = w->steps[w->chain[j]].step;
	int first = j ? w->steps[w->chain[j - 1]].step + 1 : 1;

	if (first == last)
		snprintf(buf, size, "patch %d/%zu", last, w->nsteps);
	else
		snprintf(buf, size, "patches %d-%d/%zu", first, last, w->nsteps);
}

/* A step's changes to the params of one line of a walk's block: at step
 * chain[j], in one direction, at hits params, x the largest. */
struct step_part {
	size_t j, hits;
	const struct comparison *x;
	double lo, hi;
};

static int cmp_part(const void *a, const void *b)
{
	const struct comparison *x = ((const struct step_part *)a)->x;
	const struct comparison *y = ((const struct step_part *)b)->x;

	return cmp_effect(&x, &y);
}

/* One line of a walk's block: a headline metric that changed one way
 * from the walk's baseline to the whole series (at the params of the
 * totals ts, x the largest), and the steps that changed it, largest
 * first, at most max_changes; named[j] set for each step named. */
static void print_walk_line(FILE *out, const struct walk *w, const struct comparison *x,
			    const size_t *ts, size_t nts, size_t max_changes, int *named)
{
	struct step_part *parts = xmalloc(w->nchain * nts * sizeof(*parts));
	const struct comparison *largest = NULL;
	size_t i, k, t, j, largest_j = 0, params = 0, nparts = 0;
	double lo = INFINITY, hi = -INFINITY;
	char range[80], name[48];

	for (i = 0; i < in->ngroups; i++)
		params += !strcmp(in->groups[i].variant, w->variant) &&
			  !strcmp(in->groups[i].metric, x->metric);
	for (t = 0; t < nts; t++) {
		lo = fmin(lo, w->totals[ts[t]]->ratio);
		hi = fmax(hi, w->totals[ts[t]]->ratio);
	}
	format_range(range, sizeof(range), x, lo, hi);
	fprintf(out, "%s %s %s (%zu/%zu):", x->metric, x->verdict, range, nts, params);
	/* the steps' changes, one part per step and direction */
	for (j = 0; j < w->nchain; j++)
		for (t = 0; t < nts; t++) {
			const struct comparison *y = &w->cmp[ts[t] * w->nchain + j];

			if (y->base && y->var && !isnan(y->ratio) &&
			    (!largest || cmp_effect(&y, &largest) < 0)) {
				largest = y;
				largest_j = j;
			}
			if (!changed(y))
				continue;
			for (k = 0; k < nparts && (parts[k].j != j ||
						   strcmp(parts[k].x->verdict, y->verdict)); k++)
				;
			if (k == nparts)
				parts[nparts++] = (struct step_part){ .j = j, .x = y, .lo = INFINITY,
								      .hi = -INFINITY };
			parts[k].hits++;
			parts[k].lo = fmin(parts[k].lo, y->ratio);
			parts[k].hi = fmax(parts[k].hi, y->ratio);
			if (cmp_effect(&y, &parts[k].x) < 0)
				parts[k].x = y;
		}
	qsort(parts, nparts, sizeof(*parts), cmp_part);
	for (k = 0; k < nparts && k < max_changes; k++) {
		step_name(name, sizeof(name), w, parts[k].j);
		format_range(range, sizeof(range), parts[k].x, parts[k].lo, parts[k].hi);
		fprintf(out, "%s %s %s %s (%zu/%zu)", k ? "," : "", name, parts[k].x->verdict, range,
			parts[k].hits, nts);
		named[parts[k].j] = 1;
	}
	if (nparts > k)
		fprintf(out, ", %zu more", nparts - k);
	if (!nparts && largest) {
		/* a change of small steps, none beyond the threshold alone */
		step_name(name, sizeof(name), w, largest_j);
		format_range(range, sizeof(range), largest, largest->ratio, largest->ratio);
		fprintf(out, " no step alone (the largest, %s, %s %s)", name, range, largest->verdict);
	} else if (!nparts) {
		fprintf(out, " no step measured");
	}
	free(parts);
}

/* A line of a walk's block, written to the stream doc_begin() returns:
 * as it is in report.md, under a hanging indent in report.txt. */
static void walk_line_end(struct doc_piece *line, struct doc *d)
{
	doc_end(line, d, NODE_LINE, FOR_BOTH)->text_layout =
		(struct layout){ .width = 78, .first = "  ", .rest = "    " };
}

static void __attribute__((format(printf, 2, 3))) walk_line(struct doc *d, const char *fmt, ...)
{
	struct doc_piece line;
	va_list ap;

	va_start(ap, fmt);
	vfprintf(doc_begin(&line), fmt, ap);
	va_end(ap);
	walk_line_end(&line, d);
}

/* A bisection's line (make bench BISECT=): the first patch after which
 * its figure changed, or that it did not, and the steps it decided. */
static void build_bisection(struct doc *d, const struct walk *w)
{
	/* numbers as meta.json is read: reals (input.c) */
	const json_t *b = w->bisection, *steps = json_object_get(b, "steps"), *s;
	const json_t *first = json_object_get(b, "first_changed");
	int last_same = (int)json_number_value(json_object_get(b, "last_same"));
	int per_step = (int)json_number_value(json_object_get(b, "boots_per_step"));
	struct doc_piece line;
	size_t i, decided = 0;
	FILE *out;

	json_array_foreach(steps, i, s)
		decided += json_number_value(json_object_get(s, "step")) < w->nsteps;
	out = doc_begin(&line);
	fprintf(out, "bisection of %s at %s: ", member_string(b, "metric", "?"),
		member_string(b, "param", "?"));
	if (!json_is_number(first))
		fprintf(out, "not changed from %s to the whole series, nothing to bisect", w->from);
	else if ((int)json_number_value(first) == last_same + 1)
		fprintf(out, "first changed at patch %d/%zu", (int)json_number_value(first), w->nsteps);
	else if ((int)json_number_value(first) == last_same + 2)
		fprintf(out, "first changed at patch %d/%zu or %d, which is not bisectable",
			(int)json_number_value(first), w->nsteps, last_same + 1);
	else
		fprintf(out, "first changed at patch %d/%zu or one of %d-%d, which are not bisectable",
			(int)json_number_value(first), w->nsteps, last_same + 1,
			(int)json_number_value(first) - 1);
	fprintf(out, "; %zu of %zu prefixes decided, %d boot%s a step:", decided, w->nsteps - 1,
		per_step, per_step == 1 ? "" : "s");
	json_array_foreach(steps, i, s)
		fprintf(out, "%s step %d %s %.2fx", i ? "," : "",
			(int)json_number_value(json_object_get(s, "step")),
			member_string(s, "verdict", "?"), json_number_value(json_object_get(s, "ratio")));
	walk_line_end(&line, d);
}

/* A walk's block (make bench WALK=1): per headline metric and way it
 * changed from the walk's baseline to the whole series, largest first,
 * the steps that changed it (at most max_changes lines, the rest
 * counted); the subjects of the patches named; the steps left out as
 * not bisectable, with the reason. */
static void build_walk(struct doc *d, const struct walk *w, size_t max_changes)
{
	const struct comparison **rows = xmalloc((w->ntotals ? w->ntotals : 1) * sizeof(*rows));
	size_t *ts = xmalloc((w->ntotals ? w->ntotals : 1) * sizeof(*ts));
	int *named = calloc(w->nchain ? w->nchain : 1, sizeof(*named));
	size_t i, j, t, nts, shown = 0, hidden = 0;
	struct doc_piece intro, line;
	FILE *out;
	int p;

	if (!named)
		die("out of memory");
	out = doc_begin(&intro);
	fprintf(out, "of its %zu patches against the step measured before it, from %s (rule %s; a step not named did not change the metric)",
		w->nsteps, w->from, deterministic ? "gap" : "t+gap, Holm over these steps");
	fclose(out);
	doc_heading(d, FOR_MD, 3, "%s, patch by patch", w->variant);
	doc_para(d, FOR_TEXT, "%s, patch by patch: each %s", w->variant, intro.text);
	doc_para(d, FOR_MD, "Each %s.", intro.text);
	free(intro.text);
	doc_code(d, FOR_BOTH, 0);
	if (w->bisection)
		build_bisection(d, w);
	if (w->ntotals)
		memcpy(rows, w->totals, w->ntotals * sizeof(*rows));
	qsort(rows, w->ntotals, sizeof(*rows), cmp_effect);
	for (i = 0; i < w->ntotals; i++) {
		for (j = 0; j < i && (strcmp(rows[j]->metric, rows[i]->metric) ||
				      strcmp(rows[j]->verdict, rows[i]->verdict)); j++)
			;
		if (j < i)
			continue;	/* on the line of a larger change */
		if (shown == max_changes) {
			hidden++;
			continue;
		}
		shown++;
		for (t = 0, nts = 0; t < w->ntotals; t++)
			if (!strcmp(w->totals[t]->metric, rows[i]->metric) &&
			    !strcmp(w->totals[t]->verdict, rows[i]->verdict))
				ts[nts++] = t;
		print_walk_line(doc_begin(&line), w, rows[i], ts, nts, max_changes, named);
		walk_line_end(&line, d);
	}
	if (!w->ntotals)
		walk_line(d, "%s", w->cmp ? "no headline metric changed" :
			  "nothing to attribute: the baseline or the whole series has no samples");
	if (hidden)
		walk_line(d, "%zu more change%s (report.md, compare.json)", hidden,
			  hidden == 1 ? "" : "s");
	for (j = 0; j < w->nchain; j++)
		for (p = j ? w->steps[w->chain[j - 1]].step + 1 : 1;
		     named[j] && p <= w->steps[w->chain[j]].step; p++) {
			const char *subject = w->steps[p - 1].subject;
			char head[32];
			int room;

			/* report.txt: the subject cut to the line, whole in its
			 * variant's heading */
			room = 78 - snprintf(head, sizeof(head), "  patch %d/%zu: ", p, w->nsteps);
			doc_line(d, FOR_MD, "patch %d/%zu: %s", p, w->nsteps, subject);
			if ((int)strlen(subject) <= room)
				doc_line(d, FOR_TEXT, "%s%s", head, subject);
			else
				doc_line(d, FOR_TEXT, "%s%.*s...", head, room - 3, subject);
		}
	for (i = 0; i < w->nsteps; i++)
		if (w->steps[i].not_bisectable)
			walk_line(d, "not bisectable at patch %d: %s", w->steps[i].step,
				  w->steps[i].not_bisectable);
	doc_code(d, FOR_BOTH, 1);
	free(rows);
	free(ts);
	free(named);
}

/* Every walk's block, each with at most max_changes lines of changes. */
void build_walk_blocks(struct doc *d, const struct comparison *c, size_t n, size_t max_changes)
{
	const struct walk *w;
	size_t nw = find_walks(c, n, &w), i;

	for (i = 0; i < nw; i++)
		build_walk(d, &w[i], max_changes);
}
