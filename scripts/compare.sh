#!/bin/bash
# make compare: the report of one run.  RUN (default RESULTS_DIR/latest),
# BASELINE (default stock).  build/bin/compare writes every part of
# RUN/report/ but the plots: compare.csv, compare.json, series.csv (the
# plots' data), then report.txt and report.md, which list the plots this
# script drew with gnuplot in between.  Prints report.txt.  With AGAINST,
# RUN's variants against another run's BASELINE, in RUN/against-NAME/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

# gnuplot, less the warning it gives where a panel's every value is the
# same (a ratio of exactly 1 in icount): it widens the axis to 1 -/+ 1%,
# as it should, and says so once per panel.
gnuplot() {
	{ command gnuplot "$@" 2>&1 1>&3 3>&- | sed '/^Warning: empty y range \[\(.*\):\1\], adjusting to/d' >&2; } 3>&1
}

run=$(cd "$RUN" 2> /dev/null && pwd -P) || die "no run at $RUN: run 'make bench' or set RUN"
[ -f "$run/samples.csv" ] || die "$run has no samples.csv"
compare=$BUILD_DIR/bin/compare
[ -x "$compare" ] || die "$compare missing: run 'make tools'"
title=$(basename "$run")
# A run of several bases names its arms <variant>:<base key>; its
# baseline is BASELINE on the first base.
if [[ $BASELINE != *:* ]] && [ -f "$run/meta.json" ] &&
	[ "$(jq '.bases // [] | length' "$run/meta.json")" -gt 1 ]; then
	BASELINE=$BASELINE:$(jq -r '.bases[0].key' "$run/meta.json")
fi

