// SPDX-License-Identifier: GPL-2.0
/*
 * The cache model of tcg_pmu.c (cache_model.h): linked into the plugin and
 * into its host test, test_cache_model.c.
 */
#include <errno.h>
#include <stdlib.h>
#include "cache_model.h"

int cache_init(struct cache *c, unsigned long bytes, unsigned long ways)
{
	unsigned long lines = bytes >> LINE_SHIFT;

	if (!ways || !lines || lines % ways)
		return -EINVAL;
	c->ways = ways;
	c->sets = lines / ways;
	c->sets_pow2 = !(c->sets & (c->sets - 1));
	c->tick = 0;
	c->tag = calloc(lines, sizeof(*c->tag));
	c->used = calloc(lines, sizeof(*c->used));
	if (!c->tag || !c->used) {
		free(c->tag);
		free(c->used);
		return -ENOMEM;
	}
	return 0;
}

/* The offset of @line's set in tag[] and used[]. */
static size_t set_of(const struct cache *c, uint64_t line)
{
	return (c->sets_pow2 ? line & (c->sets - 1) : line % c->sets) * c->ways;
}

/* Evicts the least recently used way on a miss: an empty way first, its
 * tick 0 older than any access's. */
bool cache_access(struct cache *c, uint64_t line)
{
	uint64_t *tag = c->tag + set_of(c, line);
	uint64_t *used = c->used + set_of(c, line);
	unsigned int w, victim = 0;

	c->tick++;
	for (w = 0; w < c->ways; w++) {
		if (tag[w] == line + 1) {
			used[w] = c->tick;
			return true;
		}
		if (used[w] < used[victim])
			victim = w;
	}
	tag[victim] = line + 1;
	used[victim] = c->tick;
	return false;
}

/* The way is empty again, and its tick 0 makes it the next fill's victim
 * in the set: with its old tick, fills would evict valid lines while it
 * stood empty. */
void cache_invalidate(struct cache *c, uint64_t line)
{
	uint64_t *tag = c->tag + set_of(c, line);
	uint64_t *used = c->used + set_of(c, line);
	unsigned int w;

	for (w = 0; w < c->ways; w++)
		if (tag[w] == line + 1)
			tag[w] = used[w] = 0;
}

/*
 * A line of the access per virtual line it touches: a virtual line lies
 * within one page, and within a page the physical lines follow the
 * virtual ones; a line on the next page is that page's, translated on its
 * own.
 */
unsigned int access_lines(uint64_t vaddr, uint64_t size, translate_fn translate, void *ctx,
			  struct access_line out[ACCESS_MAX_LINES])
{
	uint64_t va, base = vaddr, phys = 0, last = (vaddr + size - 1) >> LINE_SHIFT;
	enum place place = translate(ctx, vaddr, &phys);
	unsigned int n = 0;

	for (va = vaddr;; va = ((va >> LINE_SHIFT) + 1) << LINE_SHIFT) {
		if (va >> PAGE_SHIFT != base >> PAGE_SHIFT) {
			base = va;
			phys = 0;
			place = translate(ctx, va, &phys);
		}
		out[n++] = (struct access_line){ .line = (phys + (va - base)) >> LINE_SHIFT,
						 .vaddr = va, .place = place };
		if (n == ACCESS_MAX_LINES || va >> LINE_SHIFT == last)
			return n;
	}
}

/* The line's slot, or the empty one where it goes. */
static struct line_owner *owner_slot(struct line_owner *slot, size_t size, uint64_t line)
{
	size_t i;

	for (i = line_hash(line) & (size - 1);; i = (i + 1) & (size - 1))
		if (!slot[i].line || slot[i].line == line + 1)
			return &slot[i];
}

int owners_access(struct owners *o, uint64_t line, unsigned int vcpu, bool store, bool counting,
		  uint64_t *held)
{
	struct line_owner *w;
	int transfer;

	if (2 * (o->used + 1) > o->size) {
		size_t i, size = o->size ? 2 * o->size : 65536;
		struct line_owner *slot = calloc(size, sizeof(*slot));

		if (!slot)
			return -ENOMEM;
		for (i = 0; i < o->size; i++)
			if (o->slot[i].line)
				*owner_slot(slot, size, o->slot[i].line - 1) = o->slot[i];
		free(o->slot);
		o->slot = slot;
		o->size = size;
	}
	w = owner_slot(o->slot, o->size, line);
	if (!w->line) {
		*w = (struct line_owner){ .line = line + 1, .writer = -1 };
		o->used++;
	}
	*held = w->seen;
	transfer = counting && w->writer >= 0 && w->writer != (int)vcpu &&
		   !(w->seen & (1ULL << vcpu));
	if (store) {
		w->writer = vcpu;
		w->seen = 1ULL << vcpu;
	} else {
		w->seen |= 1ULL << vcpu;
	}
	return transfer;
}
