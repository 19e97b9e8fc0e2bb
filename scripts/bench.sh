#!/bin/bash
# make bench: build what is missing, boot every variant BOOTS times,
# interleaved (round 1: A B C, round 2: A B C, ...), and file the run under
# RESULTS_DIR/<run-id>/ as DESIGN.md describes.  A run becomes
# RESULTS_DIR/latest only when every boot of it succeeded, but for a
# walk's prefix (WALK=1), which is left out as not bisectable, and a
# boot whose kernel failed (a panic, a hang, its selftest), a finding
# the report gives (scripts/merge.sh; a baseline that did not boot
# fails the run).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

# Every setting has its value and has been checked (scripts/settings.def).
RESULTS_DIR=$(mkdir -p "$RESULTS_DIR" && cd "$RESULTS_DIR" && pwd)
# A full disk is refused before the kernels are built.
why=$(write_refusal "$RESULTS_DIR")
[ -z "$why" ] || die "RESULTS_DIR: $why"
read -r -a variants <<< "$VARIANTS"
read -r -a bases <<< "$BASES"
# A bisection (BISECT, docs/walk.md) is a walk of one series, on this
# host: it decides which step to boot from the steps it has booted.
if [ -n "$BISECT" ]; then
	[ "$WALK" = 1 ] || log "BISECT=$BISECT: a walk, WALK=1"
	WALK=1
	[ "$EXECUTOR" = local ] || die "BISECT boots a step after deciding the one before: EXECUTOR=local, not $EXECUTOR"
fi
# A walk (WALK=1, docs/walk.md) starts from the baseline, its step 0.
if [ "$WALK" = 1 ] && [[ " ${variants[*]} " != *" $BASELINE "* ]]; then
	log "WALK=1: the baseline $BASELINE, every walk's step 0, joins VARIANTS"
	variants=("$BASELINE" "${variants[@]}")
fi
# A prefix named beside its variant would be an arm of its own and a step
# of the variant's walk at once: a failure of it would be taken for a
# step's ("not bisectable") and hidden.
if [ "$WALK" = 1 ]; then
	for v in "${variants[@]}"; do
		[[ $v != *~* ]] || [[ " ${variants[*]} " != *" ${v%~*} "* ]] ||
			die "WALK=1 walks ${v%~*} through $v already: leave $v out of VARIANTS"
	done
