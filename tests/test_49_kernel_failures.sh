# shellcheck shell=bash
# A kernel that does not boot is a finding, not a failed run (issue 43,
# item 6).  First the reading of a serial log (scripts/lib/failures.sh
# serial_failure, failure_json) on the consoles of
# tests/kernel-failures/: a 6.1 oops, a 6.12 general protection fault,
# a 6.1 refcount_t warning, a panic that kills init, a hang, a selftest
# and a step that failed, and the faults of the rig that are none.
# Then runs made by the rig's own scripts (bench.sh, unit.sh, boot.sh,
# merge.sh, resume.sh, compare.sh) on stand-in kernels
# (tests/fake_runs.sh) and a stand-in QEMU that prints what a guest's
# console would, an oops with its call trace among it:
#   - a variant whose every boot oopses: the run completes without it,
#     'latest' and the report made, its line on the first screen "did
#     not boot: <first complaint> (<function>)", its column "did not
#     boot", meta.json's failures; make bench's log has the complaint
#     and the call trace; make resume does not boot it again;
#   - one boot, one oops: make resume boots it again, the same oops
#     again, and a second make resume does not;
#   - some boots failed (an oops, a selftest, the baseline's too): the
#     others' figures and verdicts, and the line says how many failed;
#   - the baseline did not boot: the run fails, saying it cannot be
#     compared;
#   - QEMU killed by a signal beside an oops: the run is incomplete as
#     before, and make resume boots both again.
# Then the check of the first screen is shown to fail.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
consoles=$RIG_ROOT/tests/kernel-failures

# --- The reading of a console ---
# failure_of CONSOLE STATUS [EXIT_STATUS [TAP]]: failure_json of a unit
# whose serial.log is CONSOLE (a file of tests/kernel-failures, or
# lines), whose boot ended with STATUS, the guest's exit-status and
# selftest.tap as given.
failure_of() {
	local dir=$tmp/unit
	rm -rf "$dir"
	mkdir "$dir"
	if [ -f "$consoles/$1" ]; then cp "$consoles/$1" "$dir/serial.log"; else printf '%s\n' "$1" > "$dir/serial.log"; fi
	[ -z "${3:-}" ] || echo "$3" > "$dir/exit-status"
	[ -z "${4:-}" ] || printf '%s\n' "$4" > "$dir/selftest.tap"
	MODE=icount BOOT_TIMEOUT=900 bash -c '. scripts/lib.sh && rig_init && failure_json "$1" "$2"' - "$dir" "$2"
}
# reads CONSOLE STATUS EXIT_STATUS TAP EXPECTED: failure_json's
# kind|function|step|signature|line is EXPECTED ("" for none).
reads() {
	local got
	got=$(failure_of "$1" "$2" "$3" "$4" | jq -r '[.kind, .function // "-", .step // "-", .signature, .line] | join("|")')
	[ "$got" = "$5" ] || fail "$1 (status $2) reads as '$got', not '$5'"
}
reads oops-6.1.log 125 "" "" \
	"oops|kobj_lookup|timed_pass|oops kobj_lookup|BUG: kernel NULL pointer dereference, address: 0000000000000008"
reads oops-6.12.log 125 "" "" \
	"oops|cdev_del|selftest|oops cdev_del|Oops: general protection fault, probably for non-canonical address 0xdead000000000122: 0000 [#1] PREEMPT SMP NOPTI"
reads warning-6.1.log 125 "" "" \
	"warning|try_register [cdev_faults]|timed_pass|warning try_register [cdev_faults]|refcount_t: underflow; use-after-free."
reads panic-6.1.log 125 "" "" \
	"panic|do_exit|kernel boot|panic do_exit|Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b"
reads $'cdevbench-init: variant x boot 1\ncdevbench-suite: step timed_pass\ncdevbench-suite: register: n=1, 5 repetitions' 124 "" "" \
	"hang|-|timed_pass|hang in step timed_pass|no power-off within 900s; the console's last line: cdevbench-suite: register: n=1, 5 repetitions"
reads $'cdevbench-suite: step selftest\ncdevbench-suite: FAILED: selftest: 1 case(s) failed, see selftest.tap\ncdevbench-suite: FAILED in step selftest (status 1)' \
	1 1 $'KTAP version 1\n1..2\nok 1 add_del\nnot ok 2 no_sys_cdev # /sys/cdev/254:0 missing' \
	"selftest|-|selftest|selftest no_sys_cdev|not ok 2 no_sys_cdev # /sys/cdev/254:0 missing"
