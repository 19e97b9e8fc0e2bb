// SPDX-License-Identifier: GPL-2.0
/*
 * tcg_pmu: a QEMU TCG plugin that counts, per vCPU and per measured window,
 * what a PMU would: instructions, loads, stores, and the misses of a cache
 * model (private L1D and L2 per vCPU, a shared last level); and, with
 * lines=on, every cache line a window touched, so that the host can tell
 * which lines two vCPUs share (bench/plugin/pmu_rows.c).
 *
 * Windows.  The guest marks them with an 8-byte NOP,
 * nopl 0xCDEB000T(%rax,%rax,1) (bench/lib/pmu_window.h): T=1 opens the
 * window on this vCPU (counting starts), 2 pauses it (what lies between
 * two timed operations is not counted), 3 closes it and writes its record.
 * Nothing outside a window is counted, but every access of the whole boot
 * goes through the cache model, so a window starts with the caches the
 * guest left.
 *
 * The cache model (cache_model.c): set-associative, LRU, 64-byte lines,
 * physical addresses, write-allocate, non-inclusive (a miss fills every
 * level), a store by one vCPU invalidates the line in the other vCPUs'
 * private levels; device (I/O) accesses and instruction fetches are not
 * modelled.
 * Defaults taken from Intel Xeon 5500 (Nehalem-EP): L1D 32 KiB 8-way, L2
 * 256 KiB 8-way per core, L3 8 MiB 16-way shared (Intel 64 and IA-32
 * Architectures Optimization Reference Manual), and the load latencies of
 * Intel's "Performance Analysis Guide for Intel Core i7 Processor and
 * Intel Xeon 5500 processors": L2 hit ~10 cycles, L3 hit ~40, local DRAM
 * ~60 ns, 176 cycles at 2.93 GHz.  The record carries the raw counts;
 * pmu_rows adds model_cycles = insns + L2 hits x 10 + L3 hits x 40 + L3
 * misses x 176 from the latencies this file prints in its header: a
 * weighted count, not that CPU's cycles (no L1D hit latency, a
 * non-inclusive L3 where Nehalem's is inclusive, misses that never
 * overlap, no prefetch).
 *
 * An access across a line boundary touches both lines.  Across a page
 * boundary its second line is on the next page, which lies anywhere in
 * physical memory: translate() looks that page up on its own, as the
 * first (QEMU's lookup reads its TLB, which the access has just filled
 * for both pages).  A line QEMU gives no physical address for is not
 * modelled but counted ("# unplaced" below; a line on stderr where there
 * are any).  QEMU 7.2 always gives one: where its TLB misses (a device
 * write flushed it) it answers with a device, and such a line passes for
 * a device's; later QEMUs answer none there.
 *
 * Transfers: an access in a window to a line that another vCPU wrote
 * since this vCPU last touched it, either in a window or not (a HITM on a
 * real machine).  Every access of the boot is recorded, as every one goes
 * through the caches: a line this vCPU fetched before its window opened
 * is its own in the window (an L1D hit, no transfer), and one another
 * vCPU wrote outside its windows is the other's; so a transfer is always
 * an L2 miss of its window too.  They depend on how QEMU interleaves the
 * vCPUs, and on the order of the accesses, which the model takes from its
 * callbacks: QEMU calls back after each access.  With thread=single one host thread runs
 * the vCPUs in turn and a callback follows its access before any other
 * access: the two orders are one.  Where vCPUs run at once (thread=multi,
 * user mode) another vCPU's access and callback can come between an
 * access and its callback, and two orders of the accesses with different
 * transfers can give one order of callbacks (test_cache_model.c,
 * arrival_order): no rule on the callbacks counts transfers there.  Once
 * a second host thread calls back, the plugin counts none and writes "-"
 * for them (the misses depend on the order too, where one vCPU's store
 * invalidates another's copy; the share boot files none).  The set of
 * lines two vCPUs share depends on no order, and pmu_rows computes it
 * from the lines=on records.
 *
 * Arguments: out=FILE (required), lines=on|off, l1d=BYTES/WAYS,
 * l2=BYTES/WAYS, llc=BYTES/WAYS, lat=L2,L3,MEM (cycles; QEMU splits -plugin
 * at commas, so it is given as lat=L2,,L3,,MEM).
 * Output, one record per line:
 *   # tcg_pmu 3 vcpus V l1d B/W l2 B/W llc B/W lat L2,L3,MEM
 *     (3: the records' format, RECORDS_FORMAT)
 *   W vcpu seq ops insns loads stores l1d_misses l2_misses llc_misses
 *     transfers  (transfers "-" where vCPUs ran at once, above)
 *   L vcpu seq phys_line vaddr store_pc load_pc reads writes ops_touched
 *     ops_written  (lines=on, after its W; the instructions of the
 *     window's first store and first load to the line, 0 for none; the
 *     operations that accessed it, that wrote it)
 *   # vcpu S is QEMU's vCPU I from here  (user mode, below)
 *   # vcpu S: a window left open when QEMU's vCPU I exited, not written
 *   # unplaced N  (last: the lines of accesses in windows that QEMU gave
 *     no physical address for)
 * vcpu is the model's vCPU (at most V alive at once), QEMU's index in
 * system mode; seq counts the closed windows of that vCPU from 0, ops
 * the openings of the window: the operations, one opening each.
 *
 * It also runs a host program under qemu-x86_64 (user mode; the host
 * tests do, tests/test_55_pmu_rows.sh): a vCPU is a thread, and a line
 * the process's virtual line, as QEMU gives no physical addresses there.
 * QEMU numbers a new thread's vCPU the highest live index + 1
 * (cpus-common.c, cpu_get_free_index) and frees the index when the thread
 * exits, so threads that overlap in time run the indices up past the
 * threads alive: threads two at a time, each created while the one
 * before it still runs, are vCPUs 1, 2, 3, ...  The model holds 64 vCPUs, each a core with its
 * caches: a thread takes its index's (the same number) where that one is
 * free, else the lowest free one ("# vcpu S is QEMU's vCPU I"), and
 * leaves it with the caches and lines it touched to the next thread, as
 * a core's are when another thread is scheduled on it; seq goes on.  More
 * than 64 threads alive at once, the main one included, are refused.
 *
 * The plugin API below is declared from QEMU's documented plugin API,
 * version 1, which QEMU 7.2 implements; the plugin refuses any other.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cache_model.h"

/* --- the QEMU plugin API, version 1 (the subset used here) --- */
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_hwaddr;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu, qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *udata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *udata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
				      void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr);
bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *hwaddr);
uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *hwaddr);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *udata);
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
#define PLUGIN_API_VERSION 1
QEMU_PLUGIN_EXPORT int qemu_plugin_version = PLUGIN_API_VERSION;
/* --- end of the API --- */

#define RECORDS_FORMAT 3	/* pmu_rows reads this one only */
#define MARK_OPEN 1
#define MARK_PAUSE 2
#define MARK_CLOSE 3
/* QEMU's vCPU indices the plugin maps: MAP_CHUNKS chunks of 4096 */
#define MAP_CHUNK_SHIFT 12
#define MAP_CHUNKS 4096
_Static_assert(OWNERS_MAX_VCPUS < 256, "a vCPU of the model + 1 fits in a map entry");

/* A line a window touched (lines=on): open addressing, grown at 1/2. */
struct line_use {
	uint64_t line, vaddr;
	uint64_t store_pc, load_pc;	/* the instructions of the first store, load */
	uint64_t reads, writes;
	/* in how many operations: a lock every operation takes apart from a
	 * line the timer tick writes many times, in few of them */
	uint64_t ops_touched, ops_written;
	uint64_t touched_in, written_in;	/* the last operation that did, from 1 */
};

struct line_set {
	struct line_use *slot;
	size_t size, used;
};

enum { OPS, INSNS, LOADS, STORES, L1D_MISSES, L2_MISSES, LLC_MISSES, TRANSFERS, NCOUNT };
/* the W record ends with the transfers, a count or "-" */
_Static_assert(TRANSFERS == NCOUNT - 1, "transfers are the last count");

