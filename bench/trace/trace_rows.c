// SPDX-License-Identifier: GPL-2.0
/*
 * trace_rows: the rows of a boot's traced pass, made on the host from what
 * the guest saved in BOOT_DIR/trace/ (the bpftrace tools' output as they
 * print it, and the rows of the benchmark runs made under a tool), with
 * the boot's untraced rows from BOOT_DIR/samples.csv.
 *
 * usage: trace_rows VARIANT BOOT TRACE_N BOOT_DIR SYSTEM_MAP >> BOOT_DIR/samples.csv
 *
 * SYSTEM_MAP: the booted kernel's, which names the static locks of the
 * census (the guest boots with nokaslr).
 *
 *   lock_census.txt    lock_acquisitions_per_op (phase=..., lock=...),
 *                      shared_locks_per_op (threads=2[,nodes=many],
 *                      phase=cached, lock=...), waits_per_op (phase=...,
 *                      wait=...)
 *   cdev_map_lock.txt  lock_hold_ns, lock_wait_ns, lock_hold_hist (its
 *                      @hold_ns histograms)
 *   cdev_rwsem.txt     rwsem_acquisitions_per_op, rwsem_hold_ns
 *   chrdev_open.txt    chrdev_open_ns
 *   cdev_mem.txt       mem_traced_bytes_per_cdev, mem_traced_site_bytes_per_cdev
 *   rcu_deferred.txt   deferred_ns_per_cdev
 *   register-traced.csv, open_lookup-traced.csv against samples.csv:
 *                      trace_overhead_pct
 *
 * Exits 1 naming the file and map where a tool saw none of the calls it
 * exists to see, having written no row.  Rows and params as bench/lib/results.h writes them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results.h"

static const char *variant, *boot, *dir;
static long trace_n;
static FILE *rows;	/* written out once every row is made */

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "trace_rows: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* BOOT_DIR/trace/TOOL.txt, open; exits where the guest saved none. */
static FILE *tool_output(const char *tool)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace/%s.txt", dir, tool);
	f = fopen(path, "r");
	if (!f)
		die("%s: no output of %s.bt", path, tool);
	return f;
}

/*
 * The number after "KEY: " in a bpftrace map print, or after "KEY: ...
 * FIELD " in a stats() line ("@m[k]: count 3, average 10, total 30").
 * 0 where the tool printed no such key (a map bpftrace never wrote to).
 */
static int map_value(const char *tool, const char *key, const char *field, double *v)
{
	char *line = NULL, *at;
	size_t cap = 0, klen = strlen(key);
	int found = 0;
	FILE *f = tool_output(tool);

	while (!found && getline(&line, &cap, f) > 0) {
		if (strncmp(line, key, klen) || strncmp(line + klen, ": ", 2))
			continue;
		at = line + klen + 2;
		if (field && (at = strstr(at, field)))
			at += strlen(field) + 1;
		found = at && sscanf(at, "%lf", v) == 1;
	}
	free(line);
	fclose(f);
	return found;
}

static void row(const char *metric, const char *param_text, double value, int decimals,
		const char *unit)
{
	struct param p;

	if (param_parse(&p, param_text))
		die("%s: param '%s'", metric, param_text);
	results_row(rows, variant, boot, metric, &p, 0, value, decimals, unit);
}

/* Calls seen per operation: a tool's @acquisitions[phase] over @ops[phase]. */
static void per_op(const char *tool, const char *metric, const char *phase)
{
	char key[64], param[64];
	double ops, acq = 0;

	snprintf(key, sizeof(key), "@ops[%s]", phase);
	if (!map_value(tool, key, NULL, &ops) || ops <= 0)
		die("%s/trace/%s.txt: %s.bt saw no %s call", dir, tool, tool, phase);
	snprintf(key, sizeof(key), "@acquisitions[%s]", phase);
	map_value(tool, key, NULL, &acq);
	snprintf(param, sizeof(param), "phase=%s", phase);
	row(metric, param, acq / ops, 2, "count");
}

/* A bucket's lower bound as bpftrace's hist() prints it: "[4K, 8K)",
 * "[1]" or "[0]" (K, M, G: powers of 1024). */