reads $'cdevbench-suite: step load_module cdevbench\ncdevbench-suite: FAILED: insmod /m/cdevbench.ko\ncdevbench-suite: FAILED in step load_module cdevbench (status 1)' \
	1 1 "" "step|-|load_module cdevbench|step load_module cdevbench|FAILED: insmod /m/cdevbench.ko"
# the rig's faults: QEMU that would not start or a console not written
# (125, no complaint), a status not the guest's (boot.sh's own die)
[ -z "$(failure_of "qemu-system-x86_64: -m 3G: cannot set up guest memory" 125)" ] ||
	fail "a boot without a complaint and without a guest's status was taken for the kernel's failure"
[ -z "$(failure_of "cdevbench-init: variant x boot 1" 1 3)" ] ||
	fail "a status that is not the guest's was taken for the kernel's failure"
trace=$(MODE=icount bash -c '. scripts/lib.sh && rig_init && serial_failure "$1" trace' - "$consoles/oops-6.1.log")
[ "$(head -3 <<< "$trace")" = $'BUG: kernel NULL pointer dereference, address: 0000000000000008\nRIP: 0010:kobj_lookup+0x3c/0x170\nCall Trace:' ] &&
	grep -qx ' chrdev_open+0x9b/0x230' <<< "$trace" && [ "$(tail -1 <<< "$trace")" = ' </TASK>' ] &&
	! grep -q '^RSP: 002b' <<< "$trace" || fail "the complaint and call trace of the 6.1 oops: $trace"
echo "consoles: a 6.1 oops, a 6.12 GP fault, a refcount_t warning, a panic, a hang, a selftest and a step read; the rig's faults are none"

# --- Runs ---
tests/fake_runs.sh scripts "$tmp" none
cp scripts/boot.sh "$tmp/rig/scripts/boot.sh"
# A guest of boot.sh's unit folder: its console as a guest's, rows of
# cdev_add_ns (cdev-hash's a fifth below the others' at n=100) and
# status 0.  GUEST_FAULTS, "ARM/boot-K:FAULT ...": oops (the console of
# tests/kernel-failures/oops-6.1.log after the selftest's first case on
# the console, then QEMU ends as panic=-1 and -no-reboot end it: status
# 0, no exit-status), selftest (case 2 fails: status 1), kill (QEMU
# killed by SIGKILL).
stand_in_qemu "$tmp/bin" <<'QEMU'
echo "Linux version $KERNEL_RELEASE (stand-in)"
echo "Run $RIG_ROOT/guest-init/init as init process"
echo "cdevbench-init: variant $VARIANT boot $BOOT, kernel $KERNEL_RELEASE, clocksource tsc"
echo "cdevbench-suite: step selftest"
case " ${GUEST_FAULTS:-} " in
*" $VARIANT/boot-$BOOT:kill "*) kill -KILL $$ ;;
*" $VARIANT/boot-$BOOT:oops "*)
	printf 'cdevbench-tap: %s\r\n' 'KTAP version 1' '1..2' 'ok 1 add_del'
	sed "s/6\.1\.192-sysfs-cdev/$KERNEL_RELEASE/" "$CONSOLES/oops-6.1.log"
	exit 0 ;;
*" $VARIANT/boot-$BOOT:selftest "*)
	printf 'KTAP version 1\n1..2\nok 1 add_del\nnot ok 2 no_sys_cdev # /sys/cdev/254:0 missing\n' > "$dir/selftest.tap"
	echo "cdevbench-suite: FAILED: selftest: 1 case(s) failed, see selftest.tap"
	echo "cdevbench-suite: FAILED in step selftest (status 1)"
	echo 1 > "$dir/exit-status"
	echo "cdevbench-init: powering off, suite exit status 1"
	exit 0 ;;
