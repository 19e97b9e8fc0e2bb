# compare: statistics against scipy/numpy reference values, the CSV
# contract, repeatable output, and refusals with clear messages.
. "$(dirname "$0")/lib.sh"

bin=build/bin
$bin/test_stats tests/fixtures/stats.csv

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A synthetic run: "slow" is 50% slower than stock, "same" equal within
# 0.2%; 2 boots x 8 repetitions, so verdicts are reachable.
{
	echo "variant,boot,metric,param,iter,value,unit"
	for v in stock slow same; do
		for b in 1 2; do
			for i in 0 1 2 3 4 5 6 7; do
				case $v in
				slow) val=$((1500 + i * 3 + b)) ;;
				*) val=$((1000 + i * 2 + b)) ;;
				esac
				echo "$v,$b,cdev_add_ns,n=10,$i,$val,ns"
				echo "$v,$b,cdev_add_ns,n=100,$i,$val,ns"
			done
		done
	done
	echo "stock,1,only_in_stock_ns,-,0,5,ns"
} > "$tmp/samples.csv"

$bin/compare --format csv "$tmp/samples.csv" > "$tmp/out.csv"
[ "$(head -1 "$tmp/out.csv")" = "metric,param,baseline,variant,n_base,n_var,median_base,median_var,ratio,ci_low,ci_high,p_value,verdict" ] ||
	fail "compare.csv header differs from DESIGN.md"
grep -q "^cdev_add_ns,n=10,stock,slow,16,16,.*,worse$" "$tmp/out.csv" ||
	fail "a 50% slowdown is not 'worse': $(cat "$tmp/out.csv")"
grep -q "^cdev_add_ns,n=10,stock,same,16,16,.*,same$" "$tmp/out.csv" ||
	fail "equal samples are not 'same'"
grep -q "^only_in_stock_ns,-,stock,slow,1,0,.*missing$" "$tmp/out.csv" ||
	fail "a metric present on one side only is not reported as missing"
$bin/compare --format csv --seed 1 "$tmp/samples.csv" | cmp -s - "$tmp/out.csv" ||
	fail "the same input and seed gave different output"
$bin/compare --format text "$tmp/samples.csv" > "$tmp/out.txt"
awk 'length > 79 { bad = 1 } END { exit bad }' "$tmp/out.txt" ||
	fail "the text report has lines of 80 columns or more"
grep -q "Holm-adjusted over 4 comparisons" "$tmp/out.txt" ||
	fail "the text report does not state the Holm correction"
$bin/compare --format md "$tmp/samples.csv" | grep -q '^| cdev_add_ns | n=10 |' ||
	fail "no markdown table"

# Refusals.
head -5 "$tmp/samples.csv" > "$tmp/bad.csv"
echo "stock,1,cdev_add_ns,n=10,9,12x,ns" >> "$tmp/bad.csv"
expect_fail "malformed value" "bad.csv:6: value '12x' is not a number" \
	$bin/compare "$tmp/bad.csv"
head -5 "$tmp/samples.csv" > "$tmp/bad.csv"
printf 'stock,1,cdev_add_ns,n=10,9' >> "$tmp/bad.csv"
expect_fail "truncated file" "bad.csv:6: truncated line" $bin/compare "$tmp/bad.csv"
printf 'variant,boot,metric\n' > "$tmp/bad.csv"
expect_fail "wrong header" "bad.csv:1: header is not" $bin/compare "$tmp/bad.csv"

meta() {	# meta MODE SLOW_CONFIG_SHA [FRAGMENT]
	cat <<JSON
{ "run_id": "t", "mode": "$1", "variants": {
  "stock": {"kernel_release": "6.1-stock", "config_sha256": "aaaa", "config_fragment": null},
  "slow": {"kernel_release": "6.1-slow", "config_sha256": "$2", "config_fragment": ${3:-null}},
  "same": {"kernel_release": "6.1-same", "config_sha256": "aaaa", "config_fragment": null} } }
JSON
}
mkdir "$tmp/a" "$tmp/b"
cp "$tmp/samples.csv" "$tmp/a/"
cp "$tmp/samples.csv" "$tmp/b/"
meta icount aaaa > "$tmp/a/meta.json"
meta tcg aaaa > "$tmp/b/meta.json"
expect_fail "different modes" "a/meta.json is icount mode, .*b/meta.json is tcg mode" \
	$bin/compare "$tmp/a/samples.csv" "$tmp/b/samples.csv"
meta icount bbbb > "$tmp/a/meta.json"
expect_fail "undeclared config difference" \
	"slow was built with another kernel config than stock" $bin/compare "$tmp/a/samples.csv"
meta icount bbbb '"patches/slow/config"' > "$tmp/a/meta.json"
$bin/compare "$tmp/a/samples.csv" | grep -q "slow: kernel 6.1-slow, own config fragment" ||
	fail "a declared config fragment is not accepted and reported"
echo "compare checks passed"
