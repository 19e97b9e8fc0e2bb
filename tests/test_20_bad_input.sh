# shellcheck shell=bash
# Bad input is refused with a message that says what to do.
. "$(dirname "$0")/lib.sh"

expect_fail "unknown variant" "unknown variant 'no-such'; valid variants on base 6.1: stock" \
	env VARIANTS=no-such scripts/bench.sh
expect_fail "an unknown base" "BASE=6.5: a packaged base \(6.1 6.12\) or a kernel tree's folder" \
	env BASE=6.5 scripts/bench.sh
expect_fail "a folder that is no kernel tree" "BASE=/tmp: not a kernel source tree" \
	env BASE=/tmp scripts/bench.sh
built=$(mktemp -d)
mkdir -p "$built/fs"
printf 'VERSION = 6\nPATCHLEVEL = 19\n' > "$built/Makefile"
touch "$built/fs/char_dev.c" "$built/.config"
expect_fail "a tree built in place" "configured or built in place" env BASE="$built" scripts/bench.sh
rm -rf "$built"
expect_fail "a base named twice" "BASES names 6.1 twice" env BASES="6.1 6.1" scripts/bench.sh
expect_fail "a walk's prefix named beside its variant" "WALK=1 walks sysfs-cdev through sysfs-cdev~1 already" \
	env WALK=1 VARIANTS="stock sysfs-cdev~1 sysfs-cdev" scripts/bench.sh
