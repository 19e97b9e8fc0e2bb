// SPDX-License-Identifier: GPL-2.0
/*
 * pmu_rows: the rows of a plugin boot (scripts/bench.sh, phases pmu and
 * share), from what the boot left in BOOT_DIR:
 *   pmu.txt         the plugin's records (bench/plugin/tcg_pmu.c)
 *   windows.txt     the guest's list of the same windows, "CPU ITER OPS
 *                   METRIC PARAM" (bench/user/harness.c)
 *   pmu-timing.csv  the harness's rows of those windows: icount time
 *   kallsyms.txt    the guest's data symbols (share), to name lines
 * The k-th window the plugin closed on vCPU c is the k-th the guest
 * listed for CPU c; a count of windows or of a window's operations that
 * differs is an error.  Windows of one (benchmark, param, repetition) are
 * one group, its rows per operation:
 *
 *   pmu boot (one vCPU): insns_per_op, l1d_ l2_ llc_misses_per_op,
 *     model_cycles_per_op = instructions + L2 hits x L2 latency + L3 hits
 *     x L3 latency + L3 misses x memory latency (the latencies in the
 *     plugin's header: a weighted count, not a CPU's cycles,
 *     docs/plugin.md), and insns_icount_gap_pct, the icount time per
 *     operation against those instructions (two marker NOPs a window and
 *     the clock's overhead apart, they agree).
 *   share boot, threads in lockstep (sched=lockstep, bench/user/
 *     harness.c): shared_lines_per_op, per operation the lines it writes
 *     that another vCPU touches in its window of the group, where "it
 *     writes" means its vCPU writes the line in at least half of its
 *     operations and "touches" that the other accesses it in at least
 *     half of its own.  Counted in operations, not accesses: a lock every
 *     operation takes, not a line one slab refill wrote, nor the
 *     timekeeper's seqcount that a timer tick writes many times in the
 *     few operations it interrupts (ticks come by the host's clock
 *     outside icount, the more the slower the host runs the guest).  It
 *     reads which vCPU touched which line in how many operations, never
 *     in what order; in lockstep no operation waits on another inside
 *     its window: QEMU's interleaving changes neither.
 *     The sixteen largest lines, each per operation, as shared_line_per_op
 *     with their name in site.  Threads free (sched=free):
 *     transfers_per_op, which the interleaving does change; none where
 *     the plugin counted none, its vCPUs run at once (thread=multi: its
 *     callbacks do not tell the order of the accesses, tcg_pmu.c).
 *
 * Usage: pmu_rows VARIANT BOOT BOOT_DIR, rows on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"

#define TOP_LINES 16

#define RECORDS_FORMAT 3	/* bench/plugin/tcg_pmu.c's */

enum { OPS, INSNS, LOADS, STORES, L1D, L2, LLC, TRANSFERS, NCOUNT };

struct line {
	uint64_t addr, vaddr, store_pc, load_pc, reads, writes, ops_touched, ops_written;
};

struct window {
	unsigned int vcpu;
	uint64_t seq;
	uint64_t count[NCOUNT];
	int transfers_counted;	/* 0: the plugin wrote "-" */
	size_t first_line, nlines;	/* its lines in lines[] */
	/* from windows.txt; listed: the guest named it; done: in a group */
	int listed, done;
	long iter;
	char metric[64], param[256];
	double icount_ns;	/* per operation, from pmu-timing.csv; NAN: none */
};

struct symbol {
	uint64_t addr;
	char name[128];
};

/* The guest's kallsyms: its data symbols, which name a line, and its code
 * symbols, which name the function that wrote it. */
struct symbols {
	struct symbol *sym;
	size_t n;
};

static const char *variant, *boot;
static unsigned int nvcpus;
static unsigned long lat_l2, lat_llc, lat_mem;
static struct window *win;	/* the plugin's windows, as it closed them */
static size_t nwin;
static struct line *lines;
static size_t nlines;
static struct symbols data_syms, text_syms;

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "pmu_rows: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* Grow an array (size is never 0: never a free). */
static void *xrealloc(void *p, size_t size)
{
	p = p ? realloc(p, size) : malloc(size);
	if (!p)
		die("out of memory");
	return p;
}

static FILE *open_in(const char *dir, const char *name, int optional)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f && !(optional && errno == ENOENT))
		die("cannot read %s: %s", path, strerror(errno));
	return f;
}

/* Windows on vCPU @vcpu the plugin closed so far. */
static uint64_t closed(unsigned int vcpu)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < nwin; i++)
		n += win[i].vcpu == vcpu;
	return n;
}

