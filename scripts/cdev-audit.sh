#!/bin/bash
# The in-tree users of a cdev's kobject, checked against a variant's tree:
#   scripts/cdev-audit.sh VARIANT OBJ_DIR
# Run by 'kernel.sh VARIANT audit' (OBJ_DIR configured with
# patches/audit.config), which every timing build ends with.  It
#  - lists every place that reaches a cdev's kobject or lifetime parent
#    (cdev_set_parent(), i_cdev->parent, kobj.parent, kobject_*() on a
#    cdev) in build/kernels/<v>/.cdevbench/cdev-kobj-users.txt, the list
#    a commit message's audit is checked on;
#  - fails when the tree keeps a cdev's lifetime parent apart from
#    kobj.parent (struct cdev has a 'parent', as on sysfs-cdev) and code
#    outside fs/char_dev.c still reads or sets a cdev's kobj.parent (f_hid
#    and dfl did), since there kobj.parent is the sysfs directory;
#  - compiles the drivers whose use of the cdev's kobject or failure path
#    the series must keep working, as single objects against OBJ_DIR, so a
#    series that breaks their build fails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

variant=${1:?usage: cdev-audit.sh VARIANT OBJ_DIR}
obj=${2:?usage: cdev-audit.sh VARIANT OBJ_DIR}
check_variant "$variant"
tree=$(variant_dir "$variant")
state=$tree/.cdevbench
users=$state/cdev-kobj-users.txt

# Users of a cdev's kobject (patches/sysfs-cdev/0001 reads each), and
# drivers that call cdev_del() after a failed cdev_add().  Listed but not
# compiled: s390's tape_class.c, vmur.c and vmlogrdr.c (not on x86) and
# cec-core.c, which only names its kobject (its header has stubs unless a
# CEC driver selects the core).
drivers=(
	drivers/usb/gadget/function/f_hid.c	# finds its data from the parent
	drivers/fpga/dfl.c			# sets the parent
	drivers/infiniband/hw/hfi1/device.c	# cdev_set_parent(), name
	drivers/remoteproc/remoteproc_cdev.c	# cdev_set_parent()
	drivers/dax/device.c			# cdev_set_parent()
	drivers/uio/uio.c			# name, kobject_put() on failure
	drivers/char/xillybus/xillybus_class.c	# kobject_put() on failure
	drivers/comedi/comedi_fops.c		# name
	drivers/media/mc/mc-devnode.c		# name
	drivers/misc/genwqe/card_dev.c		# reads the kobject's kref
	drivers/media/dvb-core/dvbdev.c		# cdev_del() after a failed add
	drivers/infiniband/hw/qib/qib_file_ops.c	# the same, and a name
)

want=$(hash_files "$state/series.sha" "$state/config-audit.sha" "$0")
if [ -f "$state/audit.sha" ] && [ "$want" = "$(cat "$state/audit.sha")" ]; then
	log "$variant: cdev kobject audit up to date"
	exit 0
fi
rm -f "$state/audit.sha"

log "$variant: auditing the users of a cdev's kobject"
(cd "$tree" && grep -rnE --include='*.[ch]' \
	--exclude-dir=Documentation --exclude-dir=tools --exclude-dir='obj*' \
	--exclude-dir=.cdevbench \
	'cdev\w*(\[[^]]*\])?(\.|->)kobj\b|i_cdev->parent\b|cdev_set_parent\(' .) |
	sed 's|^\./||' | grep -v '^fs/char_dev\.c:' | sort > "$users"

if grep -qE 'struct kobject \*parent;' "$tree/include/linux/cdev.h"; then
	# Comment lines (starting with /* or *) do not count.
	misuse=$(grep -E '(\.|->)kobj(\.|->)parent\b' "$users" |
		grep -vE '^[^:]*:[0-9]*:\s*/?\*' || true)
	[ -z "$misuse" ] || die "variant $variant keeps a cdev's lifetime parent in cdev->parent, but these still use kobj.parent (now the sysfs directory; use cdev_set_parent() or cdev->parent):
$misuse"
fi

objects=()
for f in "${drivers[@]}"; do
	[ -f "$tree/$f" ] || die "variant $variant: $f is gone; update scripts/cdev-audit.sh"
	objects+=("${f%.c}.o")
done
log "$variant: compiling ${#objects[@]} drivers that use a cdev's kobject (log in ${obj#$RIG_ROOT/}/build.log)"
if ! make -C "$obj" -j"${JOBS:-$(nproc)}" CC="ccache gcc" "${objects[@]}" \
		> "$obj/build.log" 2>&1; then
	grep -E 'error|Error' "$obj/build.log" | head -20 >&2 || true
	die "variant $variant: a driver that uses a cdev's kobject no longer builds, full log in $obj/build.log"
fi
echo "$want" > "$state/audit.sha"
log "$variant: audit passed: $(wc -l < "$users") uses of a cdev's kobject listed in ${users#$RIG_ROOT/}, ${#objects[@]} drivers built"
