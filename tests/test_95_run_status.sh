# shellcheck shell=bash
# However 'make bench' ends, the run's status says how, never "running":
# a run whose meta.json cannot be written is "failed", a run stopped by a
# signal is "interrupted", and neither becomes 'latest'.  Uses the stock
# timing kernel that the smoke run built, and a stand-in for QEMU.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# --version fails when QEMU_VERSION_FAILS is set; a boot sleeps.
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/sh
if [ "$1" = --version ]; then
	[ -z "${QEMU_VERSION_FAILS:-}" ] || exit 1
	echo "QEMU emulator version 7.2 (stand-in)"
	exit 0
fi
exec sleep 120
QEMU
chmod +x "$tmp/bin/qemu-system-x86_64"
settings=(PATH="$tmp/bin:$PATH" VARIANTS=stock FAULTS=0 BOOTS=1 MODE=icount
	RESULTS_DIR="$tmp/results")

expect_fail "meta.json cannot be written" "" \
	env "${settings[@]}" QEMU_VERSION_FAILS=1 scripts/bench.sh
run=$(ls -d "$tmp"/results/2*)
[ "$(cat "$run/status")" = failed ] || fail "status after a failed meta.json: $(cat "$run/status")"
[ ! -e "$tmp/results/latest" ] || fail "a failed run became latest"
rm -rf "$run"

# A signal to the run's process group, as Ctrl-C or a CI timeout sends
# it: setsid makes bench.sh (this pid) the leader of a group of its own.
env "${settings[@]}" setsid scripts/bench.sh > "$tmp/log" 2>&1 &
leader=$!
for _ in $(seq 120); do
	grep -q 'booting' "$tmp/log" && break
	sleep 1
done
grep -q 'booting' "$tmp/log" || { cat "$tmp/log"; fail "the run did not reach its first boot"; }
kill -TERM -- -"$leader"
start=$(date +%s)
wait "$leader" && fail "bench.sh exited 0 after SIGTERM"
[ $(( $(date +%s) - start )) -lt 30 ] || fail "bench.sh took more than 30 s to stop after SIGTERM"
run=$(ls -d "$tmp"/results/2*)
[ "$(cat "$run/status")" = interrupted ] || fail "status after SIGTERM: $(cat "$run/status")"
[ ! -e "$tmp/results/latest" ] || fail "an interrupted run became latest"
echo "failed and interrupted runs are marked so"
