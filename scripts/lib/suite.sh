# shellcheck shell=bash
# What the guest suite is told for one boot (its suite.env) and the
# boot's seed; what runs once (the traced pass, the plugin's
# calibration).
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# What repeats without adding information runs once.  The traced pass
# runs on the first TRACED_BOOTS timing boots of an arm (write_suite_env
# leaves it out of the others' steps).  The plugin's calibration runs
# (CALIBRATION_BENCHES: they describe the cache model, not a kernel) run
# on one arm's pmu boot (bench.sh: the baseline's); every other arm's
# plugin boots run calibration_free_benches, and meta.json's calibration
# names the arm, so that the report does not take their absence for a
# missing side.
CALIBRATION_BENCHES=(pchase)
calibration_free_benches() {
	"$BUILD_DIR/bin/bench_plan" benches | awk -v skip=" ${CALIBRATION_BENCHES[*]} " \
		'index(skip, " " $1 " ") == 0 { printf "%s%s", sep, $1; sep = " " }'
}

# The seed of a boot whose suite.env is in DIR (write_suite_env's SEED).
boot_seed() {	# boot_seed DIR
	local seed
	seed=$(sed -n 's/^SEED=//p' "$1/suite.env")
	[[ $seed =~ ^[0-9]+$ ]] || die "$1/suite.env gives no SEED, the boot's seed"
	echo "$seed"
}

# Where the guest finds the rig's files: the initramfs holds them under
# GUEST_RIG, whatever the host's paths, so that a checkout or a build
# folder elsewhere gives the guest the same bytes (the paths in
# suite.env, on the command line and in the initramfs moved the timed
# rows: docs/determinism.md).  The build folder first, as it may lie in
# the checkout, and so may the patches.
GUEST_RIG=/rig
guest_path() {	# guest_path HOST_PATH
	case $1 in
	"$BUILD_DIR"/*) echo "$GUEST_RIG/build/${1#"$BUILD_DIR"/}" ;;
	"$PATCHES_DIR"/*) echo "$GUEST_RIG/patches/${1#"$PATCHES_DIR"/}" ;;
	"$RIG_ROOT"/*) echo "$GUEST_RIG/${1#"$RIG_ROOT"/}" ;;
	*) die "$1 is in none of the rig's folders (RIG_ROOT, BUILD_DIR, PATCHES_DIR)" ;;
	esac
}

# What the guest suite is told for one boot, in BOOT_DIR/suite.env, and
# the boot's seed: write_suite_env ARM KERNEL BOOT_DIR PHASE.  The
# phase's steps (SUITE_STEPS) are all the suite knows of it; a timing
# boot past TRACED_BOOTS leaves out the traced pass.  A subshell: the
# caller's phase_load stays as it was.
write_suite_env() (
	phase_load "$4"
	steps=$PHASE_SUITE
	boot=${3##*-}
	[ "$boot" -le "$TRACED_BOOTS" ] || steps=${steps//, traced_pass/}
	# QEMU's seed (scripts/boot.sh): the boot's number, so that boot k of
	# every arm draws alike; the A/A arm's continue after its baseline's,
	# so that the control sees what other draws (layouts) move
	seed=$boot
	[ "${1%%:*}" != "$BASELINE-aa" ] || seed=$((BOOTS + boot))
	# the guest's paths, each checked here: a failure in a substitution
	# inside echo's arguments would pass unseen
	modules=$(guest_path "$(module_dir "$2" "$PHASE_KERNEL")") || exit
	bin=$(guest_path "$BUILD_DIR/bin") || exit
	known=
	while read -r f; do
		known+=" --known-failures $(guest_path "$f")" || exit
	done < <(known_failures "$2")
	{
		echo "VARIANT=$1"
		echo "BOOT=$boot"
		echo "SEED=$seed"
		echo "PHASE=$4"
		SUITE_STEPS=$steps shell_assignments SUITE_STEPS
		echo "KERNEL_RELEASE=$(cat "$(kernel_obj_dir "$2" "$PHASE_KERNEL")/include/config/kernel.release")"
		echo "RIG_ROOT=$GUEST_RIG"
		echo "MODULE_DIR=$modules"
		echo "BIN_DIR=$bin"
		echo "SELFTEST_ARGS='$(cat "$(variant_file "$2" selftest.args)" 2> /dev/null || true)$known'"
		settings_env guest
	} > "$3/suite.env"
)
