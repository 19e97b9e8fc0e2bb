# shellcheck shell=bash
# One run against another (scripts/compare.sh with AGAINST; a saved
# baseline by scripts/baseline.sh): the other run's baseline joins as
# stock@NAME, this run's variants are compared against it and the report
# says whose it is; runs measured otherwise are refused with the reason,
# by make compare and by make bench before it builds anything.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RESULTS_DIR=$tmp/results BASELINE=stock RUN AGAINST SAVE
unset AGAINST SAVE

# make_run ID VARIANT:NS...: a complete icount run of 2 boots x 3
# repetitions, cdev_add_ns = NS + n at n=1 and n=100.
make_run() {
	local id=$1 dir=$RESULTS_DIR/$1 spec v b i n variants='{}'
	shift
	mkdir -p "$dir"
	echo "variant,boot,metric,param,iter,value,unit" > "$dir/samples.csv"
	for spec in "$@"; do
		v=${spec%%:*}
		mkdir -p "$dir/$v"
		for b in 1 2; do
			for i in 0 1 2; do
				for n in 1 100; do
					echo "$v,$b,cdev_add_ns,n=$n,$i,$((${spec#*:} + n)),ns"
				done
			done
		done >> "$dir/samples.csv"
		variants=$(jq --arg v "$v" '. + { ($v): { kernel: $v, kernel_release: ("6.1-" + $v),
			config_sha256: "aaaa", series_sha256: "e3b0", patches: [], config_fragment: null } }' \
			<<< "$variants")
	done
	jq -n --arg id "$id" --argjson variants "$variants" '{ run_id: $id,
		date: "2026-12-01T00:00:00Z", rig_commit: "abc", measuring_code_sha256: "m1",
		mode: "icount", reps: 3, ops: 50, vcpus: 1, guest_mem: 1024, trace_n: 100,
		sweep_n: [1, 100], boots: 2, variants: $variants }' > "$dir/meta.json"
	echo complete > "$dir/status"
}
make_run old stock:1000
make_run new stock:1000 fast:500

expect_fail "a baseline without a name" "name the baseline" env RUN="$RESULTS_DIR/old" scripts/baseline.sh
SAVE=last-week RUN=$RESULTS_DIR/old scripts/baseline.sh
[ "$(readlink "$RESULTS_DIR/baselines/last-week")" = ../old ] || fail "the saved baseline is not a link to its run"
expect_fail "a saved name given to another run" "is ../old already" \
	env SAVE=last-week RUN="$RESULTS_DIR/new" scripts/baseline.sh
echo failed > "$RESULTS_DIR/new/status"
expect_fail "saving an incomplete run" "not a complete run \(failed\)" \
	env SAVE=x RUN="$RESULTS_DIR/new" scripts/baseline.sh
echo complete > "$RESULTS_DIR/new/status"
echo "make baseline: a complete run, under a name given once"

RUN=$RESULTS_DIR/new AGAINST=last-week scripts/compare.sh > /dev/null
joined=$RESULTS_DIR/new/against-last-week
grep -q '^cdev_add_ns,n=1,stock@last-week,fast,.*,better,' "$joined/report/compare.csv" ||
	fail "fast is not compared against last week's stock: $(cat "$joined/report/compare.csv")"
grep -q '^cdev_add_ns,n=1,stock@last-week,stock,.*,same,' "$joined/report/compare.csv" ||
	fail "this run's stock is not compared against last week's"
tr '\n' ' ' < "$joined/report/report.txt" | tr -s ' ' |
	grep -q "the baseline, stock@last-week, is stock of run old (2026-12-01T00:00:00Z, rig abc)" ||
	fail "the report does not say whose baseline it is: $(head -5 "$joined/report/report.txt")"
jq -e '.run.against.run_id == "old" and .baseline == "stock@last-week"' "$joined/report/compare.json" > /dev/null ||
	fail "compare.json does not carry the other run"