static int bucket_low(const char *line, double *low)
{
	char *end;
	double v = strtod(line + 1, &end);

	if (line[0] != '[' || end == line + 1)
		return 0;
	if (*end == 'K' || *end == 'M' || *end == 'G')
		v *= *end == 'K' ? 1024.0 : *end == 'M' ? 1048576.0 : 1073741824.0;
	*low = v;
	return 1;
}

/* A row per bucket of the histograms @MAP[phase, ]: the count in the
 * bucket, param phase=...,bucket_ns=LOW.  Returns the rows made. */
static int hist_rows(const char *tool, const char *map, const char *metric)
{
	char *line = NULL, phase[32] = "", param[80];
	size_t cap = 0, mlen = strlen(map);
	double low, count;
	int made = 0;
	FILE *f = tool_output(tool);

	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, map, mlen) && line[mlen] == '[') {
			snprintf(phase, sizeof(phase), "%.*s", (int)strcspn(line + mlen + 1, ",]"),
				 line + mlen + 1);
			continue;
		}
		if (!phase[0] || !bucket_low(line, &low)) {
			phase[0] = '\0';	/* the histogram ended */
			continue;
		}
		if (sscanf(line + strcspn(line, ")]") + 1, "%lf", &count) != 1)
			die("%s/trace/%s.txt: a bucket without a count: %s", dir, tool, line);
		snprintf(param, sizeof(param), "phase=%s,bucket_ns=%.0f", phase, low);
		row(metric, param, count, 0, "count");
		made++;
	}
	free(line);
	fclose(f);
	return made;
}

/* A function's name without gcc's clone suffix: kobj_map.constprop.0 is
 * kobj_map. */
static void strip_clone_suffix(char *name)
{
	name[strcspn(name, ".")] = '\0';
}

/* Slab bytes per cdev by allocation site: @site_live_bytes[site] over
 * @cdev_adds, one row per site however gcc cloned its function
 * (kobj_map and kobj_map.constprop.0 are one). */
static void site_rows(const char *tool, double adds)
{
	char *line = NULL, name[64], param[128];
	struct { char name[64]; double bytes; } site[64];
	size_t cap = 0, nsites = 0, i;
	double bytes;
	FILE *f = tool_output(tool);

	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "@site_live_bytes[%63[^]]]: %lf", name, &bytes) != 2)
			continue;
		strip_clone_suffix(name);
		for (i = 0; i < nsites && strcmp(site[i].name, name); i++)
			;
		if (i == nsites) {
			if (nsites == sizeof(site) / sizeof(site[0]))
				die("%s/trace/%s.txt: more than %zu allocation sites", dir, tool, i);
			snprintf(site[nsites].name, sizeof(site[0].name), "%s", name);
			site[nsites++].bytes = 0;
		}
		site[i].bytes += bytes;
	}
	free(line);
	fclose(f);
	for (i = 0; i < nsites; i++) {
		snprintf(param, sizeof(param), "n=%ld,site=%.63s", trace_n, site[i].name);
		row("mem_traced_site_bytes_per_cdev", param, site[i].bytes / adds, 1, "bytes");
	}
}

/* The kernel's data and bss symbols from its System.map, in address
 * order, for naming static locks. */
static struct symbol { unsigned long long addr; char name[64]; } *symbols;
static size_t nsymbols;

static void read_system_map(const char *path)
{
	char line[256], type, name[64];
	unsigned long long addr;
	size_t cap = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: cannot open the kernel's System.map", path);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %63s", &addr, &type, name) != 3 ||
		    !strchr("dDbB", type))
			continue;
		if (nsymbols == cap) {
			cap = cap ? 2 * cap : 4096;
			symbols = realloc(symbols, cap * sizeof(*symbols));
			if (!symbols)
				die("out of memory");
		}
		symbols[nsymbols].addr = addr;
		snprintf(symbols[nsymbols++].name, sizeof(symbols[0].name), "%s", name);
	}
	fclose(f);
	if (!nsymbols)
		die("%s: no data symbols", path);
}

