# shellcheck shell=bash
# The host-side check of a fault boot and the cleanup table made from it:
# serial.log is split into groups by the phase's markers, each group's
# complaints become its rows; a leak, a leftover, a kset reference changed
# or a complaint in a flavour that unwinds as its API asks fails the boot
# by name, as does a complaint outside every group, a crash or a phase
# that did not finish; a drivers' pattern's complaints do not, they are
# its outcome in the table (compare --format errpaths), with the failure
# point and the kernel's first line.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
arm=sysfs-cdev:6.1
boot=$dir/$arm/fault-1
compare=$RIG_ROOT/build/bin/compare

# make_boot SERIAL_LINES ROW...: a fault boot (serial.log, exit status,
# samples.csv) of two groups, embed_put (clean) and alloc_none, whose
# window holds SERIAL_LINES ("" for none) after its failure point 2.
make_boot() {
	rm -rf "$boot"
	mkdir -p "$boot"
	printf '%s\n' "[    1.000000] cdevbench-fault: start flavour=embed_put" \
		"[    1.100000] cdevbench-fault: point 1" \
		"[    1.200000] cdevbench-fault: end flavour=embed_put" \
		"[    2.000000] cdevbench-fault: start flavour=alloc_none" \
		"[    2.100000] cdevbench-fault: point 1" \
		"[    2.200000] cdevbench-fault: point 2" > "$boot/serial.log"
	[ -z "$1" ] || printf '%s\n' "$1" >> "$boot/serial.log"
	printf '%s\n' "[    2.300000] cdevbench-fault: end flavour=alloc_none" "reboot: Power down" \
		>> "$boot/serial.log"
	shift
	{
		echo "variant,boot,metric,param,iter,value,unit"
		echo "$arm,1,fail_points,flavour=embed_put,0,7,count"
		echo "$arm,1,fail_leaked_bytes,flavour=embed_put,0,0,bytes"
		echo "$arm,1,fail_points,flavour=alloc_none,0,7,count"
		echo "$arm,1,fail_leaked_objects,flavour=alloc_none,0,2,count"
		echo "$arm,1,fail_leaked_bytes,flavour=alloc_none,0,192,bytes"
		echo "$arm,1,fail_leaked_bytes,\"flavour=embed_none,prob=10\",0,96,bytes"
		[ $# = 0 ] || printf '%s\n' "$@"
	} > "$boot/samples.csv"
}

make_boot ""
scripts/fault-check.sh "$boot" || fail "a clean fault boot (alloc_none's and embed_none's leaks only) was refused"
grep -q "^$arm,1,fail_warnings,-,0,0,count$" "$boot/samples.csv" || fail "no fail_warnings row"
grep -q "^$arm,1,fail_crashed,flavour=alloc_none,0,0,count$" "$boot/samples.csv" ||
	fail "no fail_crashed row of alloc_none"
echo "clean fault boot: accepted"

make_boot "" "$arm,1,fail_leaked_bytes,\"flavour=alloc_put,prob=50\",0,48,bytes"
expect_fail "leak in alloc_put" 'flavour=alloc_put,prob=50 fail_leaked_bytes=48' \
	scripts/fault-check.sh "$boot"

make_boot "" "$arm,1,fail_sysfs_left,flavour=device_put,0,1,count"
expect_fail "sysfs entry left" "flavour=device_put fail_sysfs_left=1" scripts/fault-check.sh "$boot"

make_boot "" "$arm,1,fail_majors_left,flavour=alloc_put,0,2,count"
expect_fail "majors left" "flavour=alloc_put fail_majors_left=2" scripts/fault-check.sh "$boot"

make_boot "" "$arm,1,fail_kset_refs_left,flavour=embed_del,0,-3,count"
expect_fail "kset references dropped" "flavour=embed_del fail_kset_refs_left=-3" \
	scripts/fault-check.sh "$boot"

# A drivers' pattern's complaint is its outcome, not a failed boot.
underflow="[    2.250000] refcount_t: underflow; use-after-free."
make_boot "$underflow"
scripts/fault-check.sh "$boot" || fail "alloc_none's refcount warning failed the boot"
grep -q "^$arm,1,fail_warn_lines,flavour=alloc_none,0,1,count$" "$boot/samples.csv" ||
	fail "the warning was not charged to alloc_none"
grep -q "^$arm,1,fail_first_point,flavour=alloc_none,0,2,count$" "$boot/samples.csv" ||
	fail "the warning's failure point (2) is not alloc_none's fail_first_point"
grep -q "^$arm,1,fail_warn_lines,flavour=embed_put,0,0,count$" "$boot/samples.csv" ||
	fail "embed_put was charged a warning it did not have"
echo "a pattern's warning: charged to its group, at its failure point"

# The table from those rows: alloc_none warned and leaked, embed_put is
# clean, and the evidence names the point and the kernel's line.
cp "$boot/samples.csv" "$dir/samples.csv"
table=$("$compare" --baseline "$arm" --format errpaths "$dir/samples.csv")
grep -qE '^    alloc_none +warn\+leak *$' <<< "$table" || fail "alloc_none is not warn+leak: $table"
grep -qE '^    embed_put +clean *$' <<< "$table" || fail "embed_put is not clean: $table"
grep -qF "alloc_none on $arm: warn+leak; failure point 2: refcount_t: underflow; use-after-free.; kmemleak: 2 object(s), 192 bytes" <<< "$(tr '\n' ' ' <<< "$table" | tr -s ' ')" ||
	fail "no evidence line of alloc_none: $table"
grep -qF "these leave nothing behind: an embedded cdev, then kobject_put(). These do not: cdev_alloc(), then nothing (warn+leak)." <<< "$(tr '\n' ' ' <<< "$table" | tr -s ' ')" ||
	fail "the answer does not say which cleanups are right: $table"
echo "the cleanup table and its answer, from stand-in rows"

# With a census: the callers per pattern, and those to fix.
printf 'base\tfile\tfunction\tpattern\tline\n6.1\tdrivers/a.c\ta_probe\talloc_none\t10\n6.1\tdrivers/b.c\tb_probe\tembed_put\t20\n' > "$dir/census.tsv"
table=$("$compare" --baseline "$arm" --format errpaths --census "$dir/census.tsv" "$dir/samples.csv")
grep -qE '^  6\.1 drivers/a\.c:a_probe\(\) alloc_none: warn\+leak$' <<< "$table" ||
	fail "the census does not name the caller to fix: $table"
grep -qF "In-tree callers: 2; with a cleanup that is not clean here: 1;" <<< "$(tr '\n' ' ' <<< "$table" | tr -s ' ')" ||
	fail "the answer does not count the callers to fix: $table"
echo "the census joined with the outcomes"

# The same complaint in an API flavour fails the boot.
make_boot ""
sed -i "s/^\(\[    1.100000\] cdevbench-fault: point 1\)$/\1\n$underflow/" "$boot/serial.log"
expect_fail "a warning in embed_put" "flavour=embed_put fail_warn_lines=1" scripts/fault-check.sh "$boot"

make_boot ""
sed -i '1i WARNING: CPU: 0 PID: 80 at lib/kobject.c:620 kobject_put+0x40/0x50' "$boot/serial.log"
expect_fail "a warning outside the groups" "complained outside the groups: WARNING: CPU: 0" \
	scripts/fault-check.sh "$boot"

# cdev_faults' own line for a put_device() on a freed holder is a use
# after free of its group.
make_boot "[    2.250000] cdevbench-fault: use after free: alloc_none's put_device() on a holder its device's release already freed"
scripts/fault-check.sh "$boot" || fail "alloc_none's use after free failed the boot"
grep -q "^$arm,1,fail_memory_errors,flavour=alloc_none,0,1,count$" "$boot/samples.csv" ||
	fail "cdev_faults' use after free line is not alloc_none's memory error"

# A boot that stopped inside a group: that group crashed (though it never
# wrote its rows).
make_boot "[    2.250000] BUG: unable to handle page fault for address: 6b6b6b6b6b6b6b6b"
sed -i '/end flavour=alloc_none/,$d' "$boot/serial.log"
sed -i '/flavour=alloc_none/d' "$boot/samples.csv"
expect_fail "a crash in alloc_none" "flavour=alloc_none fail_crashed=1" scripts/fault-check.sh "$boot"
cp "$boot/samples.csv" "$dir/samples.csv"
grep -qE '^    alloc_none +crash$' <<< "$("$compare" --baseline "$arm" --format errpaths "$dir/samples.csv")" ||
	fail "a crashed group is not 'crash' in the table"

# A phase that gave up inside a group (its abort marker) is no crash.
make_boot ""
sed -i 's/cdevbench-fault: end flavour=alloc_none/cdevbench-fault: abort flavour=alloc_none/' "$boot/serial.log"
expect_fail "an abort in alloc_none" "flavour=alloc_none fail_aborted=1" scripts/fault-check.sh "$boot"
grep -q "^$arm,1,fail_crashed,flavour=alloc_none,0,0,count$" "$boot/samples.csv" ||
	fail "an aborted group was taken for a crash"

# A boot that wrote no rows is refused, not passed.
make_boot ""
head -1 "$boot/samples.csv" > "$boot/samples.csv.new"
mv "$boot/samples.csv.new" "$boot/samples.csv"
expect_fail "a fault boot with no rows" "no samples in .*samples.csv" scripts/fault-check.sh "$boot"
