# End to end: make bench QUICK=1 in icount mode on stock and sysfs-cdev,
# two boots each, into a results folder of its own; then check the run
# against DESIGN.md's contract.  Also: a second 'make kernels' compiles
# nothing.
. "$(dirname "$0")/lib.sh"

results=build/test-results
rm -rf "$results"
make --no-print-directory bench QUICK=1 MODE=icount BOOTS=2 \
	VARIANTS="stock sysfs-cdev" RESULTS_DIR="$results"

run=$results/latest
[ -L "$run" ] || fail "no $run after a complete run"
[ "$(cat "$run/status")" = complete ] || fail "status is not complete"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$run/meta.json" ||
	fail "meta.json is not valid JSON"
[ "$(head -1 "$run/samples.csv")" = "variant,boot,metric,param,iter,value,unit" ] ||
	fail "samples.csv header differs from DESIGN.md"
for v in stock sysfs-cdev; do
	for b in 1 2; do
		for m in cdev_add_ns cdev_del_ns; do
			grep -q "^$v,$b,$m,n=100,0,[0-9.]*,ns$" "$run/samples.csv" ||
				fail "no $m row for $v boot $b"
		done
		tap=$run/$v/boot-$b/selftest.tap
		[ -s "$tap" ] || fail "$tap missing"
		! grep -q '^not ok' "$tap" || fail "$tap has failures"
		[ "$(grep -c '^ok' "$tap")" -ge 7 ] || fail "$tap has fewer than 7 passing cases"
		[ -s "$run/$v/boot-$b/serial.log" ] || fail "no serial.log for $v boot $b"
	done
done
echo "smoke run complete: $(readlink "$run")"

out=$(make --no-print-directory kernels VARIANTS="stock sysfs-cdev" 2>&1)
echo "$out"
[ "$(grep -c 'kernel up to date' <<< "$out")" = 2 ] ||
	fail "a second 'make kernels' did not find both kernels up to date"
! grep -qE '^\s+CC ' <<< "$out" || fail "a second 'make kernels' compiled something"
