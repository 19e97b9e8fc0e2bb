# shellcheck shell=bash
# The kernel command line reaches QEMU word for word (never glob-expanded),
# and MODE=kvm where QEMU cannot run a vCPU under KVM is refused, with
# QEMU's complaint, before anything is built or booted.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/kernels/6.1/stock/obj-fault/arch/x86/boot" "$tmp/boot" "$tmp/cwd"
touch "$tmp/build/kernels/6.1/stock/obj-fault/arch/x86/boot/bzImage" "$tmp/boot/suite.env"
# A QEMU that records its arguments, one per line.
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
printf '%s\n' "$@" > "$QEMU_ARGS"
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
# A file that the fault kernel's slub_debug=A;-,kmemleak_* would match as
# a glob in the current folder.
touch "$tmp/cwd/slub_debug=A;-,kmemleak_x"
(cd "$tmp/cwd" && env PATH="$tmp/bin:$PATH" QEMU_ARGS="$tmp/args" BUILD_DIR="$tmp/build" \
	MODE=icount "$RIG_ROOT/scripts/boot.sh" stock "$tmp/boot" fault) > /dev/null 2>&1 || true
[ -s "$tmp/args" ] || fail "boot.sh did not start QEMU"
append=$(grep -A1 -x -- -append "$tmp/args" | tail -1)
grep -q ' slub_debug=A;-,kmemleak_\*$' <<< "$append" ||
	fail "the fault kernel's command line was changed on its way to QEMU: $append"
grep -q " init=$RIG_ROOT/guest-init/init cdevbench_guest=1 " <<< "$append" ||
	fail "the command line lacks the guest init and its marker: $append"
echo "command line passed as written: ...${append: -60}"

if [ -z "$(. scripts/lib.sh && kvm_refusal)" ]; then
	echo "MODE=kvm refusal not checked: QEMU runs a vCPU under KVM here"
	exit 0
fi
expect_fail "MODE=kvm without a usable KVM" "MODE=kvm: " \
	env MODE=kvm VARIANTS=stock RESULTS_DIR="$tmp/results" BUILD_DIR="$tmp/build" scripts/bench.sh
[ ! -e "$tmp/results" ] || fail "MODE=kvm was refused only after a results folder was made"
