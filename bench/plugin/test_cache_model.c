// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of cache_model.c, tcg_pmu's cache model: address traces
 * replayed against hit and miss sequences worked out by hand, and the
 * lines of guest accesses under a made-up page table.  Prints KTAP; exits
 * non-zero on a failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cache_model.h"

/* A step of a trace: 'a' accesses the line, 'i' invalidates it. */
struct step {
	char op;
	uint64_t line;
};

/*
 * Replays @n steps on a fresh cache of @bytes/@ways and compares its
 * hits (H) and misses (M), one letter per access, to @want.
 */
static int replay(const char *name, unsigned long bytes, unsigned long ways,
		  const struct step *steps, size_t n, const char *want)
{
	char got[256] = "";
	struct cache c;
	size_t i, len = 0;

	if (cache_init(&c, bytes, ways)) {
		printf("# %s: no cache of %lu/%lu\n", name, bytes, ways);
		return 1;
	}
	for (i = 0; i < n && len + 1 < sizeof(got); i++) {
		if (steps[i].op == 'i')
			cache_invalidate(&c, steps[i].line);
		else
			got[len++] = cache_access(&c, steps[i].line) ? 'H' : 'M';
	}
	got[len] = '\0';
	free(c.tag);
	free(c.used);
	if (!strcmp(got, want))
		return 0;
	printf("# %s: %s, want %s\n", name, got, want);
	return 1;
}

#define REPLAY(name, bytes, ways, steps, want) \
	replay(name, bytes, ways, steps, sizeof(steps) / sizeof(steps[0]), want)

/* One set of 4 ways: a miss evicts the way least recently used. */
static int lru_case(void)
{
	static const struct step steps[] = {
		{ 'a', 0 }, { 'a', 1 }, { 'a', 2 }, { 'a', 3 },	/* 4 misses */
		{ 'a', 0 },	/* hit; LRU order now 1 2 3 0 */
		{ 'a', 4 },	/* miss, evicts 1: 2 3 0 4 */
		{ 'a', 1 },	/* miss, evicts 2: 3 0 4 1 */
		{ 'a', 0 },	/* hit: 3 4 1 0 */
		{ 'a', 2 },	/* miss, evicts 3: 4 1 0 2 */
		{ 'a', 3 },	/* miss, evicts 4: 1 0 2 3 */
	};

	return REPLAY("lru", 4 << LINE_SHIFT, 4, steps, "MMMMHMMHMM");
}

/* Two sets of 2 ways: even lines in set 0, odd in set 1; a miss in one
 * set evicts nothing from the other. */
static int sets_case(void)
{
	static const struct step steps[] = {
		{ 'a', 0 }, { 'a', 1 }, { 'a', 2 }, { 'a', 3 },	/* 4 misses */
		{ 'a', 4 },	/* miss, evicts 0 from set 0 */
		{ 'a', 1 },	/* hit: set 1 as it was */
		{ 'a', 0 },	/* miss */
	};

	return REPLAY("sets", 4 << LINE_SHIFT, 2, steps, "MMMMMHM");
}

/* Three sets of 1 way, a count that is no power of two: line L is in set
 * L mod 3, so 3 evicts 0 and 4 evicts 1, where 2 stays. */
static int three_sets_case(void)
{
	static const struct step steps[] = {
		{ 'a', 0 }, { 'a', 1 }, { 'a', 2 },	/* 3 misses */
		{ 'a', 3 },	/* miss, evicts 0 */
		{ 'a', 2 },	/* hit */
		{ 'a', 0 },	/* miss */
		{ 'a', 4 },	/* miss, evicts 1 */
		{ 'a', 2 },	/* hit */
		{ 'a', 1 },	/* miss */
	};

	return REPLAY("three_sets", 3 << LINE_SHIFT, 1, steps, "MMMMHMMHM");
}

/* An invalidated line misses again; invalidating a line not held
 * changes nothing. */
