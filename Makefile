# cdevbench: every entry point, its job and what it costs on a 2-core host
# without KVM (docs/measurements.md).  A bare make prints this (make help).
#   make help        this list; starts nothing
#   make bench       * set up, build the kernels, boot, measure, report:
#                    ~16 min (kernels built; ~17 min more from no ccache)
#   make check       * the host tests, no kernel built, no boot: ~3 min
#                    beside a make test (make deps TIER=check: theirs)
#   make test        * make check, then the kernel tests (smoke runs on
#                    both bases, the plugin, Slurm): ~35 min on a clean
#                    clone (CI), ~15 min with the kernels built
#   make compare     the report of a run (RUN=, BASELINE=, AGAINST=): ~20 s
#   make baseline    keep a run (RUN=) as a named baseline (SAVE=NAME): 1 s
#   make posting     a variant's series as mails, with a cover letter of
#                    its figures, from the run that measured it
#                    (VARIANT=, RUN=): ~5 s
#   make resume      * finish a run that stopped (RUN=): a boot per unit
#                    left (~1 min each), then its report
#   make merge       join the units of a run (RUN=) that another executor
#                    ran: seconds
#   make race-check  * the selftest's races on several vCPUs, negative
#                    controls required to fail: ~15 min for four variants
#   make errpaths    * each cleanup after a failed cdev_add(), per base and
#                    variant, and the drivers that use it: ~4 min (fault
#                    kernels built; 6.12's ~25 min more from stock's)
#   make docs        the docs' tables of metrics and settings made again:
#                    seconds
#   make example     docs/example/ made again from a QUICK run (RUN=):
#                    seconds
#   make variant     * a variant from a posted series (NAME=, FROM=) and
#                    its apply check on every base: ~1 s
#   make kernels     * every variant's kernels (VARIANTS=): ~17 min from
#                    no ccache, seconds once built
#   make deps        the Debian packages: checked; as root, installed
#                    (TIER=check: the 22 the host tests use, of 33)
#   make progs       the guest's programs; make tools, the host's (compare,
#                    the plugin): seconds
#   make clean       remove the built kernels, modules and programs: 1 s
# * runs make deps first: as root, apt-get installs the packages missing
#   (33: QEMU, bpftrace, Slurm, the kernel build's tools; make check's
#   22: the compiler, jq, gnuplot, shellcheck, the kernel tarballs, ...).
# Settings (make VAR=value): every name declared in scripts/settings.def,
# with its default, check and meaning there and in docs/settings.md.

SHELL := /bin/bash
export $(shell sed -n 's/^\([A-Z_][A-Z_0-9]*\) *|.*/\1/p' scripts/settings.def)