esac
printf 'KTAP version 1\n1..1\nok 1 add_del\n' > "$dir/selftest.tap"
echo "cdevbench-suite: step timed_pass"
slow=2000
[ "$VARIANT" != cdev-hash ] || slow=1600
{
	"$BIN_DIR/rows" header
	for i in 0 1 2; do
		echo "cdev_add_ns n=1 $i $((1000 + 10 * BOOT + i)) ns"
		echo "cdev_add_ns n=100 $i $((slow + 10 * BOOT + i)) ns"
	done | "$BIN_DIR/rows" module "$VARIANT" "$BOOT"
} > "$dir/samples.csv"
echo "cdevbench-suite: suite complete"
echo 0 > "$dir/exit-status"
echo "cdevbench-init: powering off, suite exit status 0"
QEMU
unset AGAINST BASE BASES BASELINE AA WALK LABEL RUN QUICK BENCHES BISECT GUEST_FAULTS
export PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build MODE=icount VARIANTS="stock cdev-hash" BOOTS=2 FAULTS=0 \
	PMU=0 RACE=0 BOOT_JOBS=1 EXECUTOR=local CONSOLES=$consoles
rig=$tmp/rig/scripts

# bench NAME [VAR=value...]: a make bench in RESULTS_DIR $tmp/NAME, its
# output in $tmp/log, its status in $rc, its run in $run.
bench() {
	local results=$tmp/$1
	shift
	rc=0
	env RESULTS_DIR="$results" "$@" "$rig/bench.sh" > "$tmp/log" 2>&1 || rc=$?
	run=$(ls -d "$results"/2*)
}
# says PATTERN: the last make bench or resume said it
says() {
	grep -qE -- "$1" "$tmp/log" || fail "the log does not say '$1': $(cat "$tmp/log")"
}
completes() {	# completes WHAT: the last run is complete, latest, reported
	[ "$rc" = 0 ] && [ "$(cat "$run/status")" = complete ] ||
		fail "$1: make bench failed (status $rc, run $(cat "$run/status")): $(tail -20 "$tmp/log")"
	[ "$(readlink "$(dirname "$run")/latest")" = "$(basename "$run")" ] || fail "$1: the run is not latest"
	[ -s "$run/report/report.txt" ] && [ -s "$run/report/report.md" ] || fail "$1: no report"
}
# first_screen REPORT: report.txt's first screen, its wrapped lines
# joined (a line that starts with blanks continues the one before)
first_screen() {
	sed '/^All comparisons$/,$d' "$1" | awk '/^  [^ ]/ && prev != "" && prev !~ /^ / { printf " %s", substr($0, 3); next }
		{ if (NR > 1) print ""; printf "%s", $0; prev = $0 } END { print "" }'
}
# did_not_boot_line REPORT ARM LINE FUNCTION: the first screen says ARM
# did not boot, with its first complaint and function, in its line and
# its column, and leaves it out of the verdicts
did_not_boot_line() {
	local screen
	screen=$(first_screen "$1")
	[ "$(sed '/^All comparisons$/,$d' "$1" | wc -l)" -le 60 ] || fail "$1: the first screen is longer than 60 lines"
	grep -qF -- "$2: did not boot: $3 ($4). " <<< "$screen" ||
		fail "$1: no line '$2: did not boot: $3 ($4)': $screen"
	grep -qE -- "^  cdev_add_ns .*did not boot$" <<< "$screen" || fail "$1: no column of $2 saying 'did not boot': $screen"
	! unquoted_csv "$(dirname "$1")/compare.csv" | cut -d, -f4 | grep -qx -- "$2" || fail "$1: $2 has verdicts"
	! awk 'length > 80' "$1" | grep -q "did not boot" || fail "$1: a line of $2's is wider than 80 columns"
}

# 1. sysfs-cdev oopses on both boots: a finding, the run is complete
# for stock and cdev-hash.
bench nb VARIANTS="stock cdev-hash sysfs-cdev" GUEST_FAULTS="sysfs-cdev/boot-1:oops sysfs-cdev/boot-2:oops"
completes "a variant that did not boot"
says "round 1/2: sysfs-cdev FAILED \(status 125\) after [0-9]+s, a finding of its kernel: oops in kobj_lookup: BUG: kernel NULL pointer dereference"
grep -F -A 12 -- "--- the kernel's first complaint and its call trace ($run/sysfs-cdev/boot-1/serial.log) ---" "$tmp/log" |
	grep -qx ' chrdev_open+0x9b/0x230' || fail "make bench did not print the oops's call trace: $(cat "$tmp/log")"
