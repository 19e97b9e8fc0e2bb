#!/bin/bash
# make merge RUN=...: join a run's units, in the plan's order
# (RUN/units.list), into RUN/samples.csv, and make the run complete and
# RESULTS_DIR/latest, or failed, saying why.  make bench merges after its
# executor; run by hand it merges units that another executor ran.
# A unit is refused when what it ran with (its ran.json) is not what the
# run's meta.json says: another run, rig commit or measuring code, mode,
# or kernel or module build.  Rows: a unit's when it succeeded, and a
# failed one's where its phase keeps them (scripts/phases.def: the fault
# boot's), so that the report shows what broke.
# A walk's prefix (WALK=1) with a failed unit is not bisectable there:
# none of its rows are joined, meta.json's walk says why, and the run
# does not fail for it (docs/walk.md).
# A unit whose kernel failed (its failure.json, scripts/unit.sh) is a
# finding, not a failed run: meta.json's failures records it by arm,
# an arm whose every timing boot failed so "did not boot", and the run
# is complete for the others, its report made, unless the baseline did
# not boot (nothing to compare against).  A unit that failed for the
# rig (no failure.json: QEMU killed, a host step) leaves the run
# incomplete, as one that did not finish does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

run=$(cd "$RUN" 2> /dev/null && pwd -P) || die "no run at $RUN"
for f in units.list meta.json; do [ -f "$run/$f" ] || die "$run has no $f: not a run planned by make bench"; done
mapfile -t units < "$run/units.list"
expected=$(mktemp)
trap 'rm -f "$expected"' EXIT

refused=() failed=() missing=() corrupt=()
declare -A phase=() state=() failed_rows=()
for u in "${units[@]}"; do
	dir=$run/$u
	phase[$u]=$(unit_phase "$dir")
	failed_rows[$u]=$(phase_load "${phase[$u]}" && echo "$PHASE_FAILED")
	state[$u]=$(unit_state "$dir")
	if [ "${state[$u]}" = missing ]; then
		missing+=("$u")
		continue
	fi
	unit_expected_json "$run/meta.json" "${u%%/*}" "${phase[$u]}" > "$expected"
	why=$(unit_refusal "$dir" "$expected" "the run (meta.json)")
	if [ -n "$why" ]; then
		refused+=("$u: $why")
	elif [ "${state[$u]}" = failed ]; then
		failed+=("$u")
	elif [ "${state[$u]}" = corrupt ]; then
		corrupt+=("$u: $(unit_rows_refusal "$dir")")
	fi
done

# Why a unit failed, for a reader: the selftest's failed cases, or how
# the boot ended.
unit_failure() {	# unit_failure UNIT
	local dir=$run/$1 cases status
	cases=$(sed -n 's/^not ok [0-9]* \([^ ]*\).*/\1/p' "$dir/selftest.tap" 2> /dev/null | paste -sd' ')
	status=$(cat "$dir/failed")
	if [ -n "$cases" ]; then
		echo "its selftest failed ($cases) in $1"
	elif [ -f "$dir/qemu-signal" ]; then
		echo "$1 stopped: its QEMU was killed by signal $(cat "$dir/qemu-signal") from outside the rig (serial.log)"
	elif [ -f "$dir/failure.json" ]; then
		jq -r --arg u "$1" '"its kernel failed in \($u), \(.kind)\(if .function then " in \(.function)" else "" end): \(.line)"' \
			"$dir/failure.json"
	else
		case $status in
		124) echo "$1 hung (no power-off within BOOT_TIMEOUT)" ;;
		125) echo "$1 ended in a panic, oops or warning, or without a status (serial.log)" ;;
		*) echo "$1 failed with status $status (serial.log)" ;;
		esac
	fi
}