/* A vCPU of the model: a core, its private caches and its windows.  QEMU's
 * vCPUs take one each while alive (pmu.slot_of). */
struct vcpu {
	struct cache l1d, l2;
	bool alive;		/* a QEMU vCPU holds it */
	bool counting;		/* between an open and a pause or close */
	bool open;		/* opened and not yet closed */
	uint64_t seq;
	uint64_t count[NCOUNT];
	struct line_set lines;
};

static struct {
	FILE *out;
	bool system;		/* qemu-system-x86_64; else qemu-x86_64 */
	bool lines;
	unsigned int nvcpus;
	uint64_t all_vcpus;	/* a bit per vCPU of the model */
	struct vcpu *vcpu;
	/* QEMU's vCPU index to its vCPU of the model + 1 (0: none), in
	 * chunks allocated as indices come and never freed, so that a
	 * callback reads its own entry without the lock while another
	 * vCPU's init or exit writes another; an entry is written before
	 * its vCPU runs (init) and after it last runs (exit). */
	uint8_t *slot_of[MAP_CHUNKS];
	struct cache llc;
	unsigned long l1d_bytes, l1d_ways, l2_bytes, l2_ways, llc_bytes, llc_ways;
	unsigned long lat_l2, lat_llc, lat_mem;
	struct owners owners;	/* transfers */
	uint64_t unplaced;	/* lines in windows QEMU gave no physical address for */
	/* One lock for the model: vCPUs invalidate each other's lines, and
	 * with thread=multi they run at once.  A spinlock (model_lock): it
	 * is taken at every access and held for that access alone, and with
	 * one host thread it is never contended, where a mutex's lock and
	 * unlock cost a fifth of a plugin boot. */
	bool locked;
	/* The host thread of the first memory callback; parallel once
	 * another calls back: callbacks may then come in another order than
	 * their accesses, and no transfers are counted. */
	pthread_t thread;
	bool called, parallel;
	/* die() called: exit() runs on_qemu_exit, which must not wait for
	 * the lock a dying callback may hold */
	bool dying;
} pmu = {
	.l1d_bytes = 32768, .l1d_ways = 8,
	.l2_bytes = 262144, .l2_ways = 8,
	.llc_bytes = 8388608, .llc_ways = 16,
	.lat_l2 = 10, .lat_llc = 40, .lat_mem = 176,
};

/* The holder may be a preempted host thread: yield now and then. */
static void model_lock(void)
{
	unsigned int spins = 0;

	while (__atomic_exchange_n(&pmu.locked, true, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&pmu.locked, __ATOMIC_RELAXED))
			if (++spins % 128 == 0)
				sched_yield();
}

static void model_unlock(void)
{
	__atomic_store_n(&pmu.locked, false, __ATOMIC_RELEASE);
}