fi
# Arms are what boots: the variants on each base, each base's after the
# previous one's, and the A/A arm right after its baseline so that both
# see the same stretch of host load.  On one base an arm is named after
# its variant; on several, <variant>:<base key>, and the baseline is the
# first base's.  With WALK=1 each variant's prefixes come right before
# it, <variant>~<k> (its first k patches): walks holds each walk by the
# arm of its whole series, walk_steps its steps' arms (1 to the whole),
# walk_from its step 0, the baseline's arm on its base.
arms=() walks=()
declare -A arm_variant=() arm_base=() arm_aa_of=() walk_steps=() walk_from=() walk_prefix=()
# the name of an arm of VARIANT on the current base
arm_name() { if [ ${#bases[@]} = 1 ]; then echo "$1"; else echo "$1:$BASE_KEY"; fi; }
add_arm() {	# add_arm NAME VARIANT
	local arm
	arm=$(arm_name "$1")
	# a step of two walks (VARIANTS="v~2 v") boots once
	[ -z "${arm_variant[$arm]:-}" ] || return 0
	arms+=("$arm")
	arm_variant[$arm]=$2
	arm_base[$arm]=$BASE
	[ "$1" = "$2" ] || arm_aa_of[$arm]=$(arm_name "$2")
}
add_walk() {	# add_walk VARIANT: its prefixes' arms, each before the next
	local whole k n step
	whole=$(arm_name "$1")
	[ -z "${walk_from[$whole]:-}" ] || return 0
	walks+=("$whole")
	walk_from[$whole]=$(arm_name "$BASELINE")
	n=$(series_patches "$1" | wc -l)
	for ((k = 1; k < n; k++)); do
		step=$(series_variant "$1")~$k
		add_arm "$step" "$step"
		walk_prefix[$(arm_name "$step")]=1
		walk_steps[$whole]+="$(arm_name "$step") "
	done
	walk_steps[$whole]+=$whole
}
for b in "${bases[@]}"; do
	use_base "$b"
	for v in "${variants[@]}"; do
		check_variant "$v"
		[ "$WALK" = 0 ] || [ "$v" = "$BASELINE" ] || add_walk "$v"
		add_arm "$v" "$v"
		[ "$AA" = 0 ] || [ "$v" != "$BASELINE" ] || add_arm "$BASELINE-aa" "$BASELINE"
	done
done
use_base "${bases[0]}"
[ -z "$BISECT" ] || [ ${#walks[@]} = 1 ] ||
	die "BISECT bisects one series on one base; VARIANTS and BASES make ${#walks[@]} walks: ${walks[*]:-none}"
# Without the baseline, a run has nothing of its own to compare: it is
# compared against another run's (AGAINST), or refused before it builds.
has_baseline=0
for v in "${variants[@]}"; do [ "$v" != "$BASELINE" ] || has_baseline=1; done
[ "$AA" = 0 ] || [ "$has_baseline" = 1 ] ||
	die "AA=1 needs the baseline '$BASELINE' in VARIANTS (${variants[*]})"
[ "$has_baseline" = 1 ] || [ -n "$AGAINST" ] ||
	die "VARIANTS (${variants[*]}) lacks the baseline '$BASELINE': add it, or compare against a saved run's (AGAINST=NAME)"
[ ${#bases[@]} = 1 ] || [ -z "$AGAINST" ] ||
	die "AGAINST compares a run of one base; this run has ${#bases[@]} (BASES=$BASES)"
mapfile -t flavours < <(run_flavours)
# A bisection outside icount decides on Welch's t, which needs the figure
# of every boot, a traced one's too.
if [ -n "$BISECT" ] && [ "$MODE" != icount ] && [ "$TRACED_BOOTS" -lt "$BOOTS" ]; then
	log "BISECT outside icount: every timing boot runs the traced pass (TRACED_BOOTS=$BOOTS)"
	TRACED_BOOTS=$BOOTS
fi

# A comparison that AGAINST asks for and that would be refused: before
# the first kernel is built.
if [ -n "$AGAINST" ]; then
	against=$(against_run)
	[ -f "$against/meta.json" ] || die "AGAINST=$AGAINST: $against has no meta.json"
	this=$(mktemp)
	meta_write_comparable "$this"
	why=$(join_refusal "$this" "$against/meta.json")
	rm -f "$this"
	[ -z "$why" ] || die "AGAINST=$AGAINST: this run could not be compared against it: $why"
fi

# Two runs on one results folder would race for 'latest': refuse the second.
exec 9> "$RESULTS_DIR/.lock"
flock -n 9 || die "another 'make bench' or a 'make resume' is using $RESULTS_DIR; wait for it or set RESULTS_DIR"

# Jobs in process groups of their own (set -m), the kernel builds' and the
# parallel boots': start one when fewer than $1 run; stop them all.
wait_for_slot() { while [ "$(jobs -pr | wc -l)" -ge "$1" ]; do wait -n || true; done; }
stop_job_groups() {
	local job
	for job in $(jobs -p); do kill -TERM -- "-$job" 2> /dev/null || true; done
}

log "step 1/3: kernels (${flavours[*]}) for ${variants[*]}${walks[*]:+ and the prefixes of their walks} on ${bases[*]}, up to $BUILD_JOBS at once"
minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
t_kernels=$(date +%s)
# The kernels in three waves, for what each starts from (scripts/kernel.sh,
# seed_objects): stock's timing kernels; then stock's other flavours,
# which start from those, beside every other arm's timing kernel, which
# starts from stock's; then the other arms' other flavours, from stock's
# of the flavour.  Within a wave up to BUILD_JOBS build at once: a kernel
# that starts from another's objects keeps about one core busy (its
# link), and an arm's two kernels, which share its tree, are never in one
# wave.  A walk's prefix whose kernel does not build is not bisectable
# there: left out of the run with kernel.sh's reason; any other kernel
# that does not build stops the run once the kernels building beside it
# are done.
declare -A not_bisectable=()
kernel_logs=$(mktemp -d)
waves=("" "" "")
for arm in "${arms[@]}"; do
	[ -z "${arm_aa_of[$arm]:-}" ] || continue	# its baseline's kernels
	for f in "${flavours[@]}"; do
		w=0
		[ "${arm_variant[$arm]}" = stock ] || w=1
		[ "$f" = timing ] || w=$((w + 1))
		waves[w]+="$arm $f"$'\n'
	done
done
# kernel_job ARM FLAVOUR: its kernel.sh, the output kept in kernel_logs,
# then "STATUS SECONDS" in its .status file
kernel_job() {
	local t rc=0
	t=$(date +%s)
	BASE=${arm_base[$1]} "$RIG_ROOT/scripts/kernel.sh" "${arm_variant[$1]}" "$2" 2>&1 |
		tee "$kernel_logs/$1.$2.log" >&2 || rc=$?
	echo "$rc $(( $(date +%s) - t ))" > "$kernel_logs/$1.$2.status"
}
# kernel_failed: the status of the first job started that stops the run,
# nothing while none does: a kernel that did not build, but a prefix's;
# any job that was interrupted or killed (a status above 128, or none
# written once its wave is over)
kernel_failed() {
	local arm f rc
	while read -r arm f; do
		[ -f "$kernel_logs/$arm.$f.status" ] || continue
		read -r rc _ < "$kernel_logs/$arm.$f.status"
		[ "$rc" = 0 ] || { [ -n "${walk_prefix[$arm]:-}" ] && [ "$rc" -lt 128 ]; } || { echo "$rc"; return; }
	done < "$kernel_logs/started"
}
# Each build in a process group of its own (set -m), so that Ctrl-C, which
# reaches make bench's group alone, stops them through this trap, and the
# run with them.
building_interrupted() {
	stop_job_groups
	wait
	rm -rf "$kernel_logs"
	log "interrupted while building kernels: no run was started"
	exit 130
}
trap building_interrupted INT TERM HUP
set -m
: > "$kernel_logs/started"
kernel_times=()
for wave in "${waves[@]}"; do
	while read -r arm f; do
		[ -n "$arm" ] && [ -z "${not_bisectable[$arm]:-}" ] || continue
		wait_for_slot "$BUILD_JOBS"
		[ -z "$(kernel_failed)" ] || break
		echo "$arm $f" >> "$kernel_logs/started"
		kernel_job "$arm" "$f" < /dev/null &
	done <<< "$wave"
	wait
	while read -r arm f; do
		grep -qxF -- "$arm $f" "$kernel_logs/started" || continue
		[ -f "$kernel_logs/$arm.$f.status" ] || echo "130 0" > "$kernel_logs/$arm.$f.status"
		read -r rc t < "$kernel_logs/$arm.$f.status"
		if [ "$rc" != 0 ] && [ "$rc" -lt 128 ] && [ -n "${walk_prefix[$arm]:-}" ]; then
			not_bisectable[$arm]=$(sed -n 's/^cdevbench: error: //p' "$kernel_logs/$arm.$f.log" | tail -1)
			: "${not_bisectable[$arm]:=scripts/kernel.sh ${arm_variant[$arm]} $f failed}"
			log "$arm: not bisectable, the walk goes on without it: ${not_bisectable[$arm]}"
		fi
		[ "$rc" != 0 ] || kernel_times+=("${arm_variant[$arm]}$([ "$f" = timing ] || echo "-$f")$([ ${#bases[@]} = 1 ] || echo ":$(base_key "${arm_base[$arm]}")") $(minutes "$t")")
	done <<< "$wave"
	rc=$(kernel_failed)
	[ -z "$rc" ] || { rm -rf "$kernel_logs"; exit "$rc"; }
done
set +m
trap - INT TERM HUP
rm -rf "$kernel_logs"
built=()
for arm in "${arms[@]}"; do [ -n "${not_bisectable[$arm]:-}" ] || built+=("$arm"); done
arms=("${built[@]}")
t_kernels=$(( $(date +%s) - t_kernels ))

run_id=$(date -u +%Y%m%dT%H%M%SZ)${LABEL:+-$LABEL}
run=$RESULTS_DIR/$run_id
[ ! -e "$run" ] || die "$run already exists"
mkdir -p "$run"
# However the run ends, its status says how: a run still "running" is one
# that is running.
echo running > "$run/status"
run_status=failed
set_status() { [ "$(cat "$run/status")" != running ] || echo "$run_status" > "$run/status"; }
trap 'set_status' EXIT
interrupted() {
	run_status=interrupted
	stop_job_groups
	[ -z "${slurm_job:-}" ] || scancel "$slurm_job" || true
	log "interrupted: $run is marked interrupted and does not become latest; make resume RUN=$run goes on from here"
	exit 130
}
trap interrupted INT TERM HUP

# The variant folders whose patches a variant's series, for each kernel
# line it has one for, name (its own, and those a ../ path reaches).
series_folders() {	# series_folders VARIANT
	local line p
	for line in $(variant_lines "$1"); do
		series_patches "$1" "$line"
	done | while read -r p; do
		p=${p#"$PATCHES_DIR"/}
		echo "${p%%/*}"
	done
}

# What ran, kept with the results: the shared config fragments, every
# variant's folder (stock's holds the known failures every variant
# inherits) and those its series take patches from, so that the run can
# be made again, or posted, from its own folder.
copy_patches() {
	local k v
	mkdir -p "$run/patches"
	cp "$PATCHES_DIR"/*.config "$run/patches/"
	for k in $(for v in stock "${variants[@]}"; do
			k=$(series_variant "$v")
			echo "$k"
			series_folders "$k"
		done | sort -u); do
		[ -d "$PATCHES_DIR/$k" ] && cp -r "$PATCHES_DIR/$k" "$run/patches/"
	done
	return 0
}

# A bisection boots a prefix when it needs it (bisect, below); the A/A
# arm has no boots of the phases booted once.  The plugin's calibration
# (scripts/lib/suite.sh, CALIBRATION_BENCHES) runs on the baseline's pmu
# boot, or the first arm's where the run has no baseline (AGAINST), and
# is recorded where a pmu boot will run it.
booted_arms=()
for v in "${arms[@]}"; do
	[ -n "$BISECT" ] && [ -n "${walk_prefix[$v]:-}" ] || booted_arms+=("$v")
done
once=()
for v in "${booted_arms[@]}"; do [ "${v%%:*}" = "$BASELINE-aa" ] || once+=("$v"); done
calibration_arm=${once[0]:-}
[ "$has_baseline" = 0 ] || calibration_arm=$(arm_name "$BASELINE")
calibrated=0 calibration_free=
if [ "$PMU" = 1 ]; then
	calibration_free=$(calibration_free_benches)
	pmu_runs=$("$BUILD_DIR/bin/bench_plan" runs pmu 1) ||
		die "bench_plan cannot list the runs of the pmu boots (above)"
	for b in "${CALIBRATION_BENCHES[@]}"; do
		if grep -q "^$b " <<< "$pmu_runs"; then calibrated=1; fi
	done
fi

# meta.json (scripts/meta.sh writes it): every base, every arm on its
# base, each walk (WALK=1) with its steps and, for a prefix whose kernel
# did not build, why (merge.sh adds those whose boots failed).
write_meta() {
	local v k base_config against_config steps reasons
	meta_plan_begin
	meta_plan_bases "${bases[@]}"
	use_base "${bases[0]}"
	base_config=$(kernel_obj_dir "$BASELINE")/.config
	for v in "${arms[@]}"; do
		use_base "${arm_base[$v]}"
		against_config=
		[ "${arm_base[$v]}" = "${bases[0]}" ] || against_config=$base_config
		meta_plan_arm "$v" "${arm_variant[$v]}" "${arm_aa_of[$v]:-}" "$against_config"
	done
	for v in "${walks[@]}"; do
		use_base "${arm_base[$v]}"
		read -r -a steps <<< "${walk_steps[$v]}"
		reasons=$(for k in "${steps[@]}"; do
			[ -z "${not_bisectable[$k]:-}" ] || jq -n --arg k "$k" --arg r "${not_bisectable[$k]}" '{($k): $r}'
		done | jq -s 'add // {}')
		meta_plan_walk "$v" "${arm_variant[$v]}" "${walk_from[$v]}" "$reasons" "${steps[@]}"
	done
	[ "$calibrated" = 0 ] || meta_plan_calibration "$calibration_arm" "${CALIBRATION_BENCHES[@]}"
	copy_patches
	meta_write_plan "$run" "$run_id" "${variants[*]}" "${bases[*]}"
}
write_meta

# The plan: one unit per boot of the phases scripts/phases.def has make
# bench boot, in the order they start: rounds of every arm, interleaved,
# of the phases in rounds (timing); then those booted once per arm
# (fault, then pmu and share), but for the A/A arm.  A unit's
# folder names everything it needs (scripts/unit.sh); RUN/units.list
# holds them in this order, which is also the order of the merged rows.
plan_unit() {	# plan_unit ARM PHASE DIR LABEL
	local dir=$run/$3 k=${arm_variant[$1]}
	use_base "${arm_base[$1]}"
	mkdir -p "$dir"
	write_suite_env "$1" "$k" "$dir" "$2"
	{
		echo "# cdevbench unit: scripts/unit.sh $dir"
		UNIT_RUN_ID=$run_id UNIT_ARM=$1 UNIT_KERNEL=$k UNIT_PHASE=$2 UNIT_LABEL=$4 \
			shell_assignments UNIT_RUN_ID UNIT_ARM UNIT_KERNEL UNIT_PHASE UNIT_LABEL
		shell_assignments BUILD_DIR PATCHES_DIR BOOT_TIMEOUT BASE
		settings_env run
		settings_env guest
	} > "$dir/unit.env"
	unit_expected_json "$run/meta.json" "$1" "$2" > "$dir/expected.json"
	echo "$3" >> "$run/units.list"
}
: > "$run/units.list"
mapfile -t phases < <(phase_names)
for ((b = 1; b <= BOOTS; b++)); do
	for p in "${phases[@]}"; do
		phase_load "$p"
		[ "$PHASE_BOOTS" = rounds ] && phase_planned || continue
		for v in "${booted_arms[@]}"; do plan_unit "$v" "$p" "$v/$PHASE_FOLDER-$b" "$PHASE_LABEL $b/$BOOTS"; done
	done
done
# The phases booted once: those one setting turns on together, arm by
# arm.  A plugin boot that would run nothing (BENCHES, or too few vCPUs
# for any run's threads) is not planned: bench_plan, as its guest asks it.
ons=()
declare -A on_phases=()
for p in "${phases[@]}"; do
	phase_load "$p"
	[ "$PHASE_BOOTS" = once ] && phase_planned || continue
	if [ "$PHASE_PLUGIN" != - ]; then
		runs=$("$BUILD_DIR/bin/bench_plan" runs "$p" "$PHASE_VCPUS") ||
			die "bench_plan cannot list the runs of the $p boots (above)"
		[ -n "$runs" ] || continue
	fi
	[ -n "${on_phases[$PHASE_ON]:-}" ] || ons+=("$PHASE_ON")
	on_phases[$PHASE_ON]+="$p "
done
for on in "${ons[@]}"; do
	for v in "${once[@]}"; do
		for p in ${on_phases[$on]}; do
			phase_load "$p"
			benches=$BENCHES
			if [ "$PHASE_PLUGIN" != - ] && [ "$v" != "$calibration_arm" ]; then
				benches=$calibration_free
				[ -n "$benches" ] && [ -n "$(BENCHES=$benches "$BUILD_DIR/bin/bench_plan" runs "$p" "$PHASE_VCPUS")" ] ||
					continue
			fi
			BENCHES=$benches plan_unit "$v" "$p" "$v/$PHASE_FOLDER-1" "$PHASE_LABEL"
		done
	done
done
mapfile -t units < "$run/units.list"

# BISECT="METRIC PARAM" (docs/walk.md): after the rounds of the baseline
# and the whole series, a binary search over the walk's prefixes for the
# first step whose figure the report's rule finds changed from step 0's,
# each step's timing boots planned and run when the search picks it.  A
# step whose boot fails is not bisectable and the search picks another
# (merge.sh files why); the steps it did not need have no units, and the
# walk's attribution passes over them as over any step without rows.
# meta.json's bisection has every step decided, and the answer.

# bisect_decide FROM ARM: "VERDICT CHANGED RATIO FLOOR MIN_EFFECT" of the
# figure (CHANGED: true where the report counts the verdict a change),
# ARM's finished timing boots against FROM's, as compare decides it; ARM
# "failed" where one of its boots failed, nothing where the run has no
# such comparison.
bisect_decide() {
	local tmp u finished=()
	while read -r u; do
		if [ "$(unit_state "$run/$u")" = finished ]; then
			finished+=("$run/$u")
		elif [ "${u%%/*}" = "$2" ]; then
			echo failed
			return
		fi
	done < <(awk -v a="$1/$timing_folder-" -v b="$2/$timing_folder-" 'index($0, a) == 1 || index($0, b) == 1' "$run/units.list")
	tmp=$(mktemp -d)
	cp "$run/meta.json" "$tmp/"
	join_rows "$tmp/samples.csv" "${finished[@]}"
	"$BUILD_DIR/bin/compare" --baseline "$1" --format json "$tmp/samples.csv" |
		jq -r --arg m "${BISECT% *}" --arg p "${BISECT#* }" --arg v "$2" '. as $r | .comparisons[] |
			select(.metric == $m and .param == $p and .variant == $v) |
			"\(.verdict) \(.changed) \(.ratio) \(.floor // 0) \($r.min_effect)"'
	rm -rf "$tmp"
}

# bisect_step LO HI: the step to boot between LO and HI, nearest their
# middle, neither tried nor left out of the walk; nothing when none is.
bisect_step() {
	local d k m=$(( ($1 + $2) / 2 ))
	for ((d = 0; d < $2 - $1; d++)); do
		for k in $((m - d)) $((m + d + 1)); do
			[ "$k" -gt "$1" ] && [ "$k" -lt "$2" ] && [[ " ${tried[*]} " != *" $k "* ]] &&
				[ -z "${not_bisectable[${steps[k]}]:-}" ] && { echo "$k"; return; }
		done
	done
}

# bisect_record STEP VERDICT RATIO: a decided step, for meta.json
bisect_record() {
	jq -n --argjson step "$1" --arg arm "${steps[$1]}" --arg verdict "$2" --argjson ratio "$3" '$ARGS.named'
}

bisect() {
	local whole=${walks[0]} from total total_changed verdict changed ratio floor min_effect per_step lo hi mid b
	local steps=() tried=() decided=() timing_folder
	phase_load timing
	timing_folder=$PHASE_FOLDER
	from=${walk_from[$whole]}
	read -r -a steps <<< "$from ${walk_steps[$whole]}"	# steps[k]: step k's arm
	lo=0 hi=$(( ${#steps[@]} - 1 ))
	read -r total total_changed ratio floor min_effect <<< "$(bisect_decide "$from" "$whole")"
	[ -n "$total" ] ||
		die "BISECT=$BISECT: the run has no comparison of ${BISECT% *} at '${BISECT#* }' ($whole against $from); give the param as compare.csv names it"
	[ "$total" != failed ] || die "BISECT: a boot of $whole, the whole series, failed: nothing to bisect"
	decided+=("$(bisect_record "$hi" "$total" "$ratio")")
	# One boot a step where the whole change is four times the gap rule's
	# threshold (min_effect, or step 0's boot-to-boot spread if wider): a
	# step's boot then lands within the threshold of step 0's boots or
	# beyond it by half the change or more.  Otherwise, and outside
	# icount (t+gap needs two boots a side), BOOTS a step.
	per_step=$BOOTS
	if [ "$MODE" = icount ] && awk -v r="$ratio" -v f="$floor" -v e="$min_effect" \
		'BEGIN { d = r - 1; if (d < 0) d = -d; exit !(d >= 4 * (f > e ? f : e)) }'; then
		per_step=1
	fi
	log "bisect: ${BISECT% *} at ${BISECT#* }, $whole against $from: $total (ratio $ratio)$($total_changed &&
		echo "; $per_step boot(s) a step" || echo ": nothing to bisect")"
	if $total_changed; then
		while mid=$(bisect_step "$lo" "$hi") && [ -n "$mid" ]; do
			tried+=("$mid")
			for ((b = 1; b <= per_step; b++)); do
				plan_unit "${steps[mid]}" timing "${steps[mid]}/$timing_folder-$b" "bisect: step $mid, boot $b/$per_step"
				"$RIG_ROOT/scripts/unit.sh" "$run/${steps[mid]}/$timing_folder-$b" || true
			done
			read -r verdict changed ratio _ <<< "$(bisect_decide "$from" "${steps[mid]}")"
			if [ "$verdict" = failed ]; then
				log "bisect: step $mid (${steps[mid]}) failed a boot: not bisectable, the search goes on without it"
				continue
			fi
			decided+=("$(bisect_record "$mid" "$verdict" "$ratio")")
			log "bisect: step $mid (${steps[mid]}) against $from: $verdict (ratio $ratio)"
			if $changed; then hi=$mid; else lo=$mid; fi
		done
		log "bisect: first changed at step $hi (${steps[hi]})$([ $((hi - lo)) = 1 ] ||
			echo " or before it, after step $lo: the steps between are not bisectable"); ${#tried[@]} of $(( ${#steps[@]} - 2 )) prefixes booted"
	fi
	meta_set_bisection "$run" "$(jq -n --arg metric "${BISECT% *}" --arg param "${BISECT#* }" \
		--arg walk "$whole" --argjson boots_per_step "$per_step" \
		--argjson steps "$(printf '%s\n' "${decided[@]}" | jq -s 'sort_by(.step)')" \
		--argjson first_changed "$($total_changed && echo "$hi" || echo null)" \
		--argjson last_same "$($total_changed && echo "$lo" || echo null)" '$ARGS.named')"
}

log "step 2/3: run $run_id: ${booted_arms[*]} x $BOOTS boots${BISECT:+, then the prefixes a bisection of $BISECT needs}, mode $MODE, N in {$SWEEP_N}${BENCHES:+, benchmarks $BENCHES only}, $REPS reps, ${#units[@]} units, executor $EXECUTOR"
t_boots=$(date +%s)
case $EXECUTOR in
local)
	[ "$BOOT_JOBS" = 1 ] || log "$BOOT_JOBS boots at once; $([ "$MODE" = icount ] && echo "the timed rows are those of boots one at a time, the traced pass's times may move" || echo "warning: outside icount, boots side by side move each other's numbers") (docs/running.md, \"Parallel boots\")"
	# Up to BOOT_JOBS at once, in start_order's order (merge.sh joins
	# the rows in the plan's order whatever the order they ran in).  Each
	# background unit is a process group of its own (set -m), so that an
	# interrupted run stops its QEMUs too.
	alone=()
	if [ "$BOOT_JOBS" = 1 ]; then
		for u in "${units[@]}"; do "$RIG_ROOT/scripts/unit.sh" "$run/$u" || true; done
	else
		set -m
		# in a substitution of its own, whose status is checked: a unit
		# whose phase cannot be read must stop the run, not empty it
		order=$(start_order "$run") || exit
		mapfile -t order <<< "$order"
		for line in "${order[@]}"; do
			u=${line#* }
			if [ "${line%% *}" = alone ]; then
				alone+=("$u")
				continue
			fi
			wait_for_slot "$BOOT_JOBS"
			"$RIG_ROOT/scripts/unit.sh" "$run/$u" &
		done
		wait || true
	fi
	# in the background too: with set -m a unit in the foreground would
	# hold the terminal, and Ctrl-C would stop it alone, not the run
	for u in "${alone[@]}"; do
		"$RIG_ROOT/scripts/unit.sh" "$run/$u" &
		wait $! || true
	done
	;;
slurm)
	# One array job, a task per unit (scripts/unit.sh RUN INDEX), polled
	# until none is left in the queue.  The nodes read the kernels, the
	# programs and the rig where this host has them: BUILD_DIR, the run
	# folder and the rig must be on a filesystem every node mounts at the
	# same path (docs/units.md).
	command -v sbatch > /dev/null || die "EXECUTOR=slurm: no sbatch here (Debian: slurm-client)"
	mkdir -p "$run/slurm"
	read -r -a slurm_args <<< "$SLURM_ARGS"
	slurm_job=$(sbatch --parsable --job-name="cdevbench-$run_id" --array="0-$((${#units[@]} - 1))" \
		--output="$run/slurm/%a.out" --time=$((BOOT_TIMEOUT / 60 + 10)) "${slurm_args[@]}" \
		--wrap="exec $(printf %q "$RIG_ROOT/scripts/unit.sh") $(printf %q "$run") \$SLURM_ARRAY_TASK_ID") ||
		die "EXECUTOR=slurm: sbatch refused the job"
	slurm_job=${slurm_job%%;*}
	echo "$slurm_job" > "$run/slurm/job"
	log "slurm job $slurm_job: ${#units[@]} tasks, sbatch ${SLURM_ARGS}; each task's output in $run/slurm/"
	slurm_progress() {
		log "slurm job $slurm_job: $(ls "$run"/*/*/seconds 2> /dev/null | wc -l) of ${#units[@]} units finished, $(squeue -h -t R -j "$slurm_job" 2> /dev/null | wc -l) running"
	}
	every_minute slurm_progress &
	progress=$!
	while [ -n "$(squeue -h -j "$slurm_job" 2> /dev/null)" ]; do sleep 5; done
	stop_progress "$progress"
	;;
esac
[ -z "$BISECT" ] || bisect
t_boots=$(( $(date +%s) - t_boots ))
mapfile -t units < "$run/units.list"

RUN=$run "$RIG_ROOT/scripts/merge.sh"

# The race check (RACE=1), after the boots: each base's variants and
# negative controls in a folder of the run (race-<base>/, as make
# race-check writes it), joined into race.json, each check under its
# arm's name, for the report.  A variant that fails it is a finding, not
# a failed run; a check that could not finish is named in race.json.
t_race=0
if [ "$RACE" = 1 ]; then
	t_race=$(date +%s)
	unfinished=() finished=()
	for b in "${bases[@]}"; do
		key=$(base_key "$b")
		log "race check on base $b: ${variants[*]} and the negative controls"
		rc=0
		env -u MODE -u VCPUS BASE="$b" VARIANTS="${variants[*]}" \
			"$RIG_ROOT/scripts/race-check.sh" "$run/race-$key" || rc=$?
		if [ -f "$run/race-$key/race.json" ]; then
			finished+=("$run/race-$key/race.json")
			[ $rc = 0 ] || log "race check on base $b: a finding (above); the report's correctness paragraph gives it"
		else
			unfinished+=("$key")
			log "race check on base $b did not finish (status $rc); see $run/race-$key/"
		fi
	done
	jq -n --argjson multi "$(( ${#bases[@]} > 1 ))" \
		--argjson unfinished "$(json_array "${unfinished[@]}")" \
		'[inputs] as $races | {mode: $races[0].mode, vcpus: $races[0].vcpus, rounds: $races[0].rounds,
		  checker_rounds: $races[0].checker_rounds,
		  unfinished: $unfinished, checks: [$races[] as $r | $r.checks[] |
			. + {base: $r.base, arm: (if $multi == 1 then .variant + ":" + $r.base_key else .variant end)}]}' \
		"${finished[@]}" < /dev/null > "$run/race.json.tmp"
	mv "$run/race.json.tmp" "$run/race.json"
	t_race=$(( $(date +%s) - t_race ))
fi

log "step 3/3: run complete: $run (latest); comparing"
t_report=$(date +%s)
if [ "$has_baseline" = 1 ]; then
	# BASELINE as given: compare.sh finds it on the first base
	AGAINST='' RUN=$run "$RIG_ROOT/scripts/compare.sh"
else
	log "no report of the run alone: it lacks the baseline '$BASELINE'"
fi
[ -z "$AGAINST" ] || RUN=$run "$RIG_ROOT/scripts/compare.sh"
t_report=$(( $(date +%s) - t_report ))

# Where the time went: the kernels, the boots (the wall time, and each
# phase's boots summed: run side by side they overlap), the report; then
# each kernel's build (its audit included).
declare -A phase_seconds=()
for u in "${units[@]}"; do
	phase=$(unit_phase "$run/$u")
	phase_seconds[$phase]=$(( ${phase_seconds[$phase]:-0} + $(cat "$run/$u/seconds") ))
done
spent="kernels $(minutes "$t_kernels"), boots $(minutes "$t_boots") ("
for phase in "${phases[@]}"; do
	[ -z "${phase_seconds[$phase]:-}" ] || spent+="$phase $(minutes "${phase_seconds[$phase]}"), "
done
spent="${spent%, })"
[ "$RACE" = 0 ] || spent+=", race check $(minutes "$t_race")"
spent+=", report $(minutes "$t_report")"
{
	echo "$spent"
	printf 'kernels: %s\n' "$(printf '%s, ' "${kernel_times[@]}" | sed 's/, $//')"
	echo "the boots' slowest steps, host seconds summed over boots (profile.tsv has every step):"
	awk -F'\t' 'NR > 1 && NR <= 11 { printf "  %7.1f s  %-6s %3d boot%s  %s\n", $4, $1, $3, $3 == 1 ? "" : "s", $2 }' \
		"$run/profile.tsv"
} > "$run/time.txt"
log "time: $spent"
