# shellcheck shell=bash
# Two bases in one run: make bench BASES="6.1 6.12" VARIANTS=stock QUICK=1
# with one boot per arm (6.12's stock kernel is the one 6.12 kernel make
# test builds; 6.1's is the smoke run's).  The arms are stock:6.1 and
# stock:6.12, meta.json names each base with its package and version,
# the 6.12 boot passed its selftest and measured, the report names both
# bases on its first line and says how 6.12's config differs, and no
# option the shared fragments ask for differs.
. "$(dirname "$0")/lib.sh"

results=build/test-results-bases
rm -rf "$results"
make --no-print-directory bench QUICK=1 MODE=icount BOOTS=1 FAULTS=0 PMU=0 \
	BASES="6.1 6.12" VARIANTS=stock RESULTS_DIR="$results"

run=$results/latest
[ "$(cat "$run/status")" = complete ] || fail "status is not complete"
jq -e '[.bases[] | "\(.name) \(.package) \(.kernel_version)"] ==
	["6.1 linux-source-6.1 6.1.192", "6.12 linux-source-6.12 \(.bases[1].kernel_version)"]
	and (.bases[1].kernel_version | startswith("6.12."))
	and .variants["stock:6.1"].base == "6.1" and .variants["stock:6.12"].base == "6.12"
	and (.variants["stock:6.12"].kernel_release | startswith("6.12."))
	and (.variants["stock:6.12"].config_differences | length > 0)
	and .variants["stock:6.12"].rig_config_differences == []
	and .variants["stock:6.1"].config_differences == []' "$run/meta.json" > /dev/null ||
	fail "meta.json does not name the bases and arms: $(jq -c '{bases, variants}' "$run/meta.json")"
for arm in stock:6.1 stock:6.12; do
	grep -q "^$arm,1,cdev_add_ns,n=100,0,[0-9.]*,ns$" "$run/samples.csv" || fail "no cdev_add_ns row of $arm"
	grep -qE '^# Totals: pass:[1-9][0-9]* fail:0 ' "$run/$arm/boot-1/selftest.tap" ||
		fail "$arm's selftest did not pass: $(tail -3 "$run/$arm/boot-1/selftest.tap")"
done
report=$run/report/report.txt
report_run_line "$report" |
	grep -q "bases 6.1.192 (linux-source-6.1 [^)]*), 6.12.[0-9]* (linux-source-6.12 " ||
	fail "the report's run paragraph does not name both bases: $(report_run_line "$report")"
tr '\n' ' ' < "$report" | tr -s ' ' |
	grep -qE "stock:6.12 against stock:6.1: kernel 6.12.[0-9]+-stock, 0 patches, series [0-9a-f]+; on base 6.12, its config differs from the baseline's in [0-9]+ options both trees know" ||
	fail "the report does not say how 6.12's config differs"
grep -q '^cdev_add_ns,n=100,stock:6.1,stock:6.12,' "$run/report/compare.csv" ||
	fail "stock:6.12 is not compared against stock:6.1"
echo "BASES=\"6.1 6.12\": two arms, both bases named, configs told apart, compared"

# An option the shared fragments ask for that differs between the bases
# is refused by the report engine.
jq '.variants["stock:6.12"].rig_config_differences = ["CONFIG_X: y -> n"]' "$run/meta.json" > "$run/meta.json.new"
mv "$run/meta.json.new" "$run/meta.json"
expect_fail "a rig.config option that differs" "stock:6.12 sets CONFIG_X: y -> n, which the rig's config fragments ask for" \
	build/bin/compare --baseline stock:6.1 "$run/samples.csv"