# A negative control (patches/*/control) is never a default variant, and
# is a known one where named.
default=$(bash -c '. scripts/lib.sh; rig_init; echo $VARIANTS')
for c in patches/*/control; do
	! grep -qw "$(basename "$(dirname "$c")")" <<< "$default" ||
		fail "control $(dirname "$c") is in the default VARIANTS: $default"
	bash -c '. scripts/lib.sh; rig_init; check_variant "$1"' sh "$(basename "$(dirname "$c")")" ||
		fail "control $(dirname "$c") is not a known variant"
done
# A known failure names a case the selftest has, with a reason; the
# declared ones do (the selftest reads them before it touches the guest).
known=$(mktemp)
echo "no_such_case because" > "$known"
expect_fail "known failure of an unknown case" "'no_such_case': no such case" \
	build/bin/cdev_selftest --known-failures "$known" /nonexistent /nonexistent
echo "identical_del_older" > "$known"
expect_fail "known failure without a reason" "'identical_del_older': no reason given" \
	build/bin/cdev_selftest --known-failures "$known" /nonexistent /nonexistent
echo "!identical_del_older fixed here" > "$known"
expect_fail "a withdrawal of a case no earlier file declares" \
	"'identical_del_older': withdrawn, but no earlier file declares it" \
	build/bin/cdev_selftest --known-failures "$known" /nonexistent /nonexistent
rm -f "$known"
# each after stock's, as scripts/lib/suite.sh's write_suite_env passes them
for k in patches/*/known-failures patches/*/known-failures~*; do
	[ -f "$k" ] || continue
	expect_fail "$k parses (then no fixture)" "cannot read /nonexistent/major" \
		build/bin/cdev_selftest --known-failures patches/stock/known-failures \
		--known-failures "$k" /nonexistent /nonexistent
done
expect_fail "race check on one vCPU" "the race check needs at least 2 vCPUs" \
	env VCPUS=1 scripts/race-check.sh
expect_fail "bad BOOTS" "BOOTS must be a positive number" \
	env VARIANTS=stock BOOTS=x scripts/bench.sh
expect_fail "unknown mode" "unknown MODE 'fast'" env MODE=fast scripts/bench.sh
expect_fail "bad AA" "AA must be 0 or 1" env VARIANTS=stock AA=yes scripts/bench.sh
expect_fail "a run without its baseline" "lacks the baseline 'stock'" env VARIANTS=cdev-hash scripts/bench.sh
expect_fail "bad SWEEP_N" "SWEEP_N holds 'ten'" env SWEEP_N="1 ten" scripts/bench.sh
expect_fail "bad LABEL" "LABEL may hold letters" env LABEL="a/b" scripts/bench.sh
expect_fail "a benchmark not declared in BENCHES" "BENCHES names 'open_lokup', which bench/benchmarks.def does not declare" \
	env BENCHES="open_cached open_lokup" scripts/bench.sh
expect_fail "A/A arm without its baseline" "AA=1 needs the baseline 'stock' in VARIANTS" \
	env VARIANTS=sysfs-cdev AA=1 scripts/bench.sh

# A patch that does not apply names the variant, the patch and the hunk,
# and leaves the variant's tree pristine for the next try.
patches=$(mktemp -d)
trap 'rm -rf "$patches" "$RIG_ROOT/build/kernels/6.1/broken"' EXIT
cp patches/rig.config patches/fault.config "$patches/"
mkdir "$patches/broken"
cat > "$patches/broken/0001-bad.patch" <<'PATCH'
--- a/fs/char_dev.c
+++ b/fs/char_dev.c
@@ -1,3 +1,3 @@
-// this line is not in fs/char_dev.c
+// neither is this one
 /*
  *  linux/fs/char_dev.c
PATCH
echo 0001-bad.patch > "$patches/broken/series"
expect_fail "patch that does not apply" \
	"variant broken: patch broken/0001-bad.patch does not apply" \
	env PATCHES_DIR="$patches" scripts/kernel.sh broken
expect_fail "the failed hunk is shown" "Hunk #1 FAILED at 1" \
	env PATCHES_DIR="$patches" scripts/kernel.sh broken
build=${BUILD_DIR:-build}
cmp -s "$build/src/linux-source-6.1/fs/char_dev.c" "$build/kernels/6.1/broken/fs/char_dev.c" ||
	fail "fs/char_dev.c of the broken variant is not pristine after the failure"

# An option Kconfig drops (KVM needs VIRTUALIZATION) is named with the
# variant and flavour it was asked for.
: > "$patches/broken/series"
echo "CONFIG_KVM=y" > "$patches/broken/config"
expect_fail "option dropped by Kconfig" \
	"variant broken-fault on 6.1: Kconfig dropped requested options .*CONFIG_KVM=y" \
	env PATCHES_DIR="$patches" scripts/kernel.sh broken fault

# A progress reporter, killed, takes its sleep with it: a sleep left
# behind would hold make bench's results lock and refuse the next run.
lock=$(mktemp)
(
	. scripts/lib.sh
	rig_init
	exec 9> "$lock"
	flock -n 9
	every_minute true &
	wait_for "every_minute's sleep to start" pgrep -P $! -x sleep
	kill $!
	wait $! || true
)
flock -n "$lock" true || fail "a killed every_minute left its sleep holding the caller's lock"
rm -f "$lock"
echo "a killed progress reporter leaves nothing behind"

# A second run on a results folder in use is refused.
results=$(mktemp -d)
hold_lock "$results/.lock"
expect_fail "two runs on one results folder" "another 'make bench' or a 'make resume' is using" \
	env VARIANTS=stock RESULTS_DIR="$results" scripts/bench.sh
release_lock
rm -rf "$results"

# docs/settings.md's table of settings is the one scripts/settings.def makes.
table=$(. scripts/lib.sh && rig_init && settings_table) || fail "settings_table failed"
[ "$(grep -c '^| `' <<< "$table")" -ge 10 ] || fail "settings_table lists fewer than 10 settings: $table"
diff <(echo "$table") \
	<(sed -n '/^| variable | default | meaning |$/,/^$/p' docs/settings.md | sed '/^$/d') ||
	fail "docs/settings.md's table of settings differs from scripts/settings.def (above: < list, > docs/settings.md)"
echo "docs/settings.md's settings table matches scripts/settings.def ($(grep -c '^| `' <<< "$table") settings)"