/* SYMBOL, or SYMBOL+0xOFFSET for a lock inside a static structure. */
static void symbol_name(unsigned long long addr, char *buf, size_t size)
{
	size_t lo = 0, hi = nsymbols;

	while (hi - lo > 1) {	/* the last symbol at or below addr */
		size_t mid = (lo + hi) / 2;

		if (symbols[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (symbols[lo].addr > addr)
		snprintf(buf, size, "0x%llx", addr);
	else if (symbols[lo].addr == addr)
		snprintf(buf, size, "%s", symbols[lo].name);
	else
		snprintf(buf, size, "%.40s+0x%llx", symbols[lo].name, addr - symbols[lo].addr);
}

/*
 * A lock's name in the census: a static one's symbol (WHO its address),
 * one embedded in an object KIND@CALLER (spin@dput: a spinlock dput()
 * took; WHO the caller), whichever lock function FN took it.
 */
static void lock_name(int is_static, const char *fn, char *who, char *lock, size_t size)
{
	static const struct { const char *prefix, *kind; } kinds[] = {
		{ "_raw_spin_", "spin" }, { "_raw_read_", "rwlock" }, { "_raw_write_", "rwlock" },
		{ "mutex_", "mutex" }, { "down_", "rwsem" }, { "lockref_", "lockref" },
	};
	size_t k;

	if (is_static) {
		symbol_name((unsigned long long)strtoll(who, NULL, 10), lock, size);
		return;
	}
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]) &&
		    strncmp(fn, kinds[k].prefix, strlen(kinds[k].prefix)); k++)
		;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		die("lock_census.txt: no kind for lock function %s", fn);
	strip_clone_suffix(who);
	snprintf(lock, size, "%s@%.50s", kinds[k].kind, who);
}

/*
 * lock_census.bt: lock_acquisitions_per_op per (phase, lock), summed over
 * the lock functions.
 */
static void census_rows(void)
{
	/* as lock_census.bt numbers them, from 1 */
	static const char *const phases[] = { "add", "del", "lookup", "cached" };
	struct { int phase; char lock[64]; double n; } seen[256];
	char *line = NULL, map[32], fn[64], who[64], lock[64], key[32], param[128];
	size_t cap = 0, nseen = 0, i, k;
	double n, ops[4];
	int phase;
	FILE *f;

	for (i = 0; i < 4; i++) {
		snprintf(key, sizeof(key), "@ops[%zu]", i + 1);
		if (!map_value("lock_census", key, NULL, &ops[i]) || ops[i] <= 0)
			die("%s/trace/lock_census.txt: lock_census.bt saw no %s operation", dir,
			    phases[i]);
	}
	f = tool_output("lock_census");
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "@%31[a-z_][%d, %63[^,], %63[^]]]: %lf", map, &phase, fn, who,
			   &n) != 5 || (strcmp(map, "static_lock") && strcmp(map, "embedded_lock")))
			continue;	/* the waits' maps: waits_rows() */
		if (phase < 1 || phase > 4)
			die("lock_census.txt: phase %d: %s", phase, line);
		lock_name(!strcmp(map, "static_lock"), fn, who, lock, sizeof(lock));
		for (i = 0; i < nseen && (seen[i].phase != phase || strcmp(seen[i].lock, lock)); i++)
			;
		if (i == nseen) {
			if (nseen == sizeof(seen) / sizeof(seen[0]))
				die("lock_census.txt: more than %zu locks", nseen);
			seen[i].phase = phase;
			snprintf(seen[i].lock, sizeof(seen[i].lock), "%s", lock);
			seen[nseen++].n = 0;
		}
		seen[i].n += n;
	}
	free(line);
	fclose(f);
	/* a lock taken less than once in 200 operations (a timer interrupt's,
	 * a page refill's) is off the operation's own path: left out */
	for (k = 0; k < 4; k++)
		for (i = 0; i < nseen; i++)
			if (seen[i].phase == (int)k + 1 && seen[i].n / ops[k] >= 0.005) {
				snprintf(param, sizeof(param), "phase=%s,lock=%.63s", phases[k],
					 seen[i].lock);
				row("lock_acquisitions_per_op", param, seen[i].n / ops[k], 2, "count");
			}
}

