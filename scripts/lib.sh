# Shared helpers for the host-side scripts: paths, logging with elapsed time,
# and hashing.  Sourced, never run.

RIG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=$(mkdir -p "${BUILD_DIR:-$RIG_ROOT/build}" && cd "${BUILD_DIR:-$RIG_ROOT/build}" && pwd)
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
PRISTINE_TREE=$BUILD_DIR/src/linux-source-6.1
# Variants and the shared config fragment; tests point this elsewhere.
PATCHES_DIR=${PATCHES_DIR:-$RIG_ROOT/patches}
# The whole run shares one start time so that every line shows run time.
export RIG_T0=${RIG_T0:-$(date +%s)}

log() {
	local t=$(( $(date +%s) - RIG_T0 ))
	printf '[%02d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*" >&2
}

die() {
	printf 'cdevbench: error: %s\n' "$*" >&2
	exit 1
}

# sha256 of the named files' contents, in order; missing files hash as empty.
hash_files() {
	local f
	for f in "$@"; do
		printf '%s\n' "${f##*/}"
		[ -f "$f" ] && cat "$f"
	done | sha256sum | cut -d' ' -f1
}

# Every variant: stock plus each folder of patches/ that holds a series.
all_variants() {
	local s
	echo stock
	for s in "$PATCHES_DIR"/*/series; do
		[ -f "$s" ] && basename "$(dirname "$s")"
	done
	return 0
}

check_variant() {
	local valid
	valid=$(all_variants)
	grep -qx -- "$1" <<< "$valid" ||
		die "unknown variant '$1'; valid variants: $(echo $valid)"
}

# Patch files of a variant's series, in order, as absolute paths.
series_patches() {
	local series=$PATCHES_DIR/$1/series line
	[ -f "$series" ] || return 0
	while read -r line; do
		line=${line%%#*}
		line=$(echo $line)
		[ -n "$line" ] || continue
		[ -f "$PATCHES_DIR/$1/$line" ] ||
			die "variant $1: series names $line, which is not in patches/$1/"
		echo "$PATCHES_DIR/$1/$line"
	done < "$series"
}

variant_dir() { echo "$BUILD_DIR/kernels/$1"; }

# Objects of a variant's kernel: obj/ for timing, obj-<flavour>/ otherwise.
kernel_obj_dir() {	# kernel_obj_dir VARIANT [FLAVOUR]
	case ${2:-timing} in
	timing) echo "$BUILD_DIR/kernels/$1/obj" ;;
	*) echo "$BUILD_DIR/kernels/$1/obj-$2" ;;
	esac
}

# The rig's modules built for that kernel.
module_dir() {	# module_dir VARIANT [FLAVOUR]
	case ${2:-timing} in
	timing) echo "$BUILD_DIR/modules/$1" ;;
	*) echo "$BUILD_DIR/modules/$1-$2" ;;
	esac
}