static int invalidate_case(void)
{
	static const struct step steps[] = {
		{ 'a', 0 }, { 'a', 1 },	/* 2 misses */
		{ 'i', 1 }, { 'i', 5 },
		{ 'a', 1 },	/* miss: dropped */
		{ 'a', 0 },	/* hit */
	};

	return REPLAY("invalidate", 4 << LINE_SHIFT, 4, steps, "MMMH");
}

/*
 * A line another vCPU wrote frees its way, which the next fill in the set
 * takes: the L1D's geometry (32 KiB, 8 ways, 64 sets), set 0 filled with
 * lines 0, 64, ... 448, 448 invalidated (the most recently used), then a
 * new line 512 and the seven others again: 9 misses, then 7 hits.  A
 * fill that evicted the least recently used valid line instead (0) would
 * start a chain in which each of the seven evicts the next: 7 misses
 * more.
 */
static int invalidated_way_case(void)
{
	static const struct step steps[] = {
		{ 'a', 0 }, { 'a', 64 }, { 'a', 128 }, { 'a', 192 },
		{ 'a', 256 }, { 'a', 320 }, { 'a', 384 }, { 'a', 448 },
		{ 'i', 448 },
		{ 'a', 512 },
		{ 'a', 0 }, { 'a', 64 }, { 'a', 128 }, { 'a', 192 },
		{ 'a', 256 }, { 'a', 320 }, { 'a', 384 },
	};

	return REPLAY("invalidated_way", 32768, 8, steps, "MMMMMMMMMHHHHHHH");
}

/* A step of a transfers trace: vCPU @vcpu loads ('l') or stores ('s')
 * @line in a window, or loads ('r') or stores ('w') it out of one. */
struct touch {
	unsigned int vcpu;
	char op;
	uint64_t line;
};

/*
 * Replays @n touches, in this order, on an empty owners table, into
 * @got: per touch, T where it is a transfer, - where not.  0; 1 where
 * the table could not grow.
 */
static int transfers_of(const struct touch *t, size_t n, char *got)
{
	struct owners o = { 0 };
	uint64_t held;
	size_t i;

	for (i = 0; i < n; i++) {
		int transfer = owners_access(&o, t[i].line, t[i].vcpu,
					     t[i].op == 's' || t[i].op == 'w',
					     t[i].op == 's' || t[i].op == 'l', &held);

		if (transfer < 0) {
			free(o.slot);
			return 1;
		}
		got[i] = transfer ? 'T' : '-';
	}
	got[n] = '\0';
	free(o.slot);
	return 0;
}

/* The transfers of a trace against @want, under @name. */
static int transfers_are(const char *name, const struct touch *t, size_t n, const char *want)
{
	char got[64];

	if (n >= sizeof(got) || transfers_of(t, n, got)) {
		printf("# %s: no replay\n", name);
		return 1;
	}
	if (!strcmp(got, want))
		return 0;
	printf("# %s: %s, want %s\n", name, got, want);
	return 1;
}

/* An access is a transfer where another vCPU wrote the line since this
 * one last touched it: a line never written, one this vCPU wrote, or one
 * it read since the last write are none. */
static int transfers_case(void)
{
	static const struct touch steps[] = {
		{ 0, 's', 7 },	/* -: nobody wrote 7 before */
		{ 1, 'l', 7 },	/* T: 0 wrote it */
		{ 1, 'l', 7 },	/* -: 1 read it since */
		{ 1, 's', 7 },	/* -: the same: a store is no second transfer */
		{ 0, 'l', 7 },	/* T: 1 wrote it */
		{ 0, 'l', 8 },	/* -: 8 was never written */
		{ 2, 'l', 7 },	/* T: 1 wrote it, 2 never touched it */
		{ 0, 'l', 7 },	/* -: 0 read it since 1 wrote it */
		{ 0, 's', 7 },	/* -: 0 read it since */
		{ 2, 's', 7 },	/* T: 0 wrote it since 2 read it */
	};

	return transfers_are("transfers", steps, sizeof(steps) / sizeof(steps[0]), "-T--T-T--T");
}