[ -L "$joined/stock@last-week" ] || fail "the other run's baseline folder (its raw samples) is not linked"
[ ! -e "$RESULTS_DIR/new/report" ] || fail "make compare AGAINST wrote the run's own report"
RUN=$RESULTS_DIR/new AGAINST=$RESULTS_DIR/old scripts/compare.sh > /dev/null
grep -q '^cdev_add_ns,n=1,stock@old,fast,' "$RESULTS_DIR/new/against-old/report/compare.csv" ||
	fail "a run folder as AGAINST is not named by its run id"
echo "make compare AGAINST: a saved baseline or a folder, named, its run in the report"

# The join (compare --join) is byte for byte the awk and jq join it
# replaced, on meta.json values of each kind the rig writes: nested
# objects and arrays, escaped strings and UTF-8, whole numbers, booleans
# and null; the run's own members in place, the joined ones after.
mkdir -p "$tmp/bytes/new" "$tmp/bytes/old"
cp "$RESULTS_DIR/new/samples.csv" "$tmp/bytes/new/"
cp "$RESULTS_DIR/old/samples.csv" "$tmp/bytes/old/"
jq '.variants.fast += { patches: ["cdev: a \"quoted\" \\ subject\tand é, ∞"], links: [],
	config_differences: ["CONFIG_X=y"], kernel_sha256: null }
	| .host_cores = 2 | .race_rounds = 400000 | .aa = false | .threads = [1, 2]
	| .bases = [{ name: "6.1", key: "6.1", kernel_version: "6.1.192", git_dirty: true }]
	| .reproduce = "make bench VARIANTS=\"stock fast\""' \
	"$RESULTS_DIR/new/meta.json" > "$tmp/bytes/new/meta.json"
jq '.variants.stock.patches = ["x/y: <z> & \u0001"] | .rig_commit = "old-rig"' \
	"$RESULTS_DIR/old/meta.json" > "$tmp/bytes/old/meta.json"
mkdir "$tmp/bytes/new/against-last-week"
build/bin/compare --join last-week --baseline stock "$tmp/bytes/new/samples.csv" \
	"$tmp/bytes/old/samples.csv" || fail "compare --join failed"
{
	cat "$tmp/bytes/new/samples.csv"
	awk -F, -v b=stock -v a=stock@last-week 'NR > 1 && $1 == b { sub(/^[^,]*/, a); print }' \
		"$tmp/bytes/old/samples.csv"
} | cmp - "$tmp/bytes/new/against-last-week/samples.csv" || fail "the joined samples.csv is not awk's"
jq --slurpfile o "$tmp/bytes/old/meta.json" --arg b stock --arg a stock@last-week --arg name last-week \
	'. + { baseline: $a, variants: ({ ($a): $o[0].variants[$b] } + .variants),
	       against: { name: $name, variant: $b, run_id: $o[0].run_id,
			  date: $o[0].date, rig_commit: $o[0].rig_commit } }' \
	"$tmp/bytes/new/meta.json" > "$tmp/bytes/jq.json"
cmp -s "$tmp/bytes/jq.json" "$tmp/bytes/new/against-last-week/meta.json" ||
	fail "the joined meta.json is not jq's: $(diff "$tmp/bytes/jq.json" "$tmp/bytes/new/against-last-week/meta.json")"
echo "compare --join: samples.csv and meta.json byte for byte as awk and jq joined them"

expect_fail "an unknown baseline" "neither a saved baseline \(last-week\)" \
	env RUN="$RESULTS_DIR/new" AGAINST=nope scripts/compare.sh
expect_fail "a baseline variant the other run lacks" "has no variant fast" \
	env RUN="$RESULTS_DIR/new" AGAINST=last-week BASELINE=fast scripts/compare.sh
