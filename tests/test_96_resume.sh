# shellcheck shell=bash
# make resume: a run stopped in the middle of a unit is finished from its
# own plan, that unit alone run again (its attempt counted, the earlier
# one kept), the others untouched, and the report names the sitting; a
# complete run, and a unit that this rig would not run as planned, are
# refused before anything boots.  On the run test_90_smoke leaves in
# build/test-results (one stock boot runs again).
. "$(dirname "$0")/lib.sh"

run=$(readlink -f build/test-results/latest || true)
if [ -z "$run" ] || [ ! -f "$run/units.list" ]; then
	echo "needs the run test_90_smoke makes (build/test-results/latest): run make test"
	exit 77
fi
unit=stock/boot-2
other=stock/boot-1
tmp_log=$(mktemp)
trap 'rm -f "$tmp_log"' EXIT
grep -qx "$unit" "$run/units.list" || fail "$run has no unit $unit"

expect_fail "a complete run" "is complete: nothing to resume" env RUN="$run" scripts/resume.sh

# A machine going down in the middle of the unit: ran.json written, no
# seconds, no rows; the run never got to its merge.
rows=$(grep -c '^stock,2,' "$run/samples.csv")
other_rows=$(grep '^stock,1,' "$run/samples.csv" | sha256sum)
# a second make test on the same smoke run finds the first one's attempt
attempt=1
while [ -e "$run/$unit/attempt-$attempt" ]; do attempt=$((attempt + 1)); done
sittings=$(jq '.sittings // [] | length' "$run/meta.json")
[ "$rows" -gt 0 ] || fail "no rows of stock's boot 2 in $run/samples.csv"
other_ran=$(sha256sum < "$run/$other/ran.json")
rm "$run/$unit/seconds" "$run/$unit/samples.csv"
echo interrupted > "$run/status"

# A plan this rig would not run: refused, naming the fact, nothing run.
cp "$run/$unit/expected.json" "$run/$unit/expected.json.good"
jq '.rig_commit = "0000000"' "$run/$unit/expected.json.good" > "$run/$unit/expected.json"
expect_fail "a plan of another rig" "$unit: rig_commit is \".*\" in this rig, \"0000000\" in the plan" \
	env RUN="$run" scripts/resume.sh
[ "$(cat "$run/status")" = interrupted ] || fail "a refused resume changed the status: $(cat "$run/status")"
[ ! -e "$run/$unit/attempt-$attempt" ] || fail "a refused resume moved the unit's attempt"
mv "$run/$unit/expected.json.good" "$run/$unit/expected.json"

env RUN="$run" scripts/resume.sh > "$tmp_log" 2>&1 || { cat "$tmp_log"; fail "make resume failed"; }
[ "$(cat "$run/status")" = complete ] || fail "status after the resume: $(cat "$run/status")"
jq -e --argjson a $((attempt + 1)) '.attempt == $a and (.sitting | type) == "string"' "$run/$unit/ran.json" > /dev/null ||
	fail "the unit run again does not count its attempt ($((attempt + 1))): $(cat "$run/$unit/ran.json")"
[ -f "$run/$unit/attempt-$attempt/ran.json" ] || fail "the earlier attempt was not kept in $unit/attempt-$attempt/"
[ "$(sha256sum < "$run/$other/ran.json")" = "$other_ran" ] || fail "a finished unit ($other) ran again"
jq -e --arg u "$unit" --argjson n $((sittings + 1)) '.sittings | length == $n and .[-1].units == [$u]' \
	"$run/meta.json" > /dev/null ||
	fail "meta.json's sittings do not list the unit: $(jq -c .sittings "$run/meta.json")"
resumed_rows=$(grep '^stock,2,' "$run/$unit/samples.csv" || true)
[ -n "$resumed_rows" ] || fail "the resumed unit $unit wrote no rows"
# The census and hold histograms list what a boot saw, so a boot run
# again may have other rows: the merged ones must be its own, no others.
[ "$(grep '^stock,2,' "$run/samples.csv")" = "$resumed_rows" ] ||
	fail "the run's rows of stock's boot 2 are not the resumed unit's ($(grep -c '^stock,2,' "$run/samples.csv") in the run, $(grep -c '^stock,2,' "$run/$unit/samples.csv") in the unit)"
[ "$(grep '^stock,1,' "$run/samples.csv" | sha256sum)" = "$other_rows" ] || fail "the rows of $other changed"
report_run_line "$run/report/report.txt" | grep -qF "1 unit ran in that sitting ($unit)" ||
	fail "the report does not name the sitting: $(report_run_line "$run/report/report.txt")"
echo "resumed $unit of $(basename "$run"): attempt $((attempt + 1)), the report names the sitting"
