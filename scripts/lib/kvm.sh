# shellcheck shell=bash
# KVM: how QEMU runs a vCPU under it, and whether it can here (MODE=auto
# and kvm, check_setting).
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# How boot.sh runs QEMU in kvm mode.
KVM_ACCEL=(-accel kvm -cpu host)

# Why QEMU cannot run the rig's vCPU under KVM here, or nothing where it
# can.  /dev/kvm may exist and still refuse the vCPU (a nested host that
# rejects an MSR of -cpu host): QEMU then aborts at once, where a usable
# KVM keeps the stopped (-S) guest until the timeout.  The answer of a
# probe made before, RIG_KVM_REFUSAL (check_setting), where one was: a
# usable KVM's probe waits its whole 2 s, and every script of a run, and
# of a host test, sources this file.
kvm_refusal() {
	local out rc=0
	if [ -n "${RIG_KVM_REFUSAL+set}" ]; then
		echo "$RIG_KVM_REFUSAL"
		return
	fi
	if [ ! -w /dev/kvm ]; then
		echo "/dev/kvm $([ -e /dev/kvm ] && echo "is not writable by $(id -un)" ||
			echo "does not exist here")"
		return
	fi
	out=$(timeout 2 qemu-system-x86_64 "${KVM_ACCEL[@]}" -S -nodefaults -no-user-config \
		-display none -monitor none 2>&1) || rc=$?
	[ $rc = 124 ] || echo "QEMU cannot run a vCPU under KVM here: $(head -1 <<< "$out")"
}
