#!/bin/bash
# Boot one variant once in QEMU and run the guest suite.
#   scripts/boot.sh VARIANT BOOT_DIR [PHASE]   (timing by default)
# What a phase boots (its kernel, mode, vCPUs, plugin and command line) is
# its row of scripts/phases.def.
# BOOT_DIR must hold suite.env; it receives host.env (the rig's host
# paths, for the traced pass), serial.log, the suite's output,
# exit-status and steps.tsv (the boot's profile, below).  The guest runs
# from an initramfs; the host root (read-only) and BOOT_DIR (writable) are
# its 9p exports, which it mounts once its sealed part is over.  Exits
# with the suite's status; 124 on a hang (per-boot timeout), 125 on a
# panic or a guest that gave no status, 128 + N where
# QEMU was killed by signal N from outside the rig (the OOM killer, a
# kill), whose name it writes in BOOT_DIR/qemu-signal, or where the boot
# itself was interrupted by signal N (INT, TERM, HUP).
# Settings used (scripts/settings.def): GUEST_MEM, BOOT_TIMEOUT, and those
# the phase's row names (MODE, VCPUS, PMU_VCPUS, PMU_INTERLEAVE).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

variant=${1:?usage: boot.sh VARIANT BOOT_DIR [PHASE]}
boot_dir=$(cd "${2:?usage: boot.sh VARIANT BOOT_DIR [PHASE]}" && pwd)
phase=${3:-timing}
phase_load "$phase"
bzimage=$(kernel_obj_dir "$variant" "$PHASE_KERNEL")/arch/x86/boot/bzImage

[ -f "$bzimage" ] || die "no $PHASE_KERNEL kernel for $variant: run 'make kernels'"
[ -f "$boot_dir/suite.env" ] || die "$boot_dir/suite.env missing"

# The guest starts from an initramfs (scripts/initramfs.sh; why:
# guest-init/attach), made for this boot and removed after it; not in
# BOOT_DIR, whose filesystem full is a fault unit.sh tells by itself.
initrd=$(mktemp "${TMPDIR:-/tmp}/cdevbench-initramfs.XXXXXX")
trap 'rm -f "$initrd"' EXIT
"$RIG_ROOT/scripts/initramfs.sh" "$variant" "$PHASE_KERNEL" "$boot_dir/suite.env" "$initrd"
# QEMU's random numbers for the guest (RDRAND, the boot's RNG seed) come
# from suite.env's SEED (boot k of an arm: seed k, scripts/lib/suite.sh's
# write_suite_env); the RTC starts at one date and runs on the guest's
# clock: nothing of the host's randomness or time reaches it.
RTC_BASE=2026-01-01T00:00:00
seed=$(boot_seed "$boot_dir")

case $PHASE_MODE in
icount) accel=(-accel tcg -cpu max -icount 'shift=0,sleep=off') ;;
tcg) accel=(-accel "tcg,thread=${PHASE_THREADS:-multi}" -cpu max) ;;
kvm) accel=("${KVM_ACCEL[@]}") ;;
*) die "phase $phase: unknown mode '$PHASE_MODE' (scripts/phases.def)" ;;
esac
plugin=()
if [ "$PHASE_PLUGIN" != - ]; then
	IFS=, read -r name options <<< "$PHASE_PLUGIN"
	[ -f "$BUILD_DIR/bin/$name.so" ] || die "no $BUILD_DIR/bin/$name.so: run 'make tools'"
	plugin=(-plugin "$BUILD_DIR/bin/$name.so,out=$boot_dir/pmu.txt${options:+,$options}")
fi

# tsc=reliable keeps the guest on the TSC (cheap to read, derived from the
# instruction count in icount mode) instead of falling back to jiffies.
# slab_nomerge gives every cache its own /proc/slabinfo line (kernfs nodes).
# An array, joined with blanks for -append: no word of it is ever
# glob-expanded (slub_debug's cache list holds a '*').
cmdline=(console=ttyS0 "rdinit=$(guest_path "$RIG_ROOT/guest-init/init")" cdevbench_guest=1
	panic=-1 oops=panic clocksource=tsc tsc=reliable nokaslr slab_nomerge
	"${PHASE_CMDLINE[@]}")

# Where the guest is, from the suite's last line in the serial log.
boot_progress() {	# boot_progress T0
	local at
	at=$(sed -n 's/.*cdevbench-suite: //p' "$boot_dir/serial.log" 2> /dev/null | tail -1)
	log "$variant: booted $(( ($(date +%s) - $1) / 60 ))m ago, guest at: ${at:-kernel boot}"
}

