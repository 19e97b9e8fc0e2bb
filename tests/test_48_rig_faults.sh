# shellcheck shell=bash
# Faults of the rig itself (issue 35): a QEMU killed in the middle of a
# boot, a unit's rows cut short before the merge, a resume while a bench
# holds the results folder, Ctrl-C during a kernel build's progress
# reports, in make bench's kernel builds and during a boot, a kernel that
# does not build, and RESULTS_DIR on a full filesystem.  Each says what
# happened; a run it stops is not "complete", keeps the units that
# finished as they were, and a make resume runs again exactly the units
# that did not finish and completes the run.  The runs are the rig's own scripts (bench.sh,
# unit.sh, boot.sh, merge.sh, resume.sh) on stand-in kernels
# (tests/fake_runs.sh) and a stand-in QEMU that does what a guest does:
# rows and an exit status in the unit's folder.  The full filesystem is
# a small tmpfs: without the right to mount one, that case is skipped.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'umount "$tmp/full" 2> /dev/null || true; rm -rf "$tmp"' EXIT
tests/fake_runs.sh scripts "$tmp" none
# the rig's own boot.sh, on the stand-in QEMU below
cp scripts/boot.sh "$tmp/rig/scripts/boot.sh"
# A guest of boot.sh's unit folder (-virtfs ...,mount_tag=results): three
# rows and status 0.  GUEST_FAULTS, "ARM/boot-K:FAULT ...": kill (QEMU
# killed by SIGKILL in the middle of the boot), fill (the guest fills
# the filesystem of the unit's folder, file FILL), cut (the last 5 bytes
# of boot-1's rows cut off, as a full disk or a copy cut short leaves
# them), wait (a guest that runs until Ctrl-C, file waiting in its
# folder while it does).
stand_in_qemu "$tmp/bin" <<'QEMU'
echo "cdevbench-init: variant $VARIANT boot $BOOT"
case " ${GUEST_FAULTS:-} " in
*" $VARIANT/boot-$BOOT:kill "*) kill -KILL $$ ;;
*" $VARIANT/boot-$BOOT:fill "*) dd if=/dev/zero of="$FILL" bs=64k 2> /dev/null ;;
*" $VARIANT/boot-$BOOT:cut "*) truncate -s -5 "$dir/../boot-1/samples.csv" ;;
*" $VARIANT/boot-$BOOT:wait "*)
	# QEMU ends on INT or TERM with status 0, the console cut off
	trap 'exit 0' INT TERM
	: > "$dir/waiting"
	while :; do sleep 0.1; done ;;
esac
{
	"$BIN_DIR/rows" header
	for i in 0 1 2; do echo "cdev_add_ns n=1 $i $((1000 + 10 * BOOT + i)) ns"; done |
		"$BIN_DIR/rows" module "$VARIANT" "$BOOT"
} > "$dir/samples.csv"
echo "cdevbench-suite: step done"
echo 0 > "$dir/exit-status"
echo "cdevbench-init: powering off, suite exit status 0"
QEMU
unset AGAINST BASE BASES BASELINE AA WALK LABEL RUN QUICK BENCHES BISECT GUEST_FAULTS
export PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build MODE=icount VARIANTS=stock BOOTS=3 FAULTS=0 PMU=0 \
	RACE=0 BOOT_JOBS=1 EXECUTOR=local
rig=$tmp/rig/scripts

# bench RESULTS_DIR [VAR=value...]: a make bench of stock, 3 boots, that
# fails; its output in $tmp/log, its run in $run.
bench() {
	local results=$1
	shift
	env RESULTS_DIR="$results" "$@" "$rig/bench.sh" > "$tmp/log" 2>&1 &&
		fail "a run with ${*:-no fault} completed: $(cat "$tmp/log")"
	run=$(ls -d "$results"/2*)
}

# says PATTERN: the last make bench, merge or resume said it
says() {
	grep -qE -- "$1" "$tmp/log" || fail "the log does not say '$1': $(cat "$tmp/log")"
}

