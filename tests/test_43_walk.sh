# shellcheck shell=bash
# make bench WALK=1 (docs/walk.md), without a kernel: a prefix name,
# <variant>~<k>, resolves to the first k patches of the variant's series
# for the base, with its variant's folder and a file of its own where it
# has one; a prefix that is the whole series or of no series is refused.
# The merge leaves out a prefix whose boot failed, naming it not
# bisectable with the reason, and still fails a run whose whole series'
# boot failed.  compare says which patch changed each headline metric:
# a 3-patch walk where patch 2 did, on the first screen and in
# compare.json, and with patch 1 not bisectable, patches 1-2.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export MODE=icount
unset VARIANTS BASE BASES WALK

# --- A prefix's patches, dry ---
patches=$tmp/patches
mkdir -p "$patches/three/6.12"
cp patches/rig.config patches/fault.config "$patches/"
for p in 0001-a 0002-b 0003-c; do touch "$patches/three/$p.patch"; done
printf '# the series\n0001-a.patch\n0002-b.patch\n\n0003-c.patch\n' > "$patches/three/series"
printf '../0001-a.patch\n0002-b.patch\n' > "$patches/three/6.12/series"
touch "$patches/three/6.12/0002-b.patch"
echo --expect-sys-cdev > "$patches/three/selftest.args"
: > "$patches/three/selftest.args~1"
lib() { env PATCHES_DIR="$patches" bash -c ". scripts/lib.sh && rig_init && $1"; }

[ "$(lib 'series_patches three~2' | paste -sd' ')" = "$patches/three/0001-a.patch $patches/three/0002-b.patch" ] ||
	fail "series_patches three~2 is not the first two patch files: $(lib 'series_patches three~2')"
[ "$(lib 'series_patches three~1')" = "$patches/three/0001-a.patch" ] ||
	fail "series_patches three~1 is not the first patch file"
[ "$(lib 'series_patches three' | wc -l)" = 3 ] || fail "the whole series is not three patches"
[ "$(BASE=6.12 lib 'series_patches three~1')" = "$patches/three/0001-a.patch" ] ||
	fail "three~1 on 6.12 is not 6.12's series' first patch (../0001-a.patch)"
[ "$(lib 'variant_dir three~2')" = "$RIG_ROOT/build/kernels/6.1/three~2" ] ||
	fail "three~2's tree is not a folder of its own: $(lib 'variant_dir three~2')"
[ "$(lib 'variant_file three~1 selftest.args')" = "$patches/three/selftest.args~1" ] ||
	fail "three~1 does not take its own selftest.args~1"
[ "$(lib 'variant_file three~2 selftest.args')" = "$patches/three/selftest.args" ] ||
	fail "three~2 does not take its variant's selftest.args"
lib 'check_variant three~2' || fail "three~2 is refused"
echo "three~2: the first two patch files of three's series (6.12's for BASE=6.12), its own tree, three's folder"
expect_fail "a prefix that is the whole series" "'three~3': a prefix of three takes 1 to 2 of its 3 patches" \
	lib 'check_variant three~3'
expect_fail "a prefix of stock" "'stock~1': stock has 0 patch\(es\)" lib 'check_variant stock~1'
expect_fail "a prefix of no variant" "unknown variant 'nosuch'" lib 'check_variant nosuch~1'
expect_fail "a prefix named in VARIANTS, checked as a setting" "'three~4': a prefix of three" \
	env PATCHES_DIR="$patches" VARIANTS="stock three~4" scripts/bench.sh
expect_fail "WALK=2" "WALK must be 0 or 1" env PATCHES_DIR="$patches" WALK=2 scripts/bench.sh

# --- A walk's run: merged, then compared ---
# stock, three~1, three~2, three; icount, 2 boots x 3 repetitions.
# Patch 2 makes cdev_add_ns ten times slower, kernfs_nodes_per_cdev 0 ->
# 1 and cdev_del_ns twice as slow, which patch 3 makes 25% faster; each
# patch adds 0.6% to mem_bytes_per_cdev, 1.9% in all but no step alone;
# open_lookup_ns does not move.
run=$tmp/results/walk
arms=(stock three~1 three~2 three)
subjects=("chrdev: keep a cdev's lifetime parent apart from its kobject"
	"chrdev: register every cdev in sysfs under /sys/cdev again"
	"drivers: drop the cdev after a failed cdev_add() that set a parent")