/*
 * Every access moves the line, in a window or not, as the caches see
 * every one; only one in a window counts.  A line vCPU 0 fetched out of
 * its window after vCPU 1 wrote it is no transfer in the window (its
 * copy is there, an L1D hit); a line vCPU 1 wrote out of its window is
 * one for the next reader in a window (the store dropped the reader's
 * copy as any store does).
 */
static int transfers_out_of_windows_case(void)
{
	static const struct touch steps[] = {
		{ 1, 's', 9 },	/* -: nobody wrote 9 before */
		{ 0, 'r', 9 },	/* -: out of a window; 0 fetches 1's data */
		{ 0, 'l', 9 },	/* -: 0 touched it since 1 wrote it, out of its window */
		{ 1, 'w', 10 },	/* -: out of a window */
		{ 0, 'l', 10 },	/* T: 1 wrote it, out of its window, since 0 touched it */
		{ 0, 'w', 10 },	/* -: out of a window */
		{ 1, 'l', 10 },	/* T: 0 wrote it since */
	};

	return transfers_are("transfers_out_of_windows", steps, sizeof(steps) / sizeof(steps[0]),
			     "----T-T");
}

/*
 * A store drops the line from the other vCPUs' private caches; tcg_pmu
 * drops it only from those the owners say may hold it.  Two sets of
 * private caches, four vCPUs, small enough that lines are evicted, see
 * one pseudo-random trace: the one whose stores invalidate in every other
 * vCPU and the one whose stores invalidate in the held vCPUs alone must
 * hit and miss alike on every access.
 */
static int held_case(void)
{
	enum { VCPUS = 4, LINES = 24, ACCESSES = 200000 };
	struct cache every[VCPUS], held_only[VCPUS];
	struct owners o = { 0 };
	uint64_t seed = 42, held;
	unsigned int v, i, k, differ = 0, n_failed = 0;

	for (v = 0; v < VCPUS; v++) {
		n_failed += cache_init(&every[v], 4 << LINE_SHIFT, 2) != 0;
		n_failed += cache_init(&held_only[v], 4 << LINE_SHIFT, 2) != 0;
	}
	for (k = 0; k < ACCESSES && !n_failed; k++) {
		uint64_t line;
		bool store;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		v = (unsigned int)(seed >> 33) % VCPUS;
		line = (seed >> 40) % LINES;
		store = (seed >> 20) % 3 == 0;
		if (owners_access(&o, line, v, store, true, &held) < 0) {
			n_failed++;
			break;
		}
		differ += cache_access(&every[v], line) != cache_access(&held_only[v], line);
		if (!store)
			continue;
		for (i = 0; i < VCPUS; i++)
			if (i != v) {
				cache_invalidate(&every[i], line);
				if (held >> i & 1)
					cache_invalidate(&held_only[i], line);
			}
	}
	for (v = 0; v < VCPUS; v++) {
		free(every[v].tag);
		free(every[v].used);
		free(held_only[v].tag);
		free(held_only[v].used);
	}
	free(o.slot);
	if (n_failed) {
		printf("# held: no replay\n");
		return 1;
	}
	if (differ)
		printf("# held: %u of %u accesses hit in one model and missed in the other\n",
		       differ, ACCESSES);
	return differ != 0;
}

/*
 * An access of a run: when it reached memory and when QEMU called back
 * for it, on one clock.  QEMU 7.2 calls back after the access (tcg-op.c
 * emits the callback after the load or store), before the vCPU's next
 * access; the vCPUs' accesses are listed in their program order.
 */
struct timed {
	struct touch touch;
	unsigned int at, callback;
};

/* Whether each access's callback comes after it and before its vCPU's
 * next access. */
static int possible(const struct timed *a, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (a[i].callback <= a[i].at)
			return 0;
		for (j = i + 1; j < n && a[j].touch.vcpu != a[i].touch.vcpu; j++)
			;
		if (j < n && a[j].at <= a[i].callback)
			return 0;
	}
	return 1;
}