says "sysfs-cdev did not boot: 2 of 2 timing boots failed, oops in kobj_lookup: .*; a finding: the run goes on without it"
jq -e '.kind == "oops" and .function == "kobj_lookup" and .signature == "oops kobj_lookup" and .status == 125' \
	"$run/sysfs-cdev/boot-2/failure.json" > /dev/null || fail "sysfs-cdev/boot-2's failure.json: $(cat "$run/sysfs-cdev/boot-2/failure.json")"
# the selftest's lines up to the oops, from the console: the guest died
# before its result folder was attached
[ "$(cat "$run/sysfs-cdev/boot-2/selftest.tap")" = $'KTAP version 1\n1..2\nok 1 add_del' ] ||
	fail "the selftest's KTAP up to the oops is not in selftest.tap: $(cat "$run/sysfs-cdev/boot-2/selftest.tap")"
jq -e '.failures | keys == ["sysfs-cdev"] and (.["sysfs-cdev"] | .did_not_boot and .boots == 2 and .failed == 2
	and ([.units[] | [.unit, .times, .settled]] == [["sysfs-cdev/boot-1", 2, true], ["sysfs-cdev/boot-2", 2, true]]))' \
	"$run/meta.json" > /dev/null || fail "meta.json's failures: $(jq -c .failures "$run/meta.json")"
did_not_boot_line "$run/report/report.txt" sysfs-cdev \
	"BUG: kernel NULL pointer dereference, address: 0000000000000008" kobj_lookup
grep -q '^cdev_add_ns,n=100,stock,cdev-hash,.*,better,' "$run/report/compare.csv" ||
	fail "cdev-hash has no verdict beside a variant that did not boot: $(cat "$run/report/compare.csv")"
cp "$run/report/report.txt" "$tmp/report-nb.txt"
echo "a variant that did not boot: the run complete, latest, its line and column say so:"
sed -n '/^Against stock/,/^Selftest/p' "$run/report/report.txt" | sed 's/^/    /'
# make resume: the same oops twice, booted no more
before=$(find "$run/sysfs-cdev" -type f -exec sha256sum {} + | sort)
env RUN="$run" "$rig/resume.sh" > "$tmp/log" 2>&1 && fail "make resume of a complete run went on: $(cat "$tmp/log")"
says "not booted again, their kernels failed the same way twice or more .*: sysfs-cdev/boot-1 \(oops kobj_lookup, 2 times\); sysfs-cdev/boot-2 \(oops kobj_lookup, 2 times\)"
says "is complete: nothing to resume"
[ "$before" = "$(find "$run/sysfs-cdev" -type f -exec sha256sum {} + | sort)" ] || fail "make resume booted sysfs-cdev again"
echo "make resume: sysfs-cdev oopsed the same way twice, not booted again"

# 2. One boot, one oops: make resume boots it again once, not twice.
bench once BOOTS=1 GUEST_FAULTS=cdev-hash/boot-1:oops
completes "one boot that oopsed"
jq -e '.failures["cdev-hash"].units[0] | .times == 1 and (.settled | not)' "$run/meta.json" > /dev/null ||
	fail "one oops is settled: $(jq -c .failures "$run/meta.json")"
grep -q "make resume tries it again" <(first_screen "$run/report/report.txt") || fail "the report does not say make resume tries it again"
env RUN="$run" GUEST_FAULTS=cdev-hash/boot-1:oops "$rig/resume.sh" > "$tmp/log" 2>&1 || fail "make resume failed: $(cat "$tmp/log")"
says "resuming $(basename "$run") \(status complete\): 1 of 2 units: cdev-hash/boot-1"
[ -f "$run/cdev-hash/boot-1/attempt-1/failure.json" ] && [ "$(jq .attempt "$run/cdev-hash/boot-1/ran.json")" = 2 ] ||
	fail "make resume did not boot cdev-hash/boot-1 again, keeping the first attempt"
jq -e '.failures["cdev-hash"].units[0] | .times == 2 and .settled' "$run/meta.json" > /dev/null ||
	fail "the same oops twice is not settled: $(jq -c .failures "$run/meta.json")"
[ "$(cat "$run/status")" = complete ] || fail "the resumed run is $(cat "$run/status")"
grep -q "An oops on 1 of 1 boots, and again when make resume booted it (2 times); no verdicts" <(first_screen "$run/report/report.txt") ||
	fail "the report does not say the oops came again: $(first_screen "$run/report/report.txt")"
