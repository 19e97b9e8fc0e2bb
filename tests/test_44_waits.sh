# shellcheck shell=bash
# The waits per operation (lock_census.bt, waits_per_op) on the first
# screen: a wait a variant added is a change in kind, from 0 where the
# baseline filed none of that wait (its wait=schedule rows, 0 included,
# file the metric for every window), each teardown named by what it
# does, the wait first in its item; a stray wait (0.05 per operation)
# is none; compare.json's in_kind carries the same.
. "$(dirname "$0")/lib.sh"

bin=build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# icount, 2 boots: "scale" waits a grace period in each embedded cdev's
# release (a block and a synchronize_rcu() per close, K per exit of K
# files) and once per cdev_del() of the census; stock never waits, bar
# a stray block in one cdev_add() of 20 on both.
{
	echo "variant,boot,metric,param,iter,value,unit"
	for v in stock scale; do
		for b in 1 2; do
			for i in 0 1 2; do echo "$v,$b,open_cached_ns,threads=1,$i,1000,ns"; done
			echo "$v,$b,waits_per_op,\"phase=add,wait=schedule\",0,0.05,count"
			echo "$v,$b,waits_per_op,\"phase=del,wait=schedule\",0,0.00,count"
			[ $v = stock ] || echo "$v,$b,waits_per_op,\"phase=del,wait=synchronize_rcu\",0,1.00,count"
			for alloc in dynamic embedded; do
				per_close=0.00
				[ $v = stock ] || [ $alloc = dynamic ] || per_close=1.00
				echo "$v,$b,waits_per_op,\"alloc=$alloc,phase=unplug_close,wait=schedule\",0,$per_close,count"
				[ $per_close = 0.00 ] ||
					echo "$v,$b,waits_per_op,\"alloc=$alloc,phase=unplug_close,wait=synchronize_rcu\",0,$per_close,count"
				for files in 1 16; do
					per_exit=0.00
					[ $v = stock ] || [ $alloc = dynamic ] || per_exit=$files.00
					echo "$v,$b,waits_per_op,\"alloc=$alloc,files=$files,phase=unplug_exit,wait=schedule\",0,$per_exit,count"
					[ $per_exit = 0.00 ] ||
						echo "$v,$b,waits_per_op,\"alloc=$alloc,files=$files,phase=unplug_exit,wait=synchronize_rcu\",0,$per_exit,count"
				done
			done
		done
	done
} > "$tmp/samples.csv"
cat > "$tmp/meta.json" <<JSON
{ "run_id": "waits", "mode": "icount", "faults": false, "race": false, "variants": {
  "stock": {"kernel": "stock", "kernel_release": "6.1-stock", "config_sha256": "aaaa", "series_sha256": "e3b0", "patches": [], "config_fragment": null},
  "scale": {"kernel": "scale", "kernel_release": "6.1-scale", "config_sha256": "aaaa", "series_sha256": "1234", "patches": ["chrdev: wait in the release"], "config_fragment": null} } }
JSON

# check_waits DIR: the report of DIR/samples.csv (DIR/meta.json its
# run's) gives the waits scale added, as worked out, and no others.
check_waits() {
	local kind line
	$bin/compare "$1/samples.csv" > "$1/report.txt"
	sed -n '/^scale against stock/,/^$/p' "$1/report.txt" | sed '/^All comparisons$/,$d' > "$1/block.txt"
	# the block's kind lines (wrapped at 78 columns), a line per operation
	kind=$(sed -n '/changed in kind/,/secondary comparisons/{/^    /p}' "$1/block.txt" |
		sed 's/^    //' | tr '\n' ' ' | sed 's/ waits per /\nwaits per /g; s/ $//')
	for line in 'waits per cdev_del: synchronize_rcu 0 -> 1' \
		'waits per last close of a deleted cdev: 0 -> 1 at schedule (alloc=embedded), synchronize_rcu (alloc=embedded)' \
		'waits per exit holding deleted cdevs: schedule (alloc=embedded,files=16) 0 -> 16, synchronize_rcu (alloc=embedded,files=16) 0 -> 16, schedule (alloc=embedded,files=1) 0 -> 1, synchronize_rcu (alloc=embedded,files=1) 0 -> 1'; do
		grep -qxF "$line" <<< "$kind" || fail "scale's block lacks '$line': $kind"
	done
	! grep -q 'cdev_add\|dynamic' <<< "$kind" ||
		fail "a stray block, or a wait no variant changed, reads as a change in kind: $kind"
	echo "first screen: $(wc -l <<< "$kind") lines of waits that scale added, as worked out"

	# the baseline's absent synchronize_rcu rows are 0 in both its boots
	grep -qE '^  alloc=embedded,phase=unplug_close,wait=synchronize_rcu +0 -> 1 +worse$' "$1/report.txt" ||
		fail "the table lacks stock's 0 synchronize_rcu per close: $(grep -F 'phase=unplug_close,wait=synchronize_rcu' "$1/report.txt")"
	$bin/compare --format json "$1/samples.csv" > "$1/compare.json"
	jq -e '[.in_kind[] | select(.variant == "scale" and .line == "waits per exit holding deleted cdevs")]
		| map([.item, .from, .to]) | index([["synchronize_rcu (alloc=embedded,files=16)", [0, 0], [16, 16]]]) != null' \
		"$1/compare.json" > /dev/null ||
		fail "compare.json's in_kind lacks the exit's 16 waits: $(jq -c .in_kind "$1/compare.json")"
	echo "compare.json: the waits in in_kind"
}
check_waits "$tmp"

# The check fails a run whose variant added no wait at cdev_del().
mkdir "$tmp/broken"
cp "$tmp/meta.json" "$tmp/broken/"
grep -v '^scale,.*"phase=del,wait=synchronize_rcu"' "$tmp/samples.csv" > "$tmp/broken/samples.csv"
expect_fail "no wait at cdev_del" "scale's block lacks 'waits per cdev_del: synchronize_rcu 0 -> 1'" check_waits "$tmp/broken"
