#!/bin/bash
# make race-check: can a variant's char-device paths race into a use after
# free?  Boots every variant of VARIANTS and every negative control
# (patches/*/control) once, on VCPUS (default 2) vCPUs in MODE=tcg, in the
# race phase (scripts/phases.def: slab poisoning, the KTAP selftest with
# its race cases at RACE_ROUNDS add/del rounds).  A variant passes when its
# boot does (selftest ok, no oops, warning or slab report); a control
# passes the check when its boot fails (a control that VARIANTS names is
# checked once, as a control).  Writes RESULTS_DIR/<id>-race-<base>/, or
# the folder given as its argument (make bench RACE=1): a folder per
# variant with its serial log and selftest.tap, summary.txt, and
# race.json, what the report reads.  Exits 1 when a variant failed or a
# control passed.
set -euo pipefail
# One vCPU cannot race inside the kernel: icount (and auto without KVM,
# which is icount) becomes tcg here.
case ${MODE:-auto} in auto | icount) MODE=tcg ;; esac
VCPUS=${VCPUS:-2}
export MODE VCPUS
. "$(dirname "$0")/lib.sh"
rig_init

[ "$VCPUS" -ge 2 ] || die "VCPUS=$VCPUS: the race check needs at least 2 vCPUs"
mapfile -t controls < <(control_variants)
read -r -a asked <<< "$VARIANTS"
variants=()
for v in "${asked[@]}"; do
	printf '%s\n' "${controls[@]}" | grep -qxF "$v" || variants+=("$v")
done
run=${1:-$RESULTS_DIR/$(date -u +%Y%m%dT%H%M%SZ)-race-$BASE_KEY${LABEL:+-$LABEL}}
mkdir -p "$run"
: > "$run/checks.jsonl"
log "race check on base $BASE: ${variants[*]} and controls ${controls[*]:-none}; $MODE, $VCPUS vCPUs, $RACE_ROUNDS rounds per race case"
phase_load race
for v in "${variants[@]}" "${controls[@]}"; do
	"$RIG_ROOT/scripts/kernel.sh" "$v" "$PHASE_KERNEL"
done

# check VARIANT EXPECTED: one boot; a summary line "variant expected
# result seconds evidence".
check() {
	local v=$1 expected=$2 dir=$run/$1/$PHASE_FOLDER-1 t rc=0 result evidence
	mkdir -p "$dir"
	write_suite_env "$v" "$v" "$dir" race
	log "$v: booting ($expected expected)"
	t=$(date +%s)
	"$RIG_ROOT/scripts/boot.sh" "$v" "$dir" race > "$dir/boot.log" 2>&1 || rc=$?
	t=$(( $(date +%s) - t ))
	if [ $rc = 0 ]; then
		result=pass
		evidence=$(grep -m1 '^# cached: ' "$dir/selftest.tap" || true)
	else
		result=FAIL
		# the kernel's own report first, else the check of the selftest
		# case that failed ("# function:line: what" just before its "not
		# ok"; a known failure's comes before an "ok ... # XFAIL"), else
		# the boot's last word
		evidence=$(grep -m1 -E "$KERNEL_COMPLAINT" "$dir/serial.log" | tr -d '\r' ||
			grep -B1 '^not ok' "$dir/selftest.tap" | grep -m1 -E '^# [a-z_]+:[0-9]+: ' ||
			tail -1 "$dir/boot.log")
	fi
	log "$v: $result in ${t}s${evidence:+: $evidence}"
	printf '%-24s %-5s %-5s %5ss  %s\n' "$v" "$expected" "$result" "$t" "$evidence" >> "$run/summary.txt"
	jq -nc --arg variant "$v" --arg expected "$expected" --arg result "${result,,}" \
		--argjson seconds "$t" --arg evidence "$evidence" '$ARGS.named' >> "$run/checks.jsonl"
	[ "${result,,}" = "$expected" ]
}

{
	echo "# base $BASE ($(tree_version "$PRISTINE_TREE")), $MODE, $VCPUS vCPUs, $RACE_ROUNDS rounds"
	printf '%-24s %-5s %-5s %6s  %s\n' variant want got time evidence
} > "$run/summary.txt"
status=0
for v in "${variants[@]}"; do check "$v" pass || status=1; done
for v in "${controls[@]}"; do check "$v" fail || status=1; done
cat "$run/summary.txt"
jq -s --arg base "$BASE" --arg base_key "$BASE_KEY" --arg mode "$MODE" \
	--argjson vcpus "$VCPUS" --argjson rounds "$RACE_ROUNDS" \
	'{base: $base, base_key: $base_key, mode: $mode, vcpus: $vcpus, rounds: $rounds, checks: .}' \
	"$run/checks.jsonl" > "$run/race.json.tmp"
mv "$run/race.json.tmp" "$run/race.json"
rm "$run/checks.jsonl"
[ $status = 0 ] || die "race check: a variant failed or a control passed; see $run"
log "race check passed: $run/summary.txt"