BIN_DIR := $(or $(BUILD_DIR),build)/bin
# User-space programs that run in the guest: the selftest, the memory and
# fault phases, rows (the results schema's command line), bench_plan (the
# runs of bench/benchmarks.def, which the suite runs; the host's tests and
# docs read it too), and one file per benchmark linked with the harness;
# and trace_rows, which bench.sh runs on the host after each boot.  All
# but the selftest and bench_plan link bench/lib, which owns the results
# schema, the benchmarks' command line and the slab counters.
GUEST_LIB := bench/lib/results.c bench/lib/slab_counters.c bench/lib/bench_options.c
PROGS := $(patsubst %.c,$(BIN_DIR)/%,$(notdir $(wildcard bench/selftest/*.c bench/faults/*.c \
		bench/mem/*.c bench/lib/rows.c bench/lib/bench_plan.c bench/trace/*.c))) \
	$(patsubst bench/user/%.c,$(BIN_DIR)/%,$(filter-out bench/user/harness.c,$(wildcard bench/user/*.c)))
# The checkout's and the build folder's paths are mapped out of the debug
# information, so that a program's bytes, and with them the guest's
# memory layout and the timed rows, do not depend on where the rig lies
# (docs/determinism.md).
CFLAGS := -O2 -g -Wall -Wextra -Wshadow -Werror -ffile-prefix-map=$(CURDIR)=. \
	-ffile-prefix-map=$(abspath $(or $(BUILD_DIR),build))=build
# The report engine, compare/: every file but the unit test, and the
# results schema's reader and writer.
COMPARE_SRCS := $(filter-out compare/test_stats.c,$(wildcard compare/*.c)) bench/lib/results.c
# Student's t from GSL; meta.json and race.json read with jansson
# (libgsl-dev, libjansson-dev: scripts/deps.sh).
STATS_LIBS := -lgsl -lgslcblas -lm
COMPARE_LIBS := -ljansson $(STATS_LIBS)

.PHONY: help deps kernels variant progs tools bench race-check errpaths compare baseline posting example resume merge docs check test clean

# The header above, the one list of entry points: a bare make prints it
# rather than starting a run.
help:
	@sed -n '/^[^#]/q; s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

# What the guest runs, listed for scripts/initramfs.sh, which packs them:
# every program but trace_rows.
GUEST_PROGS := $(filter-out $(BIN_DIR)/trace_rows,$(PROGS))

progs: $(PROGS) $(BIN_DIR)/guest-programs

$(BIN_DIR)/guest-programs: Makefile
	@mkdir -p $(@D)
	@printf '%s\n' $(notdir $(GUEST_PROGS)) > $@

# Host-side tools: the comparison and its unit test, the TCG plugin, the
# unit test of its cache model, the program its test runs under
# qemu-x86_64 and the reader of its records.
tools: $(BIN_DIR)/compare $(BIN_DIR)/test_stats $(BIN_DIR)/tcg_pmu.so $(BIN_DIR)/test_cache_model \
	$(BIN_DIR)/thread_chain $(BIN_DIR)/pmu_rows

# Loaded by QEMU (scripts/boot.sh, the phases with a plugin in
# scripts/phases.def).
$(BIN_DIR)/tcg_pmu.so: bench/plugin/tcg_pmu.c bench/plugin/cache_model.c bench/plugin/cache_model.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -fPIC -fvisibility=hidden -pthread -o $@ bench/plugin/tcg_pmu.c \
		bench/plugin/cache_model.c

$(BIN_DIR)/test_cache_model: bench/plugin/test_cache_model.c bench/plugin/cache_model.c \
		bench/plugin/cache_model.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ bench/plugin/test_cache_model.c bench/plugin/cache_model.c

$(BIN_DIR)/thread_chain: bench/plugin/thread_chain.c bench/lib/pmu_window.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -pthread -o $@ bench/plugin/thread_chain.c

$(BIN_DIR)/pmu_rows: bench/plugin/pmu_rows.c bench/lib/results.c bench/lib/results.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -o $@ bench/plugin/pmu_rows.c bench/lib/results.c -lm

$(BIN_DIR)/compare: $(COMPARE_SRCS) $(wildcard compare/*.h) bench/lib/results.h bench/benchmarks.def
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -o $@ $(COMPARE_SRCS) $(COMPARE_LIBS)

$(BIN_DIR)/test_stats: compare/test_stats.c compare/stats.c compare/stats.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ compare/test_stats.c compare/stats.c $(STATS_LIBS)

# The selftest prints KTAP through the kernel's own kselftest.h, from
# 6.1 (the base the rig's series are written for) whatever a run boots:
# one binary serves every base of a run (BASES), its output is the
# format the rig's readers parse on every kernel, and a tree base may
# hold another kselftest.h or none.  It uses only what 6.1's and 6.12's
# headers both have (tests/test_15_lint.sh builds it against each).  The
# headers alone are extracted from the base's tarball
# (scripts/lib/bases.sh, extract_host_files), never copied into the rig.
KSELFTEST_BASE := 6.1
KSELFTEST_DIR := $(or $(BUILD_DIR),build)/host-files/linux-source-$(KSELFTEST_BASE)/tools/testing/selftests

$(KSELFTEST_DIR)/kselftest.h:
	@. scripts/lib.sh && rig_init && use_base $(KSELFTEST_BASE) && extract_host_files
	@test -f $@ || { echo "cdevbench: base $(KSELFTEST_BASE)'s tarball has no $@" >&2; exit 1; }

$(BIN_DIR)/%: bench/selftest/%.c $(KSELFTEST_DIR)/kselftest.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(KSELFTEST_DIR) -o $@ $<

$(BIN_DIR)/rows: bench/lib/rows.c $(GUEST_LIB) $(wildcard bench/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -o $@ $< $(GUEST_LIB)

# bench/benchmarks.def compiled in: the one reader of its sweeps.  Once
# built, it checks every declaration (an axis it cannot read, MODULE with
# HOLD, ...), so that none is found in a guest.
$(BIN_DIR)/bench_plan: bench/lib/bench_plan.c bench/benchmarks.def bench/lib/results.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -o $@ $<
	@BENCHES= $@ benches > /dev/null || { rm -f $@; exit 1; }

$(BIN_DIR)/%: bench/mem/%.c $(GUEST_LIB) $(wildcard bench/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -o $@ $< $(GUEST_LIB)

$(BIN_DIR)/%: bench/trace/%.c $(GUEST_LIB) $(wildcard bench/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -o $@ $< $(GUEST_LIB)

$(BIN_DIR)/%: bench/faults/%.c $(GUEST_LIB) $(wildcard bench/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -o $@ $< $(GUEST_LIB)

$(BIN_DIR)/%: bench/user/%.c bench/user/harness.c bench/user/harness.h $(GUEST_LIB) $(wildcard bench/lib/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibench/lib -pthread -o $@ $< bench/user/harness.c $(GUEST_LIB)

# The Debian packages (scripts/deps.sh): with TIER=check, those the host
# tests use, which make check asks for; otherwise those and what kernel
# builds, boots and the kernel tests use.
deps:
	@scripts/deps.sh $(or $(TIER),all)

# The kernels make bench boots (scripts/phases.def): timing, and fault
# unless FAULTS=0.
kernels: deps
	@. scripts/lib.sh && rig_init && flavours=$$(run_flavours) && for v in $${VARIANTS:-$$(all_variants)}; do \
		for f in $$flavours; do scripts/kernel.sh $$v $$f || exit 1; done; done

# A variant from a posted series: NAME, FROM (mbox, patch files, a folder
# of them, or a git repository and a range), optional WORKTREE.
variant: deps
	@WORKTREE="$(WORKTREE)" scripts/variant.sh "$(NAME)" $(FROM)

bench: deps progs tools
	@scripts/bench.sh

# Every variant and negative control booted once on several vCPUs with
# slab poisoning, its selftest's race cases run long (scripts/race-check.sh).
race-check: deps progs
	@scripts/race-check.sh

# Every variant's fault kernel booted once per base (BASES, default both
# Debian bases), the callers' census, the table and its answer
# (scripts/errpaths.sh, docs/errpaths.md).
errpaths: deps progs tools
	@scripts/errpaths.sh

# Report of a run: RUN (default results/latest), BASELINE (default stock);
# AGAINST: against another run's or a saved baseline's BASELINE.
compare: tools
	@scripts/compare.sh

baseline:
	@scripts/baseline.sh

# A variant's series as a maintainer receives it (VARIANT=, RUN=): the
# run's copy as git format-patch mails with a cover letter of its figures
# in RUN/posting/VARIANT/, and checkpatch's findings (scripts/posting.sh).
posting: tools
	@scripts/posting.sh "$(VARIANT)"

# docs/example/ made again from a QUICK run (RUN=), when the report
# changes on purpose (tests/test_17_example.sh checks it).
example: tools
	@scripts/example.sh

# A run that stopped (RUN=): its units that did not finish or failed run
# again with its own plan, then merge and report (scripts/resume.sh).
resume: deps progs tools
	@scripts/resume.sh

# A run's units into its samples.csv, each checked against the run's
# meta.json (scripts/merge.sh); make bench does it after its executor.
merge: progs
	@scripts/merge.sh

# docs/metrics.md's table of metrics and docs/settings.md's of settings
# made again from their declarations (scripts/docs.sh); make check fails
# while either differs.
docs: $(BIN_DIR)/bench_plan
	@scripts/docs.sh

# The host tests alone (no kernel build, no boot); make test runs them,
# then the kernel tests.  TESTS= a subset ("20 42"), TEST_TIMEOUT=
# seconds per test (tests/run.sh).
check: TIER = check
check: deps progs tools
	@tests/run.sh host

test: deps progs tools
	@tests/run.sh all

clean:
	rm -rf build/kernels build/modules build/bin
