# shellcheck shell=bash
# A boot is a function of its kernel and its seed (docs/determinism.md):
# stock's timing boot of one seed, its sealed part (the selftest, the
# module, the timed pass of QUICK's sweep), made four times: alone, beside
# a CPU hog, and two at once; every row of samples.csv and every
# per-operation sample of raw/ must be byte for byte the first boot's.
# Then the plugin's pmu boot twice at once: the same records.  A
# host-timed event put back before or inside the timed pass (a 9p read
# between two benchmarks, the host's clock or RDRAND) breaks it.  Also:
# another seed gives other rows (the seed reaches the guest).
. "$(dirname "$0")/lib.sh"
needs_kernel stock

tmp=$(mktemp -d "$RIG_ROOT/build/test-determinism.XXXXXX")
hog=
trap '[ -z "$hog" ] || kill "$hog" 2> /dev/null; rm -rf "$tmp"' EXIT

# sealed_boot DIR SEED PHASE: one boot of stock, boot 1 with seed SEED,
# its steps the phase's up to the first one that attaches.
sealed_boot() {
	mkdir -p "$1"
	(
		# shellcheck disable=SC2034 # read by rig_init
		MODE=icount QUICK=1 TRACED_BOOTS=1
		. scripts/lib.sh
		rig_init
		write_suite_env stock stock "$1" "$3"
		sed -i "s/^SEED=.*/SEED=$2/; s/, traced_pass//; s/, unload_module cdevbench//" "$1/suite.env"
		scripts/boot.sh stock "$1" "$3"
	) > "$1.log" 2>&1 || { cat "$1.log" >&2; fail "boot $1 failed (log above)"; }
}

# same_rows A B: A's and B's rows and raw samples, byte for byte.
same_rows() {
	cmp "$1/samples.csv" "$2/samples.csv" ||
		fail "$(basename "$2")'s rows differ from $(basename "$1")'s: $(diff "$1/samples.csv" "$2/samples.csv" | grep -c '^>') of $(wc -l < "$1/samples.csv")"
	diff -r -q "$1/raw" "$2/raw" || fail "$(basename "$2")'s raw samples differ from $(basename "$1")'s"
}

sealed_boot "$tmp/alone-1" 1 timing
rows=$(($(wc -l < "$tmp/alone-1/samples.csv") - 1))
[ "$rows" -ge 100 ] || fail "the timed pass wrote $rows rows"

yes > /dev/null &
hog=$!
sealed_boot "$tmp/hog-1" 1 timing
kill "$hog"
hog=
same_rows "$tmp/alone-1" "$tmp/hog-1"
echo "beside a CPU hog: the same $rows rows and raw samples"

sealed_boot "$tmp/pair-a-1" 1 timing &
pair=$!
sealed_boot "$tmp/pair-b-1" 1 timing
wait "$pair" || fail "the first boot of the pair failed"
same_rows "$tmp/alone-1" "$tmp/pair-a-1"
same_rows "$tmp/alone-1" "$tmp/pair-b-1"
echo "two boots at once: the same $rows rows and raw samples"

sealed_boot "$tmp/seed-2" 2 timing
! cmp -s <(cut -d, -f3- "$tmp/alone-1/samples.csv") <(cut -d, -f3- "$tmp/seed-2/samples.csv") ||
	fail "seed 2's rows are seed 1's: the seed does not reach the guest"
echo "seed 2: other rows ($(diff <(cut -d, -f3- "$tmp/alone-1/samples.csv") \
	<(cut -d, -f3- "$tmp/seed-2/samples.csv") | grep -c '^>') of $rows)"

# The plugin's counts: its records of every window, two boots at once
# (two benchmarks: the calibration, pchase, takes a minute).
make --no-print-directory -s tools
BENCHES="register open_lookup" sealed_boot "$tmp/pmu-a-1" 1 pmu &
pair=$!
BENCHES="register open_lookup" sealed_boot "$tmp/pmu-b-1" 1 pmu
wait "$pair" || fail "the first pmu boot of the pair failed"
[ -s "$tmp/pmu-a-1/pmu.txt" ] || fail "the pmu boot left no records"
cmp "$tmp/pmu-a-1/pmu.txt" "$tmp/pmu-b-1/pmu.txt" ||
	fail "two pmu boots of one seed counted differently"
cmp "$tmp/pmu-a-1/pmu-timing.csv" "$tmp/pmu-b-1/pmu-timing.csv" ||
	fail "two pmu boots of one seed timed their windows differently"
echo "the plugin, two boots at once: the same $(wc -l < "$tmp/pmu-a-1/pmu.txt") records"
