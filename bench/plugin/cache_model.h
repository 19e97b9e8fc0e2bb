/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache model of tcg_pmu.c, apart from QEMU's API so that
 * test_cache_model.c runs it on the host: one set-associative LRU cache
 * of 64-byte lines, the lines a guest access touches, and the transfers
 * between vCPUs.
 */
#ifndef CDEVBENCH_CACHE_MODEL_H
#define CDEVBENCH_CACHE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINE_SHIFT 6
/* QEMU's TLB, whence the physical addresses come, maps x86 memory in
 * 4 KiB pages, a huge page's too. */
#define PAGE_SHIFT 12

struct cache {
	unsigned int sets, ways;
	bool sets_pow2;		/* a set is the line's low bits: no division */
	uint64_t *tag;		/* line number + 1; 0 is an empty way */
	uint64_t *used;		/* LRU: the tick of the last access */
	uint64_t tick;
};

/* 0; -EINVAL where the lines do not fill whole sets, -ENOMEM. */
int cache_init(struct cache *c, unsigned long bytes, unsigned long ways);
/* Looks the line up, fills it on a miss; true on a hit. */
bool cache_access(struct cache *c, uint64_t line);
/* Drops the line (another vCPU wrote it). */
void cache_invalidate(struct cache *c, uint64_t line);

/* Where a virtual address lies, as QEMU's plugin API tells it: unknown
 * where it gave no physical address. */
enum place { PLACE_RAM, PLACE_DEVICE, PLACE_UNKNOWN };
/* The physical address of @vaddr in *phys where it is RAM. */
typedef enum place (*translate_fn)(void *ctx, uint64_t vaddr, uint64_t *phys);

/* One line of an access. */
struct access_line {
	uint64_t line;		/* physical line number, where place is RAM */
	uint64_t vaddr;		/* the access's first byte in it */
	enum place place;
};

/* An access of at most 64 bytes touches at most two lines; a larger
 * one's lines past those two are left out. */
#define ACCESS_MAX_LINES 2

/* The lines an access of @size bytes at @vaddr touches, in @out: how
 * many.  @translate is called once per page the access touches. */
unsigned int access_lines(uint64_t vaddr, uint64_t size, translate_fn translate, void *ctx,
			  struct access_line out[ACCESS_MAX_LINES]);

/* Spreads line numbers over an open-addressing table's slots. */
static inline uint64_t line_hash(uint64_t line)
{
	return line * 0x9e3779b97f4a7c15ULL;
}

/* Who wrote a line last, and which vCPUs touched it since. */
struct line_owner {
	uint64_t line;		/* + 1; 0 is an empty slot */
	int writer;		/* -1: none yet */
	uint64_t seen;		/* a bit per vCPU */
};

/* The lines' owners: open addressing, grown at 1/2. */
struct owners {
	struct line_owner *slot;
	size_t size, used;
};

/* vCPU numbers are bits of line_owner.seen. */
#define OWNERS_MAX_VCPUS 64

/*
 * Records an access of @vcpu (< OWNERS_MAX_VCPUS) to @line, in the order
 * the accesses happened; every access, in a window or not (@counting),
 * as the caches see every one.  1 where it is a transfer: an access in a
 * window to a line that another vCPU wrote since this vCPU last touched
 * it, in a window or not (a HITM on a real machine: the other's store
 * dropped this vCPU's copy, and it has not fetched the line since); 0
 * where not, and for any access out of a window; -ENOMEM.
 * *@held: the vCPUs that touched the line since its last store, before
 * this access: the only ones whose private caches may hold it, as a
 * store drops every other copy and only an access fetches one.
 */
int owners_access(struct owners *o, uint64_t line, unsigned int vcpu, bool store, bool counting,
		  uint64_t *held);

#endif
