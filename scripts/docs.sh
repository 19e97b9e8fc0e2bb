#!/bin/bash
# make docs: the documentation's tables that declarations make, made again
# in place: docs/metrics.md's table of metrics (build/bin/bench_plan
# metrics-table, bench/benchmarks.def) between its markers, and
# docs/settings.md's table of settings (settings_table,
# scripts/settings.def).  tests/test_16_docs.sh and test_20_bad_input.sh
# fail while either differs from what this writes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

# replace_table FILE FIRST LAST TABLE: the lines of FILE from the one that
# starts FIRST to the one before the first after it that starts LAST,
# replaced by TABLE (with a blank line around it where LAST is "").
replace_table() {
	local file=$1 new
	new=$(awk -v first="$2" -v last="$3" -v table="$4" '
		!state && index($0, first) == 1 { state = 1; print; if (first ~ /^<!--/) print ""; print table; print ""; next }
		state == 1 && (last == "" ? $0 == "" : index($0, last) == 1) { state = 2; if (last == "") next }
		state != 1 { print }
		END { if (state != 2) exit 1 }' "$file") ||
		die "$file: no table from '$2' to '${3:-a blank line}'"
	[ "$new" = "$(cat "$file")" ] || { printf '%s\n' "$new" > "$file"; log "$file: its table made again"; }
}

replace_table "$RIG_ROOT/docs/metrics.md" '<!-- BEGIN metrics table:' '<!-- END metrics table -->' \
	"$("$BUILD_DIR/bin/bench_plan" metrics-table)"
replace_table "$RIG_ROOT/docs/settings.md" '| variable | default | meaning |' '' \
	"$(settings_table | sed 1d)"
