# shellcheck shell=bash
# The first screen says, per variant above its matrix and in its block,
# what a patch changes in kind: the locks a phase
# stops or starts taking and the shared cache lines that go or come, in
# whole counts per operation (a census's 0.01 -> 0.02 is no change), a
# count that went to or from zero first; and the race check's outcome
# (race.json beside meta.json), with a variant that failed it marked
# wherever its figures are.  compare.json carries both.  And the
# shared-lines section gives transfers where the run counted them, and
# the lines of a node each beside those of one node, as the lock census
# gives the locks two threads share on one node and on a node each.
. "$(dirname "$0")/lib.sh"

bin=build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# icount, 2 boots: "onelock" stops taking cdev_lock on a cached open and
# takes it once instead of twice on a first open, and no longer shares
# cdev_lock's line; two threads on one node share the inode's lock in its
# place, on a node each nothing but the fd table (and 2 lines fewer);
# "moved" takes dput's lockref 9 times instead of 8;
# every arm's timer lock wanders between 0.01 and 0.02 per open, a lock
# taken about every other open goes from 0.45 to 0.55 on "moved" (no
# whole count), and every pingpong line is a user address ASLR moves.
{
	echo "variant,boot,metric,param,iter,value,unit"
	for v in stock onelock moved; do
		for b in 1 2; do
			for i in 0 1 2; do echo "$v,$b,open_cached_ns,threads=1,$i,1000,ns"; done
			echo "$v,$b,lock_acquisitions_per_op,\"phase=cached,lock=cdev_lock\",0,$([ $v = onelock ] && echo 0.02 || echo 1.01),count"
			echo "$v,$b,lock_acquisitions_per_op,\"phase=lookup,lock=cdev_lock\",0,$([ $v = onelock ] && echo 1.00 || echo 2.00),count"
			echo "$v,$b,lock_acquisitions_per_op,\"phase=cached,lock=lockref@dput\",0,$([ $v = moved ] && echo 9.00 || echo 8.00),count"
			echo "$v,$b,lock_acquisitions_per_op,\"phase=cached,lock=jiffies_lock\",0,0.0$b,count"
			echo "$v,$b,lock_acquisitions_per_op,\"phase=cached,lock=spin@half\",0,$([ $v = moved ] && echo 0.55 || echo 0.45),count"
			echo "$v,$b,shared_lines_per_op,\"bench=open_cached,threads=2,sched=lockstep\",0,$([ $v = onelock ] && echo 12 || echo 13),count"
			[ $v = onelock ] ||
				echo "$v,$b,shared_line_per_op,\"bench=open_cached,threads=2,sched=lockstep,site=cdev_lock+0\",0,1.000,count"
			echo "$v,$b,shared_line_per_op,\"bench=open_cached,threads=2,sched=lockstep,site=heap@lockref_get\",0,1.000,count"
			echo "$v,$b,shared_line_per_op,\"bench=pingpong,threads=2,sched=lockstep,site=user@0x55$v$b\",0,1.000,count"
			echo "$v,$b,shared_lines_per_op,\"bench=open_cached,threads=2,nodes=many,sched=lockstep\",0,$([ $v = onelock ] && echo 9 || echo 11),count"
			[ $v = onelock ] ||
				echo "$v,$b,shared_line_per_op,\"bench=open_cached,threads=2,nodes=many,sched=lockstep,site=cdev_lock+0\",0,1.000,count"
			for nodes in "" "nodes=many,"; do
				[ $v = onelock ] ||
					echo "$v,$b,shared_locks_per_op,\"threads=2,${nodes}phase=cached,lock=cdev_lock\",0,1.00,count"
				echo "$v,$b,shared_locks_per_op,\"threads=2,${nodes}phase=cached,lock=spin@alloc_fd\",0,1.00,count"
			done
			[ $v != onelock ] ||
				echo "$v,$b,shared_locks_per_op,\"threads=2,phase=cached,lock=spin@chrdev_open\",0,1.00,count"
		done
	done
} > "$tmp/samples.csv"
cat > "$tmp/meta.json" <<JSON
{ "run_id": "fs", "mode": "icount", "faults": false, "race": true, "variants": {
  "stock": {"kernel": "stock", "kernel_release": "6.1-stock", "config_sha256": "aaaa", "series_sha256": "e3b0", "patches": [], "config_fragment": null},
  "onelock": {"kernel": "onelock", "kernel_release": "6.1-onelock", "config_sha256": "aaaa", "series_sha256": "1234", "patches": ["chrdev: no global lock"], "config_fragment": null},
  "moved": {"kernel": "moved", "kernel_release": "6.1-moved", "config_sha256": "aaaa", "series_sha256": "5678", "patches": ["fs: one more dput"], "config_fragment": null} } }
