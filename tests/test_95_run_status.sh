# shellcheck shell=bash
# However 'make bench' ends, the run's status says how, never "running":
# a run whose meta.json cannot be written is "failed", a run stopped by a
# signal is "interrupted", and neither becomes 'latest'.  Uses the stock
# timing kernel that the smoke run built, and a stand-in for QEMU.
. "$(dirname "$0")/lib.sh"
needs_kernel stock

tmp=$(mktemp -d)
# a QEMU the run failed to stop is stopped here
trap 'xargs -r kill < "$tmp/qemu.pids" 2> /dev/null || true; rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# --version fails when QEMU_VERSION_FAILS is set; a boot sleeps until
# stopped, so that one the run does not stop is told from one it does.
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
if [ "$1" = --version ]; then
	[ -z "${QEMU_VERSION_FAILS:-}" ] || exit 1
	echo "QEMU emulator version 7.2 (stand-in)"
	exit 0
fi
echo $$ >> "$QEMU_PIDS"
exec sleep infinity
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
settings=(PATH="$tmp/bin:$PATH" VARIANTS=stock FAULTS=0 BOOTS=1 MODE=icount
	RESULTS_DIR="$tmp/results" QEMU_PIDS="$tmp/qemu.pids")

expect_fail "meta.json cannot be written" "qemu-system-x86_64 --version printed nothing" \
	env "${settings[@]}" QEMU_VERSION_FAILS=1 scripts/bench.sh
run=$(ls -d "$tmp"/results/2*)
[ "$(cat "$run/status")" = failed ] || fail "status after a failed meta.json: $(cat "$run/status")"
[ ! -e "$tmp/results/latest" ] || fail "a failed run became latest"
rm -rf "$run"

# A signal to the run's process group, as Ctrl-C or a CI timeout sends
# it: setsid makes bench.sh (this pid) the leader of a group of its own.
# Once with one boot at a time, once with two side by side (each in a
# process group of its own, which bench.sh must stop itself).
# booted: the run has started its $jobs boots; ended PID: PID has ended.
booted() {
	[ "$(wc -l < "$tmp/qemu.pids")" -ge "$jobs" ] && return
	kill -0 "$leader" 2> /dev/null || fail "BOOT_JOBS=$jobs: the run ended before its boots started: $(cat "$tmp/log")"
	return 1
}
ended() { ! kill -0 "$1" 2> /dev/null; }
for jobs in 1 2; do
	: > "$tmp/qemu.pids"
	env "${settings[@]}" BOOTS=2 BOOT_JOBS=$jobs setsid scripts/bench.sh > "$tmp/log" 2>&1 &
	leader=$!
	wait_for "BOOT_JOBS=$jobs: the run to start $jobs boot(s)" booted
	kill -TERM -- -"$leader"
	start=$(date +%s)
	wait "$leader" && fail "bench.sh exited 0 after SIGTERM"
	[ $(( $(date +%s) - start )) -lt 30 ] || fail "bench.sh took more than 30 s to stop after SIGTERM"
	# the run signals its QEMUs and does not wait for them to end
	while read -r pid; do
		wait_for "BOOT_JOBS=$jobs: its QEMU (pid $pid) to end with the run" ended "$pid"
	done < "$tmp/qemu.pids"
	run=$(ls -d "$tmp"/results/2*)
	[ "$(cat "$run/status")" = interrupted ] || fail "status after SIGTERM: $(cat "$run/status")"
	[ ! -e "$tmp/results/latest" ] || fail "an interrupted run became latest"
	rm -rf "$run"
done
echo "failed and interrupted runs are marked so, and stop their QEMUs"
