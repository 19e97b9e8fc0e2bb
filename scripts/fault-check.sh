#!/bin/bash
# Host-side check of one fault boot (the failure-path phase):
#   scripts/fault-check.sh BOOT_DIR
# Splits serial.log into the phase's groups by the markers that
# bench/faults/fault_phase.c writes to the kernel log ("cdevbench-fault:
# start PARAM", "... end PARAM", and cdev_faults' "... point K" before
# each injected failure) and adds, per group, rows of what the kernel said
# inside it (fail_warn_lines, fail_memory_errors, fail_crashed,
# fail_aborted, fail_first_point), and fail_warnings, the complaints of
# the whole boot, to BOOT_DIR/samples.csv; the first complaint of each
# group, with its failure point, goes to BOOT_DIR/complaints.tsv.  What
# a group's rows mean for its cleanup pattern is the engine's
# (compare/errpaths.c).  Then fails, naming each problem, when the kernel
# complained outside every group, when a group crashed or the phase gave
# up in it, or when a flavour that unwinds as its API asks did not come
# out clean (compare/fault_check.c); a boot that failed otherwise is
# boot.sh's to name.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

boot_dir=${1:?usage: fault-check.sh BOOT_DIR}
samples=$boot_dir/samples.csv
[ -f "$samples" ] || die "$samples missing: the fault phase wrote nothing"
compare=$BUILD_DIR/bin/compare
[ -x "$compare" ] || die "$compare missing: run 'make tools'"
# The report engine reads the rows (and refuses a boot that wrote none).
variant=$("$compare" --format variants "$samples")
boot=${boot_dir##*-}

# One line per group: param, then the counts of its window, whether the
# boot stopped in it (a start without an end, or a panic or oops in it),
# whether the phase gave up in it (fault_phase's "abort" marker), the
# failure point after which its first complaint came and that
# complaint; one "-" line for the complaints outside every group, but
# for slab debugging's reports after a group damaged memory (it reports
# a slab it took out of use at the slab's next use: the aftermath of a
# finding, charged to none).  cdev_faults' own "use after free" line
# counts as a memory error of its group.
windows=$(tr -d '\r' < "$boot_dir/serial.log" | awk -v complaint="$KERNEL_COMPLAINT" \
	-v crash="$KERNEL_CRASH" -v memory="$KERNEL_MEMORY_ERROR" '
	function text(line) {	# without its time stamp and the kernel'"'"'s taint flags
		sub(/^\[ *[0-9.]+\] /, "", line); sub(/ \((Not tainted|Tainted: [^)]*)\)/, "", line)
		gsub(/\t/, " ", line); return line
	}
	/cdevbench-fault: start / { group = $0; sub(/.*cdevbench-fault: start /, "", group)
		order[++n] = group; point = 0; next }
	/cdevbench-fault: (end|abort) / { ended[group] = 1; aborted[group] = $0 ~ / abort /
		group = "-"; point = 0; next }
	/cdevbench-fault: point / { point = $NF; next }
	$0 !~ complaint && $0 !~ memory { next }
	group == "-" && damaged && $0 ~ memory && $0 !~ crash { next }
	{
		if ($0 ~ crash) crashed[group] = 1
		else if ($0 ~ memory && $0 !~ /refcount_t/) { memory_errors[group]++; damaged = 1 }
		else warns[group]++
		if (!(group in first)) { first[group] = text($0); first_point[group] = point }
	}
	BEGIN { group = "-" }
	END {
		order[++n] = "-"; ended["-"] = 1
		for (i = 1; i <= n; i++) {
			g = order[i]
			printf "%s\t%d\t%d\t%d\t%d\t%d\t%s\n", g, warns[g], memory_errors[g],
				crashed[g] || !(g in ended), aborted[g], first_point[g], first[g]
		}
	}')

warnings=$(grep -cE "$KERNEL_COMPLAINT" "$boot_dir/serial.log" || true)
"$BUILD_DIR/bin/rows" one "$variant" "$boot" fail_warnings - "$warnings" count >> "$samples"
: > "$boot_dir/complaints.tsv"
outside=
while IFS=$'\t' read -r param warn memory crashed aborted point first; do
	if [ "$param" = - ]; then
		outside=$first
		continue
	fi
	for row in "fail_warn_lines $warn" "fail_memory_errors $memory" "fail_crashed $crashed" \
		"fail_aborted $aborted" "fail_first_point $point"; do
		"$BUILD_DIR/bin/rows" one "$variant" "$boot" "${row% *}" "$param" "${row#* }" count
	done
	[ -z "$first" ] || printf '%s\t%s\t%s\n' "$param" "$point" "$first" >> "$boot_dir/complaints.tsv"
done <<< "$windows" >> "$samples"

# The pass rule lives in the engine (compare/fault_check.c): one line per
# problem.
problems=$("$compare" --format fault-problems "$samples" | tr '\n' ';')
[ -z "$outside" ] || problems+="the kernel complained outside the groups: $outside;"
if [ -n "$problems" ]; then
	echo "cdevbench: fault phase of $variant: ${problems%;}" >&2
	exit 1
fi