# resumed UNIT...: make resume runs again exactly these units, the
# others' folders untouched, and completes the run with every unit's
# rows, the others' as they were.
resumed() {
	local u before=() after=() rows
	for u in stock/boot-1 stock/boot-2 stock/boot-3; do
		[[ " $* " = *" $u "* ]] || before+=("$u $(find "$run/$u" -type f -exec sha256sum {} + | sort)")
	done
	RUN=$run "$rig/resume.sh" > "$tmp/log" 2>&1 || fail "make resume failed: $(cat "$tmp/log")"
	[ "$(cat "$run/status")" = complete ] || fail "status after make resume: $(cat "$run/status")"
	jq -e '.sittings[-1].units == $ARGS.positional' "$run/meta.json" --args "$@" > /dev/null ||
		fail "make resume ran $(jq -c '.sittings[-1].units' "$run/meta.json"), not $*"
	for u in stock/boot-1 stock/boot-2 stock/boot-3; do
		[[ " $* " = *" $u "* ]] || after+=("$u $(find "$run/$u" -type f -exec sha256sum {} + | sort)")
	done
	[ "${before[*]}" = "${after[*]}" ] || fail "make resume changed a unit that had finished"
	build/bin/rows check "$run/samples.csv" || fail "the resumed run's samples.csv is not one"
	rows=$(lines_matching ',cdev_add_ns,' "$run/samples.csv" | cut -d, -f2,6 | paste -sd' ')
	[ "$rows" = "1,1010 1,1011 1,1012 2,1020 2,1021 2,1022 3,1030 3,1031 3,1032" ] ||
		fail "the resumed run's cdev_add_ns rows (boot,value): $rows"
	[ "$(readlink "$(dirname "$run")/latest")" = "$(basename "$run")" ] || fail "the resumed run is not latest"
}

# 1. QEMU killed in the middle of boot 2: the unit failed with status
# 137, what killed QEMU in qemu-signal; the run failed, saying so.
bench "$tmp/killed" GUEST_FAULTS=stock/boot-2:kill
says "stock: QEMU was killed by signal KILL after [0-9]+s, not by the rig: the boot did not finish"
says "incomplete, failed boots: stock/boot-2 stopped: its QEMU was killed by signal KILL from outside the rig"
! grep -qE 'hung|panic' "$tmp/log" || fail "a killed QEMU was taken for a hang or a panic: $(cat "$tmp/log")"
[ "$(cat "$run/stock/boot-2/failed")" = 137 ] || fail "the killed unit's failed: $(cat "$run/stock/boot-2/failed")"
[ "$(cat "$run/stock/boot-2/qemu-signal")" = KILL ] || fail "the killed unit's qemu-signal is not KILL"
[ "$(cat "$run/status")" = failed ] || fail "status after a killed QEMU: $(cat "$run/status")"
resumed stock/boot-2
echo "a QEMU killed in a boot: that unit failed, named with the signal; make resume ran it alone"

# 2. Boot 1's rows cut short during boot 3, before the merge: the merge
# names the unit and the line (its header, three rows and the stand-in
# traced pass's row: line 5), the run failed.
bench "$tmp/cut" GUEST_FAULTS=stock/boot-3:cut
says "units whose rows are not a samples.csv \(cut short or written over\): stock/boot-1: $run/stock/boot-1/samples.csv:5: truncated line"
[ "$(cat "$run/status")" = failed ] || fail "status after rows cut short: $(cat "$run/status")"
[ ! -e "$run/samples.csv" ] || fail "a run with rows cut short has a samples.csv"

# 3. make resume while a make bench holds the results folder: refused
# before anything changes.
hold_lock "$tmp/cut/.lock"
expect_fail "make resume during a make bench" "a 'make bench' or 'make resume' is using $tmp/cut; wait for it" \
	env RUN="$run" "$rig/resume.sh"
[ "$(cat "$run/status")" = failed ] || fail "a refused resume changed the status: $(cat "$run/status")"
release_lock

# ... and once it is free, make resume runs boot 1 again.
resumed stock/boot-1
echo "a unit's rows cut short before the merge: named with the line, the unit run again by make resume"

