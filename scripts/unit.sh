#!/bin/bash
# Run one unit of a run: one boot of one arm, from its folder alone.
#   scripts/unit.sh UNIT_DIR
# UNIT_DIR holds unit.env (the settings; the run, arm, kernel and phase),
# expected.json (the rig, mode and kernel and module builds the plan
# expects) and suite.env (what the guest is told), written by bench.sh's
# plan.  Any executor with the rig
# checked out at the same commit and the same paths (BUILD_DIR, the run
# folder) runs it: make bench itself, a Slurm array task, a LAVA job.
# The unit first writes ran.json, what this executor found (rig, mode,
# the kernel and module it would boot), and boots only if that is what
# the plan expects; scripts/merge.sh checks ran.json against the run's
# meta.json again.  Then the boot (scripts/boot.sh), the host's step of
# its phase (scripts/phases.def: trace_rows, pmu_rows or fault-check),
# `failed` with the status if it failed, and the wall time in `seconds`,
# last.  A boot that failed because of its kernel (a panic, an oops, a
# warning, a hang, its selftest or another step of the guest) leaves
# failure.json before `failed` (scripts/lib/failures.sh failure_json:
# the kind, the kernel's first complaint line and the function it came
# from, the signature), and prints that line and its call trace: a
# finding, which merge.sh reports, and which make resume boots again
# only until the kernel has failed the same way twice.  A failed unit
# without failure.json failed for the rig (QEMU killed from outside, a
# host step), and make resume runs it again.  A unit whose folder cannot
# be written (a full disk) is not booted, or, where that stopped its
# boot, left without `seconds`: one that did not finish, which make
# resume runs again.
#   scripts/unit.sh RUN INDEX
# runs the unit on line INDEX + 1 of RUN/units.list (a Slurm array task).
set -euo pipefail
unit_dir=${1:?usage: unit.sh UNIT_DIR | RUN INDEX}
[ $# = 1 ] || unit_dir=$1/$(sed -n "$(($2 + 1))p" "$1/units.list")
unit_dir=$(cd "$unit_dir" && pwd)
[ -f "$unit_dir/unit.env" ] || { echo "cdevbench: error: $unit_dir/unit.env missing" >&2; exit 1; }
set -a
# shellcheck source=/dev/null
. "$unit_dir/unit.env"
set +a
. "$(dirname "$0")/lib.sh"
rig_init

rm -f "$unit_dir/failed" "$unit_dir/seconds" "$unit_dir/failure.json"
# A unit that cannot keep what it boots is not booted: it stays one that
# did not finish, for make resume.
why=$(write_refusal "$unit_dir")
if [ -n "$why" ]; then
	log "$UNIT_LABEL: $UNIT_ARM not booted: $why"
	exit 1
fi
executor=scripts/unit.sh
[ -z "${SLURM_JOB_ID:-}" ] || executor="slurm job $SLURM_JOB_ID${SLURM_ARRAY_TASK_ID:+ task $SLURM_ARRAY_TASK_ID}"
# A unit run again by make resume counts its attempt and names the
# sitting (scripts/resume.sh).
phase_load "$UNIT_PHASE"
unit_facts_json "$UNIT_KERNEL" "$PHASE_KERNEL" |
	jq --arg host "$(hostname)" --arg executor "$executor" \
		--argjson seed "$(boot_seed "$unit_dir")" \
		--arg started "$(date -u +%Y-%m-%dT%H:%M:%SZ)" --argjson attempt "${UNIT_ATTEMPT:-1}" \
		--arg sitting "${UNIT_SITTING:-}" '. + $ARGS.named | if .sitting == "" then del(.sitting) else . end' \
		> "$unit_dir/ran.json"

# Interrupted (Ctrl-C, make bench's TERM): neither `failed` nor
# `seconds`, a unit that did not finish, which make resume runs again.
# bash runs the trap once the boot in the foreground has ended.
trap 'log "$UNIT_LABEL: $UNIT_ARM interrupted: the unit did not finish"; exit 130' INT TERM HUP

# `seconds` last: a unit is finished (scripts/lib/units.sh unit_state)
# only once its `failed` is written.
finish() {	# finish STATUS SECONDS
	[ "$1" = 0 ] || echo "$1" > "$unit_dir/failed"
	echo "$2" > "$unit_dir/seconds"
	exit "$1"
}

why=$(unit_refusal "$unit_dir" "$unit_dir/expected.json" "the plan (expected.json)")
if [ -n "$why" ]; then
	log "$UNIT_LABEL: $UNIT_ARM not booted: $why"
	finish 3 0
fi

how="$PHASE_KERNEL kernel, $PHASE_MODE${PHASE_THREADS:+ thread=$PHASE_THREADS}, $PHASE_VCPUS vCPU"
[ "$PHASE_VCPUS" = 1 ] || how+=s
[ "$PHASE_PLUGIN" = - ] || how+=", TCG plugin"
log "$UNIT_LABEL: $UNIT_ARM booting ($how)"
t=$(date +%s)
rc=0 check=0
rm -f "$unit_dir/samples.csv"
"$RIG_ROOT/scripts/boot.sh" "$UNIT_KERNEL" "$unit_dir" "$UNIT_PHASE" || rc=$?
boot_rc=$rc
# The phase's step on the host (scripts/phases.def's rows), after a boot
# that succeeded, or one that failed and left rows where the phase keeps
# them (the fault boot's check then names what broke): trace_rows adds
# the traced pass's rows from the tools' output (a boot whose suite.env
# runs it: TRACED_BOOTS), pmu_rows makes the
# plugin's from its records, fault-check checks the failure-path phase's.
if [ $rc = 0 ] || { [ "$PHASE_FAILED" = kept ] && [ -s "$unit_dir/samples.csv" ]; }; then
	case $PHASE_ROWS in
	trace_rows)
		if unit_traced "$unit_dir"; then
			"$BUILD_DIR/bin/trace_rows" "$UNIT_ARM" "${unit_dir##*-}" "$TRACE_N" "$unit_dir" \
				"$(kernel_obj_dir "$UNIT_KERNEL")/System.map" >> "$unit_dir/samples.csv" || check=$?
		fi ;;
	pmu_rows)
		"$BUILD_DIR/bin/pmu_rows" "$UNIT_ARM" "${unit_dir##*-}" "$unit_dir" \
			>> "$unit_dir/samples.csv" || check=$? ;;
	fault-check) "$RIG_ROOT/scripts/fault-check.sh" "$unit_dir" || check=$? ;;
	esac
	[ $rc != 0 ] || rc=$check