expect_fail "a second make resume" "nothing to resume" env RUN="$run" GUEST_FAULTS=cdev-hash/boot-1:oops "$rig/resume.sh"
[ ! -e "$run/cdev-hash/boot-1/attempt-2" ] || fail "a second make resume booted cdev-hash/boot-1 a third time"
echo "one boot that oopsed: make resume booted it again, the same oops, and then no more"

# 3. Some boots failed: cdev-hash's second (an oops), stock's first
# (its selftest): the other boots' figures and verdicts.
bench some GUEST_FAULTS="cdev-hash/boot-2:oops stock/boot-1:selftest"
completes "some boots failed"
says "stock: 1 of 2 timing boots failed, selftest: not ok 2 no_sys_cdev .*; a finding: its figures come from the other 1"
screen=$(first_screen "$run/report/report.txt")
grep -qF "stock (the baseline): 1 of 2 boots failed, its selftest failed: not ok 2 no_sys_cdev # /sys/cdev/254:0 missing (in step selftest); its figures come from the other 1." <<< "$screen" &&
	grep -qF "1 of 2 boots failed, an oops: BUG: kernel NULL pointer dereference, address: 0000000000000008 (kobj_lookup); its figures come from the other 1." <<< "$screen" ||
	fail "the first screen does not say which boots failed: $screen"
grep -qE '^  cdev_add_ns +B 1/2 -20%$' <<< "$screen" || fail "cdev-hash's verdict from its good boot is missing: $screen"
jq -e '.failures | (.stock | .failed == 1 and (.did_not_boot | not) and .units[0].kind == "selftest")
	and (.["cdev-hash"] | .failed == 1 and (.did_not_boot | not))' "$run/meta.json" > /dev/null ||
	fail "meta.json's failures of some boots: $(jq -c .failures "$run/meta.json")"
echo "some boots failed: named on the first screen, the verdicts from the others"

# 4. The baseline did not boot: nothing to compare against.
bench base GUEST_FAULTS="stock/boot-1:oops stock/boot-2:oops"
[ "$rc" != 0 ] && [ "$(cat "$run/status")" = failed ] || fail "a run whose baseline did not boot is $(cat "$run/status")"
says "run $(basename "$run") cannot be compared: its baseline stock did not boot, 2 of 2 timing boots failed, oops in kobj_lookup: BUG: kernel NULL pointer dereference, address: 0000000000000008; there is nothing to compare its other arms against; 'latest' not updated; it failed the same way twice or more, make resume boots it no more"
[ ! -e "$tmp/base/latest" ] && [ ! -e "$run/report" ] || fail "a run whose baseline did not boot is latest or reported"
echo "the baseline did not boot: the run fails, it cannot be compared"

# 5. QEMU killed beside an oops: a fault of the rig, the run incomplete
# as before; make resume boots both again.
bench rig GUEST_FAULTS="stock/boot-2:kill cdev-hash/boot-1:oops"
[ "$rc" != 0 ] && [ "$(cat "$run/status")" = failed ] || fail "a run with a QEMU killed is $(cat "$run/status")"
says "incomplete, failed boots: stock/boot-2 stopped: its QEMU was killed by signal KILL from outside the rig"
[ ! -e "$run/stock/boot-2/failure.json" ] && [ -f "$run/cdev-hash/boot-1/failure.json" ] ||
	fail "a QEMU killed was taken for the kernel's failure, or the oops was not"
env RUN="$run" "$rig/resume.sh" > "$tmp/log" 2>&1 || fail "make resume failed: $(cat "$tmp/log")"
says "resuming $(basename "$run") \(status failed\): 2 of 4 units: cdev-hash/boot-1 stock/boot-2"
[ "$(cat "$run/status")" = complete ] && jq -e 'has("failures") | not' "$run/meta.json" > /dev/null ||
	fail "after a resume that passed, the run is $(cat "$run/status") with failures $(jq -c .failures "$run/meta.json")"
echo "QEMU killed beside an oops: the run incomplete; make resume booted both again and completed it"

# The check of the first screen fails where the report does not say it.
sed 's/(kobj_lookup)/(chrdev_open)/' "$tmp/report-nb.txt" > "$tmp/wrong.txt"
expect_fail "a first screen that names another function" "no line 'sysfs-cdev: did not boot: BUG" \
	did_not_boot_line "$tmp/wrong.txt" sysfs-cdev "BUG: kernel NULL pointer dereference, address: 0000000000000008" kobj_lookup
