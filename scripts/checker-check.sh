#!/bin/bash
# Host-side check of one checker boot of make race-check (the checker
# phase: lockdep, atomic-sleep and list checks, KCSAN):
#   scripts/checker-check.sh BOOT_DIR VARIANT
# Lists every complaint of BOOT_DIR/serial.log in BOOT_DIR/complaints.tsv
# (the kernel's clock at its first line, which checker made it, whether
# it counts, that line) and writes the first that counts, up to 40 lines,
# to BOOT_DIR/splat.txt.  Every complaint counts but a KCSAN report of a
# race outside the code under test.  The rule, written down
# (docs/correctness.md): a KCSAN report counts when one of the first
# three frames of either access's stack is a function of the code under
# test, that is, a function that the objects of fs/char_dev.c,
# drivers/base/map.c and every .c file the variant's series touches
# define (their symbol tables in the checker kernel's objects; a file
# its config does not build has none), or a
# function of the rig's modules.  KCSAN reports races anywhere in the
# kernel (the tty, 9p, the scheduler's statistics); those are listed as
# "elsewhere", never silenced.  Prints the first counting complaint as
# "CHECKER at SECONDS s: LINE" and exits 1, or prints nothing and exits 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

boot_dir=${1:?usage: checker-check.sh BOOT_DIR VARIANT}
variant=${2:?usage: checker-check.sh BOOT_DIR VARIANT}
serial=$boot_dir/serial.log
[ -f "$serial" ] || die "$serial missing: the checker boot wrote no console"
obj=$(kernel_obj_dir "$variant" checker)
[ -f "$obj/arch/x86/boot/bzImage" ] || die "no checker kernel of $variant in $obj: run make race-check"

# The functions of the code under test, one per line.
mapfile -t patches < <(series_patches "$variant")
under_test=$boot_dir/under-test.txt
{
	printf '%s\n' fs/char_dev.c drivers/base/map.c
	[ ${#patches[@]} = 0 ] || patched_paths /dev/null "${patches[@]}"
} | sed -n 's/\.c$/.o/p' | sort -u | while read -r o; do
	# a file this kernel's config does not build (a driver the series
	# touches) has no function in it
	[ ! -f "$obj/$o" ] || nm --defined-only "$obj/$o" | awk '$2 ~ /^[tTwW]$/ { print $3 }'
done | sort -u > "$under_test"

# One complaint per line: seconds, checker, counts|elsewhere, first line.
# A complaint runs from a line KERNEL_COMPLAINT matches to the next such
# line (a KCSAN report to its closing "====" line); the timestamps that
# printk.time puts before every line are read and stripped.
tr -d '\r' < "$serial" | awk -v complaint="$KERNEL_COMPLAINT" -v kcsan="$KERNEL_KCSAN" \
	-v sleep="$KERNEL_ATOMIC_SLEEP" -v list="$KERNEL_LIST_CHECK" -v lockdep="$KERNEL_LOCKDEP" \
	-v memory="$KERNEL_MEMORY_ERROR" -v splat="$boot_dir/splat.txt" -v functions="$under_test" '
	BEGIN { while ((getline f < functions) > 0) fn[f] = 1 }
	function finish(   counts) {
		if (head == "") return
		counts = kind != "kcsan" || hit
		printf "%s\t%s\t%s\t%s\n", at, kind, counts ? "counts" : "elsewhere", head
		if (counts && !written) { printf "%s", body > splat; written = 1 }
		head = ""
	}
	{
		t = ""
		if (match($0, /^\[ *[0-9]+\.[0-9]+\] /)) {
			t = substr($0, 2, RLENGTH - 3); sub(/^ +/, "", t)
			$0 = substr($0, RLENGTH + 1)
		}
	}
	head != "" && kind == "kcsan" && /^=+$/ { finish(); next }
	$0 ~ complaint && !(head != "" && kind == "kcsan") {
		finish()
		head = $0; at = t; body = ""; lines = 0; hit = 0; frames = -1
		if ($0 ~ kcsan) kind = "kcsan"
		else if ($0 ~ sleep) kind = "atomic-sleep"
		else if ($0 ~ list || prev ~ list) kind = "list"
		else if ($0 ~ lockdep) kind = "lockdep"
		else if ($0 ~ memory) kind = "memory"
		else kind = "other"
	}
	head == "" { prev = $0; next }
	{ if (lines++ < 40) body = body $0 "\n" }
	kind == "kcsan" && / bytes by / { frames = 0; next }
	kind == "kcsan" && frames >= 0 && frames < 3 && match($0, /^ ?[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+/) {
		f = substr($0, RSTART, RLENGTH); sub(/^ /, "", f); sub(/\+.*/, "", f); sub(/\..*/, "", f)
		frames++
		if (f in fn || $0 ~ /\[(cdevbench|cdev_fixture|cdev_faults)\]$/) hit = 1
	}
	{ prev = $0 }
	END { finish() }
' > "$boot_dir/complaints.tsv"

awk -F'\t' '$3 == "counts" { printf "%s at %s s: %s\n", $2, $1, $4; found = 1; exit }
	END { exit found }' "$boot_dir/complaints.tsv" || exit 1