/*
 * lock_census.bt's runs of open_cached with two threads, phase 8 on one
 * node and 9 on a node each: shared_locks_per_op per (run, lock), the
 * calls per operation of the run that took a lock at an address both
 * threads took.  The runs are told by their order (guest-init/suite,
 * trace_census), which the nodes each open_cached run made confirm.
 */
static void shared_rows(void)
{
	static const char *const runs[] = { "threads=2", "threads=2,nodes=many" };
	struct call { int phase, thread; char addr[24], lock[64]; double n; } *calls = NULL;
	struct { int phase; char lock[64]; double n; } shared[256];
	char *line = NULL, fn[64], who[64], addr[24], key[32], param[128];
	size_t cap = 0, ncalls = 0, nshared = 0, i, j;
	double n, nodes[4] = { 0 }, ops[2];
	int phase, thread, is_static;
	FILE *f;

	for (i = 1; i < 4; i++) {
		snprintf(key, sizeof(key), "@nodes[%zu]", i);
		map_value("lock_census", key, NULL, &nodes[i]);
	}
	if (nodes[1] != 1 || nodes[2] != 1 || nodes[3] != 2 ||
	    map_value("lock_census", "@nodes[4]", NULL, &n))
		die("%s/trace/lock_census.txt: the open_cached runs made %g, %g and %g nodes, where guest-init/suite's make 1, 1 and 2, in that order",
		    dir, nodes[1], nodes[2], nodes[3]);
	for (i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "@ops[%zu]", i + 8);
		if (!map_value("lock_census", key, NULL, &ops[i]) || ops[i] <= 0)
			die("%s/trace/lock_census.txt: lock_census.bt saw no cached operation of %s",
			    dir, runs[i]);
	}
	f = tool_output("lock_census");
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "@thread_", 8))
			continue;
		is_static = sscanf(line, "@thread_static_lock[%d, %63[^,], %23[^,], %d]: %lf",
				   &phase, fn, addr, &thread, &n) == 5;
		if (is_static)
			snprintf(who, sizeof(who), "%s", addr);
		else if (sscanf(line, "@thread_embedded_lock[%d, %63[^,], %63[^,], %23[^,], %d]: %lf",
				&phase, fn, who, addr, &thread, &n) != 6)
			die("lock_census.txt: not a lock call of a thread: %s", line);
		if (phase < 8 || phase > 9 || thread < 0 || thread > 1)
			die("lock_census.txt: phase %d, thread %d: %s", phase, thread, line);
		calls = realloc(calls, (ncalls + 1) * sizeof(*calls));
		if (!calls)
			die("out of memory");
		calls[ncalls] = (struct call){ .phase = phase, .thread = thread, .n = n };
		snprintf(calls[ncalls].addr, sizeof(calls[0].addr), "%s", addr);
		lock_name(is_static, fn, who, calls[ncalls++].lock, sizeof(calls[0].lock));
	}
	free(line);
	fclose(f);
	for (i = 0; i < ncalls; i++) {
		for (j = 0; j < ncalls && (calls[j].phase != calls[i].phase ||
					   calls[j].thread == calls[i].thread ||
					   strcmp(calls[j].addr, calls[i].addr)); j++)
			;
		if (j == ncalls)
			continue;	/* the other thread never took it */
		for (j = 0; j < nshared && (shared[j].phase != calls[i].phase ||
					    strcmp(shared[j].lock, calls[i].lock)); j++)
			;
		if (j == nshared) {
			if (nshared == sizeof(shared) / sizeof(shared[0]))
				die("lock_census.txt: more than %zu shared locks", nshared);
			shared[j].phase = calls[i].phase;
			snprintf(shared[j].lock, sizeof(shared[j].lock), "%s", calls[i].lock);
			shared[nshared++].n = 0;
		}
		shared[j].n += calls[i].n;
	}
	free(calls);
	/* left out below once in 200 operations, as the census */
	for (i = 0; i < 2; i++)
		for (j = 0; j < nshared; j++)
			if (shared[j].phase == (int)i + 8 && shared[j].n / ops[i] >= 0.005) {
				snprintf(param, sizeof(param), "%s,phase=cached,lock=%.63s", runs[i],
					 shared[j].lock);
				row("shared_locks_per_op", param, shared[j].n / ops[i], 2, "count");
			}
}

