#!/bin/bash
# make compare: the report of one run.  RUN (default RESULTS_DIR/latest),
# BASELINE (default stock).  Writes RUN/report/: report.txt, report.md,
# compare.csv, series.csv and the plots (PNG and SVG), then prints
# report.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

RESULTS_DIR=${RESULTS_DIR:-$RIG_ROOT/results}
run=$(cd "${RUN:-$RESULTS_DIR/latest}" 2> /dev/null && pwd) ||
	die "no run at ${RUN:-$RESULTS_DIR/latest}: run 'make bench' or set RUN"
[ -f "$run/samples.csv" ] || die "$run has no samples.csv"
compare=$BUILD_DIR/bin/compare
[ -x "$compare" ] || die "$compare missing: run 'make tools'"
report=$run/report
mkdir -p "$report"
args=(--baseline "${BASELINE:-stock}")

for fmt in text md csv series; do
	out=$report/report.$fmt
	case $fmt in
	text) out=$report/report.txt ;;
	csv) out=$report/compare.csv ;;
	series) out=$report/series.csv ;;
	esac
	"$compare" "${args[@]}" --format "$fmt" "$run/samples.csv" > "$out.tmp"
	mv "$out.tmp" "$out"
done

# Variants in the order of the run, baseline first.
mapfile -t variants < <(tail -n +2 "$run/samples.csv" | cut -d, -f1 | awk '!seen[$0]++')
variants=("${BASELINE:-stock}" $(printf '%s\n' "${variants[@]}" | grep -vx "${BASELINE:-stock}"))
title="$(basename "$run"): $(grep -o '"mode": "[a-z]*"' "$run/meta.json" | cut -d'"' -f4) mode"

# Median and interval against N (single-major sweeps: param "n=<N>").
plot_vs_n() {
	local out=$1 m v have=()
	shift
	for m in "$@"; do
		grep -q "^$m,n=[0-9]*," "$report/series.csv" && have+=("$m")
	done
	[ ${#have[@]} -gt 0 ] || return 0
	for m in "${have[@]}"; do
		for v in "${variants[@]}"; do
			awk -F, -v m="$m" -v v="$v" '$1 == m && $3 == v && $2 ~ /^n=[0-9]+$/ {
				sub(/^n=/, "", $2); print $2, $5, $6, $7 }' "$report/series.csv" |
				sort -n
			printf '\n\n'
		done
	done > "$report/$out.dat"
	gnuplot -e "data='$report/$out.dat'; metrics='${have[*]}'; variants='${variants[*]}'; out='$report/$out'; title='$title'" \
		"$RIG_ROOT/plot/vs_n.gp"
}

# CDF of every per-operation time of the registration benchmark at the
# largest N of the run.
plot_registration_cdf() {
	local n m v
	n=$(grep -o '"sweep_n": \[[0-9,]*\]' "$run/meta.json" | grep -o '[0-9]*\]' | tr -d ']')
	for m in cdev_add_ns cdev_del_ns; do
		for v in "${variants[@]}"; do
			cat "$run/$v"/boot-*/raw/register-n"$n".csv 2> /dev/null |
				awk -F, -v m="$m" '$1 == m { print $5 }'
			printf '\n\n'
		done
	done > "$report/registration_cdf.dat"
	gnuplot -e "data='$report/registration_cdf.dat'; metrics='cdev_add_ns cdev_del_ns'; variants='${variants[*]}'; out='$report/registration_cdf'; title='$title, N=$n'" \
		"$RIG_ROOT/plot/cdf.gp"
}

plot_vs_n registration cdev_add_ns cdev_del_ns
plot_registration_cdf
cat "$report/report.txt"
log "report: $report/report.txt (also report.md, compare.csv, plots)"
