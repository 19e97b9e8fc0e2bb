# shellcheck shell=bash
# The host-side check of a fault boot: a leak, a leftover, a kset
# reference changed or a kernel warning fails it by name; cdev_init_noput's
# leaks (the measured cost) do not, its kset references do.
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
boot=$dir/fault-1

# make_boot SERIAL_LINE ROW...: a fault boot's serial.log and samples.csv
make_boot() {
	rm -rf "$boot"
	mkdir -p "$boot"
	echo "$1" > "$boot/serial.log"
	shift
	{
		echo "variant,boot,metric,param,iter,value,unit"
		echo "sysfs-cdev,1,fail_points,flavour=cdev_init,0,7,count"
		echo "sysfs-cdev,1,fail_leaked_bytes,flavour=cdev_init,0,0,bytes"
		echo 'sysfs-cdev,1,fail_leaked_bytes,"flavour=cdev_init_noput,prob=10",0,96,bytes'
		[ $# = 0 ] || printf '%s\n' "$@"
	} > "$boot/samples.csv"
}

make_boot "reboot: Power down"
scripts/fault-check.sh "$boot" || fail "a clean fault boot (noput leak only) was refused"
grep -q '^sysfs-cdev,1,fail_warnings,-,0,0,count$' "$boot/samples.csv" ||
	fail "no fail_warnings row"
echo "clean fault boot: accepted"

make_boot "reboot: Power down" 'sysfs-cdev,1,fail_leaked_bytes,"flavour=cdev_alloc,prob=50",0,48,bytes'
expect_fail "leak in cdev_alloc" 'flavour=cdev_alloc,prob=50 fail_leaked_bytes=48' \
	scripts/fault-check.sh "$boot"

make_boot "reboot: Power down" "sysfs-cdev,1,fail_sysfs_left,flavour=cdev_device_add,0,1,count"
expect_fail "sysfs entry left" "flavour=cdev_device_add fail_sysfs_left=1" \
	scripts/fault-check.sh "$boot"

make_boot "reboot: Power down" "sysfs-cdev,1,fail_majors_left,flavour=cdev_alloc,0,2,count"
expect_fail "majors left" "flavour=cdev_alloc fail_majors_left=2" \
	scripts/fault-check.sh "$boot"

make_boot "reboot: Power down" "sysfs-cdev,1,fail_kset_refs_left,flavour=cdev_del_on_fail,0,-3,count"
expect_fail "kset references dropped" "flavour=cdev_del_on_fail fail_kset_refs_left=-3" \
	scripts/fault-check.sh "$boot"

make_boot "reboot: Power down" 'sysfs-cdev,1,fail_kset_refs_left,"flavour=cdev_init_noput,prob=1",0,2,count'
expect_fail "kset references taken by cdev_init_noput" \
	'flavour=cdev_init_noput,prob=1 fail_kset_refs_left=2' scripts/fault-check.sh "$boot"

make_boot "WARNING: CPU: 0 PID: 80 at lib/kobject.c:620 kobject_put+0x40/0x50"
expect_fail "kernel warning" "1 kernel warning" scripts/fault-check.sh "$boot"
grep -q '^sysfs-cdev,1,fail_warnings,-,0,1,count$' "$boot/samples.csv" ||
	fail "the warning was not counted"

# A boot that wrote no rows is refused, not passed.
make_boot "reboot: Power down"
head -1 "$boot/samples.csv" > "$boot/samples.csv.new"
mv "$boot/samples.csv.new" "$boot/samples.csv"
expect_fail "a fault boot with no rows" "no samples in .*samples.csv" scripts/fault-check.sh "$boot"
