#!/bin/bash
# make compare: the report of one run.  RUN (default RESULTS_DIR/latest),
# BASELINE (default stock).  Writes RUN/report/: report.txt, report.md,
# compare.csv, series.csv and the plots (PNG and SVG), then prints
# report.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run=$(cd "$RUN" 2> /dev/null && pwd -P) || die "no run at $RUN: run 'make bench' or set RUN"
[ -f "$run/samples.csv" ] || die "$run has no samples.csv"
compare=$BUILD_DIR/bin/compare
[ -x "$compare" ] || die "$compare missing: run 'make tools'"
report=$run/report
mkdir -p "$report"
args=(--baseline "$BASELINE")

for fmt in text md csv series; do
	case $fmt in
	text) out=$report/report.txt ;;
	md) out=$report/report.md ;;
	csv) out=$report/compare.csv ;;
	series) out=$report/series.csv ;;
	esac
	"$compare" "${args[@]}" --format "$fmt" "$run/samples.csv" > "$out.tmp"
	mv "$out.tmp" "$out"
done

# Variants in the order of the run, baseline first.
mapfile -t variants < <(tail -n +2 "$run/samples.csv" | cut -d, -f1 | awk '!seen[$0]++' |
	awk -v b="$BASELINE" '$0 == b { print; next } { rest[++n] = $0 } END { for (i = 1; i <= n; i++) print rest[i] }')
# A top-level value of meta.json: arrays as words, booleans as true/false.
meta_value() { "$compare" --meta "$1" "$run/samples.csv"; }
title="$(basename "$run"), $(meta_value mode) mode"
# In icount mode a guest nanosecond is one instruction: say so on the axis.
ns_unit=
[ "$(meta_value mode)" != icount ] || ns_unit=' (icount: 1 ns = 1 instruction)'
# A column of series.csv by its name in the header.
series_col() {
	head -1 "$report/series.csv" | tr ',' '\n' | grep -nx -- "$1" | cut -d: -f1 | grep . ||
		die "series.csv has no column $1"
}
plots=()	# "file: what" or "skipped: why", for the report

# A data block as read from stdin, or a one-point block of NaN when the
# variant has no data: gnuplot merges empty blocks, which would shift every
# later variant onto the wrong title.
block_or_gap() {
	awk '{ print } END { if (!NR) print "NaN NaN NaN NaN" }'
}

# Blocks of "x median ci_low ci_high" from series.csv, one per variant,
# for metric $1 where column $2 is the x value and the awk condition $3
# selects the rows (series.csv: metric,variant,n,majors,minors,pos,threads,...).
series_blocks() {
	local v
	for v in "${variants[@]}"; do
		awk -F, -v m="$1" -v v="$v" -v xcol="$2" "NR > 1 && \$1 == m && \$2 == v && ($3) {
			print \$xcol, \$9, \$10, \$11 }" "$report/series.csv" | sort -n | block_or_gap
		printf '\n\n'
	done
}

# OUT.png/.svg from OUT.dat with plot/lines.gp, one panel per word of
# $panels: draw_lines OUT XLABEL YLABEL LOGX TITLE
draw_lines() {
	gnuplot -e "data='$report/$1.dat'; panels='${panels[*]}'; variants='${variants[*]}'; xlabel='$2'; ylabel='$3'; logx=$4; out='$report/$1'; title='$5'" \
		"$RIG_ROOT/plot/lines.gp"
}