jq '.reps = 5' "$RESULTS_DIR/old/meta.json" > "$tmp/m" && mv "$tmp/m" "$RESULTS_DIR/old/meta.json"
expect_fail "other repetitions" "reps is 3 in this run, 5 in the other" \
	env RUN="$RESULTS_DIR/new" AGAINST=last-week scripts/compare.sh
jq '.reps = 3 | .bases = [{ name: "6.12", kernel_version: "6.12.118" }]' "$RESULTS_DIR/old/meta.json" > "$tmp/m" &&
	mv "$tmp/m" "$RESULTS_DIR/old/meta.json"
jq '.bases = [{ name: "6.1", key: "6.1", kernel_version: "6.1.192" }]' "$RESULTS_DIR/new/meta.json" > "$tmp/m" &&
	mv "$tmp/m" "$RESULTS_DIR/new/meta.json"
expect_fail "another base" "other kernel bases \(6.1 6.1.192 in this run, 6.12 6.12.118 in the other\)" \
	env RUN="$RESULTS_DIR/new" AGAINST=last-week scripts/compare.sh
jq '.bases = [{ name: "6.1", kernel_version: "6.1.192" }] | .measuring_code_sha256 = "m0" | .rig_commit = "0ld"' "$RESULTS_DIR/old/meta.json" > "$tmp/m" &&
	mv "$tmp/m" "$RESULTS_DIR/old/meta.json"
expect_fail "other measuring code" "measuring code .* differs: rig abc in this run, 0ld in the other" \
	env RUN="$RESULTS_DIR/new" AGAINST=last-week scripts/compare.sh
jq '.measuring_code_sha256 = "m1" | .mode = "tcg" | .host_cpu = "other"' "$RESULTS_DIR/old/meta.json" > "$tmp/m" &&
	mv "$tmp/m" "$RESULTS_DIR/old/meta.json"
jq '.mode = "tcg"' "$RESULTS_DIR/new/meta.json" > "$tmp/m" && mv "$tmp/m" "$RESULTS_DIR/new/meta.json"
expect_fail "another host outside icount" "host_cpu is null in this run, \"other\" in the other" \
	env RUN="$RESULTS_DIR/new" AGAINST=last-week scripts/compare.sh
jq '.mode = "icount"' "$RESULTS_DIR/new/meta.json" > "$tmp/m" && mv "$tmp/m" "$RESULTS_DIR/new/meta.json"
jq '.mode = "icount" | del(.measuring_code_sha256) | .rig_commit = "abc-dirty"' "$RESULTS_DIR/old/meta.json" > "$tmp/m" &&
	mv "$tmp/m" "$RESULTS_DIR/old/meta.json"
expect_fail "an older rig's run, from uncommitted code" "an older rig" \
	env RUN="$RESULTS_DIR/new" AGAINST=last-week scripts/compare.sh
# make bench refuses before its first kernel: this rig's measuring code
# is not the old run's
expect_fail "make bench against a run of other code" "AGAINST=last-week: this run could not be compared" \
	env AGAINST=last-week VARIANTS=stock scripts/bench.sh
[ ! -e "$RESULTS_DIR/.lock" ] || fail "make bench went on after refusing the comparison"
# ... and goes on where it can be compared, outside icount too: a run of
# this rig, this host and these settings (it then stops at the results
# lock that another run holds, before building anything)
(
	export MODE=tcg
	. scripts/lib.sh
	rig_init
	meta_write_comparable "$tmp/comparable.json"
	jq '. + { variants: { stock: {} } }' "$tmp/comparable.json" > "$RESULTS_DIR/old/meta.json"
) 2> /dev/null
hold_lock "$RESULTS_DIR/.lock"
expect_fail "make bench against a run measured alike, tcg" "another 'make bench' or a 'make resume' is using" \
	env AGAINST=last-week VARIANTS=stock MODE=tcg scripts/bench.sh
release_lock
echo "refused: other settings, other measuring code, another host outside icount; make bench before it builds"
