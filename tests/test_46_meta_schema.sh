# shellcheck shell=bash
# meta.json's schema is docs/meta-json.md's table: every key its writers
# write (scripts/lib/meta.sh: the plan, the merge, a resume; compare
# --join: a join) is a row of the table, with the type of every value
# written under it, and every row's key is written.  The keys come from
# the meta.json files of runs that the rig's own scripts make, kernels
# and boots stood in (tests/fake_runs.sh): two bases (a package and a
# tree), AA, WALK and FAULTS, a prefix that does not build and one whose
# boot fails, a resume, a run against another (AGAINST), and one whose
# variant did not boot, resumed (failures).  Then the check is shown to
# fail: a row left out, a row of a key never written, a wrong type.
. "$(dirname "$0")/lib.sh"

doc=docs/meta-json.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake=$(fake_runs "$tmp/fake")
mapfile -t metas < <(find "$fake/results" -name meta.json | sort)
[ ${#metas[@]} = 7 ] || fail "the fake runs left ${#metas[@]} meta.json files, not 7: ${metas[*]}"

# The fake runs reached every writer: the plan's and the merge's reasons
# a prefix is not bisectable, a resume's sitting, a join.
all=$(ls -d "$fake"/results/*-all)
jq -e '[.walks[].steps[].not_bisectable | strings] as $r
	| ($r | any(test("kernel build failed"))) and ($r | any(test("/boot-1 ")))
	and (.sittings | length) == 1' "$all/meta.json" > /dev/null ||
	fail "the fake run's meta.json lacks a writer's keys: $(jq -c '{walks, sittings}' "$all/meta.json")"
joined=$(ls -d "$fake"/results/*-new/against-*)
jq -e '.against.variant == "stock" and (.variants | keys_unsorted[0] | endswith("-old"))' \
	"$joined/meta.json" > /dev/null || fail "the join's meta.json is not one: $(jq -c .against "$joined/meta.json")"
nb=$(ls -d "$fake"/results/*-nb)
jq -e '.failures | keys == ["cdev-hash"] and .["cdev-hash"].did_not_boot and
	(.["cdev-hash"].units[0] | .function == "kobj_lookup" and .times == 2 and .settled)' "$nb/meta.json" > /dev/null ||
	fail "the run whose variant did not boot has no failures in meta.json: $(jq -c .failures "$nb/meta.json")"
echo "fake runs: plan, merge, resume and join wrote ${#metas[@]} meta.json files"

# What runs once: the plugin's calibration on the baseline's pmu boot,
# which the report does not take for a missing side of the others'; the
# traced pass on the first TRACED_BOOTS (1) timing boots.
old=$(ls -d "$fake"/results/*-old)
jq -e '.calibration == {arm: "stock", benches: ["pchase"]}' "$old/meta.json" > /dev/null ||
	fail "the PMU=1 run's calibration is not stock's pchase: $(jq -c .calibration "$old/meta.json")"
[ "$(grep -c 'bench=pchase' "$old/samples.csv")" = 1 ] && grep -q '^stock,1,l1d_misses_per_op,"bench=pchase' "$old/samples.csv" ||
	fail "pchase ran elsewhere than stock's pmu boot: $(grep 'bench=pchase' "$old/samples.csv" | cut -d, -f1-3 | tr '\n' ' ')"
grep -q '^cdev-hash,1,insns_per_op,' "$old/samples.csv" || fail "cdev-hash's pmu boot wrote no rows"
missing=$(lines_matching 'side missing' "$old/report/report.txt")
[ -z "$missing" ] || fail "the report takes the calibration cdev-hash did not run for a missing side: $missing"
bisect=$(ls -d "$fake"/results/*-bisect)
for b in 1 2; do
	steps=$(lines_matching '^SUITE_STEPS=' "$bisect/stock/boot-$b/suite.env")
	traced=$(lines_matching '^stock,[12],lock_hold_ns,' "$bisect/stock/boot-$b/samples.csv")
	if [ $b = 1 ]; then
		[[ $steps = *traced_pass* ]] && [ -n "$traced" ] ||
			fail "boot 1 does not run the traced pass or has no traced rows: $steps"
	else
		[[ $steps != *traced_pass* ]] && [ -z "$traced" ] ||
			fail "boot 2 runs the traced pass or has traced rows, TRACED_BOOTS=1: $steps $traced"
	fi
done
echo "run once: the calibration on stock's pmu boot alone, no side missing; the traced pass on boot 1 alone"

# "KEY<TAB>TYPE" of every member of every object in the files, an array's
# elements as [], an arm's name under variants and failures as *.
written() {	# written META...
	jq -r 'paths as $p | select($p[-1] | type == "string")
		| ($p | to_entries | map(if (.value | type) == "number" then "[]"
			elif .key == 1 and ($p[0] == "variants" or $p[0] == "failures") then ".*"
			elif .key == 0 then .value else "." + .value end) | join("")) as $k
		| "\($k)\t\(getpath($p) | type)"' "$@" | sort -u
}

# "KEY<TAB>TYPES" of every row of the tables of DOC whose header starts
# "| key | type |": the key without its backticks, the type column's jq
# type names ("array of strings" is an array; "string or null").
documented() {	# documented DOC
	awk -F'|' '/^\| key \| type \|/ { t = 1; next } !/^\|/ { t = 0 }
		t && !/^\|---/ {
			k = $2; gsub(/[ `]/, "", k)
			n = split($3, w, /[^a-z]+/); types = ""
			for (i = 1; i <= n; i++)
				if (w[i] ~ /^(string|number|boolean|array|object|null)$/) types = types " " w[i]
			print k "\t" substr(types, 2)
		}' "$1" | sort
}

# Fails naming every key written and not documented, documented and not
# written, or written with a type the row does not give.
check_schema() {	# check_schema DOC META...
	local doc_file=$1 keys problems=''
	shift
	written "$@" > "$tmp/written"
	documented "$doc_file" > "$tmp/documented"
	[ -s "$tmp/documented" ] || fail "$doc_file has no table headed '| key | type |'"
	keys=$(cut -f1 "$tmp/documented" | uniq -d)
	[ -z "$keys" ] || problems+="rows of one key twice in $doc_file: ${keys//$'\n'/ }; "
	keys=$(comm -23 <(cut -f1 "$tmp/written" | sort -u) <(cut -f1 "$tmp/documented"))
	[ -z "$keys" ] || problems+="written but not in $doc_file: ${keys//$'\n'/ }; "
	keys=$(comm -13 <(cut -f1 "$tmp/written" | sort -u) <(cut -f1 "$tmp/documented"))
	[ -z "$keys" ] || problems+="in $doc_file but never written: ${keys//$'\n'/ }; "
	keys=$(awk -F'\t' 'NR == FNR { doc[$1] = " " $2 " "; next }
		($1 in doc) && index(doc[$1], " " $2 " ") == 0 { printf "%s is %s, the doc says%s; ", $1, $2, doc[$1] }' \
		"$tmp/documented" "$tmp/written")
	problems+=$keys
	[ -z "$problems" ] || fail "meta.json and its schema differ: ${problems%; }"
}

check_schema "$doc" "${metas[@]}"
echo "$doc: $(wc -l < "$tmp/documented") keys, each written, every key written documented with its type"

# The check fails where the doc and the writers part.
grep -v '^| `sittings\[\]\.units` |' "$doc" > "$tmp/no-row.md"
expect_fail "a written key the doc leaves out" 'written but not in .*: sittings\[\]\.units$' \
	check_schema "$tmp/no-row.md" "${metas[@]}"
sed '/^| `reproduce` |/a | `variants.*.colour` | string | plan | always | never written |' "$doc" > "$tmp/extra-row.md"
expect_fail "a documented key no writer writes" 'in .* but never written: variants\.\*\.colour' \
	check_schema "$tmp/extra-row.md" "${metas[@]}"
sed 's/^| `host_cores` | number |/| `host_cores` | string |/' "$doc" > "$tmp/wrong-type.md"
expect_fail "a key of another type" 'host_cores is number, the doc says string' \
	check_schema "$tmp/wrong-type.md" "${metas[@]}"