/*
 * GCC 12's analyzer loses track of what is stored into an array that
 * realloc has moved and reports it as leaked (compare/input.c has the
 * same); the windows, lines and symbols live until exit.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
static void read_plugin(FILE *f)
{
	char *text = NULL;
	size_t cap = 0;
	int line = 0;

	while (getline(&text, &cap, f) > 0) {
		unsigned int vcpu, format;
		uint64_t seq, c[NCOUNT];
		char transfers[24], *end;
		struct line l;

		line++;
		if (sscanf(text, "# tcg_pmu %u vcpus %u l1d %*u/%*u l2 %*u/%*u llc %*u/%*u lat %lu,%lu,%lu",
			   &format, &nvcpus, &lat_l2, &lat_llc, &lat_mem) == 5) {
			if (format != RECORDS_FORMAT)
				die("pmu.txt: records of format %u, pmu_rows reads %u: a plugin of another build (make tools)",
				    format, RECORDS_FORMAT);
			continue;
		}
		if (text[0] == '#')
			continue;
		if (!nvcpus)
			die("pmu.txt:%d: a record before the plugin's header", line);
		if (sscanf(text, "W %u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %23s", &vcpu, &seq, &c[0], &c[1],
			   &c[2], &c[3], &c[4], &c[5], &c[6], transfers) == 10) {
			int counted = strcmp(transfers, "-") != 0;

			if (vcpu >= nvcpus || seq != closed(vcpu))
				die("pmu.txt:%d: window %" PRIu64 " of vCPU %u out of order", line,
				    seq, vcpu);
			c[TRANSFERS] = counted ? strtoull(transfers, &end, 10) : 0;
			if (counted && *end)
				die("pmu.txt:%d: transfers %s: a count or -", line, transfers);
			win = xrealloc(win, (nwin + 1) * sizeof(*win));
			win[nwin] = (struct window){ .vcpu = vcpu, .seq = seq, .first_line = nlines,
						     .transfers_counted = counted };
			memcpy(win[nwin].count, c, sizeof(c));
			nwin++;
			continue;
		}
		if (sscanf(text, "L %u %" SCNu64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &vcpu, &seq, &l.addr,
			   &l.vaddr, &l.store_pc, &l.load_pc, &l.reads, &l.writes, &l.ops_touched,
			   &l.ops_written) == 10) {
			if (!nwin || win[nwin - 1].vcpu != vcpu || win[nwin - 1].seq != seq)
				die("pmu.txt:%d: a line after another window's record", line);
			lines = xrealloc(lines, (nlines + 1) * sizeof(*lines));
			lines[nlines++] = l;
			win[nwin - 1].nlines++;
			continue;
		}
		die("pmu.txt:%d: not a record: %s", line, text);
	}
	if (!nvcpus)
		die("pmu.txt: no plugin header (did the plugin load?)");
	free(text);
}

/* Each guest window to the plugin's window of the same place on its CPU. */
static void read_windows(FILE *f)
{
	char *text = NULL, metric[64], param[256];
	size_t cap = 0, i;
	int line = 0;

	while (getline(&text, &cap, f) > 0) {
		unsigned int cpu;
		long iter, ops;
		struct window *w = NULL;

		line++;
		if (sscanf(text, "%u %ld %ld %63s %255s", &cpu, &iter, &ops, metric, param) != 5)
			die("windows.txt:%d: expected CPU ITER OPS METRIC PARAM", line);
		for (i = 0; i < nwin && !w; i++)
			if (win[i].vcpu == cpu && !win[i].listed)
				w = &win[i];
		if (!w)
			die("windows.txt:%d: the guest lists more windows on CPU %u than the plugin closed (%" PRIu64 ")",
			    line, cpu, closed(cpu));
		if (ops < 0 || (uint64_t)ops != w->count[OPS])
			die("windows.txt:%d: %ld operations in window %" PRIu64 " of CPU %u, the plugin saw %" PRIu64,
			    line, ops, w->seq, cpu, w->count[OPS]);
		w->listed = 1;
		w->icount_ns = NAN;
		w->iter = iter;
		snprintf(w->metric, sizeof(w->metric), "%s", metric);
		/* the harness writes the param as a CSV field */
		if (param[0] == '"' && strlen(param) > 1)
			param[strlen(param) - 1] = '\0';
		snprintf(w->param, sizeof(w->param), "%s", param + (param[0] == '"'));
	}
	for (i = 0; i < nwin; i++)
		if (!win[i].listed)
			die("vCPU %u: the plugin closed window %" PRIu64 ", which the guest did not list",
			    win[i].vcpu, win[i].seq);
	free(text);
}

