# cdevbench: every entry point.  See README.md.
#   make bench      set up, build the kernels, boot, measure, report
#   make test       host tests and an end-to-end smoke run
# Variables (make VAR=value): VARIANTS, BOOTS, MODE, QUICK, RESULTS_DIR,
# LABEL, SWEEP_N, REPS, VCPUS, GUEST_MEM, BOOT_TIMEOUT, BUILD_DIR, JOBS.

SHELL := /bin/bash
export VARIANTS BOOTS MODE QUICK RESULTS_DIR LABEL SWEEP_N REPS VCPUS \
	GUEST_MEM BOOT_TIMEOUT BUILD_DIR JOBS

.PHONY: all deps kernels bench test clean

all: bench

deps:
	@scripts/deps.sh

kernels: deps
	@. scripts/lib.sh && for v in $${VARIANTS:-$$(all_variants)}; do \
		scripts/kernel.sh $$v || exit 1; done

bench: deps
	@scripts/bench.sh

test: deps
	@tests/run.sh

clean:
	rm -rf build/kernels build/modules build/bin