JSON
race_json() {	# race_json ONELOCK_RESULT CONTROL_RESULT
	cat <<JSON
{"mode": "tcg", "vcpus": 2, "rounds": 400000, "checker_rounds": 20000, "unfinished": [], "checks": [
  {"variant": "stock", "arm": "stock", "expected": "pass", "result": "pass", "seconds": 180, "evidence": "# cached: 1209679 opens"},
  {"variant": "onelock", "arm": "onelock", "expected": "pass", "result": "$1", "seconds": 11, "evidence": "BUG kmalloc-128 (Not tainted): Poison overwritten"},
  {"variant": "onelock-nogp", "arm": "onelock-nogp", "expected": "fail", "result": "$2", "seconds": 102, "evidence": "# race_cached:412: an open reached slot 0"}]}
JSON
}
race_json fail fail > "$tmp/race.json"

$bin/compare "$tmp/samples.csv" > "$tmp/report.txt"
sed '/^All comparisons$/,$d' "$tmp/report.txt" > "$tmp/screen.txt"
[ "$(wc -l < "$tmp/screen.txt")" -le 60 ] || fail "the first screen is longer than 60 lines"
block() { sed -n "/^$1 (race check FAIL) against stock\|^$1 against stock/,/^\$/p" "$tmp/screen.txt"; }

grep -qx '    locks per cached open: cdev_lock 1 -> 0' <(block onelock) ||
	fail "onelock's first-screen block lacks 'cdev_lock 1 -> 0' per cached open: $(block onelock)"
grep -qx '    locks per first open: cdev_lock 2 -> 1' <(block onelock) ||
	fail "onelock's block lacks 'cdev_lock 2 -> 1' per first open: $(block onelock)"
grep -qx '    shared lines per cached open: 2 threads (a node each) 11 -> 9, 2 threads' <(block onelock) &&
	grep -qx '    13 -> 12; gone cdev_lock+0' <(block onelock) ||
	fail "onelock's block lacks the shared lines of one node and of a node each, and the one that went: $(block onelock)"
grep -qx '    shared locks per cached open (2 threads, one node): cdev_lock 1 -> 0,' <(block onelock) &&
	grep -qx '    spin@chrdev_open 0 -> 1' <(block onelock) ||
	fail "onelock's block lacks the lock two threads on one node share in cdev_lock's place: $(block onelock)"
grep -qx '    shared locks per cached open (2 threads, a node each): cdev_lock 1 -> 0' <(block onelock) ||
	fail "onelock's block lacks the lock two threads on a node each no longer share: $(block onelock)"
# a count to or from zero leads: the cached open's line before the first open's
[ "$(block onelock | grep -n 'locks per cached open: cdev_lock 1 -> 0' | cut -d: -f1)" -lt \
	"$(block onelock | grep -n 'cdev_lock 2 -> 1' | cut -d: -f1)" ] ||
	fail "a count that went to zero does not come first: $(block onelock)"
grep -qx '    locks per cached open: lockref@dput 8 -> 9' <(block moved) ||
	fail "moved's block lacks 'lockref@dput 8 -> 9': $(block moved)"
