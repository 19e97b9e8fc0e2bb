#!/bin/bash
# Host-side check of one fault boot (the failure-path phase):
#   scripts/fault-check.sh BOOT_DIR
# Adds the fail_warnings row (the lines of serial.log in which the kernel
# complains, KERNEL_COMPLAINT of scripts/lib.sh) to
# BOOT_DIR/samples.csv, then fails, naming each problem, when the kernel
# warned, when a flavour that unwinds as its API asks (all but
# cdev_init_noput, whose leaks are the cost being measured) leaked memory
# by kmemleak's count or left sysfs entries or majors behind, or when any
# flavour changed the references on the /sys/cdev ksets.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

boot_dir=${1:?usage: fault-check.sh BOOT_DIR}
samples=$boot_dir/samples.csv
[ -f "$samples" ] || die "$samples missing: the fault phase wrote nothing"
compare=$BUILD_DIR/bin/compare
[ -x "$compare" ] || die "$compare missing: run 'make tools'"
# The report engine reads the rows (and refuses a boot that wrote none).
variant=$("$compare" --format variants "$samples")
boot=${boot_dir##*-}

warnings=$(grep -cE "$KERNEL_COMPLAINT" "$boot_dir/serial.log" || true)
"$BUILD_DIR/bin/rows" one "$variant" "$boot" fail_warnings - "$warnings" count >> "$samples"

# The pass rule lives in the engine too (compare/fault_check.c): one line per
# problem.
problems=$("$compare" --format fault-problems "$samples" | tr '\n' ';')
[ "$warnings" = 0 ] || problems+="$warnings kernel warning(s) in serial.log;"
if [ -n "$problems" ]; then
	echo "cdevbench: fault phase of $variant: ${problems%;}" >&2
	exit 1
fi