# The serial console goes through this host: tee writes it to serial.log
# as it comes, and each line the guest's init or suite logs (the start of
# a step) goes on to steps.tsv with the host seconds since QEMU started;
# QEMU's exit closes it: the boot's profile, which merge.sh sums per step.
# (EPOCHREALTIME's decimal point is the locale's: only its digits count.)
stamp_steps() {
	local start=${EPOCHREALTIME//[!0-9]/} line now
	while IFS= read -r line; do
		now=${EPOCHREALTIME//[!0-9]/} line=${line%$'\r'}
		printf '%d.%02d\t%s\n' $(((now - start) / 1000000)) \
			$(((now - start) % 1000000 / 10000)) "${line#*cdevbench-}" || return
	done
	now=${EPOCHREALTIME//[!0-9]/}
	printf '%d.%02d\tqemu exit\n' $(((now - start) / 1000000)) $(((now - start) % 1000000 / 10000))
}

rm -f "$boot_dir/exit-status" "$boot_dir/qemu-signal"
# The host's paths of the rig, for what the guest runs in the host's root
# (the traced pass's bpftrace and perf), read once the result folder is
# attached: never in the initramfs, whose bytes depend on no host path.
printf 'HOST_RIG_ROOT=%q\nHOST_BIN_DIR=%q\n' "$RIG_ROOT" "$BUILD_DIR/bin" > "$boot_dir/host.env"
# Ctrl-C, or make bench's TERM, stops QEMU with the rest of the process
# group (QEMU exits 0 on either) and the console's pipe: the boot did not
# finish, which says nothing of the kernel.
interrupted=
for signal in INT TERM HUP; do
	# shellcheck disable=SC2064 # the signal's name, now
	trap "interrupted=$signal" "$signal"
done
rc=0 qemu_rc=0 t0=$(date +%s)
every_minute boot_progress "$t0" &
progress=$!
# --foreground keeps QEMU in make's process group, so that Ctrl-C stops
# the boot at once instead of after the guest is done.
# QEMU writes the console to the pipe (file:/dev/stdout: no stdin, no
# terminal settings touched), its own messages to qemu.log.
timeout --foreground -k 10 "$BOOT_TIMEOUT" qemu-system-x86_64 \
	"${accel[@]}" "${plugin[@]}" -smp "$PHASE_VCPUS" -m "$GUEST_MEM" \
	-display none -monitor none -no-reboot -no-user-config -nodefaults \
	-serial file:/dev/stdout \
	-seed "$seed" -rtc "base=$RTC_BASE,clock=vm" \
	-kernel "$bzimage" -initrd "$initrd" -append "${cmdline[*]}" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$boot_dir,mount_tag=results,security_model=none,multidevs=remap" \
	2> "$boot_dir/qemu.log" | tee "$boot_dir/serial.log" |
	grep -a --line-buffered -E 'cdevbench-(init|suite):' | stamp_steps > "$boot_dir/steps.tsv" ||
	{
		# QEMU's status; else a serial.log or steps.tsv that could not be
		# written (grep's 1 is a console without a step line)
		statuses=("${PIPESTATUS[@]}")
		qemu_rc=${statuses[0]} rc=${statuses[0]}
		[ "$rc" != 0 ] || [ "${statuses[1]}" = 0 ] || rc=${statuses[1]}
		[ "$rc" != 0 ] || [ "${statuses[2]}" -le 1 ] || rc=${statuses[2]}
		[ "$rc" != 0 ] || rc=${statuses[3]}
	}
stop_progress "$progress"
if [ -n "$interrupted" ]; then
	log "$variant: interrupted (SIG$interrupted) after $(( $(date +%s) - t0 ))s: the boot did not finish"
	exit $((128 + $(kill -l "$interrupted")))
fi

tail_log() {
	printf '%s\n' "--- last lines of $boot_dir/serial.log ---" >&2
	tail -n 25 "$boot_dir/serial.log" >&2 || true
}

# timeout's own: 124, or 137 where QEMU outlived the TERM it sent
if [ "$qemu_rc" = 124 ] ||
	{ [ "$qemu_rc" = 137 ] && [ $(( $(date +%s) - t0 )) -ge "$BOOT_TIMEOUT" ]; }; then
	tail_log
	log "$variant: guest hung: no power-off within ${BOOT_TIMEOUT}s"
	exit 124
fi
# A boot that died before its result folder was attached has its
# selftest's KTAP on the console alone (guest-init/suite, selftest).
if [ ! -s "$boot_dir/selftest.tap" ] && grep -qa '^cdevbench-tap: ' "$boot_dir/serial.log"; then
	tr -d '\r' < "$boot_dir/serial.log" | sed -n 's/^cdevbench-tap: //p' > "$boot_dir/selftest.tap"
fi
# Phases whose host step judges the kernel's complaints itself: the
# fault phase's flavours include cleanups that are wrong on purpose
# (fault-check.sh judges them group by group), and KCSAN reports races
# all over a kernel (checker-check.sh counts those in the code under test).
case $PHASE_ROWS in
fault-check | checker-check) ;;
*)
	if grep -qsE "$KERNEL_COMPLAINT" "$boot_dir/serial.log"; then
		tail_log
		log "$variant: kernel panic, oops or warning in the serial log"
		exit 125
	fi ;;
esac
# any other signal's death timeout passes on as 128 + N
if [ "$qemu_rc" -gt 128 ] && signal=$(kill -l "$qemu_rc" 2> /dev/null); then
	echo "$signal" > "$boot_dir/qemu-signal"
	tail_log
	log "$variant: QEMU was killed by signal $signal after $(( $(date +%s) - t0 ))s, not by the rig: the boot did not finish"
	exit "$qemu_rc"
fi
if [ "$qemu_rc" != 0 ]; then
	cat "$boot_dir/qemu.log" >&2
	log "$variant: qemu exited with status $qemu_rc"
	exit 125
fi
if [ "$rc" != 0 ]; then
	log "$variant: the console could not be written to $boot_dir (serial.log, steps.tsv; status $rc)"
	exit 125
fi
if [ ! -s "$boot_dir/exit-status" ]; then
	tail_log
	log "$variant: the guest powered off without an exit status"
	exit 125
fi
exit "$(cat "$boot_dir/exit-status")"