! grep -q 'jiffies_lock\|spin@half\|user@' "$tmp/screen.txt" ||
	fail "a count that stayed under one per operation, one that is no whole count, or a user address reads as a change: $(grep 'jiffies_lock\|spin@half\|user@' "$tmp/screen.txt")"

# Each variant's line above the matrix says what got worse and better
# (nothing headline, here) and gives its first change in kind, so that a
# patch that takes a lock off a path says so where the matrix reads "=".
grep -q 'onelock (race check FAIL): worse in none; better in none\. Memory per cdev: not measured\. Selftest passed\. Changed in kind: shared lines per cached open: 2 threads (a node each) 11 -> 9, 2 threads 13 -> 12; gone cdev_lock+0, and more below\.' \
	<(tr -s '\n ' ' ' < "$tmp/screen.txt") ||
	fail "onelock's line above the matrix lacks its verdicts or its first change in kind: $(head -12 "$tmp/screen.txt")"
grep -q 'moved: worse in none; better in none\. .* Changed in kind: locks per cached open: lockref@dput 8 -> 9\.' \
	<(tr -s '\n ' ' ' < "$tmp/screen.txt") ||
	fail "moved's line above the matrix lacks its change in kind"
[ "$(grep -n '^onelock (race check FAIL): ' "$tmp/screen.txt" | cut -d: -f1)" -lt \
	"$(grep -n '^Headline metrics against stock' "$tmp/screen.txt" | cut -d: -f1)" ] ||
	fail "the variants' lines do not come before the matrix"

# the race check: its outcome in the correctness paragraph, the failed
# variant marked in the matrix's legend, its block and its table
grep -q 'onelock FAIL: BUG kmalloc-128 (Not tainted): Poison overwritten' <(tr '\n' ' ' < "$tmp/screen.txt") ||
	fail "the correctness paragraph lacks onelock's race failure and its evidence"
grep -q 'control onelock-nogp FAIL as it must' <(tr '\n' ' ' < "$tmp/screen.txt") ||
	fail "the correctness paragraph lacks the control's expected failure"
grep -q 'Race check (tcg, 2 vCPUs, 400000 rounds, slab poisoning; 20000 rounds, lockdep, KCSAN, list and sleep checks):' <(tr -s '\n ' ' ' < "$tmp/screen.txt") ||
	fail "the correctness paragraph does not say what the race check's two boots ran"
grep -q '\[1\] onelock (race check FAIL)' "$tmp/screen.txt" || fail "the matrix does not mark onelock"
grep -q '^onelock (race check FAIL) against stock' "$tmp/report.txt" || fail "onelock's block is not marked"
[ "$(grep -c '^onelock (race check FAIL) against stock$' "$tmp/report.txt")" = 1 ] ||
	fail "onelock's table heading is not marked"
! grep -q 'moved (race check' "$tmp/report.txt" || fail "a variant the race check did not fail is marked"
$bin/compare --format md "$tmp/samples.csv" > "$tmp/report.md"
grep -q '^### onelock (race check FAIL) against stock' "$tmp/report.md" || fail "report.md does not mark onelock"

# a control that passed: the check did not catch its planted bug
race_json pass pass > "$tmp/race.json"
$bin/compare "$tmp/samples.csv" > "$tmp/report.txt"
grep -q 'control onelock-nogp pass (it must fail' <(tr '\n' ' ' < "$tmp/report.txt") ||
	fail "a control that passed the race check is not called out"
! grep -q '(race check FAIL)' "$tmp/report.txt" || fail "a passing variant is marked"

# a race.json that does not parse is left out with a warning, the report made
echo '{"checks": [' > "$tmp/race.json"
$bin/compare "$tmp/samples.csv" > "$tmp/report.txt" 2> "$tmp/err" || fail "a broken race.json stops the report"
grep -q 'warning: .*race.json left out' "$tmp/err" || fail "a broken race.json is left out without a warning"

