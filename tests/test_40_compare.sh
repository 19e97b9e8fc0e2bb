# shellcheck shell=bash
# compare: statistics against worked examples and printed
# tables, the CSV contract, the verdict rules of each mode, repeatable
# output, and refusals with clear messages.
. "$(dirname "$0")/lib.sh"

bin=build/bin
$bin/test_stats

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A synthetic timing-mode run (no meta.json): "slow" is 50% slower than
# stock, "same" equal within 0.2%; 2 boots x 8 repetitions.
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
	echo "stock,1,chrdev_open_ns,-,0,5,ns"
} > "$tmp/samples.csv"

$bin/compare --format csv "$tmp/samples.csv" > "$tmp/out.csv"
[ "$(head -1 "$tmp/out.csv")" = "metric,param,baseline,variant,n_base,n_var,median_base,median_var,ratio,ci_low,ci_high,p_value,verdict,rule,floor,rep_spread,paired_median,paired_min,paired_max" ] ||
	fail "compare.csv header differs from DESIGN.md"
# n_base and n_var count boots, the unit
grep -q "^cdev_add_ns,n=10,stock,slow,2,2,.*,worse,t+gap," "$tmp/out.csv" ||
	fail "a 50% slowdown is not 'worse' by t+gap: $(cat "$tmp/out.csv")"
grep -q "^cdev_add_ns,n=10,stock,same,2,2,.*,same,t+gap," "$tmp/out.csv" ||
	fail "equal samples are not 'same'"
grep -q "^chrdev_open_ns,-,stock,slow,1,0,.*missing," "$tmp/out.csv" ||
	fail "a metric present on one side only is not reported as missing"

# The plots' query: series rows by column name.
# (each query's exit status checked apart from its rows)
got=$($bin/compare --format series --where metric=cdev_add_ns,variant=slow,n=100 \
	--select variant,n,boots "$tmp/samples.csv") || fail "series query failed"
[ "$got" = "slow 100 2" ] || fail "series query: wrong rows"
got=$($bin/compare --format series --where metric=cdev_add_ns,ratio!= --select variant \
	"$tmp/samples.csv") || fail "series query with col!= failed"
[ "$(sort -u <<< "$got" | tr '\n' ' ')" = "same slow " ] ||
	fail "series query: col!= does not leave out the baseline's empty ratios"
expect_fail "series query on a column that does not exist" "series.csv has no column 'nn'" \
	$bin/compare --format series --where nn=1 --select n "$tmp/samples.csv"
$bin/compare --format csv "$tmp/samples.csv" | cmp -s - "$tmp/out.csv" ||
	fail "the same input gave different output"
$bin/compare --format text "$tmp/samples.csv" > "$tmp/out.txt"
awk 'length > 79 { bad = 1 } END { exit bad }' "$tmp/out.txt" ||
	fail "the text report has lines of 80 columns or more"
tr '\n' ' ' < "$tmp/out.txt" | grep -q "Holm family: the 4 headline comparisons" ||
	fail "the text report does not state the Holm family"
$bin/compare --format md "$tmp/samples.csv" | grep -q '^| cdev_add_ns | n=10 |' ||
	fail "no markdown table"

# icount mode (meta.json says so), 2 boots x 5 repetitions, every value
# repeating as icount's do: "slow9" is nine times slower, "minus8" 8 ns
# faster in every (boot, repetition) pair, "aa" the baseline's kernel
# again (the A/A arm).  Counts compare exactly; fault-phase draws are not
# compared; a rising trace_overhead_pct is "higher", not "better".
mkdir "$tmp/ic"
{
	echo "variant,boot,metric,param,iter,value,unit"
	for v in stock slow9 minus8 aa; do
		for b in 1 2; do
			for i in 0 1 2 3 4; do
				for n in 1 10 100; do
					case $v in
					slow9) val=$((3000 + n)) ;;
					minus8) val=$((333 + n - 8)) ;;
					*) val=$((333 + n)) ;;
					esac
					echo "$v,$b,cdev_add_ns,n=$n,$i,$val,ns"
				done
			done
			case $v in slow9) k=1 o=9 ;; *) k=0 o=3 ;; esac
			echo "$v,$b,kernfs_nodes_per_cdev,n=100,0,$k,count"
			echo "$v,$b,trace_overhead_pct,phase=add,0,$o,pct"
			echo "$v,1,fail_handled,flavour=alloc_put,0,$((20 + b)),count"
			echo "$v,1,fail_points,flavour=alloc_put,0,$((30 + b)),count"
		done
	done
} > "$tmp/ic/samples.csv"
cat > "$tmp/ic/meta.json" <<JSON
{ "run_id": "ic", "mode": "icount", "faults": false, "variants": {
  "stock": {"kernel": "stock", "kernel_release": "6.1-stock", "config_sha256": "aaaa", "series_sha256": "e3b0", "patches": [], "config_fragment": null},
  "slow9": {"kernel": "slow9", "kernel_release": "6.1-slow9", "config_sha256": "aaaa", "series_sha256": "1234567890abcdef", "patches": ["chrdev: do it nine times"], "config_fragment": null},
  "minus8": {"kernel": "minus8", "kernel_release": "6.1-minus8", "config_sha256": "aaaa", "series_sha256": "fedc", "patches": ["chrdev: save eight"], "config_fragment": null},
  "aa": {"kernel": "stock", "kernel_release": "6.1-stock", "config_sha256": "aaaa", "series_sha256": "e3b0", "patches": [], "config_fragment": null} } }