/* The touches of @a in the order of their memory accesses, or of their
 * callbacks (@by_callback), into @out; the times are distinct. */
static void in_order(const struct timed *a, size_t n, int by_callback, struct touch *out)
{
	size_t i, k = 0;
	unsigned int t;

	for (t = 0; k < n; t++)
		for (i = 0; i < n && k < n; i++)
			if ((by_callback ? a[i].callback : a[i].at) == t)
				out[k++] = a[i].touch;
}

static int same_touches(const struct touch *a, const struct touch *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].vcpu != b[i].vcpu || a[i].op != b[i].op || a[i].line != b[i].line)
			return 0;
	return 1;
}

/*
 * Why the plugin counts no transfers where QEMU runs the vCPUs at once
 * (thread=multi, or user mode): two runs whose callbacks come in one
 * order, and so look alike to the plugin (a callback gives the vCPU,
 * the address, the size, load or store and the instruction, never the
 * value), and whose accesses came in two orders with two counts of
 * transfers.  vCPU 1 writes line 5, called back at once; then vCPU 0
 * writes it and vCPU 1 reads it, both called back late, 1 first:
 *   store_first: in memory 0's store, then 1's load, which reads 0's
 *     data: -TT, 2 transfers (the store takes the line from 1, the
 *     load takes it back: pingpong's handoff);
 *   load_first: 1's load, then 0's store: 1 reads its own data: --T, 1.
 * The callbacks, 1's store, 1's load, 0's store, replay as --T in both:
 * right for load_first, a transfer lost in store_first.  Any rule on the
 * callbacks gives one count for both, so it is wrong for one of them.
 */
static int arrival_order_case(void)
{
	static const struct timed store_first[] = {
		{ { 1, 's', 5 }, 0, 1 },
		{ { 0, 's', 5 }, 2, 5 },
		{ { 1, 'l', 5 }, 3, 4 },
	};
	static const struct timed load_first[] = {
		{ { 1, 's', 5 }, 0, 1 },
		{ { 0, 's', 5 }, 3, 5 },
		{ { 1, 'l', 5 }, 2, 4 },
	};
	enum { N = sizeof(store_first) / sizeof(store_first[0]) };
	struct touch memory_a[N], memory_b[N], callbacks_a[N], callbacks_b[N];
	int failed;

	if (!possible(store_first, N) || !possible(load_first, N)) {
		printf("# arrival_order: a run with a callback before its access or after its vCPU's next\n");
		return 1;
	}
	in_order(store_first, N, 0, memory_a);
	in_order(load_first, N, 0, memory_b);
	in_order(store_first, N, 1, callbacks_a);
	in_order(load_first, N, 1, callbacks_b);
	failed = !same_touches(callbacks_a, callbacks_b, N);
	if (failed)
		printf("# arrival_order: the two runs' callbacks differ\n");
	return failed | transfers_are("arrival_order, store first", memory_a, N, "-TT") |
	       transfers_are("arrival_order, load first", memory_b, N, "--T") |
	       transfers_are("arrival_order, the callbacks", callbacks_a, N, "--T");
}

/* A made-up page table: virtual page 0x10 at physical page 0x80, 0x11
 * at 0x33 (not the next one), 0x12 a device; no physical address for the
 * others.  Counts its calls in *ctx. */
static enum place fake_translate(void *ctx, uint64_t vaddr, uint64_t *phys)
{
	++*(unsigned int *)ctx;
	switch (vaddr >> 12) {
	case 0x10:
		*phys = 0x80000 | (vaddr & 0xfff);
		return PLACE_RAM;
	case 0x11:
		*phys = 0x33000 | (vaddr & 0xfff);
		return PLACE_RAM;
	case 0x12:
		return PLACE_DEVICE;
	default:
		return PLACE_UNKNOWN;
	}
}

static void print_lines(const struct access_line *line, unsigned int n)
{
	static const char *const place_name[] = { "RAM", "device", "unknown" };
	unsigned int i;

	for (i = 0; i < n; i++) {
		printf(" [%#" PRIx64 ": %s", line[i].vaddr, place_name[line[i].place]);
		if (line[i].place == PLACE_RAM)
			printf(" line %#" PRIx64, line[i].line << LINE_SHIFT);
		printf("]");
	}
}

