# shellcheck shell=bash
# scripts/cdev-audit.sh on small fake trees: where struct cdev keeps its
# lifetime parent apart from kobj.parent, a driver that still reads a cdev's
# kobj.parent (f_hid did) fails by name and a comment naming it does not;
# where it does not, the same driver passes that check (and the audit goes
# on to the drivers it compiles, absent here).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export BUILD_DIR=$dir/build PATCHES_DIR=$dir/patches

# fake_tree VARIANT CDEV_MEMBERS: a variant whose tree holds cdev.h and one driver
fake_tree() {
	local tree=$BUILD_DIR/kernels/6.1/$1
	mkdir -p "$PATCHES_DIR/$1" "$tree/include/linux" "$tree/drivers/x" "$tree/.cdevbench"
	: > "$PATCHES_DIR/$1/series"
	printf 'struct cdev {\n%b};\n' "$2" > "$tree/include/linux/cdev.h"
	printf '%s\n' '/* finds its data from cdev.kobj.parent */' \
		'static void *x_data(struct inode *inode)' '{' \
		'	return inode->i_cdev->kobj.parent;' '}' > "$tree/drivers/x/x.c"
}

fake_tree split '\tstruct kobject kobj;\n\tstruct kobject *parent;\n'
expect_fail "kobj.parent read on a tree with cdev->parent" \
	'^drivers/x/x.c:4:.*i_cdev->kobj.parent' \
	scripts/cdev-audit.sh split "$dir/obj"
out=$(scripts/cdev-audit.sh split "$dir/obj" 2>&1 || true)
! grep -q 'x.c:1:' <<< "$out" || fail "a comment was taken for a use: $out"
grep -q '^drivers/x/x.c:4:' "$BUILD_DIR/kernels/6.1/split/.cdevbench/cdev-kobj-users.txt" ||
	fail "the use is not in cdev-kobj-users.txt"

fake_tree plain '\tstruct kobject kobj;\n'
expect_fail "the same driver on a tree without cdev->parent" \
	'f_hid.c is gone' scripts/cdev-audit.sh plain "$dir/obj"