JSON
$bin/compare --format csv "$tmp/ic/samples.csv" > "$tmp/ic/out.csv"
for n in 1 10 100; do
	grep -q "^cdev_add_ns,n=$n,stock,slow9,2,2,.*,worse,gap," "$tmp/ic/out.csv" ||
		fail "icount: a nine-fold slowdown on tied values is not 'worse' by gap at n=$n: $(cat "$tmp/ic/out.csv")"
	grep -q "^cdev_add_ns,n=$n,stock,aa,2,2,.*,same,gap," "$tmp/ic/out.csv" ||
		fail "icount: the A/A arm is not 'same' at n=$n"
	grep -q "^cdev_add_ns,n=$n,stock,minus8,.*,gap,0,0,-8,-8,-8$" "$tmp/ic/out.csv" ||
		fail "icount: the paired delta of minus8 is not -8 in every pair at n=$n"
done
grep -q "^kernfs_nodes_per_cdev,n=100,stock,slow9,2,2,0,1,,,,,worse,exact," "$tmp/ic/out.csv" ||
	fail "icount: a count from 0 to 1 is not an exact 'worse' without a p-value"
grep -q "^trace_overhead_pct,phase=add,stock,slow9,.*,higher,gap," "$tmp/ic/out.csv" ||
	fail "a rising trace_overhead_pct is not 'higher'"
! grep -q "^fail_" "$tmp/ic/out.csv" || fail "fault-phase draws got a comparison"
$bin/compare --format text "$tmp/ic/samples.csv" > "$tmp/ic/out.txt"
first=$(sed -n '/^All comparisons/q;p' "$tmp/ic/out.txt")
[ "$(wc -l <<< "$first")" -le 60 ] || fail "the first screen is longer than 60 lines"
grep -q "A/A control aa: 0 of 4 headline comparisons better or worse" <<< "$first" ||
	fail "the first screen does not give the A/A control's false positives"
grep -q "^slow9 against stock: kernel 6.1-slow9, 1 patch, series 1234567890ab" <<< "$first" ||
	fail "the first screen does not head a variant with its kernel and series"
grep -q "^  | chrdev: do it nine times" <<< "$first" || fail "no patch subject under its variant"
grep -qE "^  worse +cdev_add_ns +3/3 +\+[0-9]{3}%" <<< "$first" ||
	fail "the first screen does not lead with slow9's cdev_add_ns"
grep -qE "^  cdev_add_ns +W 3/3 7.2x..9.0x +B 3/3 -2%$" <<< "$first" ||
	fail "the matrix does not give slow9 W and minus8 B on cdev_add_ns at 3 of 3 params: $first"
# the lead: what an icount "ns" is; per variant what got worse and
# better, the largest change each way with both sides' values
tr -s '\n ' ' ' <<< "$first" | grep -q 'icount mode: the guest.s clock counts instructions, so 1 "ns" is 1 instruction' ||
	fail "the lead does not say what an icount ns is: $first"
tr -s '\n ' ' ' <<< "$first" | grep -qE 'slow9: worse in kernfs_nodes_per_cdev, cdev_add_ns; better in none\. Most worse: kernfs_nodes_per_cdev at n=100, 0 -> 1\.' ||
	fail "slow9's answer does not name what got worse, the largest with both values: $first"