# 4. Ctrl-C in a kernel build: its progress reporter
# (scripts/lib/log.sh's every_minute) goes with it, its sleep too, and leaves make bench's
# lock free for the next make.  The INT goes to the script's process
# group, as a terminal sends it (env: a background job ignores INT).
cat > "$tmp/build.sh" <<'BUILD'
MODE=icount
. scripts/lib.sh
rig_init
exec 9> "$1"
flock -n 9
every_minute true &
sleep 30
BUILD
setsid env --default-signal=INT bash "$tmp/build.sh" "$tmp/lock" &
leader=$!
# the INT once the build holds the lock and its reporter sleeps
wait_for "the stand-in build's progress reporter to sleep (its 'sleep 60')" pgrep -g "$leader" -xf 'sleep 60'
kill -INT -- -"$leader"
wait "$leader" && fail "the build went on after Ctrl-C"
# every_minute ends only once its sleep has: with it gone, the lock is
# free at once, or a sleep left behind holds it
reporter_gone() { ! pgrep -g "$leader" -x bash; }
wait_for "the progress reporter (every_minute) to end after Ctrl-C" reporter_gone
! held "$tmp/lock" || fail "after Ctrl-C, the progress reporter's sleep holds make bench's lock"
echo "Ctrl-C in a kernel build: the progress reporter leaves make bench's lock free"

# 5. Ctrl-C during boot 2: the boot and its unit say they were
# interrupted, the unit is left unfinished (no failed, no seconds), the
# run is "interrupted"; make resume runs boots 2 and 3.
setsid env --default-signal=INT RESULTS_DIR="$tmp/int" GUEST_FAULTS=stock/boot-2:wait "$rig/bench.sh" \
	> "$tmp/log" 2>&1 &
leader=$!
# the INT once boot 2's stand-in guest runs (boot 1 may take any time)
boot_2_started() {
	compgen -G "$tmp/int/2*/stock/boot-2/waiting" && return
	kill -0 "$leader" 2> /dev/null || fail "make bench ended before boot 2 started: $(cat "$tmp/log")"
	return 1
}
wait_for "boot 2 to start (its stand-in guest's file 'waiting')" boot_2_started
kill -INT -- -"$leader"
wait "$leader" && fail "make bench went on after Ctrl-C: $(cat "$tmp/log")"
run=$(ls -d "$tmp"/int/2*)
says "stock: interrupted \(SIGINT\) after [0-9]+s: the boot did not finish"
says "round 2/3: stock interrupted: the unit did not finish"
says "interrupted: $run is marked interrupted"
! grep -qE 'FAILED|could not be written' "$tmp/log" || fail "an interrupted boot was taken for a failure: $(cat "$tmp/log")"
[ "$(cat "$run/status")" = interrupted ] || fail "status after Ctrl-C: $(cat "$run/status")"
[ ! -e "$run/stock/boot-2/failed" ] && [ ! -e "$run/stock/boot-2/seconds" ] ||
	fail "the interrupted unit counts as finished or failed"
resumed stock/boot-2 stock/boot-3
echo "Ctrl-C in a boot: named as an interruption, the unit unfinished; make resume ran it and the next"

# 5b. A kernel that does not build, its wave's other kernel building
# beside it (BUILD_JOBS=2): the run stops with kernel.sh's error and
# status once that one is done, before any run folder, and builds no
# kernel of a later wave (cdev-hash's fault kernel).
key=$(MODE=icount bash -c '. scripts/lib.sh && rig_init && base_key 6.1')
env RESULTS_DIR="$tmp/kfail" VARIANTS="stock cdev-hash" FAULTS=1 BUILD_JOBS=2 \
	FAKE_KERNEL_FAILS="cdev-hash:$key" "$rig/bench.sh" > "$tmp/log" 2>&1 &&
	fail "a run whose kernel did not build went on: $(cat "$tmp/log")"
