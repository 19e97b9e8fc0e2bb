#!/bin/bash
# The initramfs one boot runs from (guest-init/attach says why):
#   scripts/initramfs.sh KERNEL FLAVOUR SUITE_ENV CPIO
# Debian's busybox-static as every command in /bin; guest-init, the guest
# programs (build/bin/guest-programs, written by make progs), the rig's
# modules built for KERNEL's FLAVOUR and KERNEL's known selftest failures
# under /rig, at the paths scripts/lib/suite.sh's guest_path gives them,
# which SUITE_ENV names; the shared libraries the programs load at their
# own paths; SUITE_ENV as /etc/cdevbench/suite.env.
# Written to CPIO, newc and uncompressed (the kernel needs no decompressor).
# Owners, modes, times and the order of entries are fixed, and no path of
# the host's checkout or build folder is in it, so that its bytes depend
# on those files' contents only: two boots of one kernel and one
# suite.env unpack the same bytes into the same pages, wherever the rig
# lies.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

usage="usage: initramfs.sh KERNEL FLAVOUR SUITE_ENV CPIO"
kernel=${1:?$usage} flavour=${2:?$usage} suite_env=${3:?$usage} cpio_out=${4:?$usage}
BUSYBOX=/bin/busybox
programs=$BUILD_DIR/bin/guest-programs
modules=$(module_dir "$kernel" "$flavour")

[ -x "$BUSYBOX" ] || die "no $BUSYBOX: install busybox-static (make deps)"
! ldd "$BUSYBOX" > /dev/null 2>&1 || die "$BUSYBOX is not statically linked: install busybox-static"
[ -s "$programs" ] || die "no $programs: run 'make progs'"
compgen -G "$modules/*.ko" > /dev/null || die "no modules in $modules: run 'make kernels'"

stage=$(mktemp -d "${TMPDIR:-/tmp}/cdevbench-initramfs-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# FILE... at their own paths in the stage, or (stage_rig_files) at
# their guest_path, symbolic links followed.
stage_at() {	# stage_at FILE PATH
	mkdir -p "$stage$(dirname "$2")"
	cp -L "$1" "$stage$2"
}
stage_files() {
	local f
	for f; do stage_at "$f" "$f"; done
}
stage_rig_files() {
	local f to
	for f; do
		to=$(guest_path "$f") || exit
		stage_at "$f" "$to"
	done
}

mkdir -p "$stage"/{bin,etc/cdevbench,proc,sys,dev,run,tmp,host}
cp "$BUSYBOX" "$stage/bin/busybox"
for applet in $("$BUSYBOX" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done
cp "$suite_env" "$stage/etc/cdevbench/suite.env"
mapfile -t known < <(known_failures "$kernel")
stage_rig_files "$RIG_ROOT"/guest-init/{init,suite,attach} "$modules"/*.ko "${known[@]}"
mapfile -t bins < <(sed "s|^|$BUILD_DIR/bin/|" "$programs")
stage_rig_files "${bins[@]}"
# the loader and every library ldd resolves, at the paths it names
deps=$(ldd "${bins[@]}") || die "ldd failed on the guest programs"
! grep -q 'not found' <<< "$deps" ||
	die "a guest program's library is missing: $(grep -m1 'not found' <<< "$deps")"
mapfile -t libs < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $2 ~ /^\(/ { print $1 }' <<< "$deps" | sort -u)
stage_files "${libs[@]}"

# modes as times and owners: the same whatever the umask
chmod -R u=rwX,go=rX "$stage"
find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --reproducible --quiet) > "$cpio_out"