fi
t=$(( $(date +%s) - t ))
# A boot that failed because its folder filled up is no failure of the
# kernel: the unit did not finish.
why=
[ $rc = 0 ] || why=$(write_refusal "$unit_dir")
if [ -n "$why" ]; then
	log "$UNIT_LABEL: $UNIT_ARM did not finish (status $rc after ${t}s): $why"
	exit 1
elif [ $rc = 0 ]; then
	log "$UNIT_LABEL: $UNIT_ARM done in ${t}s"
	finish 0 "$t"
fi
# Why the kernel failed, where it did (boot.sh printed the console's
# tail): the first complaint and the call trace, which a tail of 25
# lines often starts after.
failure=$(failure_json "$unit_dir" "$boot_rc") ||
	{ failure=; log "$UNIT_LABEL: $UNIT_ARM: its serial log could not be read for the kernel's complaint"; }
if [ -n "$failure" ]; then
	echo "$failure" > "$unit_dir/failure.json"
	trace=$(serial_failure "$unit_dir/serial.log" trace)
	if [ -n "$trace" ]; then
		printf '%s\n' "--- the kernel's first complaint and its call trace ($unit_dir/serial.log) ---" "$trace" >&2
	fi
	log "$UNIT_LABEL: $UNIT_ARM FAILED (status $rc) after ${t}s, a finding of its kernel: $(jq -r '"\(.kind)\(if .function then " in \(.function)" else "" end): \(.line)"' <<< "$failure"); log: $unit_dir/serial.log"
else
	log "$UNIT_LABEL: $UNIT_ARM FAILED (status $rc) after ${t}s; log: $unit_dir/serial.log"
fi
finish "$rc" "$t"
