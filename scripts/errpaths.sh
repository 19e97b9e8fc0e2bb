#!/bin/bash
# make errpaths: what each driver's cleanup after a failed cdev_add()
# does, per base and variant, and which in-tree drivers use which cleanup
# (docs/errpaths.md).  Boots each variant's fault kernel once per base of
# BASES (default: both Debian bases) in the failure-path phase, whose
# flavours are the drivers' cleanup patterns, checks each boot
# (scripts/fault-check.sh: a group's complaints become its rows), takes
# the census of the callers on each base (scripts/census.sh), and writes
# RESULTS_DIR/<id>-errpaths/ (or the folder given as its argument): a
# folder per arm (<variant>:<base>) with its boot, samples.csv,
# census.tsv and errpaths.txt, the table, the callers and the answer.
# Exits 1 when a boot failed (a crash, an API flavour that was not clean):
# the table still shows what ran.
set -euo pipefail
# BASES, else BASE, else both Debian bases: the answer differs by base.
: "${BASES:=${BASE:-6.1 6.12}}"
export BASES
. "$(dirname "$0")/lib.sh"
rig_init

read -r -a bases <<< "$BASES"
run=${1:-$RESULTS_DIR/$(date -u +%Y%m%dT%H%M%SZ)-errpaths${LABEL:+-$LABEL}}
mkdir -p "$run"
phase_load fault

# The arms: every variant of VARIANTS with a series on the base (stock
# always), as <variant>:<base>.
arms=()
declare -A arm_variant arm_base
for b in "${bases[@]}"; do
	use_base "$b"
	for v in $VARIANTS; do
		if [ "$v" != stock ] && [ ! -f "$(series_dir "$v")/series" ]; then
			log "$v has no series for base $b: not booted there"
			continue
		fi
		arms+=("$v:$BASE_KEY")
		arm_variant[$v:$BASE_KEY]=$v
		arm_base[$v:$BASE_KEY]=$b
	done
done
log "errpaths: ${#arms[@]} fault boots (${arms[*]}), then the census of ${bases[*]}"
for arm in "${arms[@]}"; do
	BASE=${arm_base[$arm]} "$RIG_ROOT/scripts/kernel.sh" "${arm_variant[$arm]}" "$PHASE_KERNEL"
done

status=0
k=0
for arm in "${arms[@]}"; do
	k=$((k + 1))
	use_base "${arm_base[$arm]}"
	dir=$run/$arm/$PHASE_FOLDER-1
	mkdir -p "$dir"
	write_suite_env "$arm" "${arm_variant[$arm]}" "$dir" fault
	log "[$k/${#arms[@]}] $arm: booting its fault kernel"
	rc=0
	BASE=$BASE "$RIG_ROOT/scripts/boot.sh" "${arm_variant[$arm]}" "$dir" fault > "$dir/boot.log" 2>&1 || rc=$?
	if [ -s "$dir/samples.csv" ]; then
		"$RIG_ROOT/scripts/fault-check.sh" "$dir" 2>> "$dir/boot.log" || [ "$rc" != 0 ] || rc=1
	fi
	[ "$rc" = 0 ] || { status=1; log "$arm: FAILED (status $rc); see $dir/boot.log"; }
done

{
	"$BUILD_DIR/bin/rows" header
	for arm in "${arms[@]}"; do
		tail -n +2 "$run/$arm/$PHASE_FOLDER-1/samples.csv" 2> /dev/null || true
	done
} > "$run/samples.csv"
"$RIG_ROOT/scripts/census.sh" -o "$run/census.tsv" "${bases[@]}" > "$run/census-counts.txt"

{
	echo "cdevbench errpaths, $(date -u +%Y-%m-%dT%H:%M:%SZ), rig $(git -C "$RIG_ROOT" rev-parse --short HEAD)"
	for b in "${bases[@]}"; do
		use_base "$b"
		echo "base $b: $(tree_version "$PRISTINE_TREE")"
	done
	echo "reproduce: make errpaths BASES=\"$BASES\" VARIANTS=\"$VARIANTS\""
	echo
	"$BUILD_DIR/bin/compare" --baseline "stock:$(use_base "${bases[0]}"; echo "$BASE_KEY")" \
		--format errpaths --census "$run/census.tsv" "$run/samples.csv"
} > "$run/errpaths.txt"
cat "$run/errpaths.txt"
log "errpaths: $run/errpaths.txt"
[ $status = 0 ] || die "errpaths: a fault boot failed; see $run"