says "variant cdev-hash on 6.1: kernel build failed \(fake\)"
[ -z "$(ls -d "$tmp"/kfail/2* 2> /dev/null)" ] || fail "a run whose kernel did not build has a run folder"
[ -e "$tmp/build/kernels/$key/stock/obj-fault/arch/x86/boot/bzImage" ] ||
	fail "stock's fault kernel, in the failed kernel's wave, was not built"
[ ! -e "$tmp/build/kernels/$key/cdev-hash/obj-fault" ] ||
	fail "cdev-hash's fault kernel, of the wave after the failure, was built"
echo "a kernel that does not build: the run stops after its wave, with kernel.sh's error, and makes no run folder"

# 5c. Ctrl-C while kernels build, each in a process group of its own, a
# build that ignores SIGINT among them: the builds are stopped with the
# run, which names the interruption, ends with 130 and makes no run
# folder.
setsid env --default-signal=INT RESULTS_DIR="$tmp/kint" VARIANTS="stock cdev-hash" \
	FAKE_KERNEL_WAIT="$tmp/building" "$rig/bench.sh" > "$tmp/log" 2>&1 &
leader=$!
wait_for "a stand-in kernel build to start (its file 'building')" test -e "$tmp/building"
kill -INT -- -"$leader"
rc=0
wait "$leader" || rc=$?
[ "$rc" = 130 ] || fail "make bench interrupted in a kernel build ended with $rc, not 130: $(cat "$tmp/log")"
says "interrupted while building kernels: no run was started"
[ -z "$(ls -d "$tmp"/kint/2* 2> /dev/null)" ] || fail "a run interrupted in its kernel builds has a run folder"
[ ! -e "$tmp/building.done" ] || fail "a kernel build ran to its end after Ctrl-C"
builds_gone() { ! pgrep -f 'sleep 61[.]5' > /dev/null; }
wait_for "the stopped kernel build to end" builds_gone
echo "Ctrl-C in make bench's kernel builds: they are stopped, the run ends with 130 and no run folder"

# 6. RESULTS_DIR on a full filesystem, last: it needs a tmpfs mounted.
mkdir "$tmp/full"
if ! err=$(mount -t tmpfs -o size=8m cdevbench-full "$tmp/full" 2>&1); then
	echo "the full-filesystem case needs to mount a tmpfs, refused here (${err:-no reason given}); the other cases passed"
	exit 77
fi
dd if=/dev/zero of="$tmp/full/fill" bs=64k 2> /dev/null || true
expect_fail "make bench on a full RESULTS_DIR" \
	"RESULTS_DIR: cannot write into $tmp/full: No space left on device" \
	env RESULTS_DIR="$tmp/full" "$rig/bench.sh"
[ -z "$(ls -d "$tmp"/full/2* 2> /dev/null)" ] || fail "make bench on a full RESULTS_DIR made a run"
rm "$tmp/full/fill"
# filled by the guest of boot 2: boot 2 does not finish, boot 3 does not boot
bench "$tmp/full" GUEST_FAULTS=stock/boot-2:fill FILL="$tmp/full/fill"
says "stock did not finish \(status [0-9]+ after [0-9]+s\): cannot write into $run/stock/boot-2: No space left on device"
says "stock not booted: cannot write into $run/stock/boot-3: No space left on device"
says "run $(basename "$run"): cannot write into $run: No space left on device"
[ "$(cat "$run/status")" = failed ] || fail "status after a full disk: $(cat "$run/status")"
[ ! -e "$run/samples.csv" ] && [ ! -e "$tmp/full/latest" ] || fail "a run on a full disk left samples.csv or latest"
[ ! -e "$run/stock/boot-2/seconds" ] || fail "boot 2, cut short by the full disk, counts as finished"
expect_fail "make resume on a full disk" "cannot resume $(basename "$run"): cannot write into $run: No space left on device" \
	env RUN="$run" "$rig/resume.sh"
[ "$(cat "$run/status")" = failed ] || fail "a refused resume changed the status: $(cat "$run/status")"
rm "$tmp/full/fill"
resumed stock/boot-2 stock/boot-3
echo "RESULTS_DIR full: named, nothing merged; once freed, make resume ran the units that did not finish"