# compare.json
race_json pass pass > "$tmp/race.json"
$bin/compare --format json "$tmp/samples.csv" > "$tmp/compare.json"
jq -e '.race.checks | map(.arm) == ["stock", "onelock", "onelock-nogp"]' "$tmp/compare.json" > /dev/null ||
	fail "compare.json lacks the race check"
jq -e '[.in_kind[] | select(.variant == "onelock" and .item == "cdev_lock")] | map([.line, .from, .to]) ==
	[["locks per cached open", [1, 1], [0, 0]],
	 ["shared locks per cached open (2 threads, a node each)", [1, 1], [0, 0]],
	 ["shared locks per cached open (2 threads, one node)", [1, 1], [0, 0]],
	 ["locks per first open", [2, 2], [1, 1]]]' \
	"$tmp/compare.json" > /dev/null || fail "compare.json's in_kind lacks onelock's cdev_lock counts: $(jq -c .in_kind "$tmp/compare.json")"

# without race.json: a run that did not ask says so, none is marked
rm "$tmp/race.json"
$bin/compare "$tmp/samples.csv" > "$tmp/report.txt"
! grep -q 'race check FAIL' "$tmp/report.txt" || fail "a run without race.json marks a variant"
sed -i 's/"race": true/"race": false/' "$tmp/meta.json"
$bin/compare "$tmp/samples.csv" > "$tmp/report.txt"
grep -q 'Race check: not run (RACE=1 runs it)' <(tr '\n' ' ' < "$tmp/report.txt") ||
	fail "a run with RACE=0 does not say the race check was not run"
$bin/compare --format json "$tmp/samples.csv" > "$tmp/compare.json"
jq -e '.race == null' "$tmp/compare.json" > /dev/null || fail "compare.json has a race check the run did not run"

# The shared-lines section: a free run's transfers beside the lines
# where the run has them (thread=single); with thread=multi the plugin
# counts none (its callbacks do not order the accesses: docs/plugin.md)
# and the section says so, with no figure in their place.
for b in 1 2; do
	echo "stock,$b,transfers_per_op,\"bench=open_cached,threads=2,sched=free\",0,1.500,count"
done >> "$tmp/samples.csv"
sed -i 's/"race": false/"race": false, "pmu_interleave": "single"/' "$tmp/meta.json"
$bin/compare "$tmp/samples.csv" > "$tmp/report.txt"
grep -qx '  stock            open_cached threads=2: 13.0 lines/op, 1.50 transfers/op' "$tmp/report.txt" ||
	fail "single: stock's shared lines without its transfers: $(grep -A3 '^Shared cache lines' "$tmp/report.txt")"
grep -qx '  moved            open_cached threads=2: 13.0 lines/op' "$tmp/report.txt" ||
	fail "single: a variant without transfers rows is not given its lines alone"
# a node each: its own run, its own lines, no transfers (lockstep only)
grep -qx '    cdev_lock+0  *1.00' \
	<(grep -A1 -x '  stock            open_cached threads=2,nodes=many: 11.0 lines/op' "$tmp/report.txt") ||
	fail "single: stock's shared lines of a node each, or their line: $(grep -A3 'nodes=many' "$tmp/report.txt")"
# the census's tables of the locks two threads share, one node and a node each
grep -qE '^    spin@chrdev_open +0\.00 +1\.00 +0\.00$' \
	<(sed -n '/^  locks 2 threads share, one node (threads=2,phase=cached)$/,/^$/p' "$tmp/report.txt") &&
	grep -qE '^    cdev_lock +1\.00 +0\.00 +1\.00$' \
	<(sed -n '/^  locks 2 threads share, a node each (threads=2,nodes=many,phase=cached)$/,/^$/p' "$tmp/report.txt") ||
	fail "the lock census lacks the locks two threads share: $(sed -n '/^Lock census$/,/^Shared cache lines/p' "$tmp/report.txt")"