/*
 * lock_census.bt's waits: waits_per_op per window and wait.  Windows as
 * the script numbers them, from 1: the census's phases, then the unplug
 * benchmarks' teardown windows, keyed [window, alloc, files] (alloc 1
 * embedded, 0 dynamic; files the exit's open files).
 */
static const char *const window_names[] = {
	"add", "del", "lookup", "cached", "unplug_del_cached", "unplug_close", "unplug_exit",
};
#define NCENSUS 4	/* windows 1-4: the census's phases, [phase, 0, 0] */
#define WINDOW_EXIT 7	/* unplug_exit, the one with files */
#define NWINDOWS (sizeof(window_names) / sizeof(window_names[0]))
#define MAX_WINDOWS 64

/* What a wait is filed as (param wait=...): the blocks of the window's
 * task (@sleeps), then the functions of @wait_calls, the
 * wait_for_completion*() family as one and msleep_interruptible() with
 * msleep(). */
static const char *const wait_names[] = {
	"schedule", "synchronize_rcu", "synchronize_rcu_expedited", "rcu_barrier",
	"wait_for_completion", "msleep",
};
#define NWAITS (sizeof(wait_names) / sizeof(wait_names[0]))

/* A probed function's wait, an index of wait_names from 1; 0 where none. */
static size_t wait_of(char *fn)
{
	const char *name = fn;
	size_t i;

	strip_clone_suffix(fn);
	if (!strncmp(fn, "wait_for_completion", strlen("wait_for_completion")))
		name = "wait_for_completion";
	else if (!strcmp(fn, "msleep_interruptible"))
		name = "msleep";
	for (i = 1; i < NWAITS && strcmp(name, wait_names[i]); i++)
		;
	return i < NWAITS ? i : 0;
}

struct window {
	int w, alloc;
	long files;
	double ops, waits[NWAITS];
};

static int cmp_window(const void *a, const void *b)
{
	const struct window *x = a, *y = b;

	if (x->w != y->w)
		return x->w - y->w;
	if (x->alloc != y->alloc)
		return x->alloc - y->alloc;
	return (x->files > y->files) - (x->files < y->files);
}

/*
 * A row per window for the blocks (wait=schedule), 0 where there were
 * none, so that a variant's first wait shows as a change from 0, and one
 * per other wait a window saw (one a variant lacks is 0 there: compare
 * fills a count's absent rows).  Every teardown window must have run.
 */