/* Checks an access's lines against @want: each line's place and virtual
 * line, and its physical line where it is RAM; and one translation per
 * page. */
static int lines_of(uint64_t vaddr, uint64_t size, const struct access_line *want,
		    unsigned int want_n)
{
	struct access_line got[ACCESS_MAX_LINES];
	unsigned int i, calls = 0, n = access_lines(vaddr, size, fake_translate, &calls, got);
	unsigned int pages = 1 + (want_n == 2 &&
				  want[0].vaddr >> PAGE_SHIFT != want[1].vaddr >> PAGE_SHIFT);
	int failed = n != want_n;

	if (calls != pages) {
		printf("# %" PRIu64 " bytes at %#" PRIx64 ": %u translations, want %u\n", size,
		       vaddr, calls, pages);
		failed = 1;
	}

	for (i = 0; i < n && i < want_n; i++)
		failed |= got[i].place != want[i].place ||
			  got[i].vaddr >> LINE_SHIFT != want[i].vaddr >> LINE_SHIFT ||
			  (want[i].place == PLACE_RAM && got[i].line != want[i].line);
	if (!failed)
		return 0;
	printf("# %" PRIu64 " bytes at %#" PRIx64 ":", size, vaddr);
	print_lines(got, n);
	printf("; want");
	print_lines(want, want_n);
	printf("\n");
	return 1;
}

#define LINES_OF(vaddr, size, want) lines_of(vaddr, size, want, sizeof(want) / sizeof(want[0]))
#define RAM_AT(phys, va) { .line = (phys) >> LINE_SHIFT, .vaddr = (va), .place = PLACE_RAM }

/* Within a page: one line, or the two an access across a line boundary
 * touches; a device's access is one. */
static int lines_in_page_case(void)
{
	static const struct access_line one[] = { RAM_AT(0x80008, 0x10008) };
	static const struct access_line two[] = { RAM_AT(0x80000, 0x1003c), RAM_AT(0x80040, 0x10040) };
	static const struct access_line device[] = { { .vaddr = 0x12000, .place = PLACE_DEVICE } };

	return LINES_OF(0x10008, 8, one) | LINES_OF(0x1003c, 8, two) | LINES_OF(0x12000, 4, device);
}

/*
 * Across a page boundary the second line is on the next virtual page,
 * which maps anywhere: at its own physical page (0x11000 at 0x33000, not
 * 0x81000), or a device, or where QEMU gave no physical address, apart
 * from the first line's.
 */
static int lines_across_pages_case(void)
{
	static const struct access_line ram[] = { RAM_AT(0x80fc0, 0x10ffc), RAM_AT(0x33000, 0x11000) };
	static const struct access_line device[] = {
		RAM_AT(0x33fc0, 0x11ffe), { .vaddr = 0x12000, .place = PLACE_DEVICE },
	};
	static const struct access_line unknown[] = {
		{ .vaddr = 0xfff8, .place = PLACE_UNKNOWN }, RAM_AT(0x80000, 0x10000),
	};

	return LINES_OF(0x10ffc, 8, ram) | LINES_OF(0x11ffe, 4, device) |
	       LINES_OF(0xfff8, 16, unknown);
}

int main(void)
{
	static const struct { const char *name; int (*run)(void); } cases[] = {
		{ "lru", lru_case },
		{ "sets", sets_case },
		{ "three_sets", three_sets_case },
		{ "invalidate", invalidate_case },
		{ "invalidated_way", invalidated_way_case },
		{ "transfers", transfers_case },
		{ "transfers_out_of_windows", transfers_out_of_windows_case },
		{ "arrival_order", arrival_order_case },
		{ "held", held_case },
		{ "lines_in_page", lines_in_page_case },
		{ "lines_across_pages", lines_across_pages_case },
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
