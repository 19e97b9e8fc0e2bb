#!/bin/bash
# Runs made by the rig's own scripts (bench.sh, unit.sh, merge.sh,
# resume.sh, compare.sh), with no kernel built and nothing booted: a copy
# of SCRIPTS whose kernel.sh and boot.sh are stand-ins that leave the
# files a build and a boot leave (a tree base, a kernel's release,
# .config, bzImage and module; a boot's steps and rows), everything else
# the rig's own (the programs are build/bin's, but for trace_rows).
#   tests/fake_runs.sh SCRIPTS OUT
# leaves in OUT/results/:
#   *-all   BASES="6.1 <a tree>" VARIANTS="stock sysfs-cdev" AA=1 WALK=1
#           FAULTS=1: a prefix that does not build (sysfs-cdev~2 on the
#           tree), one whose boot fails (sysfs-cdev~1 on 6.1) and stock's
#           boot on 6.1, which fails once: the run fails, make resume
#           finishes it
#   *-old   stock and cdev-hash on 6.1, PMU=1: the plugin's boots, the
#           calibration on stock's alone
#   *-new   cdev-hash on 6.1, AGAINST the -old run: against-<old id>/
#   *-bisect  BISECT="cdev_add_ns n=100" of `steps`, a series of 8
#           patches (in OUT/patches) whose cdev_add_ns at n=100 is
#           three times stock's from patch 5 on
#   *-bisect-skip  the same, but the boot of patches 1-4 fails
#   *-nb    stock and cdev-hash on 6.1, 1 boot, cdev-hash's an oops
#           (tests/kernel-failures/oops-6.1.log): a run complete without
#           it, which make resume boots again, the same oops again
#   tests/fake_runs.sh SCRIPTS OUT RUN...
# makes the runs named (all, old, new, bisect, nb) alone; "none" makes no
# run, only the copy of the rig (OUT/rig), its stand-ins and OUT/build.
# Each script's output goes to OUT/log.  tests/test_46_meta_schema.sh
# reads the meta.json files these runs write, test_47 the bisect runs;
# tests/run.sh makes them once for both (tests/lib.sh, fake_runs).
set -euo pipefail
scripts=$(cd "${1:?usage: fake_runs.sh SCRIPTS OUT}" && pwd)
out=$(mkdir -p "${2:?usage: fake_runs.sh SCRIPTS OUT}" && cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
for p in compare rows; do
	[ -x "$root/build/bin/$p" ] || { echo "fake_runs.sh: no build/bin/$p: make progs tools" >&2; exit 1; }
done

rig=$out/rig
mkdir -p "$rig" "$out/build/bin" "$out/bin"
cp -r "$scripts" "$rig/scripts"
for d in bench guest-init patches plot; do ln -s "$root/$d" "$rig/$d"; done
for p in "$root"/build/bin/*; do ln -s "$p" "$out/build/bin/"; done
rm "$out/build/bin/trace_rows" "$out/build/bin/pmu_rows"
printf '#!/bin/sh\n# stand-in: a row for the traced pass of boot $2 of arm $1\necho "$1,$2,lock_hold_ns,phase=add,0,1,ns"\n' \
	> "$out/build/bin/trace_rows"
printf '#!/bin/sh\n# stand-in: a fake boot writes its plugin rows itself\nexit 0\n' > "$out/build/bin/pmu_rows"
printf '#!/bin/sh\n# stand-in: only asked its version\necho "QEMU emulator version 7.2.0 (fake)"\n' \
	> "$out/bin/qemu-system-x86_64"
chmod +x "$out/build/bin/trace_rows" "$out/build/bin/pmu_rows" "$out/bin/qemu-system-x86_64"

# kernel.sh VARIANT [FLAVOUR]: the base's pristine tree (a packaged
# base's Makefile alone) and what a build of the variant leaves; fails
# for each VARIANT:BASE_KEY in FAKE_KERNEL_FAILS; waits with
# FAKE_KERNEL_WAIT.
cat > "$rig/scripts/kernel.sh" <<'KERNEL'
#!/bin/bash
# stand-in for scripts/kernel.sh (tests/fake_runs.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init
v=$1 flavour=${2:-timing}
[[ " ${FAKE_KERNEL_FAILS:-} " != *" $v:$BASE_KEY "* ]] ||
	die "variant $v on $BASE: kernel build failed (fake)"
[ "$flavour" != audit ] || exit 0
# FAKE_KERNEL_WAIT=FILE: a build that ignores SIGINT, as a command a
# script starts in the background does, and runs for a minute: FILE
# there once it has started, FILE.done once it has run to its end
if [ -n "${FAKE_KERNEL_WAIT:-}" ]; then
	trap '' INT
	: > "$FAKE_KERNEL_WAIT"
	sleep 61.5
	: > "$FAKE_KERNEL_WAIT.done"
fi
if [ -n "$KERNEL_TARBALL" ]; then
	mkdir -p "$PRISTINE_TREE"
	printf 'VERSION = 6\nPATCHLEVEL = %s\nSUBLEVEL = 192\nEXTRAVERSION =\n' "${BASE_LINE#*.}" \
		> "$PRISTINE_TREE/Makefile"
	: > "$PRISTINE_TREE/.cdevbench-extracted"
else
	extract_pristine
fi
tree=$(variant_dir "$v") obj=$(kernel_obj_dir "$v" "$flavour") mod=$(module_dir "$v" "$flavour")
mkdir -p "$tree/.cdevbench" "$obj/include/config" "$obj/arch/x86/boot" "$mod"
mapfile -t patches < <(series_patches "$v")
hash_files "${patches[@]}" > "$tree/.cdevbench/series.sha"
printf 'CONFIG_FAKE_LINE="%s"\nCONFIG_FAKE_FLAVOUR="%s"\n' "$BASE_LINE" "$flavour" > "$obj/.config"
echo "$(tree_version "$PRISTINE_TREE")-$v$([ "$flavour" = timing ] || echo "-$flavour")" \
	> "$obj/include/config/kernel.release"
echo "$v $flavour $BASE_KEY" > "$obj/arch/x86/boot/bzImage"
: > "$obj/System.map"
echo "$v $flavour" > "$mod/cdevbench.ko"
KERNEL

# boot.sh KERNEL UNIT_DIR PHASE: a timing boot's rows (cdev_add_ns, the
# same for every arm but steps~5 to steps~7 and steps, three times
# slower at n=100), a fault boot's (fail_handled); fails for each
# ARM/UNIT in FAKE_BOOT_FAILS, and with a 6.1 oops in its serial log
# for each in FAKE_BOOT_OOPS.
cat > "$rig/scripts/boot.sh" <<'BOOT'
#!/bin/bash
# stand-in for scripts/boot.sh (tests/fake_runs.sh)
set -euo pipefail
dir=$2 phase=$3
unit=$(basename "$(dirname "$dir")")/$(basename "$dir")
printf '0.50\tinit: variant %s\n1.00\tinit: powering off\n' "$1" > "$dir/steps.tsv"
echo "fake boot of $1" > "$dir/serial.log"
[[ " ${FAKE_BOOT_FAILS:-} " != *" $unit "* ]] || exit 125
if [[ " ${FAKE_BOOT_OOPS:-} " = *" $unit "* ]]; then
	cat "$FAKE_KERNEL_FAILURES/oops-6.1.log" >> "$dir/serial.log"
	exit 125
fi
{
	"$BUILD_DIR/bin/rows" header
	if [ "$phase" = fault ]; then
		echo "fail_handled flavour=embed_put 0 3 count"
	elif [ "$phase" = pmu ] || [ "$phase" = share ]; then
		# the plugin's boots: the calibration where the plan asks for it
		benches=$(. "$dir/suite.env" && echo "$BENCHES")
		echo "insns_per_op bench=register,n=100 0 500 count"
		[ "$phase" = share ] || { [ -n "$benches" ] && [[ " $benches " != *" pchase "* ]]; } ||
			echo "l1d_misses_per_op bench=pchase,kib=16 0 0 count"
	else
		for i in 0 1 2; do
			for n in 1 100; do
				case $UNIT_ARM/$n in
				steps~[567]/100 | steps/100) echo "cdev_add_ns n=$n $i $((3 * (1000 + n + i))) ns" ;;
				*) echo "cdev_add_ns n=$n $i $((1000 + n + i)) ns" ;;
				esac
			done
		done
	fi | "$BUILD_DIR/bin/rows" module "$UNIT_ARM" "${dir##*-}"
} > "$dir/samples.csv"
BOOT
chmod +x "$rig/scripts/kernel.sh" "$rig/scripts/boot.sh"

# a tree base: a kernel line's Makefile and fs/char_dev.c, committed;
# its commit and its files' times fixed, so that the same scripts write
# the same meta.json
tree=$out/linux-tree
mkdir -p "$tree/fs"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n' > "$tree/Makefile"
: > "$tree/fs/char_dev.c"
git -C "$tree" init -q
git -C "$tree" add -A
GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
	git -C "$tree" -c user.name=fake -c user.email=fake@example.org commit -qm tree
find "$tree" -path "$tree/.git" -prune -o -exec touch -d 2026-01-01T00:00:00Z {} +

export PATH=$out/bin:$PATH RESULTS_DIR=$out/results BUILD_DIR=$out/build MODE=icount \
	BOOTS=1 PMU=0 RACE=0 BOOT_JOBS=1 EXECUTOR=local FAKE_KERNEL_FAILURES=$root/tests/kernel-failures
unset AGAINST BASE BASES VARIANTS BASELINE FAULTS AA WALK LABEL RUN QUICK
: > "$out/log"
run() { echo "# $*" >> "$out/log"; "$@" >> "$out/log" 2>&1; }
fails() { ! run "$@" || { echo "fake_runs.sh: '$*' did not fail (log: $out/log)" >&2; exit 1; }; }
ok() { run "$@" || { echo "fake_runs.sh: '$*' failed (log: $out/log)" >&2; exit 1; }; }

runs=" ${*:3} "
[ "$runs" != "  " ] || runs=" all old new bisect nb "
if [[ $runs = *" all "* ]]; then
	fails env BASES="6.1 $tree" VARIANTS="stock sysfs-cdev" AA=1 WALK=1 FAULTS=1 LABEL=all \
		FAKE_KERNEL_FAILS="sysfs-cdev~2:$(cd "$rig" && MODE=icount bash -c '. scripts/lib.sh && rig_init && base_key "$1"' - "$tree")" \
		FAKE_BOOT_FAILS="stock:6.1/boot-1 sysfs-cdev~1:6.1/boot-1" "$rig/scripts/bench.sh"
	ok env RUN="$(ls -d "$RESULTS_DIR"/*-all)" FAKE_BOOT_FAILS="sysfs-cdev~1:6.1/boot-1" "$rig/scripts/resume.sh"
fi
if [[ $runs = *" old "* ]] || [[ $runs = *" new "* ]]; then
	ok env VARIANTS="stock cdev-hash" FAULTS=0 PMU=1 LABEL=old "$rig/scripts/bench.sh"
fi
if [[ $runs = *" new "* ]]; then
	ok env VARIANTS=cdev-hash FAULTS=0 LABEL=new AGAINST="$(ls -d "$RESULTS_DIR"/*-old)" "$rig/scripts/bench.sh"
fi
if [[ $runs = *" bisect "* ]]; then
	cp -r "$root/patches" "$out/patches"
	mkdir "$out/patches/steps"
	for k in 1 2 3 4 5 6 7 8; do
		printf 'From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH %s/8] steps: step %s\n\n---\n' \
			"$k" "$k" > "$out/patches/steps/000$k-step-$k.patch"
		echo "000$k-step-$k.patch" >> "$out/patches/steps/series"
	done
	ok env VARIANTS="stock steps" FAULTS=0 BOOTS=2 LABEL=bisect PATCHES_DIR="$out/patches" \
		BISECT="cdev_add_ns n=100" "$rig/scripts/bench.sh"
	ok env VARIANTS="stock steps" FAULTS=0 BOOTS=2 LABEL=bisect-skip PATCHES_DIR="$out/patches" \
		BISECT="cdev_add_ns n=100" FAKE_BOOT_FAILS="steps~4/boot-1" "$rig/scripts/bench.sh"
fi
if [[ $runs = *" nb "* ]]; then
	ok env VARIANTS="stock cdev-hash" FAULTS=0 LABEL=nb FAKE_BOOT_OOPS=cdev-hash/boot-1 "$rig/scripts/bench.sh"
	ok env RUN="$(ls -d "$RESULTS_DIR"/*-nb)" FAKE_BOOT_OOPS=cdev-hash/boot-1 "$rig/scripts/resume.sh"
fi