static void die(const char *fmt, const char *arg)
{
	__atomic_store_n(&pmu.dying, true, __ATOMIC_SEQ_CST);
	fprintf(stderr, "tcg_pmu: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static void die_at(const char *fmt, unsigned int n)
{
	char text[160];

	snprintf(text, sizeof(text), fmt, n);
	die("%s", text);
}

/* The vCPU of the model that QEMU's vCPU @index holds. */
static unsigned int slot_of(unsigned int index)
{
	const uint8_t *chunk = index >> MAP_CHUNK_SHIFT < MAP_CHUNKS ?
		pmu.slot_of[index >> MAP_CHUNK_SHIFT] : NULL;
	unsigned int slot = chunk ? chunk[index & ((1U << MAP_CHUNK_SHIFT) - 1)] : 0;

	if (!slot)
		die_at("a callback of QEMU's vCPU %u, which QEMU never initialised", index);
	return slot - 1;
}

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory%s", "");
	return p;
}

static void cache_setup(struct cache *c, unsigned long bytes, unsigned long ways)
{
	int err = cache_init(c, bytes, ways);

	if (err == -ENOMEM)
		die("out of memory%s", "");
	if (err)
		die("a cache of %s: the lines must fill whole sets", "this size and ways");
}

static struct line_use *line_set_get(struct line_set *s, uint64_t line)
{
	size_t i;

	if (2 * (s->used + 1) > s->size) {
		struct line_set grown = { .size = s->size ? 2 * s->size : 1024 };
		size_t j;

		grown.slot = zalloc(grown.size, sizeof(*grown.slot));
		for (j = 0; j < s->size; j++)
			if (s->slot[j].reads || s->slot[j].writes)
				*line_set_get(&grown, s->slot[j].line) = s->slot[j];
		free(s->slot);
		grown.used = s->used;
		*s = grown;
	}
	for (i = line_hash(line) & (s->size - 1);; i = (i + 1) & (s->size - 1)) {
		struct line_use *u = &s->slot[i];

		if (!u->reads && !u->writes) {
			u->line = line;
			s->used++;
			return u;
		}
		if (u->line == line)
			return u;
	}
}

static void access_line(unsigned int slot, uint64_t line, uint64_t vaddr, uint64_t pc,
			bool store)
{
	struct vcpu *v = &pmu.vcpu[slot];
	bool l1_hit, l2_hit = true, llc_hit = true;
	/* the vCPUs whose private caches may hold the line: those the owners
	 * name, where they are kept; else all */
	uint64_t held = pmu.all_vcpus;

	/* every access, in a window or not, as the caches see every one:
	 * only one in a window can be a transfer */
	if (pmu.nvcpus > 1 && !pmu.parallel) {
		int transfer = owners_access(&pmu.owners, line, slot, store, v->counting, &held);

		if (transfer < 0)
			die("out of memory%s", "");
		v->count[TRANSFERS] += transfer;
	}
	l1_hit = cache_access(&v->l1d, line);
	if (!l1_hit) {
		l2_hit = cache_access(&v->l2, line);
		if (!l2_hit)
			llc_hit = cache_access(&pmu.llc, line);
	}
	if (store)
		for (held &= ~(1ULL << slot); held; held &= held - 1) {
			unsigned int i = (unsigned int)__builtin_ctzll(held);

			cache_invalidate(&pmu.vcpu[i].l1d, line);
			cache_invalidate(&pmu.vcpu[i].l2, line);
		}
	if (!v->counting)
		return;
	v->count[L1D_MISSES] += !l1_hit;
	v->count[L2_MISSES] += !l2_hit;
	v->count[LLC_MISSES] += !llc_hit;
	if (pmu.lines) {
		struct line_use *u = line_set_get(&v->lines, line);

		if (!u->reads && !u->writes)
			u->vaddr = vaddr;
		if (store && !u->writes++)
			u->store_pc = pc;
		if (!store && !u->reads++)
			u->load_pc = pc;
		if (u->touched_in != v->count[OPS]) {
			u->touched_in = v->count[OPS];
			u->ops_touched++;
		}
		if (store && u->written_in != v->count[OPS]) {
			u->written_in = v->count[OPS];
			u->ops_written++;
		}
	}
}

/*
 * QEMU's lookup reads its TLB for the address given, which the access
 * that called back has just filled for each page it touched (cputlb.c:
 * the second page of one across a page boundary cannot evict the first),
 * so it answers for the access's next page as for its first.  Its handle
 * is reused by the next lookup: read here.
 */
static enum place translate(void *info, uint64_t vaddr, uint64_t *phys)
{
	struct qemu_plugin_hwaddr *hw;

	/* user mode: one address space, the process's, which QEMU gives no
	 * physical addresses for */
	if (!pmu.system) {
		*phys = vaddr;
		return PLACE_RAM;
	}
	hw = qemu_plugin_get_hwaddr(*(qemu_plugin_meminfo_t *)info, vaddr);
	if (!hw)
		return PLACE_UNKNOWN;
	if (qemu_plugin_hwaddr_is_io(hw))
		return PLACE_DEVICE;
	*phys = qemu_plugin_hwaddr_phys_addr(hw);
	return PLACE_RAM;
}

/* An access all on devices is no load or store; a line of a device is not
 * modelled, nor one with no physical address (counted). */
static void on_mem(unsigned int index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct access_line line[ACCESS_MAX_LINES];
	unsigned int i, n = access_lines(vaddr, 1ULL << qemu_plugin_mem_size_shift(info),
					 translate, &info, line);
	bool store = qemu_plugin_mem_is_store(info), memory = false;
	unsigned int slot = slot_of(index);
	struct vcpu *v = &pmu.vcpu[slot];

	for (i = 0; i < n; i++)
		memory |= line[i].place != PLACE_DEVICE;
	if (!memory)
		return;
	model_lock();
	if (!pmu.called) {
		pmu.thread = pthread_self();
		pmu.called = true;
	}
	pmu.parallel |= !pthread_equal(pmu.thread, pthread_self());
	if (v->counting)
		v->count[store ? STORES : LOADS]++;
	for (i = 0; i < n; i++) {
		if (line[i].place == PLACE_RAM)
			access_line(slot, line[i].line, line[i].vaddr, (uintptr_t)udata, store);
		else if (line[i].place == PLACE_UNKNOWN && v->counting)
			pmu.unplaced++;
	}
	model_unlock();
}

/* Instructions: a block's count when it starts; one by one in a block
 * that holds a marker, so that the marker splits it exactly. */
static void on_tb(unsigned int index, void *udata)
{
	struct vcpu *v = &pmu.vcpu[slot_of(index)];

	if (v->counting)
		v->count[INSNS] += (uintptr_t)udata;
}

/* Counts and lines to none, for the next window. */
static void clear_window(struct vcpu *v)
{
	if (v->lines.used)
		memset(v->lines.slot, 0, v->lines.size * sizeof(*v->lines.slot));
	v->lines.used = 0;
	memset(v->count, 0, sizeof(v->count));
}

static void write_window(unsigned int slot)
{
	struct vcpu *v = &pmu.vcpu[slot];
	size_t i;

	fprintf(pmu.out, "W %u %" PRIu64, slot, v->seq);
	for (i = 0; i < TRANSFERS; i++)
		fprintf(pmu.out, " %" PRIu64, v->count[i]);
	if (pmu.parallel)
		fprintf(pmu.out, " -\n");
	else
		fprintf(pmu.out, " %" PRIu64 "\n", v->count[TRANSFERS]);
	for (i = 0; i < v->lines.size; i++) {
		struct line_use *u = &v->lines.slot[i];

		if (u->reads || u->writes)
			fprintf(pmu.out, "L %u %" PRIu64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64 " %#" PRIx64
				" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", slot, v->seq,
				u->line << LINE_SHIFT, u->vaddr, u->store_pc, u->load_pc, u->reads,
				u->writes, u->ops_touched, u->ops_written);
	}
	clear_window(v);
	v->seq++;
}

static void on_marker(unsigned int index, void *udata)
{
	unsigned int slot = slot_of(index);
	struct vcpu *v = &pmu.vcpu[slot];

	model_lock();
	switch ((uintptr_t)udata) {
	case MARK_OPEN:
		v->counting = v->open = true;
		v->count[OPS]++;
		break;
	case MARK_PAUSE:
		v->counting = false;
		break;
	case MARK_CLOSE:
		/* a close without an open (a window begun before the plugin
		 * could see it) writes nothing */
		if (v->open)
			write_window(slot);
		v->counting = v->open = false;
		break;
	}
	model_unlock();
}

/* The marker's tag, or 0: 0f 1f 84 00 T 00 eb cd is nopl 0xCDEB00T(%rax,%rax,1). */
static unsigned int marker_tag(const struct qemu_plugin_insn *insn)
{
	static const uint8_t head[4] = { 0x0f, 0x1f, 0x84, 0x00 };
	const uint8_t *b = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != 8 || memcmp(b, head, 4) || b[5] || b[6] != 0xeb ||
	    b[7] != 0xcd || b[4] < MARK_OPEN || b[4] > MARK_CLOSE)
		return 0;
	return b[4];
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	bool marked = false;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 (void *)(uintptr_t)qemu_plugin_insn_vaddr(insn));
		marked |= marker_tag(insn) != 0;
	}
	if (!marked) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
		return;
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		unsigned int tag = marker_tag(insn);

		if (tag)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)tag);
		else
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_tb, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)1);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	unsigned int i;

	(void)id;
	(void)udata;
	if (__atomic_load_n(&pmu.dying, __ATOMIC_SEQ_CST))
		return;
	model_lock();
	for (i = 0; i < pmu.nvcpus; i++)
		if (pmu.vcpu[i].alive && pmu.vcpu[i].open)
			fprintf(pmu.out, "# vcpu %u: a window left open at exit, not written\n", i);
	fprintf(pmu.out, "# unplaced %" PRIu64 "\n", pmu.unplaced);
	if (pmu.unplaced)
		fprintf(stderr, "tcg_pmu: %" PRIu64 " lines of accesses in windows not modelled:"
			" QEMU gave no physical address for them\n", pmu.unplaced);
	if (fclose(pmu.out))
		fprintf(stderr, "tcg_pmu: writing the output: %s\n", strerror(errno));
	pmu.out = NULL;
	model_unlock();
}