mkdir -p "$run"
: > "$run/units.list"
for b in 1 2; do
	for arm in "${arms[@]}"; do
		u=$arm/boot-$b
		mkdir -p "$run/$u"
		echo "$u" >> "$run/units.list"
		echo "UNIT_PHASE='timing'" > "$run/$u/unit.env"
		jq -n --arg arm "$arm" '{ run_id: "walk", rig_commit: "abc", measuring_code_sha256: "m1",
			mode: "icount", kernel_sha256: ("k-" + $arm), module_sha256: ("m-" + $arm) }' > "$run/$u/ran.json"
		echo 40 > "$run/$u/seconds"
		case $arm in
		stock) add=300 del=200 mem=64.0 nodes=0 ;;
		three~1) add=300 del=200 mem=64.4 nodes=0 ;;
		three~2) add=3000 del=400 mem=64.8 nodes=1 ;;
		three) add=3003 del=300 mem=65.2 nodes=1 ;;
		esac
		{
			echo "variant,boot,metric,param,iter,value,unit"
			for i in 0 1 2; do
				for n in 1 100; do
					echo "$arm,$b,cdev_add_ns,n=$n,$i,$add,ns"
					echo "$arm,$b,cdev_del_ns,n=$n,$i,$del,ns"
				done
				echo "$arm,$b,open_lookup_ns,\"n=1,pos=tail\",$i,1000,ns"
				echo "$arm,$b,mem_bytes_per_cdev,n=100,$i,$mem,bytes"
			done
			echo "$arm,$b,kernfs_nodes_per_cdev,n=100,0,$nodes,count"
		} > "$run/$u/samples.csv"
	done
done
variants=$(for i in "${!arms[@]}"; do
	jq -n --arg arm "${arms[i]}" --argjson k "$i" --argjson s "$(printf '%s\n' "${subjects[@]}" | jq -R . | jq -s .)" \
		'{ ($arm): { kernel: $arm, base: "6.1", kernel_release: ("6.1.192-" + $arm), config_sha256: "aaaa",
		   series_sha256: ("s" + ($k | tostring)), patches: $s[:$k], config_fragment: null,
		   kernel_sha256: ("k-" + $arm), module_sha256: ("m-" + $arm) } }'
done | jq -s add)
jq -n --argjson variants "$variants" --argjson s "$(printf '%s\n' "${subjects[@]}" | jq -R . | jq -s .)" '{
	run_id: "walk", rig_commit: "abc", measuring_code_sha256: "m1", mode: "icount", vcpus: 1,
	boots: 2, reps: 3, sweep_n: [1, 100], trace_n: 100, faults: false, walk: true, variants: $variants,
	walks: [{ variant: "three", base: "6.1", from: "stock",
		  steps: [range(3) as $k | { step: ($k + 1), arm: (if $k < 2 then "three~\($k + 1)" else "three" end),
					     subject: $s[$k], not_bisectable: null }] }] }' > "$run/meta.json"

RUN=$run scripts/merge.sh 2> /dev/null || fail "the merge of a walk's run failed"
[ "$(cat "$run/status")" = complete ] || fail "a walk's run is not complete: $(cat "$run/status")"
build/bin/compare "$run/samples.csv" > "$tmp/report.txt" || fail "compare failed on the walk"
screen=$(sed '/^All comparisons$/,$d' "$tmp/report.txt")
[ "$(wc -l <<< "$screen")" -le 60 ] || fail "the first screen is longer than 60 lines"
walk=$(sed -n '/^three, patch by patch:/,/^$/p' <<< "$screen")
expected='  kernfs_nodes_per_cdev worse 0 -> 1 (1/1): patch 2/3 worse 0 -> 1 (1/1)
  cdev_add_ns worse +901% (2/2): patch 2/3 worse +900% (2/2)
  cdev_del_ns worse +50.0% (2/2): patch 2/3 worse +100% (2/2), patch 3/3
    better -25.0% (2/2)
  mem_bytes_per_cdev worse +1.9% (1/1): no step alone (the largest, patch 1/3,
    +0.6% same)
  patch 2/3: chrdev: register every cdev in sysfs under /sys/cdev again
  patch 3/3: drivers: drop the cdev after a failed cdev_add() that set a pa...'
[ "$(sed 1,2d <<< "$walk" | sed '/^$/d')" = "$expected" ] ||
	fail "the first screen does not say patch 2 changed cdev_add_ns, kernfs_nodes_per_cdev and cdev_del_ns (and patch 3 cdev_del_ns back):
