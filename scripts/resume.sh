#!/bin/bash
# make resume RUN=...: finish a run that stopped (interrupted, a boot that
# failed or hung, a machine that went down).  Runs again, with the run's
# own plan (units.list, each unit's unit.env and expected.json), only its
# units that did not finish, failed, or left rows that are not a
# samples.csv (scripts/lib/units.sh unit_state), then merges and reports as make
# bench does.  Before any boot, every such unit is checked against what
# this rig would run it with (rig commit, measuring code, mode, kernel and
# module builds), and the resume is refused, naming the difference, where
# one changed.  A unit that failed is run again only here, on the user's
# word: its earlier attempt moves to <unit>/attempt-<k>/, its new ran.json
# counts the attempt, and meta.json's "sittings" lists the units each
# resume ran, which the report's first lines name.  A unit whose kernel
# failed the same way twice in the run (scripts/lib/failures.sh
# unit_settled: two of its boots, or a boot and its attempt again) is
# not booted again: that failure is a finding, which the merge keeps and
# the report gives.
set -euo pipefail
# The report is against the run's own baseline unless one is given.
baseline_given=${BASELINE:-}
. "$(dirname "$0")/lib.sh"
rig_init

run=$(cd "$RUN" 2> /dev/null && pwd -P) || die "no run at $RUN: make resume RUN=<a run's folder>"
for f in units.list meta.json status; do
	[ -f "$run/$f" ] || die "$run has no $f: not a run planned by make bench"
done
status=$(cat "$run/status")
# The lock make bench holds on its results folder: a run whose status
# says running is one whose bench was killed outright, once the lock is
# free.
exec 9> "$(dirname "$run")/.lock"
flock -n 9 || die "a 'make bench' or 'make resume' is using $(dirname "$run"); wait for it"
why=$(write_refusal "$run")
[ -z "$why" ] || die "cannot resume $(basename "$run"): $why"
# A Slurm array job's tasks hold no lock here and outlive a bench.sh that
# was killed: their units are running, not stopped.
if [ -f "$run/slurm/job" ] && [ -n "$(squeue -h -j "$(cat "$run/slurm/job")" 2> /dev/null)" ]; then
	die "the run's Slurm job $(cat "$run/slurm/job") still has tasks in the queue: wait for it, or scancel it"
fi
BASELINE=${baseline_given:-$(jq -r '.baseline // "stock"' "$run/meta.json")}

mapfile -t units < "$run/units.list"
pending=() settled=()
known=$(kernel_failures "$run")
for u in "${units[@]}"; do
	if unit_settled "$run" "$u" "$known"; then
		settled+=("$u ($(jq -r .signature "$run/$u/failure.json"), $(times_failed "$run" "$u" "$known") times)")
	elif [ "$(unit_state "$run/$u")" != finished ]; then
		pending+=("$u")
	fi
done
[ ${#settled[@]} = 0 ] ||
	log "not booted again, their kernels failed the same way twice or more (a finding the report gives): $(semicolons "${settled[@]}")"
# A complete run may still have failed units: a walk's prefix that was
# not bisectable (docs/walk.md), an arm whose kernel failed, whose boots
# the user may run again.
if [ ${#pending[@]} = 0 ]; then
	[ "$status" != complete ] ||
		die "run $(basename "$run") is complete: nothing to resume${settled[*]:+ (the failures of its kernels are settled, above)}"
	log "every unit of $(basename "$run") finished or failed for its kernel (status $status); merging them again"
fi

# What each pending unit would run with here, against its plan, before
# anything boots: the kernel built again where missing (the builds are
# reproducible; one that differs is refused below).
check=$(mktemp)
trap 'rm -f "$check"' EXIT
refusals=()
for u in "${pending[@]}"; do
	why=$(
		set -a
		# shellcheck source=/dev/null
		. "$run/$u/unit.env"
		set +a
		use_base "$BASE"
		flavour=$(phase_flavour "$UNIT_PHASE")
		"$RIG_ROOT/scripts/kernel.sh" "$UNIT_KERNEL" "$flavour" >&2
		unit_facts_json "$UNIT_KERNEL" "$flavour" > "$check"
		json_difference "this rig" "$check" "the plan (expected.json)" "$run/$u/expected.json" \
			"${UNIT_FACTS[@]}"
	) || die "$u: cannot check it against its plan (above)"
	[ -z "$why" ] || refusals+=("$u: $why")
done
if [ ${#refusals[@]} -gt 0 ]; then
	die "cannot resume $(basename "$run"), its units would not run what it planned: $(semicolons "${refusals[@]}")"
fi

echo running > "$run/status"
run_status=failed
trap 'rm -f "$check"; [ "$(cat "$run/status")" != running ] || echo "$run_status" > "$run/status"' EXIT
trap 'run_status=interrupted; log "interrupted: make resume RUN=$run goes on from here"; exit 130' INT TERM HUP

sitting=$(date -u +%Y-%m-%dT%H:%M:%SZ)
log "resuming $(basename "$run") (status $status): ${#pending[@]} of ${#units[@]} units: ${pending[*]}"
for u in "${pending[@]}"; do
	dir=$run/$u
	# attempts are counted by the folders earlier ones left, whatever an
	# interrupted one did or did not write
	attempt=1
	while [ -e "$dir/attempt-$attempt" ]; do attempt=$((attempt + 1)); done
	mapfile -d '' earlier < <(find "$dir" -mindepth 1 -maxdepth 1 ! -name 'attempt-*' \
		! -name unit.env ! -name expected.json ! -name suite.env -print0)
	if [ ${#earlier[@]} -gt 0 ]; then
		mkdir "$dir/attempt-$attempt"
		mv -t "$dir/attempt-$attempt" "${earlier[@]}"
		attempt=$((attempt + 1))
	fi
	UNIT_ATTEMPT=$attempt UNIT_SITTING=$sitting "$RIG_ROOT/scripts/unit.sh" "$dir" || true
done

meta_add_sitting "$run" "$sitting" "${pending[@]}"
echo "resumed $sitting: ${#pending[@]} units, $(( $(date +%s) - $(date -d "$sitting" +%s) ))s" >> "$run/time.txt"
RUN=$run "$RIG_ROOT/scripts/merge.sh"
if jq -e --arg b "$BASELINE" '. as $m | $m.variants | has($b) or has($b + ":" + ($m.bases[0].key // ""))' \
	"$run/meta.json" > /dev/null; then
	BASELINE=$BASELINE RUN=$run "$RIG_ROOT/scripts/compare.sh"
fi
! jq -e '.race == true' "$run/meta.json" > /dev/null || [ -f "$run/race.json" ] ||
	log "the run asked for the race check (RACE=1), which a resume does not run: make race-check for it"
log "resumed: $run"
