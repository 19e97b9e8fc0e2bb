# shellcheck shell=bash
# The host-side check of a race check's checker boot: every complaint of
# the serial log is listed with the checker that made it and the kernel's
# clock; lockdep's, a list check's and a sleep's count wherever they are;
# a KCSAN report counts only when one of the first three frames of either
# access is a function of the code under test (the objects of
# fs/char_dev.c, drivers/base/map.c and the variant's patched files) or
# of the rig's modules, and is listed as "elsewhere" otherwise; the first
# that counts is printed, its lines kept in splat.txt, and the check fails.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# stock's checker objects of the two files under test, with the
# functions the reports below name
obj=$tmp/build/kernels/6.1/stock/obj-checker
mkdir -p "$obj/fs" "$obj/drivers/base" "$obj/arch/x86/boot"
touch "$obj/arch/x86/boot/bzImage"
echo 'void chrdev_open(void) {} void cd_forget(void) {}' > "$tmp/char_dev.c"
echo 'void kobj_lookup(void) {}' > "$tmp/map.c"
cc -c -o "$obj/fs/char_dev.o" "$tmp/char_dev.c"
cc -c -o "$obj/drivers/base/map.o" "$tmp/map.c"
boot=$tmp/stock/checker-1
mkdir -p "$boot"

# kcsan_report TIME FRAME...: a KCSAN report whose first access's stack is
# FRAME..., its second a tty function's
kcsan_report() {
	local t=$1 f
	shift
	printf '[%12s] %s\n' "$t" "==================================================================" \
		"$t" "BUG: KCSAN: data-race in $1 / tty_write" "$t" "" \
		"$t" "read to 0xffff888003a1c0e8 of 8 bytes by task 91 on cpu 1:"
	for f in "$@"; do printf '[%12s]  %s+0x3a/0x80\n' "$t" "$f"; done
	printf '[%12s] %s\n' "$t" "" "$t" "write to 0xffff888003a1c0e8 of 8 bytes by task 92 on cpu 0:" \
		"$t" " tty_write+0x11/0x40" "$t" " ksys_write+0x20/0x90" "$t" "" \
		"$t" "Reported by Kernel Concurrency Sanitizer on:" \
		"$t" "=================================================================="
}
check() { env BUILD_DIR="$tmp/build" BASE=6.1 MODE=icount scripts/checker-check.sh "$boot" stock; }

# a race in the tty alone, and one whose third frame is chrdev_open
{
	kcsan_report 5.100000 n_tty_read tty_read vfs_read
	kcsan_report 6.250000 __list_add_valid cdev_list_helper chrdev_open.isra.0 do_dentry_open
	printf '%s\n' "[    7.000000] reboot: Power down"
} > "$boot/serial.log"
out=$(check) && fail "a KCSAN report in chrdev_open's third frame passed: $(cat "$boot/complaints.tsv")"
[ "$out" = "kcsan at 6.250000 s: BUG: KCSAN: data-race in __list_add_valid / tty_write" ] ||
	fail "the check names the wrong complaint: '$out'"
diff -u - "$boot/complaints.tsv" <<'TSV' || fail "complaints.tsv (above)"
5.100000	kcsan	elsewhere	BUG: KCSAN: data-race in n_tty_read / tty_write
6.250000	kcsan	counts	BUG: KCSAN: data-race in __list_add_valid / tty_write
TSV
grep -q '^ chrdev_open.isra.0+0x3a/0x80$' "$boot/splat.txt" || fail "splat.txt lacks the report's frames: $(cat "$boot/splat.txt")"

# the same frame fourth: out of the rule's reach, listed, no failure
kcsan_report 6.250000 a b c chrdev_open > "$boot/serial.log"
out=$(check) || fail "a KCSAN report with code under test only in its fourth frame failed the check: $out"
grep -q 'elsewhere' "$boot/complaints.tsv" || fail "a report elsewhere is not listed"

# a frame of the rig's module counts; so do lockdep, a list check and a
# sleep under a lock, wherever they are
kcsan_report 3.000000 fixture_thread kthread > "$boot/serial.log"
sed -i 's/ fixture_thread+0x3a\/0x80/& [cdev_fixture]/' "$boot/serial.log"
out=$(check) && fail "a KCSAN report in the rig's module passed"
# named EXPECTED LINE...: a serial log of LINE... fails the check, which
# prints EXPECTED
named() {
	local want=$1
	shift
	printf '%s\n' "$@" > "$boot/serial.log"
	[ "$(check)" = "$want" ] || fail "not named '$want': $(cat "$boot/complaints.tsv")"
}
named "lockdep at 4.000000 s: WARNING: possible circular locking dependency detected" \
	"[    4.000000] ======================================================" \
	"[    4.000000] WARNING: possible circular locking dependency detected" \
	"[    4.000001] 6.1.192-stock-checker #1 Not tainted"
named "lockdep at 4.000000 s: BUG: spinlock bad magic on CPU#1, cdev_selftest/61" \
	"[    4.000000] BUG: spinlock bad magic on CPU#1, cdev_selftest/61"
named "list at 4.000001 s: WARNING: CPU: 1 PID: 91 at lib/list_debug.c:59 __list_del_entry_valid+0x99/0xb0" \
	"[    4.000000] list_del corruption. prev->next should be ffff888003a1c0e8, but was dead000000000100" \
	"[    4.000001] WARNING: CPU: 1 PID: 91 at lib/list_debug.c:59 __list_del_entry_valid+0x99/0xb0"
named "atomic-sleep at 4.000000 s: BUG: sleeping function called from invalid context at mm/slab.h:723" \
	"[    4.000000] BUG: sleeping function called from invalid context at mm/slab.h:723"
echo "checker-check: KCSAN by its first three frames, lockdep, list and sleep checks named"