$walk
expected:
$expected"
! grep -q '^three~[12] against stock' <<< "$screen" || fail "a prefix has a block of its own on the first screen"
grep -qx '\[1\] three' <<< "$screen" || fail "the matrix has a column for a prefix: $screen"
grep -q '^three~2 against stock$' "$tmp/report.txt" || fail "a prefix has no table against the baseline"
echo "the first screen: patch 2/3 made cdev_add_ns +900%, kernfs nodes 0 -> 1, cdev_del_ns +100% (patch 3/3 -25%)"

# In t+gap a walk's prefixes are Holm families of their own: the other
# arms' family is as large as it would be without the walk.
mkdir "$tmp/tg" "$tmp/tg0"
cp "$run/samples.csv" "$tmp/tg/"
jq '.mode = "tcg"' "$run/meta.json" > "$tmp/tg/meta.json"
grep -v '^three~' "$run/samples.csv" > "$tmp/tg0/samples.csv"
jq '.mode = "tcg" | del(.walks)' "$run/meta.json" > "$tmp/tg0/meta.json"
build/bin/compare --format json "$tmp/tg/samples.csv" > "$tmp/tg/compare.json" || fail "compare failed in t+gap"
build/bin/compare --format json "$tmp/tg0/samples.csv" > "$tmp/tg0/compare.json" || fail "compare failed in t+gap"
with=$(jq .holm_family_size.headline "$tmp/tg/compare.json")
without=$(jq .holm_family_size.headline "$tmp/tg0/compare.json")
[ "$with" -gt 0 ] && [ "$with" = "$without" ] ||
	fail "t+gap: the headline Holm family is $with with the walk's prefixes, $without without them"

build/bin/compare --format json "$run/samples.csv" > "$tmp/compare.json"
jq -e '.attribution | length == 1 and .[0].variant == "three" and .[0].from == "stock" and
	(.[0].steps | map(.arm)) == ["three~1", "three~2", "three"]' "$tmp/compare.json" > /dev/null ||
	fail "compare.json's attribution does not name the walk and its steps: $(jq -c .attribution "$tmp/compare.json")"
jq -e '[.attribution[0].changes[] | select(.metric == "cdev_add_ns") |
	[.param, .verdict, (.steps | map([.step, .against_step, .verdict]))]] ==
	[["n=1", "worse", [[1, 0, "same"], [2, 1, "worse"], [3, 2, "same"]]],
	 ["n=100", "worse", [[1, 0, "same"], [2, 1, "worse"], [3, 2, "same"]]]]' "$tmp/compare.json" > /dev/null ||
	fail "compare.json's attribution of cdev_add_ns is not patch 2 alone: $(jq -c .attribution "$tmp/compare.json")"
jq -e '[.attribution[0].changes[].metric] | unique == ["cdev_add_ns", "cdev_del_ns", "kernfs_nodes_per_cdev", "mem_bytes_per_cdev"]' \
	"$tmp/compare.json" > /dev/null || fail "compare.json attributes a metric that did not change, or misses one"
echo "compare.json: cdev_add_ns at n=1 and n=100 is same, worse, same at steps 1, 2, 3"

# Patch 1's first boot fails its selftest: the prefix is left out and
# named, patch 2's step is taken from step 0, the run is complete.
printf 'KTAP version 1\n1..2\nok 1 add_del\nnot ok 2 no_sys_cdev\n' > "$run/three~1/boot-1/selftest.tap"
echo 1 > "$run/three~1/boot-1/failed"
RUN=$run scripts/merge.sh 2> "$tmp/merge.log" || fail "a failed prefix failed the merge: $(cat "$tmp/merge.log")"
[ "$(cat "$run/status")" = complete ] || fail "a failed prefix left the run $(cat "$run/status")"
grep -q 'three~1: not bisectable' "$tmp/merge.log" || fail "the merge does not name the prefix it left out"
! grep -q '^three~1,' "$run/samples.csv" || fail "a prefix that is not bisectable has rows (its good boot's)"
[ "$(jq -r '.walks[0].steps[0].not_bisectable' "$run/meta.json")" = "its selftest failed (no_sys_cdev) in three~1/boot-1" ] ||
	fail "meta.json's walk does not say why three~1 was left out: $(jq -c .walks "$run/meta.json")"
