# shellcheck shell=bash
# make bench BISECT= (docs/walk.md), kernels and boots stood in
# (tests/fake_runs.sh): an 8-patch series whose cdev_add_ns at n=100
# triples from patch 5 on.  The search names patch 5 after booting 3 of
# the 7 prefixes (4, 6, 5), one boot each; with patch 4's boot failing,
# it goes round it and names patch 5 or 4.  The report's first screen,
# meta.json and compare.json say so.  Then what it refuses.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake=$(fake_runs "$tmp/fake" bisect)

# search RUN: "STEP:VERDICT ..." of the steps the bisection decided
search() { jq -r '[.bisection.steps[] | "\(.step):\(.verdict)"] | join(" ")' "$1/meta.json"; }
booted() { awk -F/ '{ print $1 }' "$1/units.list" | sort -u | paste -sd' '; }

run=$(ls -d "$fake"/results/*-bisect)
[ "$(search "$run")" = "4:same 5:worse 6:worse 8:worse" ] ||
	fail "the search decided $(search "$run"), not 4 same, 6 and 5 worse"
[ "$(booted "$run")" = "steps steps~4 steps~5 steps~6 stock" ] ||
	fail "the bisection booted $(booted "$run"), not the baseline, the series and prefixes 4, 5, 6"
jq -e '.bisection | .first_changed == 5 and .last_same == 4 and .boots_per_step == 1' "$run/meta.json" > /dev/null ||
	fail "meta.json's bisection: $(jq -c .bisection "$run/meta.json")"
screen=$(head -60 "$run/report/report.txt" | tr '\n' ' ' | tr -s ' ')
grep -qF "bisection of cdev_add_ns at n=100: first changed at patch 5/8; 3 of 7 prefixes decided, 1 boot a step: step 4 same 1.00x, step 5 worse 3.00x, step 6 worse 3.00x, step 8 worse 3.00x" <<< "$screen" ||
	fail "the first screen does not name patch 5: $(grep -A3 bisection "$run/report/report.txt")"
grep -qF "cdev_add_ns worse +200% (1/2): patch 5/8 worse +200% (1/1)" <<< "$screen" ||
	fail "the walk's attribution does not name patch 5: $(grep -A2 'patch by patch' "$run/report/report.txt")"
jq -e '.attribution[0].bisection.first_changed == 5' "$run/report/compare.json" > /dev/null ||
	fail "compare.json's attribution lacks the bisection"
echo "patch 5 of 8 found with 3 prefixes booted, one boot each"

run=$(ls -d "$fake"/results/*-bisect-skip)
[ "$(search "$run")" = "2:same 3:same 5:worse 8:worse" ] ||
	fail "with patch 4's boot failing the search decided $(search "$run"), not 5 worse, 2 and 3 same"
jq -e '.bisection | .first_changed == 5 and .last_same == 3' "$run/meta.json" > /dev/null ||
	fail "meta.json's bisection round a failed step: $(jq -c .bisection "$run/meta.json")"
jq -e '.walks[0].steps[3].not_bisectable | test("steps~4/boot-1")' "$run/meta.json" > /dev/null ||
	fail "the failed step is not named not bisectable: $(jq -c '.walks[0].steps[3]' "$run/meta.json")"
head -60 "$run/report/report.txt" | tr '\n' ' ' | tr -s ' ' |
	grep -qF "first changed at patch 5/8 or 4, which is not bisectable" ||
	fail "the first screen does not say patch 5 or 4: $(grep -A3 bisection "$run/report/report.txt")"
echo "a failed step is gone round: patch 5 or 4"

# What a bisection refuses (the last once the baseline and the series
# have booted), in results and a build of this test's own: the fake runs
# are read by the tests beside this one.
mkdir -p "$tmp/build"
ln -s "$fake/build/bin" "$tmp/build/bin"
refused() {	# refused WHY SETTINGS...
	local out
	out=$(env PATH="$fake/bin:$PATH" RESULTS_DIR="$tmp/results" BUILD_DIR="$tmp/build" MODE=icount \
		PATCHES_DIR="$fake/patches" BOOTS=1 PMU=0 FAULTS=0 RACE=0 "${@:2}" "$fake/rig/scripts/bench.sh" 2>&1) &&
		fail "make bench ${*:2} did not fail"
	grep -q "$1" <<< "$out" || fail "make bench ${*:2} failed otherwise than with '$1': $out"
	echo "refused: ${*:2}"
}
refused "no metric of bench/benchmarks.def" VARIANTS="stock steps" BISECT="cdev_add n=100"
refused "METRIC PARAM" VARIANTS="stock steps" BISECT="cdev_add_ns"
refused "one series on one base" VARIANTS="stock steps sysfs-cdev" BISECT="cdev_add_ns n=100"
refused "EXECUTOR=local" VARIANTS="stock steps" BISECT="cdev_add_ns n=100" EXECUTOR=slurm
refused "no comparison of cdev_add_ns at 'n=7'" VARIANTS="stock steps" BISECT="cdev_add_ns n=7"
