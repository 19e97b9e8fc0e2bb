# shellcheck shell=bash
# Phases as data (scripts/phases.def): what boot.sh starts for each phase
# is, argument for argument, tests/boot_commands.txt (the commands boot.sh
# built before the table: a change to one is a change of what a run
# measures, made there on purpose), in icount, tcg and kvm; the order in
# which make bench starts a run's units side by side; every step a phase gives the guest suite is a
# function of it; and the one pattern of a kernel's complaint
# (KERNEL_COMPLAINT, scripts/lib/failures.sh) matches every report that boot.sh,
# fault-check.sh and race-check.sh matched, and no line of a boot that
# went well.
. "$(dirname "$0")/lib.sh"

# The rig's own functions, in a subshell; MODE given, so that no KVM is
# probed.
# shellcheck disable=SC2034 # MODE: read by rig_init
rig() { (MODE=icount && . scripts/lib.sh && rig_init && "$@"); }
phases=$(rig phase_names)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
stand_in_build "$tmp/build"
touch "$tmp/build/bin/tcg_pmu.so"
# A QEMU that records its arguments, one per line.
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/bash
printf '%s\n' "$@" > "$QEMU_ARGS"
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"

# KVM taken as usable (RIG_KVM_REFUSAL empty: scripts/lib/kvm.sh,
# kvm_refusal), as the QEMU above would be, whatever the host's /dev/kvm.
for mode in icount tcg kvm; do
	case $mode in
	icount) settings=(MODE=icount) ;;
	tcg) settings=(MODE=tcg VCPUS=3 PMU_VCPUS=5 PMU_INTERLEAVE=multi GUEST_MEM=512) ;;
	kvm) settings=(MODE=kvm VCPUS=2 PMU_VCPUS=6) ;;
	esac
	for phase in $phases; do
		dir=$tmp/boot-$mode-$phase
		mkdir -p "$dir"
		stand_in_suite_env "$dir"
		rm -f "$tmp/args"
		(cd "$tmp" && env -u VARIANTS RIG_KVM_REFUSAL= PATH="$tmp/bin:$PATH" QEMU_ARGS="$tmp/args" BUILD_DIR="$tmp/build" TMPDIR="$tmp" \
			"${settings[@]}" "$RIG_ROOT/scripts/boot.sh" stock "$dir" "$phase") > "$tmp/out" 2>&1 || true
		[ -s "$tmp/args" ] || fail "boot.sh did not start QEMU for $phase in $mode: $(cat "$tmp/out")"
		echo "== ${settings[*]} boot.sh stock BOOT $phase"
		sed -e "s|$dir|@BOOT_DIR@|g" -e "s|$tmp/build|@BUILD_DIR@|g" -e "s|$RIG_ROOT|@RIG_ROOT@|g" \
			-e "s|^$tmp/cdevbench-initramfs\.[A-Za-z0-9]*$|@TMPDIR@/cdevbench-initramfs.XXXXXX|" "$tmp/args"
	done
done > "$tmp/got"
diff -u --label tests/boot_commands.txt --label "as boot.sh builds them" tests/boot_commands.txt "$tmp/got" ||
	fail "boot.sh's QEMU command lines differ from tests/boot_commands.txt (above)"
echo "boot.sh's command lines as tests/boot_commands.txt has them: $(grep -c '^== ' "$tmp/got") boots (icount, tcg, kvm)"

# The order in which make bench starts a run's units side by side
# (start_order): the plugin's boots, then the timing boots with a traced
# pass, then the rest, each in the plan's order; outside icount the
# timing and fault boots alone, after them, the share boot still beside
# the others.
run=$tmp/run
for unit in stock/boot-1:timing cdev-hash/boot-1:timing stock/boot-2:timing stock/fault-1:fault \
	stock/pmu-1:pmu stock/share-1:share cdev-hash/pmu-1:pmu; do
	mkdir -p "$run/${unit%:*}"
	echo "UNIT_PHASE=${unit#*:}" > "$run/${unit%:*}/unit.env"
	steps="load_module cdevbench, timed_pass"
	[[ $unit != */boot-1:* ]] || steps+=", traced_pass"
	echo "SUITE_STEPS='$steps'" > "$run/${unit%:*}/suite.env"
	echo "${unit%:*}" >> "$run/units.list"