/*
 * Before the vCPU runs: it takes a vCPU of the model, its own index's
 * where that one is free (always in system mode, whose vCPUs QEMU numbers
 * from 0 and the rig never unplugs), else the lowest free one.  In user
 * mode a vCPU is a thread, and QEMU numbers a new one the highest live
 * index + 1 (cpus-common.c, cpu_get_free_index): threads that overlap in
 * time run up the indices, while the model's vCPUs bound only the threads
 * alive at once.  Called with QEMU's locks held (clone_lock in user
 * mode), before the vCPU's thread starts.
 */
static void on_vcpu_init(qemu_plugin_id_t id, unsigned int index)
{
	unsigned int chunk = index >> MAP_CHUNK_SHIFT, slot = index;

	(void)id;
	if (chunk >= MAP_CHUNKS)
		die_at("QEMU's vCPU %u: past the indices the plugin maps", index);
	model_lock();
	if (!pmu.slot_of[chunk])
		pmu.slot_of[chunk] = zalloc(1U << MAP_CHUNK_SHIFT, 1);
	if (slot >= pmu.nvcpus || pmu.vcpu[slot].alive)
		for (slot = 0; slot < pmu.nvcpus && pmu.vcpu[slot].alive; slot++)
			;
	if (slot == pmu.nvcpus) {
		model_unlock();
		die_at("more vCPUs or threads alive at once than the %u the model holds",
		       pmu.nvcpus);
	}
	pmu.vcpu[slot].alive = true;
	pmu.slot_of[chunk][index & ((1U << MAP_CHUNK_SHIFT) - 1)] = (uint8_t)(slot + 1);
	if (slot != index && pmu.out)
		fprintf(pmu.out, "# vcpu %u is QEMU's vCPU %u from here\n", slot, index);
	model_unlock();
}

