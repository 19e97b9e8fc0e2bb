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
 */
#include <stdlib.h>
#include <string.h>
#include "compare.h"

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