done
for mode in icount tcg; do
	# shellcheck disable=SC2034 # MODE: read by rig_init
	got=$( (MODE=$mode && . scripts/lib.sh && rig_init && start_order "$run") | paste -sd ' ')
	case $mode in
	icount) want="pool stock/pmu-1 pool stock/share-1 pool cdev-hash/pmu-1 pool stock/boot-1 pool cdev-hash/boot-1 pool stock/boot-2 pool stock/fault-1" ;;
	tcg) want="pool stock/pmu-1 pool stock/share-1 pool cdev-hash/pmu-1 alone stock/boot-1 alone cdev-hash/boot-1 alone stock/boot-2 alone stock/fault-1" ;;
	esac
	[ "$got" = "$want" ] || fail "MODE=$mode: units start as '$got', want '$want'"
done
echo "units start longest first, the share boot among the others, a real-time timing boot alone"

functions=$(sed -n 's/^\([a-z_]*\)() {.*/\1/p' guest-init/suite)
suite_steps() { phase_load "$1" && echo "$PHASE_SUITE"; }
# check_steps PHASE STEPS: each of a phase's steps (comma-separated,
# each a word and its arguments) is a function of the guest's suite
check_steps() {
	local words step
	IFS=, read -r -a words <<< "$2"
	for step in "${words[@]}"; do
		read -r step _ <<< "$step"
		grep -qx -- "$step" <<< "$functions" ||
			fail "phase $1: step '$step' is no function of guest-init/suite"
	done
}
for phase in $phases; do
	check_steps "$phase" "$(rig suite_steps "$phase")"
done
echo "every phase's steps are functions of guest-init/suite"
expect_fail "a step the suite lacks" "phase timing: step 'no_such_step' is no function" \
	check_steps timing "$(rig suite_steps timing),no_such_step 1"

# Each line a report that at least one of the three callers matched
# before (KASAN, KFENCE and slub_debug reports, oopses, general protection
# faults of 6.1 and 6.12, WARN()s, refcount_t, lockdep, a panic); then
# lines of boots that went well.
complaints='BUG: KASAN: slab-use-after-free in cdev_put+0x1c/0x40
BUG: KFENCE: use-after-free read in kobj_lookup+0x51/0x1d0
BUG: kernel NULL pointer dereference, address: 0000000000000008
BUG kmalloc-64 (Not tainted): Poison overwritten
BUG kmalloc-128 (Tainted: G           O      ): Object corrupt
Oops: 0002 [#1] SMP
general protection fault, probably for non-canonical address 0x6b6b6b6b6b6b6b6b: 0000 [#1] SMP
Oops: general protection fault, probably for non-canonical address 0x6b6b6b6b6b6b6b6b: 0000 [#1] SMP
WARNING: CPU: 1 PID: 77 at lib/refcount.c:28 refcount_warn_saturate+0x9c/0x110
refcount_t: underflow; use-after-free.
WARNING: possible circular locking dependency detected
Kernel panic - not syncing: Fatal exception'
fine='cdevbench-suite: step fault_phase
FAULT_INJECTION: forcing a failure.
kmemleak: Kernel memory leak detector initialized (mem pool available: 15732)
ok 12 cdev_del_while_open
Run /home/rig/guest-init/init as init process'
pattern=$(rig eval 'echo "$KERNEL_COMPLAINT"')
missed=$(grep -vE -- "$pattern" <<< "$complaints" || true)
[ -z "$missed" ] || fail "KERNEL_COMPLAINT misses: $missed"
wrong=$(grep -E -- "$pattern" <<< "$fine" || true)
[ -z "$wrong" ] || fail "KERNEL_COMPLAINT matches a boot that went well: $wrong"
for script in boot.sh fault-check.sh race-check.sh; do
	grep -q 'KERNEL_COMPLAINT' "scripts/$script" || fail "scripts/$script does not use KERNEL_COMPLAINT"
done
spelled=$(grep -lE 'BUG: |WARNING: ' scripts/*.sh scripts/lib/*.sh | grep -vx scripts/lib/failures.sh || true)
[ -z "$spelled" ] || fail "a complaint spelled outside scripts/lib/failures.sh's KERNEL_COMPLAINT: $spelled"
echo "KERNEL_COMPLAINT: $(wc -l <<< "$complaints") reports matched, $(wc -l <<< "$fine") lines of good boots not"