static void waits_rows(void)
{
	struct window win[MAX_WINDOWS], *x;
	char *line = NULL, fn[64], param[160], key[32];
	size_t cap = 0, nwin = 0, i, k, wait;
	long files;
	int w, alloc, pass;
	double n;
	FILE *f;

	for (w = 1; w <= NCENSUS; w++) {	/* census_rows() checked their @ops */
		win[nwin] = (struct window){ .w = w };
		snprintf(key, sizeof(key), "@ops[%d]", w);
		map_value("lock_census", key, NULL, &win[nwin++].ops);
	}
	f = tool_output("lock_census");
	for (pass = 0; pass < 2; pass++) {	/* the windows, then their waits */
		rewind(f);
		while (getline(&line, &cap, f) > 0) {
			if (!pass) {
				if (sscanf(line, "@unplug_ops[%d, %d, %ld]: %lf", &w, &alloc, &files,
					   &n) != 4)
					continue;
				if (w <= NCENSUS || w > (int)NWINDOWS || nwin == MAX_WINDOWS)
					die("lock_census.txt: window %d, or more than %d: %s", w,
					    MAX_WINDOWS, line);
				win[nwin++] = (struct window){ .w = w, .alloc = alloc,
							       .files = files, .ops = n };
				continue;
			}
			if (sscanf(line, "@sleeps[%d, %d, %ld]: %lf", &w, &alloc, &files, &n) == 4) {
				wait = 0;
			} else if (sscanf(line, "@wait_calls[%d, %d, %ld, %63[^]]]: %lf", &w, &alloc,
					  &files, fn, &n) == 5) {
				if (!(wait = wait_of(fn)))
					die("lock_census.txt: no wait for function %s", fn);
			} else {
				continue;
			}
			for (i = 0; i < nwin && (win[i].w != w || win[i].alloc != alloc ||
						 win[i].files != files); i++)
				;
			if (i == nwin)
				die("lock_census.txt: a wait in no window it counted: %s", line);
			win[i].waits[wait] += n;
		}
	}
	free(line);
	fclose(f);
	for (w = NCENSUS + 1; w <= (int)NWINDOWS; w++) {
		for (i = 0; i < nwin && win[i].w != w; i++)
			;
		if (i == nwin)
			die("%s/trace/lock_census.txt: lock_census.bt saw no %s operation", dir,
			    window_names[w - 1]);
	}
	qsort(win, nwin, sizeof(win[0]), cmp_window);
	for (i = 0; i < nwin; i++) {
		x = &win[i];
		for (k = 0; k < NWAITS; k++) {
			int len;

			if (k && !x->waits[k])
				continue;
			len = snprintf(param, sizeof(param), "phase=%s,wait=%s", window_names[x->w - 1],
				       wait_names[k]);
			if (x->w > NCENSUS)
				len += snprintf(param + len, sizeof(param) - (size_t)len, ",alloc=%s",
						x->alloc ? "embedded" : "dynamic");
			if (x->w == WINDOW_EXIT)
				snprintf(param + len, sizeof(param) - (size_t)len, ",files=%ld", x->files);
			row("waits_per_op", param, x->waits[k] / x->ops, 2, "count");
		}
	}
}

/* The mean of a stats() map, as a row where the tool printed it. */
static int stats_row(const char *tool, const char *key, const char *metric, const char *param)
{
	double mean;

	if (!map_value(tool, key, "average", &mean))
		return 0;
	row(metric, param, mean, 0, "ns");
	return 1;
}

/* Mean of a metric's rows (of one param, or of any where NULL) in one of
 * the boot's files, rounded to 0.1 as the rows show it; 0 where it has
 * none. */
static int mean_of(const char *file, const char *metric, const char *param, double *v)
{
	struct results_reader r;
	char path[4096], shown[64];
	double sum = 0;
	long n = 0;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (results_open(&r, path))
		exit(1);
	while ((rc = results_next(&r)) > 0)
		if (!strcmp(r.fields[F_METRIC], metric) &&
		    (!param || !strcmp(r.fields[F_PARAM], param))) {
			sum += atof(r.fields[F_VALUE]);
			n++;
		}
	results_close(&r);
	if (rc)
		exit(1);
	if (!n)
		return 0;
	snprintf(shown, sizeof(shown), "%.1f", sum / (double)n);
	*v = atof(shown);
	return 1;
}

/* The cost of tracing: the traced run's mean against the untraced one. */
static void overhead_row(const char *phase, const char *traced_file, const char *metric,
			 const char *param)
{
	char p[32];
	double traced, untraced;

	if (!mean_of(traced_file, metric, NULL, &traced) ||
	    !mean_of("samples.csv", metric, param, &untraced) || untraced <= 0)
		return;
	snprintf(p, sizeof(p), "phase=%s", phase);
	row("trace_overhead_pct", p, (traced / untraced - 1) * 100, 1, "pct");
}

