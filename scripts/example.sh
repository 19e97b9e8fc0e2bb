#!/bin/bash
# make example RUN=<a QUICK run>: the example report of docs/example/,
# made again from RUN: its samples.csv, meta.json, each boot's
# selftest.tap (the report's correctness paragraph reads them), the plot
# list and two plots, then report.txt as build/bin/compare writes it from
# those files alone.  Run it when the report changes on purpose.
# scripts/example.sh check: the report made again from the committed
# files must be the committed report.txt, byte for byte, and the example
# measured by the tree's measuring code (test_17).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init
# where docs/ is: the rig's own, or a copy (test_17 checks a broken one)
docs_root=${RIG_EXAMPLE_ROOT:-$RIG_ROOT}
example=$docs_root/docs/example

# The report of docs/example/, as the run's own was written (relative
# paths, so that it reads the same in every clone).
example_report() {
	(cd "$docs_root" && "$BUILD_DIR/bin/compare" --format text --plots docs/example/plots.txt \
		docs/example/samples.csv)
}

if [ "${1:-}" = check ]; then
	[ -s "$example/report.txt" ] || die "no $example/report.txt, or an empty one: make example RUN=<a QUICK run>"
	# compare's exit status counts too: a report written whole and then
	# a failure is no pass
	made=$(mktemp)
	trap 'rm -f "$made"' EXIT
	example_report > "$made" || die "compare failed on docs/example/ (exit status $?)"
	diff -u "$example/report.txt" "$made" ||
		die "the report engine no longer writes docs/example/report.txt (diff above); if on purpose: make example RUN=<a QUICK run>"
	# measured by the measuring code of the tree, or it is not today's
	measured=$(jq -r .measuring_code_sha256 "$example/meta.json")
	[ "$measured" = "$(measuring_code_sha256)" ] ||
		die "docs/example/ was measured by other measuring code ($measured, the tree's $(measuring_code_sha256): ${MEASURING_CODE[*]}): make bench VARIANTS=\"stock cdev-hash\" QUICK=1 FAULTS=0 MODE=icount LABEL=example, then make example RUN=results/latest"
	exit 0
fi

run=$(cd "$RUN" 2> /dev/null && pwd -P) || die "no run at $RUN: give RUN=<a run folder>"
[ -f "$run/report/report.txt" ] || die "$run has no report: make compare RUN=$run"
[ "$(jq -r .quick "$run/meta.json")" = true ] || die "$run is not a QUICK run; the example is one"
rm -rf "$example"
mkdir -p "$example"
cp "$run/samples.csv" "$run/meta.json" "$example/"
(cd "$run" && find . -path './report' -prune -o -name selftest.tap -print0 |
	cpio -0 -pdm --quiet "$example")
for plot in registration open_lookup shared_sites; do
	[ ! -f "$run/report/$plot.png" ] || cp "$run/report/$plot.png" "$example/"
done
sed "s|$run/report/||" "$run/report/plots.txt" > "$example/plots.txt"
example_report > "$example/report.txt"
log "docs/example/ made from $run ($(basename "$run")): report.txt, $(ls "$example"/*.png | wc -l) plots"