build/bin/compare "$run/samples.csv" > "$tmp/report.txt" || fail "compare failed on the walk without its first step"
walk=$(sed -n '/^three, patch by patch:/,/^$/p' "$tmp/report.txt")
grep -qx '  cdev_add_ns worse +901% (2/2): patches 1-2/3 worse +900% (2/2)' <<< "$walk" ||
	fail "without step 1, cdev_add_ns is not put on patches 1-2: $walk"
grep -qx '  not bisectable at patch 1: its selftest failed (no_sys_cdev) in' <<< "$walk" &&
	grep -qx '    three~1/boot-1' <<< "$walk" || fail "the first screen does not say patch 1 is not bisectable and why: $walk"
jq -e '.attribution[0].steps[0].not_bisectable != null and
	([.attribution[0].changes[0].steps[] | [.step, .against_step]] == [[2, 0], [3, 2]])' \
	<(build/bin/compare --format json "$run/samples.csv") > /dev/null ||
	fail "compare.json does not take step 2 from step 0 without step 1"
echo "patch 1 not bisectable (its selftest failed): left out, named, patches 1-2/3 changed cdev_add_ns"

# The staircase plots, from the engine's series rows: cdev_add_ns at
# N=1 at steps 0, 2 and 3 (1 left out), over the A/A band around step 0.
RUN=$run scripts/compare.sh > /dev/null 2> "$tmp/compare.log" || fail "make compare failed on the walk: $(cat "$tmp/compare.log")"
[ -s "$run/report/registration_walk.png" ] && [ -s "$run/report/registration_walk.svg" ] ||
	fail "no registration_walk plot: $(cat "$run/report/plots.txt")"
[ "$(awk 'NR <= 3 { print $1, $2, $5, $6 }' "$run/report/registration_walk.dat" | paste -sd,)" = \
	"0 300 300 300,2 3000 300 300,3 3003 300 300" ] ||
	fail "registration_walk's first line is not steps 0, 2, 3 of cdev_add_ns at N=1: $(head -4 "$run/report/registration_walk.dat")"
grep -q '^  registration_walk.png/.svg: cdev_add_ns cdev_del_ns at each step' "$run/report/report.txt" ||
	fail "the report does not list the staircase plot"
echo "registration_walk: cdev_add_ns at N=1 is 300, 3000, 3003 at steps 0, 2, 3"

# Four walks of six patches, every headline metric changed at every
# step: the first screen still fits, each walk's block on it.
mkdir "$tmp/many"
{
	echo "variant,boot,metric,param,iter,value,unit"
	for w in a b c d; do
		for k in 0 1 2 3 4 5 6; do
			arm=$w~$k
			[ "$k" != 0 ] || arm=stock
			[ "$k" != 6 ] || arm=$w
			[ "$w" = a ] || [ "$k" != 0 ] || continue
			for b in 1 2; do
				for m in cdev_add_ns cdev_del_ns open_lookup_ns open_cached_ns unplug_close_ns unplug_del_cached_ns; do
					echo "$arm,$b,$m,n=1,0,$((1000 + k * 100 * (${#m} % 3 + 1))),ns"
				done
			done
		done
	done
} > "$tmp/many/samples.csv"
jq -n '{ run_id: "many", mode: "icount", variants: {}, walks: [("a", "b", "c", "d") as $w |
	{ variant: $w, from: "stock", steps: [range(6) as $k | { step: ($k + 1),
	  arm: (if $k < 5 then "\($w)~\($k + 1)" else $w end), subject: "patch \($k + 1) of \($w)",
	  not_bisectable: null }] }] }' > "$tmp/many/meta.json"
many=$(build/bin/compare "$tmp/many/samples.csv") || fail "compare failed on four walks"
screen=$(sed -n '/^All comparisons$/q; /^Per variant (below the first screen)$/q; p' <<< "$many")
[ "$(wc -l <<< "$screen")" -le 60 ] || fail "four walks: the first screen is longer than 60 lines: $screen"
[ "$(grep -c '^[a-d], patch by patch: ' <<< "$screen")" = 4 ] || fail "four walks: not every walk's block is on the first screen: $screen"
echo "four walks of six patches: the first screen has $(wc -l <<< "$screen") lines, each walk's block on it"

# The whole series' boot failing fails the run, as any variant's does.
echo 125 > "$run/three/boot-2/failed"
expect_fail "a failed boot of the whole series" "incomplete, failed boots: three/boot-2" env RUN="$run" scripts/merge.sh
[ "$(cat "$run/status")" = failed ] || fail "the run is $(cat "$run/status"), not failed"