int main(int argc, char **argv)
{
	static const char *const lock_phases[] = { "add", "del", "lookup", "other" };
	static const char *const deferred_functions[] = { "rcu_core", "kfree_rcu_work" };
	char key[64], phase[32], n_param[32], tail_param[48], *text;
	double bytes = 0, adds, truncated, deferred, ns;
	size_t i, len;

	if (argc != 6 || (trace_n = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: trace_rows VARIANT BOOT TRACE_N BOOT_DIR SYSTEM_MAP\n");
		return 2;
	}
	read_system_map(argv[5]);
	variant = argv[1];
	boot = argv[2];
	dir = argv[4];
	rows = open_memstream(&text, &len);
	if (!rows)
		die("out of memory");
	snprintf(n_param, sizeof(n_param), "n=%ld", trace_n);
	snprintf(tail_param, sizeof(tail_param), "n=%ld,pos=tail", trace_n);

	census_rows();
	shared_rows();
	waits_rows();

	/* cdev_map_lock.bt: one registration run and one open_lookup run (its
	 * acquisitions are the census's chrdevs_lock rows) */
	for (i = 0; i < 4; i++) {
		snprintf(phase, sizeof(phase), "phase=%s", lock_phases[i]);
		snprintf(key, sizeof(key), "@hold_ns_stats[%s, ]", lock_phases[i]);
		stats_row("cdev_map_lock", key, "lock_hold_ns", phase);
		snprintf(key, sizeof(key), "@wait_ns_stats[%s, ]", lock_phases[i]);
		stats_row("cdev_map_lock", key, "lock_wait_ns", phase);
	}
	if (!hist_rows("cdev_map_lock", "@hold_ns", "lock_hold_hist"))
		die("%s/trace/cdev_map_lock.txt: no @hold_ns histogram", dir);
	overhead_row("add", "trace/register-traced.csv", "cdev_add_ns", n_param);
	overhead_row("del", "trace/register-traced.csv", "cdev_del_ns", n_param);
	overhead_row("lookup", "trace/open_lookup-traced.csv", "open_lookup_ns", tail_param);

	/* cdev_rwsem.bt: one registration run */
	for (i = 0; i < 2; i++) {
		double acq;

		per_op("cdev_rwsem", "rwsem_acquisitions_per_op", lock_phases[i]);
		snprintf(key, sizeof(key), "@acquisitions[%s]", lock_phases[i]);
		if (!map_value("cdev_rwsem", key, NULL, &acq))
			continue;
		snprintf(key, sizeof(key), "@hold_ns_stats[%s]", lock_phases[i]);
		snprintf(phase, sizeof(phase), "phase=%s", lock_phases[i]);
		if (!stats_row("cdev_rwsem", key, "rwsem_hold_ns", phase))
			die("%s/trace/cdev_rwsem.txt: acquisitions but no %s", dir, key);
	}

	/* chrdev_open.bt: one open_lookup run at the tail */
	if (!stats_row("chrdev_open", "@open_ns_stats", "chrdev_open_ns", tail_param))
		die("%s/trace/chrdev_open.txt: chrdev_open.bt saw no open", dir);

	/* cdev_mem.bt: TRACE_N cdevs registered and held */
	if (!map_value("cdev_mem", "@cdev_adds", NULL, &adds) || adds <= 0)
		die("%s/trace/cdev_mem.txt: cdev_mem.bt saw no cdev_add", dir);
	if (map_value("cdev_mem", "@bulk_truncated", NULL, &truncated) && truncated > 0)
		die("%s/trace/cdev_mem.txt: a bulk allocation or free had more objects than cdev_mem.bt reads (BULK_MAX)",
		    dir);
	map_value("cdev_mem", "@live_bytes", NULL, &bytes);
	row("mem_traced_bytes_per_cdev", n_param, bytes / adds, 1, "bytes");
	site_rows("cdev_mem", adds);

	/* rcu_deferred.bt: one registration run of TRACE_N, settled */
	if (!map_value("rcu_deferred", "@cdev_adds", NULL, &adds) || adds <= 0)
		die("%s/trace/rcu_deferred.txt: rcu_deferred.bt saw no cdev_add", dir);
	deferred = 0;
	for (i = 0; i < sizeof(deferred_functions) / sizeof(deferred_functions[0]); i++) {
		snprintf(key, sizeof(key), "@deferred_ns[%s]", deferred_functions[i]);
		if (map_value("rcu_deferred", key, NULL, &ns))
			deferred += ns;
	}
	row("deferred_ns_per_cdev", n_param, deferred / adds, 1, "ns");
	if (fclose(rows) || fwrite(text, 1, len, stdout) != len || fflush(stdout))
		die("writing the rows failed");
	free(text);
	return 0;
}