grep -v transfers_per_op "$tmp/samples.csv" > "$tmp/multi.csv"
sed -i 's/"pmu_interleave": "single"/"pmu_interleave": "multi"/' "$tmp/meta.json"
$bin/compare "$tmp/multi.csv" > "$tmp/report.txt"
grep -q 'lockstep; no transfers (TCG thread=multi, whose callbacks do not order the accesses)' <(tr '\n' ' ' < "$tmp/report.txt") ||
	fail "multi: the shared-lines section does not say why it has no transfers"
! grep -q 'transfers/op' "$tmp/report.txt" || fail "multi: a transfers figure in the report"
echo "shared lines: transfers beside them round robin, none with thread=multi"

# Thirty variants like onelock, each slower on a cached open: their
# blocks no longer fit and follow the first screen, but each variant's
# first change in kind stays on it, where the matrix says only "W", as
# many as fit in 60 lines, the others counted.
{
	echo "variant,boot,metric,param,iter,value,unit"
	for v in stock $(seq -f 'v%g' 30); do
		for b in 1 2; do
			for i in 0 1 2; do echo "$v,$b,open_cached_ns,threads=1,$i,$([ $v = stock ] && echo 1000 || echo 1100),ns"; done
			echo "$v,$b,cdev_add_ns,n=1,0,$([ $v = stock ] && echo 300 || echo 400),ns"
			echo "$v,$b,lock_acquisitions_per_op,\"phase=cached,lock=cdev_lock\",0,$([ $v = stock ] && echo 1.00 || echo 0.00),count"
			echo "$v,$b,lock_acquisitions_per_op,\"phase=lookup,lock=cdev_lock\",0,$([ $v = stock ] && echo 2.00 || echo 1.00),count"
		done
	done
} > "$tmp/many.csv"
jq -n '{run_id: "many", mode: "icount", faults: false, race: false,
	variants: ([range(0; 31)] | map(if . == 0 then "stock" else "v\(.)" end) |
		map({(.): {kernel: ., kernel_release: "6.1-\(.)", config_sha256: "aaaa",
			series_sha256: "e3b0", patches: [], config_fragment: null}}) | add)}' > "$tmp/meta.json"
$bin/compare "$tmp/many.csv" > "$tmp/report.txt"
sed '/^Per variant (below the first screen)$/q' "$tmp/report.txt" > "$tmp/screen.txt"
[ "$(tail -1 "$tmp/screen.txt")" = 'Per variant (below the first screen)' ] ||
	fail "thirty variants' blocks still fit the first screen: the case shows nothing"
[ "$(wc -l < "$tmp/screen.txt")" -le 60 ] ||
	fail "with each variant's first change in kind the first screen is $(wc -l < "$tmp/screen.txt") lines"
shown=$(grep -c '^  v[0-9]*, locks per cached open: cdev_lock 1 -> 0$' "$tmp/screen.txt")
others=$(sed -n "s/^  and \([0-9]*\) other variants' in their blocks$/\1/p" "$tmp/screen.txt")
[ "$shown" -ge 6 ] && [ "${others:-0}" -ge 1 ] && [ $((shown + others)) = 30 ] ||
	fail "the first screen names $shown variants' first change in kind and counts ${others:-no} others, not 30: $(sed -n '/^Changed in kind/,/^Per variant/p' "$tmp/screen.txt")"
# ... and each variant's line follows it, before the blocks
# (grep -q reads sed's output in a process substitution: in a pipeline
# it may exit before sed has written all, whose SIGPIPE pipefail reports)
grep -q '^v30: worse in cdev_add_ns, open_cached_ns; better in none\. Most worse:$' \
	<(sed -n '/^Per variant (below the first screen)$/,$p' "$tmp/report.txt") ||
	fail "thirty variants: their lines do not follow the first screen"
echo "thirty variants: $shown first changes in kind on the first screen, ${others:-0} counted, their lines and blocks below"