# Join RUN and the AGAINST run in RUN/against-NAME/, the other run's
# baseline renamed BASELINE@NAME: its rows and meta.json, which the
# report engine joins (compare --join, refusing an AGAINST run without
# BASELINE), and the variants' folders (their raw/ samples) as links;
# then report on that like a run.
if [ -n "$AGAINST" ]; then
	other=$(against_run)
	if against_saved; then name=$AGAINST; else name=$(basename "$other"); fi
	[ "$other" != "$run" ] || die "AGAINST=$AGAINST is RUN itself"
	for dir in "$run" "$other"; do
		[ -f "$dir/meta.json" ] || die "cannot compare: $dir has no meta.json"
	done
	why=$(join_refusal "$run/meta.json" "$other/meta.json")
	[ -z "$why" ] || die "cannot compare $run against $other: $why"
	alias=$BASELINE@$name
	joined=$run/against-$name
	rm -rf "$joined"
	mkdir -p "$joined"
	"$compare" --join "$name" --baseline "$BASELINE" "$run/samples.csv" "$other/samples.csv" ||
		{ rm -rf "$joined"; exit 1; }
	for dir in "$run"/*/; do
		[ ! -f "$dir/meta.json" ] || continue	# an earlier join
		dir=${dir%/}
		[ "$(basename "$dir")" = report ] || ln -s "$dir" "$joined/$(basename "$dir")"
	done
	ln -s "$other/$BASELINE" "$joined/$alias"
	title="$title against $alias"
	run=$joined
	BASELINE=$alias
fi
report=$run/report
mkdir -p "$report"
args=(--baseline "$BASELINE")

# compare_to FORMAT FILE [ARGS]: one output of the report engine, written
# whole or not at all.
compare_to() {
	"$compare" "${args[@]}" --format "$1" "${@:3}" "$run/samples.csv" > "$2.tmp"
	mv "$2.tmp" "$2"
}
compare_to csv "$report/compare.csv"
compare_to json "$report/compare.json"
compare_to series "$report/series.csv"

# Variants in the order of the run, baseline first.
mapfile -t variants < <("$compare" "${args[@]}" --format variants "$run/samples.csv")
# A top-level value of meta.json: arrays as words, booleans as true/false.
meta_value() { "$compare" --meta "$1" "$run/samples.csv"; }
run_title=$title
title="$title, $(meta_value mode) mode"
# Whether the timing boots ran their threads in turn, so that none waits
# for another and a figure against threads shows no contention: in icount
# (one TCG thread runs every vCPU in turn) or on a single vCPU; empty
# where the threads ran at once.
in_turn=
if [ "$(meta_value mode)" = icount ]; then
	in_turn='threads run in turn'
elif [ "$(meta_value vcpus)" = 1 ]; then
	in_turn='on 1 vCPU threads run in turn'
fi
# The title of a plot of one kind of boot (plot/plots.def's boots column):
# the run's timing boots in its mode; the plugin's boots in theirs.  A
# plot of timing boots against threads that ran in turn says so.
boots_title() {	# boots_title timing|pmu|share [XCOLUMN]
	case $1 in
	pmu) echo "$run_title, icount, TCG plugin" ;;
	share) echo "$run_title, tcg thread=$(meta_value pmu_interleave), $(meta_value pmu_vcpus) vCPUs, TCG plugin" ;;
	*)
		if [ "${2:-}" = threads ] && [ -n "$in_turn" ]; then
			echo "$title: $in_turn, none contends"
		else
			echo "$title"
		fi
		;;
	esac
}
# In icount mode a guest nanosecond is one instruction: say so on the axis.
ns_unit=
[ "$(meta_value mode)" != icount ] || ns_unit=' (icount: 1 ns = 1 instruction)'
# series_query WHERE COLUMNS: the named columns of the series rows that
# WHERE picks (col=value or col!=value, comma-separated), from compare.
series_query() {
	"$compare" "${args[@]}" --format series --where "$1" --select "$2" "$run/samples.csv"
}
plots=()	# "file: what" or "skipped: why", for the report

# A data block as read from stdin, or a one-point block of NaN when the
# variant has no data: gnuplot merges empty blocks, which would shift every
# later variant onto the wrong title.
gap_block='NaN NaN NaN NaN'
block_or_gap() {
	local block
	block=$(cat)
	printf '%s\n' "${block:-$gap_block}"
}

# Blocks of "x median low high" from series.csv, one per variant, for
# metric $1 where column $2 is the x value and the filter $3 selects the
# rows.
series_blocks() {
	local v
	for v in "${variants[@]}"; do
		series_query "metric=$1,variant=$v,$3" "$2,median,low,high" | sort -n | block_or_gap
		printf '\n\n'
	done
}

# Whether blocks of "x y y_low y_high ..." (read from stdin) suit a log y
# axis: 1, or 0 where a y or y_low is not positive (no LLC misses, say).
log_y() {
	awk 'NF >= 4 && $2 != "NaN" && ($2 <= 0 || $3 <= 0) { z = 1 } END { print !z }'
}

# The y axis's unit of a metric's panels: ns are per operation.
axis_unit() {	# axis_unit METRIC
	local unit
	unit=$(series_query "metric=$1" unit | sort -u)
	[ "$unit" != ns ] || unit="ns per operation$ns_unit"
	echo "$unit"
}

# plot_lines OUT XLABEL LOGX XCOLUMN "PANEL|METRIC|CONDITION"...: every
# variant's median and range of boots against XCOLUMN (plot/lines.gp), a
# panel per spec.
plot_lines() {
	local out=$1 xlabel=$2 logx=$3 xcol=$4 boots=$5 spec panels=() logy=() panel metric cond unit blocks
	local no_rows notes=()
	shift 5
	: > "$report/$out.dat"
	for spec in "$@"; do
		IFS='|' read -r panel metric cond <<< "$spec"
		[ -n "$(series_query "metric=$metric,$cond" metric)" ] || continue
		panels+=("$panel")
		blocks=$(series_blocks "$metric" "$xcol" "$cond")
		printf '%s\n\n\n' "$blocks" >> "$report/$out.dat"
		# a variant without a line says so under the panel's title (an
		# arm whose lookups take no map lock has no lock_hold_hist there)
		no_rows=$(awk -v RS= -v vs="${variants[*]}" -v gap="$gap_block" 'BEGIN { split(vs, v, " ") }
			{ i++; if ($0 == gap) printf "%s%s", n++ ? ", " : "", v[i] }' <<< "$blocks")
		notes+=("\"${no_rows:+no rows: $no_rows}\"")
		# a log y axis unless a panel has zeros or counts a few lines
		# that a variant may drop one of (share)
		logy+=("$( [ "$boots" != share ] && log_y <<< "$blocks" || echo 0)")
	done
	if [ ${#panels[@]} -eq 0 ]; then
		plots+=("skipped $out: no ${*%%|*} in this run")
		return
	fi
	# the label in two lines, as long as the panel is high
	unit=$(axis_unit "$metric")
	gnuplot -e "data='$report/$out.dat'; panels='${panels[*]}'; array notes = [$(IFS=,; echo "${notes[*]}")]; variants='${variants[*]}'; xlabel='$xlabel'; ylabel=\"$unit\\n(median of boots, range)\"; logx=$logx; logy='${logy[*]}'; out='$report/$out'; title='$(boots_title "$boots" "$xcol")'" \
		"$RIG_ROOT/plot/lines.gp"
	plots+=("$out.png/.svg: ${panels[*]} against ${xlabel%% (*}")
}

# plot_ratio OUT XLABEL LOGX XCOLUMN "PANEL|METRIC|CONDITION"...: every
# variant's ratio to the baseline against XCOLUMN, over the A/A band.
plot_ratio() {
	local out=$1 xlabel=$2 logx=$3 xcol=$4 boots=$5 spec panels=() panel metric cond v
	shift 5
	: > "$report/$out.dat"
	for spec in "$@"; do
		IFS='|' read -r panel metric cond <<< "$spec"
		[ -n "$(series_query "metric=$metric,ratio!=,$cond" metric)" ] || continue
		panels+=("$panel")
		{
			# every variant's row carries the same band: one per x
			series_query "metric=$metric,aa_low!=,$cond" "$xcol,aa_low,aa_high" |
				sort -nu | block_or_gap
			printf '\n\n'
			for v in "${variants[@]:1}"; do
				series_query "metric=$metric,variant=$v,ratio!=,$cond" \
					"$xcol,ratio,ratio_low,ratio_high" | sort -n | block_or_gap
				printf '\n\n'
			done
		} >> "$report/$out.dat"
	done
	if [ ${#panels[@]} -eq 0 ]; then
		plots+=("skipped $out: no ${*%%|*} against the baseline in this run")
		return
	fi
	gnuplot -e "data='$report/$out.dat'; panels='${panels[*]}'; variants='${variants[*]:1}'; baseline='${variants[0]}'; xlabel='$xlabel'; logx=$logx; out='$report/$out'; title='$(boots_title "$boots" "$xcol")'" \
		"$RIG_ROOT/plot/ratio.gp"
	plots+=("$out.png/.svg: ${panels[*]}, variant / ${variants[0]} against ${xlabel%% (*}, over the A/A band")
}

# The run's walks (make bench WALK=1, meta.json's walks), one a line:
# the arms of steps 0 (the baseline) to the whole series.
walks=()
[ ! -f "$run/meta.json" ] ||
	mapfile -t walks < <(jq -r '.walks[]? | [.from, .steps[].arm] | join(" ")' "$run/meta.json")
walk_plots_skipped=()

# plot_walk OUT XLABEL LOGX XCOLUMN BOOTS "PANEL|METRIC|CONDITION"...:
# each walk's staircase (plot/walk.gp), a row of panels per walk: the
# metric's median and range of boots at every step, a line per value of
# XCOLUMN over the A/A band around its step 0 (LOGX is not used: the x
# axis is the step).
plot_walk() {
	local out=$1 xlabel=$2 xcol=$4 boots=$5 spec panels=() logy=() rows=() panel metric cond
	local walk values i blocks
	shift 5
	if [ ${#walks[@]} = 0 ]; then
		walk_plots_skipped+=("$out")
		return
	fi
	for spec in "$@"; do
		IFS='|' read -r panel metric cond <<< "$spec"
		rows+=("$(series_query "metric=$metric,$cond" "variant,$xcol,median,low,high,aa_low,aa_high")")
		if [ -z "${rows[-1]}" ]; then
			unset 'rows[-1]'
			continue
		fi
		panels+=("$panel")
		logy+=("$(cut -d' ' -f2- <<< "${rows[-1]}" | log_y)")
	done
	if [ ${#panels[@]} -eq 0 ]; then
		plots+=("skipped $out: no ${*%%|*} in this run")
		return
	fi
	# a line per value of the param in any panel, so that every panel
	# has as many blocks
	values=$(printf '%s\n' "${rows[@]}" | awk '{ print $2 }' | sort -nu | paste -sd' ')
	: > "$report/$out.dat"
	for walk in "${walks[@]}"; do
		for i in "${!panels[@]}"; do
			# per value: "step median low high band_low band_high" at
			# each step measured; the band is the whole series' A/A band
			# around step 0's median
			blocks=$(awk -v arms="$walk" -v values="$values" '
				BEGIN { na = split(arms, a, " "); nv = split(values, xs, " ")
					for (i = 1; i <= na; i++) step[a[i]] = i - 1 }
				$1 in step { k = $1 SUBSEP $2; m[k] = $3; lo[k] = $4; hi[k] = $5; al[k] = $6; ah[k] = $7 }
				END {
					for (j = 1; j <= nv; j++) {
						b = a[1] SUBSEP xs[j]; w = a[na] SUBSEP xs[j]; bl = bh = "NaN"; n = 0
						if ((b in m) && (w in al) && al[w] != "") { bl = m[b] * al[w]; bh = m[b] * ah[w] }
						for (i = 1; i <= na; i++)
							if ((a[i] SUBSEP xs[j]) in m) {
								k = a[i] SUBSEP xs[j]
								print i - 1, m[k], lo[k], hi[k], bl, bh; n++
							}
						if (!n) print "NaN NaN NaN NaN NaN NaN"
						printf "\n\n"
					}
				}' <<< "${rows[i]}")
			printf '%s\n\n\n' "$blocks" >> "$report/$out.dat"
		done
	done
	gnuplot -e "data='$report/$out.dat'; panels='${panels[*]}'; walks='$(for walk in "${walks[@]}"; do echo "${walk##* }"; done | paste -sd' ')'; steps='$(for walk in "${walks[@]}"; do wc -w <<< "${walk#* }"; done | paste -sd' ')'; froms='$(for walk in "${walks[@]}"; do echo "${walk%% *}"; done | paste -sd' ')'; values='$values'; key='$xlabel'; ylabel=\"$(axis_unit "$metric")\n(median of boots, range)\"; logy='${logy[*]}'; out='$report/$out'; title='$(boots_title "$boots" "$xcol")'" \
		"$RIG_ROOT/plot/walk.gp"
	plots+=("$out.png/.svg: ${panels[*]} at each step of the walk, over the A/A band")
}

# CDF of every per-operation time of the registration benchmark at the
# largest N of the run (one major).
plot_registration_cdf() {
	local n m v
	n=$(meta_value sweep_n)
	n=${n##* }
	for m in cdev_add_ns cdev_del_ns; do
		for v in "${variants[@]}"; do
			# a variant without these samples gets an empty block
			"$compare" "${args[@]}" --format ops --where "metric=$m,variant=$v,n=$n,majors=" \
				--select ns "$run/samples.csv"
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
# Which cache lines a cached open shares at 2 threads (the plugin's
# sharing boot): a bar per variant, and one per variant of its threads
# on a node each (VARIANT/nodes=many), stacked by the line's site (its
# symbol, or the function that wrote it), so that a line a variant
# stops sharing (cdev_lock+0) is a segment that goes, not a count
# that drops by one.
plot_shared_sites() {
	local where=metric=shared_line_per_op,bench=open_cached,threads=2,sched=lockstep
	if [ -z "$(series_query "$where" metric)" ]; then
		plots+=("skipped shared_sites: no shared_line_per_op in this run")
		return
	fi
	# nodes last: empty for one node
	series_query "$where" variant,site,median,nodes | awk -v order="${variants[*]}" '
		{ bar = $1 ($4 == "" ? "" : "/nodes=" $4); b[bar]; s[$2]; x[bar, $2] = $3 }
		END {
			n = split(order, vs, " ")
			for (j = 1; j <= n; j++) {
				bars[++nb] = vs[j]
				if ((vs[j] "/nodes=many") in b) bars[++nb] = vs[j] "/nodes=many"
			}
			printf "variant"
			# sites by name, so that a site keeps its colour between runs
			for (site in s) {
				for (i = ++ns; i > 1 && sites[i - 1] > site; i--) sites[i] = sites[i - 1]
				sites[i] = site
			}
			for (i = 1; i <= ns; i++) printf " %s", sites[i]
			print ""
			for (j = 1; j <= nb; j++) {
				printf "%s", bars[j]
				for (i = 1; i <= ns; i++) printf " %s", ((bars[j], sites[i]) in x) ? x[bars[j], sites[i]] : 0
				print ""
			}
		}' > "$report/shared_sites.dat"
	gnuplot -e "data='$report/shared_sites.dat'; ylabel='lines shared per cached open, 2 threads'; keytitle='line (site)'; fill='colour'; out='$report/shared_sites'; title='$(boots_title share)'" \
		"$RIG_ROOT/plot/stacked.gp"
	plots+=("shared_sites.png/.svg: the cache lines a cached open shares at 2 threads, on one node and on a node each (VARIANT/nodes=many), stacked by site (TCG plugin)")
}

plot_memory_sites() {
	if ! "$compare" "${args[@]}" --format sites "$run/samples.csv" > "$report/memory_sites.dat" 2> /dev/null; then
		plots+=("skipped memory_sites: no cdev_mem.bt output for every variant")
		return
	fi
	gnuplot -e "data='$report/memory_sites.dat'; ylabel='slab bytes per cdev (traced)'; out='$report/memory_sites'; title='$title, N=$(meta_value trace_n)'" \
		"$RIG_ROOT/plot/stacked.gp"
	plots+=("memory_sites.png/.svg: slab bytes per cdev kept by cdev_add(), stacked by allocation site (cdev_mem.bt)")
}

# mem_bytes_per_cdev per variant at the largest N measured.
plot_memory() {
	local n v rows=majors=,minors=
	n=$(series_query "metric=mem_bytes_per_cdev,$rows" n | sort -n | tail -1)
	if [ -z "$n" ]; then
		plots+=("skipped memory: no mem_bytes_per_cdev in this run")
		return
	fi
	for v in "${variants[@]}"; do
		series_query "metric=mem_bytes_per_cdev,variant=$v,n=$n,$rows" variant,median,low,high
	done > "$report/memory.dat"
	gnuplot -e "data='$report/memory.dat'; ylabel='slab bytes per cdev'; out='$report/memory'; title='$title, N=$n'" \
		"$RIG_ROOT/plot/bars.gp"
	plots+=("memory.png/.svg: slab bytes per registered cdev at N=$n, from the slab counters")
}

# The plots as plot/plots.def declares them: consecutive lines of one
# lines or ratio plot are its panels.
draw_declared() {
	local kind plot x logx xlabel panel metric rows boots key last='' specs=() plot_args=()
	flush() {
		[ -n "$last" ] || return 0
		"plot_$1" "${plot_args[@]}" "${specs[@]}"
		specs=()
	}
	while IFS='|' read -r kind plot x logx xlabel panel metric rows boots; do
		key="$kind|$plot"
		if [ "$key" != "$last" ]; then
			flush "${last%%|*}"
			last=$key
			plot_args=("$plot" "$xlabel" "$logx" "$x" "${boots:-timing}")
		fi
		case $kind in
		lines | ratio | walk) specs+=("$panel|$metric|$rows") ;;
		cdf) plot_registration_cdf; last= ;;
		bars) plot_memory; last= ;;
		sites) plot_memory_sites; last= ;;
		shared) plot_shared_sites; last= ;;
		*) die "plot/plots.def: unknown kind '$kind' of $plot" ;;
		esac
	done < <(sed -n 's/ *| */|/g; /^[a-z]/p' "$RIG_ROOT/plot/plots.def")
	flush "${last%%|*}"
}
draw_declared
[ ${#walk_plots_skipped[@]} = 0 ] ||
	plots+=("skipped ${walk_plots_skipped[*]}: no walk in this run (WALK=1)")

printf '%s\n' "${plots[@]}" > "$report/plots.txt"
compare_to text "$report/report.txt" --plots "$report/plots.txt"
compare_to md "$report/report.md" --plots "$report/plots.txt"
cat "$report/report.txt"
log "report: $report/report.txt (also report.md, compare.csv, compare.json, series.csv, plots)"