# plot_lines OUT XLABEL LOGX XCOL "PANEL|METRIC|CONDITION"...
plot_lines() {
	local out=$1 xlabel=$2 logx=$3 xcol=$4 spec panels=() panel metric cond
	shift 4
	: > "$report/$out.dat"
	for spec in "$@"; do
		IFS='|' read -r panel metric cond <<< "$spec"
		awk -F, -v m="$metric" "NR > 1 && \$1 == m && ($cond) { found = 1 } END { exit !found }" \
			"$report/series.csv" || continue
		panels+=("$panel")
		series_blocks "$metric" "$xcol" "$cond" >> "$report/$out.dat"
	done
	if [ ${#panels[@]} -eq 0 ]; then
		plots+=("skipped $out: no ${*%%|*} in this run")
		return
	fi
	draw_lines "$out" "$xlabel" "ns per operation$ns_unit (median of boots, range)" "$logx" "$title"
	plots+=("$out.png/.svg: ${panels[*]} against ${xlabel%% (*}")
}

# plot_ratio OUT XLABEL LOGX XCOL "PANEL|METRIC|CONDITION"...: every
# variant's ratio to the baseline against XCOL, over the A/A band.
plot_ratio() {
	local out=$1 xlabel=$2 logx=$3 xcol=$4 spec panels=() panel metric cond v
	local ratio lo hi aa_lo aa_hi
	ratio=$(series_col ratio) lo=$(series_col ratio_low) hi=$(series_col ratio_high)
	aa_lo=$(series_col aa_low) aa_hi=$(series_col aa_high)
	shift 4
	: > "$report/$out.dat"
	for spec in "$@"; do
		IFS='|' read -r panel metric cond <<< "$spec"
		awk -F, -v m="$metric" -v r="$ratio" "NR > 1 && \$1 == m && \$r != \"\" && ($cond) { found = 1 }
			END { exit !found }" "$report/series.csv" || continue
		panels+=("$panel")
		{
			awk -F, -v m="$metric" -v xcol="$xcol" -v lo="$aa_lo" -v hi="$aa_hi" \
				"NR > 1 && \$1 == m && \$lo != \"\" && ($cond) && !seen[\$xcol]++ {
				print \$xcol, \$lo, \$hi }" "$report/series.csv" | sort -n | block_or_gap
			printf '\n\n'
			for v in "${variants[@]:1}"; do
				awk -F, -v m="$metric" -v v="$v" -v xcol="$xcol" -v r="$ratio" -v lo="$lo" -v hi="$hi" \
					"NR > 1 && \$1 == m && \$2 == v && \$r != \"\" && ($cond) {
					print \$xcol, \$r, \$lo, \$hi }" "$report/series.csv" | sort -n | block_or_gap
				printf '\n\n'
			done
		} >> "$report/$out.dat"
	done
	if [ ${#panels[@]} -eq 0 ]; then
		plots+=("skipped $out: no ${*%%|*} against the baseline in this run")
		return
	fi
	gnuplot -e "data='$report/$out.dat'; panels='${panels[*]}'; variants='${variants[*]:1}'; baseline='${variants[0]}'; xlabel='$xlabel'; logx=$logx; out='$report/$out'; title='$title'" \
		"$RIG_ROOT/plot/ratio.gp"
	plots+=("$out.png/.svg: ${panels[*]}, variant / ${variants[0]} against ${xlabel%% (*}, over the A/A band")
}

# CDF of every per-operation time of the registration benchmark at the
# largest N of the run.
plot_registration_cdf() {
	local n m v
	n=$(meta_value sweep_n | awk '{ print $NF }')
	for m in cdev_add_ns cdev_del_ns; do
		for v in "${variants[@]}"; do
			cat "$run/$v"/boot-*/raw/register-n"$n".csv 2> /dev/null |
				awk -F, -v m="$m" '$1 == m { print $5 }'
			printf '\n\n'
		done
	done > "$report/registration_cdf.dat"
	if ! grep -q . "$report/registration_cdf.dat"; then
		plots+=("skipped registration_cdf: no per-operation samples at N=$n")
		return
	fi
	gnuplot -e "data='$report/registration_cdf.dat'; metrics='cdev_add_ns cdev_del_ns'; variants='${variants[*]}'; out='$report/registration_cdf'; title='$title, N=$n'" \
		"$RIG_ROOT/plot/cdf.gp"
	plots+=("registration_cdf.png/.svg: distribution of every cdev_add/cdev_del at N=$n")
}

# Slab bytes per cdev that cdev_add() keeps, by allocation site, from
# cdev_mem.bt in every variant's first boot.
plot_memory_sites() {
	local v f
	for v in "${variants[@]}"; do
		f=$run/$v/boot-1/trace/cdev_mem.txt
		[ -f "$f" ] || { plots+=("skipped memory_sites: no cdev_mem.bt output for $v"); return; }
		awk -v v="$v" '/^@cdev_adds:/ { n = $2 }
			/^@site_live_bytes\[/ { s = $1; sub(/^@site_live_bytes\[/, "", s); sub(/\]:$/, "", s)
				sub(/\.(constprop|isra|part)\..*/, "", s); b[s] += $2 }
			END { for (s in b) printf "%s %s %.1f\n", v, s, b[s] / n }' "$f"
	done > "$report/memory_sites.txt"
	# a matrix: variants in rows, sites in columns
	awk -v order="${variants[*]}" '{ val[$1, $2] = $3; if (!($2 in seen)) { seen[$2]; site[++ns] = $2 } }
		END { nv = split(order, var, " "); printf "variant"; for (j = 1; j <= ns; j++) printf " %s", site[j]; print ""
			for (i = 1; i <= nv; i++) { printf "%s", var[i]
				for (j = 1; j <= ns; j++) printf " %s", ((var[i], site[j]) in val) ? val[var[i], site[j]] : 0; print "" } }' \
		"$report/memory_sites.txt" > "$report/memory_sites.dat"
	gnuplot -e "data='$report/memory_sites.dat'; ylabel='slab bytes per cdev (traced)'; out='$report/memory_sites'; title='$title, N=$(meta_value trace_n)'" \
		"$RIG_ROOT/plot/stacked.gp"
	plots+=("memory_sites.png/.svg: slab bytes per cdev kept by cdev_add(), stacked by allocation site (cdev_mem.bt)")
}

# Log2 histograms of the cdev_map lock hold time per phase, summed over
# every boot of each variant (cdev_map_lock.bt).
plot_lock_hold() {
	local phase v panels=()
	: > "$report/lock_hold.dat"
	for phase in add del lookup; do
		grep -qs "^@hold_ns\[$phase, \]" "$run"/*/boot-*/trace/cdev_map_lock.txt || continue
		panels+=("$phase")
		for v in "${variants[@]}"; do
			cat "$run/$v"/boot-*/trace/cdev_map_lock.txt 2> /dev/null |
			awk -v k="@hold_ns[$phase, ]:" '
				function bucket_ns(s,   m) { m = 1; if (s ~ /K$/) m = 1024; if (s ~ /M$/) m = 1048576
					if (s ~ /G$/) m = 1073741824; sub(/[KMG]$/, "", s); return s * m }
				index($0, k) == 1 { on = 1; next }
				on && /^\[/ { lo = $1; sub(/^\[/, "", lo); sub(/,$/, "", lo); c[bucket_ns(lo)] += $3; next }
				on { on = 0 }
				END { for (b in c) print b, c[b], c[b], c[b] }' | sort -n | block_or_gap
			printf '\n\n'
		done >> "$report/lock_hold.dat"
	done
	if [ ${#panels[@]} -eq 0 ]; then
		plots+=("skipped lock_hold: no cdev_map_lock.bt output in this run")
		return
	fi
	draw_lines lock_hold 'hold time, ns (log2 bucket)' acquisitions 1 "$title: chrdevs_lock hold per phase"
	plots+=("lock_hold.png/.svg: chrdevs_lock hold-time histograms per phase (cdev_map_lock.bt, all boots)")
}

# mem_bytes_per_cdev per variant at the largest N measured.
plot_memory() {
	local n v
	n=$(awk -F, 'NR > 1 && $1 == "mem_bytes_per_cdev" && $4 == "" && $5 == "" { print $3 }' \
		"$report/series.csv" | sort -n | tail -1)
	if [ -z "$n" ]; then
		plots+=("skipped memory: no mem_bytes_per_cdev in this run")
		return
	fi
	for v in "${variants[@]}"; do
		awk -F, -v v="$v" -v n="$n" 'NR > 1 && $1 == "mem_bytes_per_cdev" &&
			$2 == v && $3 == n && $4 == "" && $5 == "" { print v, $9, $10, $11 }' "$report/series.csv"
	done > "$report/memory.dat"
	gnuplot -e "data='$report/memory.dat'; ylabel='slab bytes per cdev'; out='$report/memory'; title='$title, N=$n'" \
		"$RIG_ROOT/plot/bars.gp"
	plots+=("memory.png/.svg: slab bytes per registered cdev at N=$n, from the slab counters")
}

plot_lines registration "N (cdevs registered)" 1 3 \
	'cdev_add_ns|cdev_add_ns|$4 == "" && $6 == ""' \
	'cdev_del_ns|cdev_del_ns|$4 == "" && $6 == ""' \
	'cdev_del_ns(spread_over_'"$(meta_value spread_majors)"'_majors)|cdev_del_ns|$4 != ""'
plot_lines open_lookup "N (cdevs registered)" 1 3 \
	'open_lookup_ns(head)|open_lookup_ns|$6 == "head"' \
	'open_lookup_ns(tail)|open_lookup_ns|$6 == "tail"'
plot_registration_cdf
plot_memory
plot_memory_sites
plot_lines open_cached "threads" 0 7 'open_cached_ns|open_cached_ns|$7 != ""'
# The same headline families as ratios to the baseline, where 1% shows.
plot_ratio registration_ratio "N (cdevs registered)" 1 3 \
	'cdev_add_ns|cdev_add_ns|$4 == "" && $6 == ""' \
	'cdev_del_ns|cdev_del_ns|$4 == "" && $6 == ""'
plot_ratio open_lookup_ratio "N (cdevs registered)" 1 3 \
	'open_lookup_ns(head)|open_lookup_ns|$6 == "head"' \
	'open_lookup_ns(tail)|open_lookup_ns|$6 == "tail"'
plot_ratio open_cached_ratio "threads" 0 7 'open_cached_ns|open_cached_ns|$7 != ""'
plot_ratio memory_ratio "N (cdevs registered)" 1 3 \
	'mem_bytes_per_cdev|mem_bytes_per_cdev|$4 == "" && $5 == ""'
plot_lock_hold

# The failure-path phase (fault kernels): one table per mode, variants in
# report order, from the run's fail_* rows.
failure_paths() {
	awk -F, -v order="${variants[*]}" '
		NR > 1 && $3 ~ /^fail_/ {
			p = $4; for (i = 5; i < NF - 2; i++) p = p "," $i
			gsub(/"/, "", p)
			if ($3 == "fail_warnings") { warn[$1] = $(NF - 1); next }
			flav = p; sub(/^flavour=/, "", flav); prob = "-"
			if (flav ~ /,prob=/) { prob = flav; sub(/.*,prob=/, "", prob); sub(/,prob=.*/, "", flav) }
			if ($3 == "fail_kset_refs_left") {
				kgroups[$1]++
				if ($(NF - 1) != 0)
					kchanged[$1] = kchanged[$1] (kchanged[$1] == "" ? "" : ", ") flav \
						(prob == "-" ? "" : " " prob "%") " " $(NF - 1)
				next
			}
			key = $1 SUBSEP flav SUBSEP prob
			if (!(key in seen)) { seen[key]; keys[++nk] = key }
			val[key, $3] = $(NF - 1)
		}
		END {
			if (!nk) exit
			nv = split(order, vs, " ")
			print "Failure paths (fault kernels: rig.config + patches/fault.config, one"
			print "boot per variant; kmemleak reports in <variant>/fault-1/kmemleak.txt;"
			print "leaks are kmemleak suspects allocated through the registration)"
			print ""
			print "  systematic: the k-th slab allocation of one registration fails, every k"
			printf "  %-15s %-16s %6s %7s %9s %11s %5s %6s\n", "variant", "flavour",
				"points", "handled", "tolerated", "leaked B(n)", "sysfs", "majors"
			for (v = 1; v <= nv; v++) for (k = 1; k <= nk; k++) {
				split(keys[k], f, SUBSEP)
				if (f[1] != vs[v] || f[3] != "-") continue
				printf "  %-15s %-16s %6s %7s %9s %11s %5s %6s\n", f[1], f[2],
					val[keys[k], "fail_points"], val[keys[k], "fail_handled"],
					val[keys[k], "fail_tolerated"],
					val[keys[k], "fail_leaked_bytes"] "(" val[keys[k], "fail_leaked_objects"] ")",
					val[keys[k], "fail_sysfs_left"], val[keys[k], "fail_majors_left"]
			}
			print ""
			print "  failslab sweep: 200 rounds per probability, only this task failing;"
			print "  a round whose driver structure failed to allocate (setup) registers"
			print "  nothing"
			printf "  %-15s %-16s %4s %5s %6s %5s %11s %5s %6s\n", "variant", "flavour",
				"prob", "regd", "failed", "setup", "leaked B(n)", "sysfs", "majors"
			for (v = 1; v <= nv; v++) for (k = 1; k <= nk; k++) {
				split(keys[k], f, SUBSEP)
				if (f[1] != vs[v] || f[3] == "-") continue
				printf "  %-15s %-16s %3s%% %5s %6s %5s %11s %5s %6s\n", f[1], f[2], f[3],
					val[keys[k], "fail_registered"], val[keys[k], "fail_handled"],
					val[keys[k], "fail_setup_failed"],
					val[keys[k], "fail_leaked_bytes"] "(" val[keys[k], "fail_leaked_objects"] ")",
					val[keys[k], "fail_sysfs_left"], val[keys[k], "fail_majors_left"]
			}
			print ""
			print "  references on the /sys/cdev and /sys/cdev/major ksets, after minus"
			print "  before each group (kernels with cdevs in sysfs; a change fails the run):"
			for (v = 1; v <= nv; v++) if (vs[v] in kgroups)
				printf "    %-15s %s\n", vs[v], ((vs[v] in kchanged) ? "changed: " kchanged[vs[v]] : \
					"unchanged in all " kgroups[vs[v]] " groups")
			print "  kernel warnings (WARN/BUG/oops) in the fault boots:"
			for (v = 1; v <= nv; v++) if (vs[v] in warn) printf "    %-15s %s\n", vs[v], warn[vs[v]]
			print "  cdev_init_noput frees the structure without kobject_put() after a"
			print "  failed cdev_add(); its leaks are the measured cost, every other"
			print "  flavour must leak nothing (the run fails otherwise)."
			print ""
		}' "$run/samples.csv"
}
if [ "$(meta_value faults)" = false ]; then
	printf 'Failure paths: skipped (FAULTS=0: no fault kernels were booted)\n\n'
else
	failure_paths
fi > "$report/failure_paths.txt"
if [ -s "$report/failure_paths.txt" ]; then
	cat "$report/failure_paths.txt" >> "$report/report.txt"
	{ printf '## Failure paths\n\n```\n'; cat "$report/failure_paths.txt"; printf '```\n\n'; } >> "$report/report.md"
fi
if [ -s "$report/memory_sites.txt" ]; then
	{
		printf 'Slab bytes per cdev kept by cdev_add(), by allocation site (cdev_mem.bt,\nfirst boot)\n'
		sort -k1,1 -k3,3nr "$report/memory_sites.txt" |
			awk '{ printf "  %-16s %-36s %8.1f\n", $1, $2, $3 }'
		echo
	} >> "$report/report.txt"
fi
{
	printf 'Plots (in %s)\n' "$report"
	printf '%s\n' "${plots[@]}" | fold -s -w 76 | sed 's/^/  /'
} >> "$report/report.txt"
{
	printf '## Plots\n\n'
	printf -- '- %s\n' "${plots[@]}"
} >> "$report/report.md"
cat "$report/report.txt"
log "report: $report/report.txt (also report.md, compare.csv, series.csv, plots)"
