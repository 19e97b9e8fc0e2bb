#!/bin/bash
# Host-side check of one fault boot (the failure-path phase):
#   scripts/fault-check.sh BOOT_DIR
# Adds the fail_warnings row (WARN, BUG and oops reports in serial.log) to
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
read -r variant boot < <(awk -F, 'NR == 2 { print $1, $2 }' "$samples")
[ -n "${variant:-}" ] || die "$samples has no rows: the fault phase did not run"

warnings=$(grep -cE 'WARNING: |BUG: |Oops|general protection fault' "$boot_dir/serial.log" || true)
echo "$variant,$boot,fail_warnings,-,0,$warnings,count" >> "$samples"

problems=$(awk -F, '
	($3 == "fail_kset_refs_left" ||
	 $3 ~ /^fail_(leaked_bytes|sysfs_left|majors_left)$/ &&
	 $0 !~ /flavour=cdev_init_noput/) && $(NF - 1) != 0 {
		p = $4; for (i = 5; i < NF - 2; i++) p = p "," $i
		printf "%s %s=%s; ", p, $3, $(NF - 1)
	}' "$samples")
[ "$warnings" = 0 ] || problems+="$warnings kernel warning(s) in serial.log; "
if [ -n "$problems" ]; then
	echo "cdevbench: fault phase of $variant: ${problems%; }" >&2
	exit 1
fi