# The walks' prefixes: every step's arm but the last (the whole series).
declare -A prefix=() not_bisectable=()
while read -r arm; do prefix[$arm]=1; done < <(jq -r '.walks[]?.steps[:-1][].arm' "$run/meta.json")
for i in "${!failed[@]}"; do
	arm=${failed[i]%%/*}
	[ -n "${prefix[$arm]:-}" ] || continue
	[ -n "${not_bisectable[$arm]:-}" ] || not_bisectable[$arm]=$(unit_failure "${failed[i]}")
	unset 'failed[i]'
done
failed=("${failed[@]}")

fail_run() {
	echo failed > "$run/status"
	die "run $(basename "$run"): $*; 'latest' not updated; its good units are kept: make resume RUN=$run runs the others again"
}
why=$(write_refusal "$run")
[ -z "$why" ] || fail_run "$why"
[ ${#refused[@]} = 0 ] || fail_run "units refused, they did not run what the run planned: $(semicolons "${refused[@]}")"
[ ${#missing[@]} = 0 ] || fail_run "units that did not run or did not finish (no ran.json or seconds): ${missing[*]}"
[ ${#corrupt[@]} = 0 ] || fail_run "units whose rows are not a samples.csv (cut short or written over): $(semicolons "${corrupt[@]}")"

joined=()
for u in "${units[@]}"; do
	[ -z "${not_bisectable[${u%%/*}]:-}" ] || continue
	if [ "${state[$u]}" = finished ] || [ "${failed_rows[$u]}" = kept ]; then
		joined+=("$run/$u")
	fi
done
join_rows "$run/samples.csv.tmp" "${joined[@]}"
mv "$run/samples.csv.tmp" "$run/samples.csv"

# The run's profile: every boot's steps summed per phase and step, the
# most expensive first (profile.tsv; the report names the top five).
{
	printf 'phase\tstep\tboots\tseconds\n'
	for u in "${units[@]}"; do
		[ ! -s "$run/$u/steps.tsv" ] || unit_profile "$run/$u" | sed "s|^|$u\t${phase[$u]}\t|"
	done | awk -F'\t' '{ k = $2 "\t" $3; s[k] += $4; if (!((k, $1) in seen)) { seen[k, $1]; n[k]++ } }
		END { for (k in s) printf "%s\t%d\t%.1f\n", k, n[k], s[k] }' | sort -t$'\t' -k4,4gr -k2,2
} > "$run/profile.tsv"

# Each prefix that booted is not bisectable, or no longer (a resume).
if [ ${#prefix[@]} -gt 0 ]; then
	for arm in "${!not_bisectable[@]}"; do
		log "$arm: not bisectable, left out of the comparison: ${not_bisectable[$arm]}"
	done
	meta_set_not_bisectable "$run" "$(printf '%s\n' "${units[@]%%/*}" | sort -u | jq -R . | jq -s .)" \
		"$(for arm in "${!not_bisectable[@]}"; do
			jq -n --arg a "$arm" --arg r "${not_bisectable[$arm]}" '{($a): $r}'; done | jq -s 'add // {}')"
fi

# The kernels' failures, by arm: a finding each, recorded in meta.json
# (failures) at every merge, so that what a resume booted again is
# recorded too; a unit that failed for the rig fails the run.  An arm
# whose every timing boot failed so did not boot: the report gives its
# first complaint instead of its figures, and, where it is the
# baseline, there is nothing to compare against.
rig=() findings=() timing_phases=()
declare -A timing=() boots=()
# the timing boots: the phases booted in rounds (scripts/phases.def)
for p in $(phase_names); do
	[ "$(phase_load "$p" && echo "$PHASE_BOOTS")" != rounds ] || { timing_phases+=("$p"); timing[$p]=1; }
done
for u in "${units[@]}"; do
	[ -z "${timing[${phase[$u]}]:-}" ] || boots[${u%%/*}]=$(( ${boots[${u%%/*}]:-0} + 1 ))
	if [ "${state[$u]}" = failed ] && [ -f "$run/$u/failure.json" ]; then findings+=("$u"); fi
done
for u in "${failed[@]}"; do [ -f "$run/$u/failure.json" ] || rig+=("$u"); done
known=$(kernel_failures "$run")
failures=$(for u in "${findings[@]}"; do
	jq -c --arg unit "$u" --arg phase "${phase[$u]}" --argjson times "$(times_failed "$run" "$u" "$known")" \
		--argjson timing "$([ -n "${timing[${phase[$u]}]:-}" ] && echo true || echo false)" \
		'{unit: $unit, phase: $phase} + . + {times: $times, settled: ($times >= 2), timing: $timing}' \
		"$run/$u/failure.json"
done | jq -cs --argjson order "$(json_array "${units[@]}")" \
	--argjson boots "$(for a in "${!boots[@]}"; do jq -n --arg a "$a" --argjson n "${boots[$a]}" '{($a): $n}'; done | jq -s 'add // {}')" '
	map(. + {arm: (.unit | split("/")[0])}) | sort_by(.unit as $u | $order | index([$u]))
	| reduce .[] as $f ({}; .[$f.arm] += [$f])
	| with_entries(.key as $a | .value |= (([.[] | select(.timing)] | length) as $failed
		| { did_not_boot: ($failed > 0 and $failed == ($boots[$a] // 0)), boots: ($boots[$a] // 0),
		    failed: $failed, units: map(del(.arm, .timing)) }))')
meta_set_failures "$run" "$failures"
# the baseline's arm, on the first base (none in a run against another's)
baseline=$(jq -r '(.baseline // "") as $b | (.bases[0].key // "") as $k | .variants
	| if has($b) then $b elif has($b + ":" + $k) then $b + ":" + $k else "" end' "$run/meta.json")
# what the log says of each (a walk's prefix's: its walk's "not bisectable", above)
while IFS= read -r line; do log "$line"; done < <(jq -r --argjson rounds "$(json_array "${timing_phases[@]}")" \
	--argjson prefixes "$(json_array "${!not_bisectable[@]}")" --arg baseline "$baseline" '
	def what: "\(.kind)\(if .function then " in \(.function)" else "" end): \(.line)\(if .settled then
		"; the same \(.times) times, make resume boots it no more" else "" end)";
	to_entries[] | select(.key as $k | $prefixes | index([$k]) | not)
	| select(.key != $baseline or (.value.did_not_boot | not)) | .key as $arm | .value as $a
	| ([$a.units[] | select(.phase as $p | $rounds | index([$p]))]) as $timing
	| if $a.did_not_boot then
		"\($arm) did not boot: \($a.failed) of \($a.boots) timing boots failed, \($timing[0] | what); a finding: the run goes on without it"
	  else
		(if $a.failed > 0 then
			"\($arm): \($a.failed) of \($a.boots) timing boots failed, \($timing[0] | what); a finding: its figures come from the other \($a.boots - $a.failed)"
		 else empty end),
		($a.units[] | select(.phase as $p | $rounds | index([$p]) | not) | "\(.unit): its kernel failed, \(what); a finding")
	  end' <<< "$failures")

# A baseline that did not boot leaves nothing to compare against: the
# run fails, saying so, its arms' units kept.
if [ -n "$baseline" ] && jq -e --arg b "$baseline" '.[$b].did_not_boot == true' <<< "$failures" > /dev/null; then
	echo failed > "$run/status"
	die "run $(basename "$run") cannot be compared: its baseline $baseline did not boot, $(jq -r --arg b "$baseline" --arg run "$run" '.[$b]
		| "\(.failed) of \(.boots) timing boots failed, \(.units[0].kind)\(if .units[0].function then " in \(.units[0].function)" else "" end): \(.units[0].line); there is nothing to compare its other arms against; '"'"'latest'"'"' not updated; \(if all(.units[]; .settled) then "it failed the same way twice or more, make resume boots it no more" else "make resume RUN=\($run) boots it again" end)"' <<< "$failures")"
fi
reasons=()
for u in "${rig[@]}"; do reasons+=("$(unit_failure "$u")"); done
[ ${#rig[@]} = 0 ] || fail_run "incomplete, failed boots: $(semicolons "${reasons[@]}")"
echo complete > "$run/status"
ln -sfn "$(basename "$run")" "$(dirname "$run")/latest"
log "merged ${#units[@]} units of $run"