tr -s '\n ' ' ' <<< "$first" | grep -qE 'minus8: worse in none; better in cdev_add_ns\. Most better: cdev_add_ns at n=[0-9]+, 3[0-9]+ -> 3[0-9]+ ns \(-2\.[0-9]%\)' ||
	fail "minus8's answer does not give its largest change as stock's and its value: $first"
grep -q "Failure-path phase: skipped (FAULTS=0)" <<< "$first" || fail "a skipped phase is not named"
# Twelve variants, each 2-13x slower in four headline metrics, would not
# fit one screen: each shows its largest changes and counts the rest.
mkdir "$tmp/many"
{
	echo "variant,boot,metric,param,iter,value,unit"
	for v in stock v{2..13}; do
		f=${v#v}
		[ "$v" != stock ] || f=1
		for b in 1 2; do
			for m in cdev_add_ns cdev_del_ns open_lookup_ns unplug_close_ns; do
				echo "$v,$b,$m,n=1,0,$((100 * f)),ns"
			done
		done
	done
} > "$tmp/many/samples.csv"
# The matrix leads: a row per headline metric, a column per variant.
many=$($bin/compare --format text "$tmp/many/samples.csv")
first=$(sed -n '/^All comparisons/q; /^Per variant (below the first screen)/q; p' <<< "$many")
[ "$(wc -l <<< "$first")" -le 60 ] || fail "twelve variants: the first screen is longer than 60 lines"
grep -q '^\[1\] v2, \[2\] v3, ' <<< "$first" || fail "twelve variants: the matrix has no legend: $first"
grep -qE '^  cdev_add_ns +W 1/1 2.0x +W 1/1 3.0x +W 1/1 4.0x$' <<< "$first" ||
	fail "twelve variants: the matrix's first row is not W 1/1 2.0x .. W 1/1 4.0x: $first"
[ "$(grep -c '^  cdev_add_ns ' <<< "$first")" = 4 ] ||
	fail "twelve variants: the matrix is not four tables of three columns: $first"
blocks=$(sed -n '/^Per variant (below the first screen)/,/^All comparisons/p' <<< "$many")
[ "$(grep -c '^  worse ' <<< "$blocks")" -ge 12 ] && grep -q '^  [0-9] more changes, smaller or equal (tables below)$' <<< "$blocks" ||
	fail "twelve variants: the blocks that do not fit do not follow the first screen, each with its largest change and a count of the rest: $many"
grep -qE "^  n=1 +334 +-2.4% +-2.4..-2.4 +-8 +better$" "$tmp/ic/out.txt" ||
	fail "the icount table does not show the paired delta beside the ratio"
awk 'length > 79 { bad = 1 } END { exit bad }' "$tmp/ic/out.txt" ||
	fail "the icount text report has lines of 80 columns or more"
# The machine-readable comparison: the run's provenance and one object
# per comparison, as many as compare.csv has rows.
rows=$(($(wc -l < "$tmp/ic/out.csv") - 1))
$bin/compare --format json "$tmp/ic/samples.csv" | jq -e --argjson rows "$rows" '
	.run.run_id == "ic" and .baseline == "stock" and .aa_arm == "aa" and
	(.comparisons | length) == $rows and
	([.comparisons[] | select(.variant == "slow9" and .metric == "cdev_add_ns") | .verdict]
	 | unique) == ["worse"] and
	([.comparisons[] | select(.variant == "minus8" and .metric == "cdev_add_ns")
	  | .paired_delta.median] | unique) == [-8]' > /dev/null ||
	fail "compare.json lacks the provenance or a comparison compare.csv has"
# Every section of the report comes from compare: with the phase run, the
# failure paths (draws, no verdicts); the memory sites (SHAPE rows, the
# median of boots, no verdicts); the plot list it is given.
sed 's/"faults": false/"faults": true/' "$tmp/ic/meta.json" > "$tmp/ic/meta.json.new"
mv "$tmp/ic/meta.json.new" "$tmp/ic/meta.json"
for v in stock slow9 minus8 aa; do
	for b in 1 2; do
		echo "$v,$b,mem_traced_site_bytes_per_cdev,\"n=1000,site=kobj_map\",0,$((62 + b * 2)).0,bytes"
		[ "$v" != slow9 ] ||
			echo "$v,$b,mem_traced_site_bytes_per_cdev,\"n=1000,site=__kernfs_new_node\",0,136.0,bytes"
	done
done >> "$tmp/ic/samples.csv"
verdicts=$($bin/compare --format csv "$tmp/ic/samples.csv") || fail "compare failed on the SHAPE rows"
grep -q '^cdev_add_ns,' <<< "$verdicts" || fail "compare gave no verdict at all: $verdicts"
! grep -q mem_traced_site_bytes_per_cdev <<< "$verdicts" || fail "a SHAPE metric got a verdict"
echo "registration.png/.svg: a plot" > "$tmp/ic/plots.txt"
$bin/compare --format text --plots "$tmp/ic/plots.txt" "$tmp/ic/samples.csv" > "$tmp/ic/full.txt"
failures=$(sed -n '/^Failure paths$/,/^$/p; /^  systematic/,/^$/p' "$tmp/ic/full.txt")
grep -qE "^    alloc_put +31 +21 +- +-\(-\) +- +-$" <<< "$failures" ||
	fail "no systematic row with the draws (points 31, handled 21): $failures"
grep -qE "^  slow9 +kobj_map +65\.0$" "$tmp/ic/full.txt" ||
	fail "no memory site kobj_map at the median of 64 and 66 bytes for slow9"
grep -qE "^  registration.png/.svg: a plot$" "$tmp/ic/full.txt" || fail "the plot list is not in the report"
awk 'length > 79 { bad = 1 } END { exit bad }' "$tmp/ic/full.txt" ||
	fail "the full text report has lines of 80 columns or more"
got=$($bin/compare --format sites "$tmp/ic/samples.csv") || fail "the memory sites' query failed"
[ "$(sed -n '1p; 3p' <<< "$got")" = \
	"$(printf '%s\n' "variant __kernfs_new_node kobj_map" "slow9 136.0 65.0")" ] ||
	fail "the memory sites' plot data does not have a column per site, 0 where none"
# The distribution plots' query: every operation from the boots' raw/ files.
mkdir -p "$tmp/ic/stock/boot-2/raw" "$tmp/ic/slow9/boot-1/raw"
printf '%s\n' cdev_add_ns,n=10,0,0,100 cdev_add_ns,n=10,0,1,120 cdev_del_ns,n=10,0,0,90 \
	'cdev_add_ns,"n=10,majors=2",0,0,80' > "$tmp/ic/stock/boot-2/raw/register-n10.csv"
echo cdev_add_ns,n=10,0,0,900 > "$tmp/ic/slow9/boot-1/raw/register-n10.csv"
got=$($bin/compare --format ops --where metric=cdev_add_ns,variant=stock,majors= \
	--select boot,op,ns "$tmp/ic/samples.csv") || fail "ops query failed"
[ "$(tr '\n' ' ' <<< "$got")" = "2 0 100 2 1 120 " ] || fail "ops query: wrong operations: $got"
echo 'cdev_add_ns,n=10,0' > "$tmp/ic/slow9/boot-1/raw/register-n10.csv"
expect_fail "a malformed per-operation file" "register-n10.csv:1: expected 5 fields" \
	$bin/compare --format ops --where variant=slow9 --select ns "$tmp/ic/samples.csv"

# The same in tcg mode: Welch's t and the gap; with one boot a side no
# rule can decide.
mkdir "$tmp/tcg" "$tmp/tcg1"
sed 's/"icount"/"tcg"/' "$tmp/ic/meta.json" > "$tmp/tcg/meta.json"
cp "$tmp/tcg/meta.json" "$tmp/tcg1/"
cp "$tmp/ic/samples.csv" "$tmp/tcg/"
awk -F, '$2 != 2' "$tmp/ic/samples.csv" > "$tmp/tcg1/samples.csv"
$bin/compare --format csv "$tmp/tcg/samples.csv" | grep -q "^cdev_add_ns,n=1,stock,slow9,2,2,.*,worse,t+gap," ||
	fail "tcg: a nine-fold slowdown is not 'worse' by t+gap"
$bin/compare --format csv "$tmp/tcg1/samples.csv" | grep -q "^cdev_add_ns,n=1,stock,slow9,1,1,.*,unclear,1 boot," ||
	fail "tcg: one boot a side is not 'unclear'"

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
head -1 "$tmp/samples.csv" > "$tmp/bad.csv"
echo "stock,1,made_up_ns,-,0,1,ns" >> "$tmp/bad.csv"
expect_fail "undeclared metric" "metric made_up_ns is not declared in bench/benchmarks.def" \
	$bin/compare "$tmp/bad.csv"
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
$bin/compare "$tmp/a/samples.csv" | grep -q "^slow against stock: kernel 6.1-slow, .*, own config fragment" ||
	fail "a declared config fragment is not accepted and reported"
echo "compare checks passed"
