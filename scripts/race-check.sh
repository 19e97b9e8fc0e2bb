#!/bin/bash
# make race-check: can a variant's char-device paths race into a use after
# free, a wrong lock order, a sleep under a spinlock, a corrupted list or
# a data race?  Boots every variant of VARIANTS and every negative control
# (patches/*/control) twice, on VCPUS (default 2) vCPUs in MODE=tcg, each
# running the KTAP selftest with its race cases (scripts/phases.def):
# the race phase's timing kernel with slab poisoning, RACE_ROUNDS add/del
# rounds, and the checker phase's kernel (patches/checker.config:
# lockdep, atomic-sleep and list checks, KCSAN), CHECKER_ROUNDS rounds,
# its complaints judged by scripts/checker-check.sh.  A variant passes
# when both boots do (selftest ok; no oops, warning or slab report; no
# checker complaint that counts); a control passes the check when a boot
# of it fails (a control that VARIANTS names is checked once, as a
# control).  Writes RESULTS_DIR/<id>-race-<base>/, or the folder given as
# its argument (make bench RACE=1): a folder per variant with a folder
# per boot (serial log, selftest.tap; the checker's complaints.tsv and
# splat.txt), summary.txt, and race.json, what the report reads.  Exits 1
# when a variant failed or a control passed.
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
log "race check on base $BASE: ${variants[*]:-no variant} and controls ${controls[*]:-none}; $MODE, $VCPUS vCPUs; a poisoned boot of $RACE_ROUNDS rounds per race case and a checker boot of $CHECKER_ROUNDS"
phases=(race checker)
for p in "${phases[@]}"; do
	phase_load "$p"
	for v in "${variants[@]}" "${controls[@]}"; do
		"$RIG_ROOT/scripts/kernel.sh" "$v" "$PHASE_KERNEL"
	done
done

# The kernel's clock at the first line of BOOT_DIR's serial log that
# KERNEL_COMPLAINT matches (printk.time), or nothing.
first_complaint_seconds() {
	tr -d '\r' < "$1/serial.log" | grep -m1 -E "$KERNEL_COMPLAINT" |
		sed -nE 's/^\[ *([0-9]+\.[0-9]+)\].*/\1/p' || true
}

# boot VARIANT PHASE: one boot; a summary line "variant phase result
# seconds complaint-time evidence", its JSON in $run/boots.jsonl; fails
# when the boot failed.
boot() {
	local v=$1 phase=$2 dir t rc=0 result evidence at='' checker=''
	phase_load "$phase"
	dir=$run/$v/$PHASE_FOLDER-1
	mkdir -p "$dir"
	write_suite_env "$v" "$v" "$dir" "$phase"
	log "$v: $phase boot"
	t=$(date +%s)
	"$RIG_ROOT/scripts/boot.sh" "$v" "$dir" "$phase" > "$dir/boot.log" 2>&1 || rc=$?
	t=$(( $(date +%s) - t ))
	if [ "$PHASE_ROWS" != checker-check ]; then
		at=$(first_complaint_seconds "$dir")
	elif [ -s "$dir/serial.log" ] &&
		! evidence=$("$RIG_ROOT/scripts/checker-check.sh" "$dir" "$v" 2>> "$dir/boot.log"); then
		# its complaints judged here, the first that counts timed; the
		# boot's status then says only whether the guest ran its
		# selftest to the end and passed it
		[ "$rc" != 0 ] || rc=1
		checker=${evidence%% *}
		at=${evidence#* at }; at=${at%% s:*}
	fi
	if [ "$rc" = 0 ]; then
		result=pass
		evidence=$(grep -m1 '^# cached: ' "$dir/selftest.tap" || true)
	else
		result=FAIL
		# the checker's complaint that counts, else the kernel's own
		# report, else the check of the selftest case that failed ("#
		# function:line: what" just before its "not ok"; a known
		# failure's comes before an "ok ... # XFAIL"), else the
		# selftest's word on a stuck kernel, else the boot's last word
		[ -n "$checker" ] ||
			evidence=$(grep -m1 -E "$KERNEL_COMPLAINT" "$dir/serial.log" | tr -d '\r' ||
				grep -B1 '^not ok' "$dir/selftest.tap" | grep -m1 -E '^# [a-z_]+:[0-9]+: ' ||
				grep -m1 -ao 'FAILED: selftest case .*' "$dir/serial.log" | tr -d '\r' ||
				tail -1 "$dir/boot.log")
	fi
	log "$v: $phase $result in ${t}s${evidence:+: $evidence}"
	printf '%-28s %-7s %-5s %5ss %8s  %s\n' "$v" "$phase" "$result" "$t" "${at:--}" "$evidence" >> "$run/summary.txt"
	jq -nc --arg phase "$phase" --arg result "${result,,}" --argjson seconds "$t" \
		--arg first_complaint_seconds "$at" --arg checker "$checker" --arg evidence "$evidence" \
		'$ARGS.named' >> "$run/boots.jsonl"
	[ "$rc" = 0 ]
}

# check VARIANT EXPECTED: every phase's boot; the variant's result is
# FAIL when one failed, and its evidence the first failure's, named by
# its boot.
check() {
	local v=$1 expected=$2 p result=pass
	: > "$run/boots.jsonl"
	for p in "${phases[@]}"; do boot "$v" "$p" || result=fail; done
	jq -sc --arg variant "$v" --arg expected "$expected" --arg result "$result" '
		(map(select(.result == "fail")) | first) as $failed |
		{variant: $variant, expected: $expected, result: $result,
		 seconds: (map(.seconds) | add),
		 evidence: (if $failed then "\($failed.phase) boot: \($failed.evidence)" else .[0].evidence end),
		 boots: .}' "$run/boots.jsonl" >> "$run/checks.jsonl"
	rm "$run/boots.jsonl"
	[ "$result" = "$expected" ]
}

{
	echo "# base $BASE ($(tree_version "$PRISTINE_TREE")), $MODE, $VCPUS vCPUs; race boot: slab poisoning, $RACE_ROUNDS rounds; checker boot: lockdep, atomic-sleep and list checks, KCSAN, $CHECKER_ROUNDS rounds"
	echo "# time: the boot's, host seconds; complaint: the kernel's clock at its first complaint that counts"
	printf '%-28s %-7s %-5s %6s %8s  %s\n' variant boot got time complaint evidence
} > "$run/summary.txt"
status=0
for v in "${variants[@]}"; do check "$v" pass || status=1; done
for v in "${controls[@]}"; do check "$v" fail || status=1; done
cat "$run/summary.txt"
jq -s --arg base "$BASE" --arg base_key "$BASE_KEY" --arg mode "$MODE" \
	--argjson vcpus "$VCPUS" --argjson rounds "$RACE_ROUNDS" --argjson checker_rounds "$CHECKER_ROUNDS" \
	'{base: $base, base_key: $base_key, mode: $mode, vcpus: $vcpus, rounds: $rounds,
	  checker_rounds: $checker_rounds, checks: .}' \
	"$run/checks.jsonl" > "$run/race.json.tmp"
mv "$run/race.json.tmp" "$run/race.json"
rm "$run/checks.jsonl"
[ $status = 0 ] || die "race check: a variant failed or a control passed; see $run"
log "race check passed: $run/summary.txt"