static int cmp_symbol(const void *a, const void *b)
{
	const struct symbol *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* /proc/kallsyms lines: "ADDR TYPE NAME [MODULE]". */
static void read_symbols(FILE *f)
{
	char *text = NULL, name[128], type;
	size_t cap = 0;
	uint64_t addr;

	while (getline(&text, &cap, f) > 0) {
		struct symbols *t;

		if (sscanf(text, "%" SCNx64 " %c %127s", &addr, &type, name) != 3 || !addr)
			continue;
		t = strchr("tT", type) ? &text_syms : &data_syms;
		t->sym = xrealloc(t->sym, (t->n + 1) * sizeof(*t->sym));
		t->sym[t->n].addr = addr;
		snprintf(t->sym[t->n].name, sizeof(t->sym->name), "%s", name);
		t->n++;
	}
	free(text);
	if (data_syms.n)
		qsort(data_syms.sym, data_syms.n, sizeof(*data_syms.sym), cmp_symbol);
	if (text_syms.n)
		qsort(text_syms.sym, text_syms.n, sizeof(*text_syms.sym), cmp_symbol);
}

#pragma GCC diagnostic pop

/* The symbol at or below a kernel address, within 64 KiB; NULL if none. */
static const struct symbol *symbol_of(const struct symbols *t, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = t->n;

	if (addr < 0xffffffff80000000ULL)	/* the kernel image and modules */
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - t->sym[lo - 1].addr >= 65536)
		return NULL;
	*off = addr - t->sym[lo - 1].addr;
	return &t->sym[lo - 1];
}

/* A line's name, as perf c2c would give it: the data symbol that holds it
 * (cdev_lock+0), else for the heap the functions of the window's first
 * store and first load to it (heap@_raw_spin_lock/alloc_fd: a lock, and
 * what else in its line the code reads), else where it lies. */
static void line_site(const struct line *l, char *buf, size_t size)
{
	const struct symbol *store, *load;
	uint64_t off;

	if ((store = symbol_of(&data_syms, l->vaddr, &off))) {
		snprintf(buf, size, "%.36s+%#" PRIx64, store->name, off);
		return;
	}
	if (l->vaddr < 0x800000000000ULL) {
		snprintf(buf, size, "user@%#" PRIx64, l->store_pc);
		return;
	}
	store = symbol_of(&text_syms, l->store_pc, &off);
	load = symbol_of(&text_syms, l->load_pc, &off);
	if (store && load && strcmp(store->name, load->name))
		snprintf(buf, size, "heap@%.20s/%.20s", store->name, load->name);
	else if (store || load)
		snprintf(buf, size, "heap@%.40s", (store ?: load)->name);
	else
		snprintf(buf, size, "heap:%#" PRIx64, l->vaddr & ~(uint64_t)63);
}

static void row(const char *metric, const struct window *w, const char *site, double value,
		int decimals, const char *unit)
{
	struct param p;
	char bench[64];

	if (param_parse(&p, w->param))
		die("param %s of %s", w->param, w->metric);
	snprintf(bench, sizeof(bench), "%s", w->metric);
	if (strlen(bench) > 3 && !strcmp(bench + strlen(bench) - 3, "_ns"))
		bench[strlen(bench) - 3] = '\0';
	param_set(&p, PARAM_bench, "%s", bench);
	if (site)
		param_set(&p, PARAM_site, "%s", site);
	results_row(stdout, variant, boot, metric, &p, w->iter, value, decimals, unit);
}

/* The harness's icount time per operation of each window's repetition
 * (one vCPU: a window is its repetition). */
static void read_timing(const char *file)
{
	struct results_reader r;
	size_t i;
	int rc;

	if (results_open(&r, file))
		die("cannot read the harness's rows in %s", file);
	while ((rc = results_next(&r)) > 0)
		for (i = 0; i < nwin; i++)
			if (!strcmp(r.fields[F_METRIC], win[i].metric) &&
			    !strcmp(r.fields[F_PARAM], win[i].param) &&
			    atol(r.fields[F_ITER]) == win[i].iter)
				win[i].icount_ns = atof(r.fields[F_VALUE]);
	results_close(&r);
	if (rc < 0)
		die("a malformed row in %s", file);
}

static void pmu_group(const struct window *w)
{
	double ops = (double)w->count[OPS], insns = (double)w->count[INSNS] / ops;
	double l1 = w->count[L1D] / ops, l2 = w->count[L2] / ops, llc = w->count[LLC] / ops;

	row("insns_per_op", w, NULL, insns, 1, "count");
	row("l1d_misses_per_op", w, NULL, l1, 3, "count");
	row("l2_misses_per_op", w, NULL, l2, 3, "count");
	row("llc_misses_per_op", w, NULL, llc, 3, "count");
	row("model_cycles_per_op", w, NULL,
	    insns + (l1 - l2) * lat_l2 + (l2 - llc) * lat_llc + llc * lat_mem, 1, "cycles");
	if (!isnan(w->icount_ns) && insns > 0)
		row("insns_icount_gap_pct", w, NULL, 100 * (w->icount_ns - insns) / insns, 3, "pct");
}

struct shared {
	struct line line;
	uint64_t accesses;
	double per_op;
};

