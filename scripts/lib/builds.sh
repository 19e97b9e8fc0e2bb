# shellcheck shell=bash
# A variant's builds on the current base: where its tree, its kernel's
# objects and the rig's modules for it are (docs/layout.md, "Kernel
# trees and builds"), and their content hashes.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# A variant's tree on the current base.
variant_dir() { echo "$BUILD_DIR/kernels/$BASE_KEY/$1"; }

# Objects of a variant's kernel: obj/ for timing, obj-<flavour>/ otherwise.
kernel_obj_dir() {	# kernel_obj_dir VARIANT [FLAVOUR]
	case ${2:-timing} in
	timing) echo "$(variant_dir "$1")/obj" ;;
	*) echo "$(variant_dir "$1")/obj-$2" ;;
	esac
}

# The rig's modules built for that kernel.
module_dir() {	# module_dir VARIANT [FLAVOUR]
	case ${2:-timing} in
	timing) echo "$BUILD_DIR/modules/$BASE_KEY/$1" ;;
	*) echo "$BUILD_DIR/modules/$BASE_KEY/$1-$2" ;;
	esac
}

# sha256 of the named files' contents, in order; missing files hash as empty.
hash_files() {
	local f
	for f in "$@"; do
		printf '%s\n' "${f##*/}"
		[ -f "$f" ] && cat "$f"
	done | sha256sum | cut -d' ' -f1
}

# The builds of a variant's kernel of one flavour, as jq arguments in
# KERNEL_BUILD_JQ_ARGS: sha256 of bzImage and of the modules the guest
# loads, keys PREFIXkernel_sha256 and PREFIXmodule_sha256.
# shellcheck disable=SC2034 # read by unit_facts_json and meta.sh
kernel_build_jq_args() {	# kernel_build_jq_args VARIANT FLAVOUR [PREFIX]
	local bzimage
	bzimage=$(kernel_obj_dir "$1" "$2")/arch/x86/boot/bzImage
	[ -f "$bzimage" ] || die "no $2 kernel for $1 at $bzimage: run 'make kernels'"
	KERNEL_BUILD_JQ_ARGS=(--arg "${3:-}kernel_sha256" "$(sha256sum < "$bzimage" | cut -d' ' -f1)"
		--arg "${3:-}module_sha256" "$(hash_files "$(module_dir "$1" "$2")"/*.ko)")
}