/*
 * When the vCPU is gone (in user mode its thread exits; QEMU calls back
 * before it frees the index): its vCPU of the model is free for the next
 * thread, with the caches and the lines' owners it left, as a core's are
 * when another thread is scheduled there; a window the thread left open
 * is dropped.
 */
static void on_vcpu_exit(qemu_plugin_id_t id, unsigned int index)
{
	unsigned int slot = slot_of(index);
	struct vcpu *v = &pmu.vcpu[slot];

	(void)id;
	model_lock();
	if (v->open && pmu.out)
		fprintf(pmu.out, "# vcpu %u: a window left open when QEMU's vCPU %u exited, not written\n",
			slot, index);
	clear_window(v);
	v->counting = v->open = false;
	v->alive = false;
	pmu.slot_of[index >> MAP_CHUNK_SHIFT][index & ((1U << MAP_CHUNK_SHIFT) - 1)] = 0;
	model_unlock();
}

/* "BYTES/WAYS" */
static void parse_geometry(const char *arg, const char *val, unsigned long *bytes,
			   unsigned long *ways)
{
	char *end;

	*bytes = strtoul(val, &end, 10);
	if (*end != '/' || !*bytes)
		die("%s: expected BYTES/WAYS", arg);
	*ways = strtoul(end + 1, &end, 10);
	if (*end || !*ways)
		die("%s: expected BYTES/WAYS", arg);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *out = NULL;
	unsigned int i;
	int a;

	if (info->version.cur < PLUGIN_API_VERSION || info->version.min > PLUGIN_API_VERSION) {
		fprintf(stderr, "tcg_pmu: built for the QEMU plugin API version %d; this QEMU offers versions %d to %d\n",
			PLUGIN_API_VERSION, info->version.min, info->version.cur);
		return -1;
	}
	if (strcmp(info->target_name, "x86_64"))
		die("runs in qemu-system-x86_64 or qemu-x86_64 only, not in %s", info->target_name);
	for (a = 0; a < argc; a++) {
		char *arg = argv[a], *val = strchr(arg, '=');

		if (!val)
			die("argument %s: expected NAME=VALUE", arg);
		*val++ = '\0';
		if (!strcmp(arg, "out")) {
			out = val;
		} else if (!strcmp(arg, "lines")) {
			if (strcmp(val, "on") && strcmp(val, "off"))
				die("lines=%s: on or off", val);
			pmu.lines = !strcmp(val, "on");
		} else if (!strcmp(arg, "l1d")) {
			parse_geometry(arg, val, &pmu.l1d_bytes, &pmu.l1d_ways);
		} else if (!strcmp(arg, "l2")) {
			parse_geometry(arg, val, &pmu.l2_bytes, &pmu.l2_ways);
		} else if (!strcmp(arg, "llc")) {
			parse_geometry(arg, val, &pmu.llc_bytes, &pmu.llc_ways);
		} else if (!strcmp(arg, "lat")) {
			if (sscanf(val, "%lu,%lu,%lu", &pmu.lat_l2, &pmu.lat_llc, &pmu.lat_mem) != 3)
				die("lat=%s: expected L2,L3,MEM cycles", val);
		} else {
			die("unknown argument %s (out, lines, l1d, l2, llc, lat)", arg);
		}
	}
	if (!out)
		die("out=FILE is required%s", "");
	/* user mode: a vCPU per thread, as many alive at once as the model
	 * holds (on_vcpu_init) */
	pmu.system = info->system_emulation;
	pmu.nvcpus = pmu.system ? (unsigned int)info->system.max_vcpus : OWNERS_MAX_VCPUS;
	if (pmu.nvcpus < 1 || pmu.nvcpus > OWNERS_MAX_VCPUS)
		die("between 1 and 64 vCPUs%s", "");
	pmu.all_vcpus = pmu.nvcpus == OWNERS_MAX_VCPUS ? ~0ULL : (1ULL << pmu.nvcpus) - 1;
	pmu.out = fopen(out, "w");
	if (!pmu.out)
		die("cannot write %s", out);
	pmu.vcpu = zalloc(pmu.nvcpus, sizeof(*pmu.vcpu));
	for (i = 0; i < pmu.nvcpus; i++) {
		cache_setup(&pmu.vcpu[i].l1d, pmu.l1d_bytes, pmu.l1d_ways);
		cache_setup(&pmu.vcpu[i].l2, pmu.l2_bytes, pmu.l2_ways);
	}
	cache_setup(&pmu.llc, pmu.llc_bytes, pmu.llc_ways);
	fprintf(pmu.out, "# tcg_pmu %d vcpus %u l1d %lu/%lu l2 %lu/%lu llc %lu/%lu lat %lu,%lu,%lu\n",
		RECORDS_FORMAT, pmu.nvcpus, pmu.l1d_bytes, pmu.l1d_ways, pmu.l2_bytes,
		pmu.l2_ways, pmu.llc_bytes, pmu.llc_ways, pmu.lat_l2, pmu.lat_llc, pmu.lat_mem);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_exit_cb(id, on_vcpu_exit);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
