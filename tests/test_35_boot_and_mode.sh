# shellcheck shell=bash
# The kernel command line reaches QEMU word for word (never glob-expanded),
# what the guest is given (command line, initramfs) is the same wherever
# the rig lies, and MODE=kvm where QEMU cannot run a vCPU under KVM is refused, with
# QEMU's complaint, before anything is built or booted.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/boot" "$tmp/cwd"
stand_in_build "$tmp/build"
stand_in_suite_env "$tmp/boot"
# A QEMU that records its arguments, one per line.
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
printf '%s\n' "$@" > "$QEMU_ARGS"
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
# A file that the fault kernel's slub_debug=FZPA;-,kmemleak_* would match as
# a glob in the current folder.
touch "$tmp/cwd/slub_debug=FZPA;-,kmemleak_x"
(cd "$tmp/cwd" && env PATH="$tmp/bin:$PATH" QEMU_ARGS="$tmp/args" BUILD_DIR="$tmp/build" \
	MODE=icount "$RIG_ROOT/scripts/boot.sh" stock "$tmp/boot" fault) > /dev/null 2>&1 || true
[ -s "$tmp/args" ] || fail "boot.sh did not start QEMU"
append=$(grep -A1 -x -- -append "$tmp/args" | tail -1)
grep -q ' slub_debug=FZPA;-,kmemleak_\*$' <<< "$append" ||
	fail "the fault kernel's command line was changed on its way to QEMU: $append"
grep -q " rdinit=/rig/guest-init/init cdevbench_guest=1 " <<< "$append" ||
	fail "the command line lacks the guest init and its marker: $append"
echo "command line passed as written: ...${append: -60}"

# The boot's profile: a QEMU whose console prints init's and the suite's
# lines after a second of "kernel boot" (a stamping loop started late
# on a loaded host would shorten the first step), a step taking 0.5 s,
# then the guest's status.  serial.log gets
# the console as printed; steps.tsv each logged line with the host's
# seconds, then QEMU's exit; unit_profile the steps and their seconds.
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
echo "Linux version 6.1.0-stand-in"
sleep 1
echo "cdevbench-init: variant stock boot 1, kernel 6.1.0-stand-in"
echo "cdevbench-suite: step selftest"
sleep 0.5
echo "cdevbench-suite: step traced_pass"
echo "cdevbench-init: powering off, suite exit status 0"
echo 0 > "$STANDIN_BOOT_DIR/exit-status"
QEMU
env PATH="$tmp/bin:$PATH" BUILD_DIR="$tmp/build" STANDIN_BOOT_DIR="$tmp/boot" MODE=icount \
	scripts/boot.sh stock "$tmp/boot" fault > "$tmp/boot.out" 2>&1 ||
	{ cat "$tmp/boot.out"; fail "a boot that printed its status failed"; }
[ "$(wc -l < "$tmp/boot/serial.log")" = 5 ] && grep -qx 'cdevbench-suite: step traced_pass' "$tmp/boot/serial.log" ||
	fail "serial.log is not the console as printed: $(cat "$tmp/boot/serial.log")"
cut -f2 "$tmp/boot/steps.tsv" | tr '\n' '|' | grep -qx 'init: variant stock boot 1, kernel 6.1.0-stand-in|suite: step selftest|suite: step traced_pass|init: powering off, suite exit status 0|qemu exit|' ||
	fail "steps.tsv does not list the logged lines and QEMU's exit: $(cat "$tmp/boot/steps.tsv")"
profile=$(. scripts/lib.sh && rig_init && unit_profile "$tmp/boot")
# A line stamped late (the stamping loop behind on a loaded host) shortens
# the step before it: 0.49 s has been seen.
awk -F'\t' '$1 == "suite: step selftest" && $2 >= 0.4 && $2 < 5 { found = 1 } END { exit !found }' <<< "$profile" ||
	fail "the selftest step did not take its 0.5 s in the profile: $profile"
cut -f1 <<< "$profile" | tr '\n' '|' | grep -qx 'kernel boot|init|suite: step selftest|suite: step traced_pass|power-off|' ||
	fail "the profile's steps are not named as the boots of every kernel sum them: $profile"
echo "a boot's console is stamped into steps.tsv and its profile"

# What the guest is given does not depend on where the rig lies: the
# rig's files in two folders of different lengths, each with its own
# build folder, write suite.env and boot: the same command line and the
# same initramfs, byte for byte (the paths once moved the timed rows:
# docs/determinism.md).
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
printf '%s\n' "$@" > "$QEMU_ARGS"
while [ "$1" != -initrd ]; do shift; done
cp "$2" "$QEMU_ARGS.initrd"
QEMU
for where in a a-folder-whose-name-is-longer; do
	rig=$tmp/$where/rig
	mkdir -p "$rig" "$tmp/$where/boot-1"
	cp -r scripts guest-init patches "$rig/"
	stand_in_build "$tmp/$where/build"
	mkdir -p "$tmp/$where/build/kernels/6.1/stock/obj/include/config"
	echo 6.1.0-stand-in > "$tmp/$where/build/kernels/6.1/stock/obj/include/config/kernel.release"
	# shellcheck disable=SC2034 # MODE: read by rig_init
	(cd "$rig" && MODE=icount BUILD_DIR="$tmp/$where/build" && . scripts/lib.sh && rig_init &&
		write_suite_env stock stock "$tmp/$where/boot-1" timing) ||
		fail "write_suite_env in $where failed"
	(cd "$tmp/cwd" && env PATH="$tmp/bin:$PATH" QEMU_ARGS="$tmp/$where/args" BUILD_DIR="$tmp/$where/build" \
		MODE=icount "$rig/scripts/boot.sh" stock "$tmp/$where/boot-1" timing) > "$tmp/out" 2>&1 || true
	[ -s "$tmp/$where/args.initrd" ] || fail "boot.sh from $where did not start QEMU: $(cat "$tmp/out")"
	grep -A1 -x -- -append "$tmp/$where/args" | tail -1 > "$tmp/$where/append"
done
cmp -s "$tmp"/{a,a-folder-whose-name-is-longer}/append ||
	fail "the command line depends on the rig's folder: $(cat "$tmp"/{a,a-folder-whose-name-is-longer}/append)"
cmp -s "$tmp"/{a,a-folder-whose-name-is-longer}/args.initrd ||
	fail "the initramfs depends on the rig's folder: $(diff <(cpio -it < "$tmp/a/args.initrd" 2> /dev/null) \
		<(cpio -it < "$tmp/a-folder-whose-name-is-longer/args.initrd" 2> /dev/null) | head -5)"
grep -q "$tmp" "$tmp/a/args.initrd" && fail "the initramfs names a host path: $(grep -ao "${tmp}[^ ]*" "$tmp/a/args.initrd" | head -3)"
echo "the command line and the initramfs are the same from two folders of the rig"

if [ -z "$(. scripts/lib.sh && rig_init && kvm_refusal)" ]; then
	echo "MODE=kvm refusal not checked: QEMU runs a vCPU under KVM here"
	exit 0
fi
expect_fail "MODE=kvm without a usable KVM" "MODE=kvm: " \
	env MODE=kvm VARIANTS=stock RESULTS_DIR="$tmp/results" BUILD_DIR="$tmp/build" scripts/bench.sh
[ ! -e "$tmp/results" ] || fail "MODE=kvm was refused only after a results folder was made"