/* The most per operation first; among equals (every lock an operation
 * takes is 1), the most accessed. */
static int cmp_shared(const void *a, const void *b)
{
	const struct shared *x = a, *y = b;

	if (x->per_op != y->per_op)
		return (x->per_op < y->per_op) - (x->per_op > y->per_op);
	return (x->accesses < y->accesses) - (x->accesses > y->accesses);
}

/* The windows g[0..n) of one group, one per vCPU. */
static void share_group(struct window **g, size_t n)
{
	struct param p;
	const char *sched;
	struct shared *s = NULL;
	size_t i, j, k, ns = 0;
	double ops = 0, total = 0, transfers = 0;
	int counted = 1;
	char site[48], sites[TOP_LINES][48];

	if (param_parse(&p, g[0]->param))
		die("param %s of %s", g[0]->param, g[0]->metric);
	sched = p.value[PARAM_sched];
	for (i = 0; i < n; i++) {
		ops += g[i]->count[OPS];
		transfers += g[i]->count[TRANSFERS];
		counted &= g[i]->transfers_counted;
	}
	if (!strcmp(sched, "free")) {
		if (counted)
			row("transfers_per_op", g[0], NULL, transfers / ops, 3, "count");
		return;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < g[i]->nlines; j++) {
			const struct line *l = &lines[g[i]->first_line + j];
			double part;

			if (2 * l->ops_written < g[i]->count[OPS])
				continue;
			for (k = 0; k < n; k++) {
				size_t m;

				if (k == i)
					continue;
				for (m = 0; m < g[k]->nlines; m++) {
					const struct line *o = &lines[g[k]->first_line + m];

					if (o->addr == l->addr &&
					    2 * o->ops_touched >= g[k]->count[OPS])
						break;
				}
				if (m < g[k]->nlines)
					break;
			}
			if (k == n)
				continue;
			part = g[i]->count[OPS] / ops;
			total += part;
			for (k = 0; k < ns && s[k].line.addr != l->addr; k++)
				;
			if (k == ns) {
				s = xrealloc(s, ++ns * sizeof(*s));
				s[k] = (struct shared){ .line = *l };
			}
			s[k].per_op += part;
			s[k].accesses += l->reads + l->writes;
		}
	row("shared_lines_per_op", g[0], NULL, total, 3, "count");
	qsort(s, ns, sizeof(*s), cmp_shared);
	for (k = 0; k < ns && k < TOP_LINES && s[k].per_op >= 0.01; k++) {
		size_t same = 0;

		line_site(&s[k].line, sites[k], sizeof(sites[k]));
		for (j = 0; j < k; j++)
			same += !strcmp(sites[j], sites[k]);
		/* two locks in the heap taken by one function: two sites */
		if (same)
			snprintf(site, sizeof(site), "%.42s#%zu", sites[k], same + 1);
		else
			snprintf(site, sizeof(site), "%.47s", sites[k]);
		row("shared_line_per_op", g[0], site, s[k].per_op, 3, "count");
	}
	free(s);
}

static int same_group(const struct window *a, const struct window *b)
{
	return a->iter == b->iter && !strcmp(a->metric, b->metric) && !strcmp(a->param, b->param);
}

int main(int argc, char **argv)
{
	FILE *plugin, *windows, *syms;
	char timing[4096];
	struct window **group = NULL;
	size_t i, j, n;

	if (argc != 4)
		die("usage: pmu_rows VARIANT BOOT BOOT_DIR");
	variant = argv[1];
	boot = argv[2];
	plugin = open_in(argv[3], "pmu.txt", 0);
	read_plugin(plugin);
	fclose(plugin);
	windows = open_in(argv[3], "windows.txt", 0);
	read_windows(windows);
	fclose(windows);
	syms = open_in(argv[3], "kallsyms.txt", 1);
	if (syms) {
		read_symbols(syms);
		fclose(syms);
	}
	if (nvcpus == 1) {
		snprintf(timing, sizeof(timing), "%s/pmu-timing.csv", argv[3]);
		read_timing(timing);
	}
	/* Groups in the order their first window closed: the windows of
	 * one name, param and repetition, one per vCPU. */
	for (i = 0; i < nwin; i++) {
		if (win[i].iter < 0 || win[i].done)
			continue;
		n = 0;
		for (j = i; j < nwin; j++)
			if (!win[j].done && same_group(&win[i], &win[j])) {
				group = xrealloc(group, (n + 1) * sizeof(*group));
				group[n++] = &win[j];
				win[j].done = 1;
			}
		if (nvcpus == 1)
			pmu_group(&win[i]);
		else if (n > 1)
			share_group(group, n);
	}
	free(group);
	if (fflush(stdout) || ferror(stdout))
		die("writing the rows: %s", strerror(errno));
	return 0;
}
