# shellcheck shell=bash
# EXECUTOR=slurm on a Slurm cluster of this one machine
# (tests/one_node_slurm.sh): a QUICK run of stock through it must give
# the numbers a local run gives (its timed samples byte for byte), every
# unit must say that Slurm ran it,
# and the merge must refuse a unit that ran another kernel build, rig or
# mode, naming which; a unit refuses to boot a kernel its plan does not
# name.  Uses the stock timing kernel that the smoke run built.
. "$(dirname "$0")/lib.sh"
needs_kernel stock

tmp=$(mktemp -d)
cluster=$tmp/cluster
mkdir "$cluster"
trap 'tests/one_node_slurm.sh stop "$cluster"; rm -rf "$tmp"' EXIT
settings=(QUICK=1 MODE=icount BOOTS=1 FAULTS=0 PMU=0 VARIANTS=stock)

# bench_run NAME [SETTING...]: a run into $tmp/NAME, its wall time in seconds
bench_run() {
	local name=$1 t
	shift
	t=$(date +%s)
	make --no-print-directory -s bench "${settings[@]}" "$@" RESULTS_DIR="$tmp/$name" \
		> "$tmp/$name.log" 2>&1 || { tail -n 30 "$tmp/$name.log"; fail "the $name run failed"; }
	echo $(( $(date +%s) - t ))
}
local_seconds=$(bench_run local)
conf=$(tests/one_node_slurm.sh start "$cluster") || fail "the one-node Slurm cluster did not start"
export "${conf?}"
slurm_seconds=$(bench_run slurm EXECUTOR=slurm)

run=$(readlink -f "$tmp/slurm/latest")
[ "$(cat "$run/status")" = complete ] || fail "the Slurm run is not complete"
mapfile -t units < "$run/units.list"
[ ${#units[@]} -gt 0 ] || fail "the Slurm run lists no unit in units.list"
for u in "${units[@]}"; do
	jq -e '.executor | startswith("slurm job ")' "$run/$u/ran.json" > /dev/null ||
		fail "$u: ran.json does not say that Slurm ran it: $(jq -c .executor "$run/$u/ran.json")"
done

# The numbers: every headline comparison of Slurm's stock against the
# local run's is "same"; how many medians are identical, the largest move.
make --no-print-directory -s compare RUN="$run" AGAINST="$tmp/local/latest" > /dev/null 2>&1 ||
	fail "make compare AGAINST= refused the local run"
headline=$(build/bin/bench_plan metrics | awk '$5 == "headline" { print $1 }' | paste -sd'|')
rows=$(unquoted_csv "$run"/against-*/report/compare.csv |
	awk -F, -v re="^($headline)$" '$4 == "stock" && $3 ~ /^stock@/ && $1 ~ re')
[ -n "$rows" ] || fail "no headline comparison of stock against the local run's"
differ=$(awk -F, '$13 != "same"' <<< "$rows")
[ -z "$differ" ] || fail "Slurm's numbers differ from the local run's: $differ"
awk -F, -v units=${#units[@]} -v s="$slurm_seconds" -v l="$local_seconds" '
	{ n++; if ($7 == $8) same++; d = $7 ? ($8 - $7) / $7 : 0; if (d < 0) d = -d; if (d > max) max = d }
	END { printf "slurm: %d unit(s) in %d s (local %d s); %d headline medians, all same, %d identical, largest difference %.3f%%\n",
		units, s, l, n, same, 100 * max }' <<< "$rows"

# Bit for bit (docs/determinism.md): the same kernel and seed give every
# per-operation sample of the timed pass the local run's.
diff -r -q "$tmp/local/latest/stock/boot-1/raw" "$run/stock/boot-1/raw" ||
	fail "Slurm's boot's timed samples (raw/) differ from the local run's"
echo "slurm: the timed pass's $(cat "$run"/stock/boot-1/raw/*.csv | wc -l) per-operation samples are the local run's, byte for byte"

# Merge refusals, on a copy of the run whose first unit's ran.json says
# it ran something else.
copy=$tmp/copy/run
mkdir -p "$tmp/copy"
cp -r "$run" "$copy"
ran=$copy/${units[0]}/ran.json
cp "$ran" "$tmp/ran.json"
for fact in kernel_sha256 module_sha256 rig_commit measuring_code_sha256 mode run_id; do
	jq --arg f "$fact" '.[$f] = "other"' "$tmp/ran.json" > "$ran"
	expect_fail "merge of a unit with another $fact" "${units[0]}: $fact is \"other\" in the unit" \
		env RUN="$copy" scripts/merge.sh
	[ "$(cat "$copy/status")" = failed ] || fail "a refused merge left status $(cat "$copy/status")"
done
cp "$tmp/ran.json" "$ran"
rm "$copy/${units[0]}/seconds"
expect_fail "merge of a unit that did not finish" "did not run or did not finish.*${units[0]}" \
	env RUN="$copy" scripts/merge.sh
echo 0 > "$copy/${units[0]}/seconds"
RUN=$copy scripts/merge.sh 2> /dev/null || fail "the merge of the copy's own units failed"
cmp -s "$copy/samples.csv" "$run/samples.csv" || fail "merging again changed samples.csv"

# A unit whose plan names another kernel build does not boot.
unit=$copy/${units[0]}
rm -f "$unit/serial.log"
jq '.kernel_sha256 = "other"' "$unit/expected.json" > "$tmp/expected.json"
mv "$tmp/expected.json" "$unit/expected.json"
expect_fail "a unit planned for another kernel build" "not booted: kernel_sha256" scripts/unit.sh "$unit"
[ ! -e "$unit/serial.log" ] || fail "the unit booted a kernel its plan does not name"
[ "$(cat "$unit/failed")" = 3 ] || fail "the refused unit's failed file says $(cat "$unit/failed")"
