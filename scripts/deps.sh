#!/bin/bash
# make deps: check for the Debian packages the rig needs; as root, install
# the missing ones with apt-get, otherwise print the exact line to run.
#   scripts/deps.sh check   what make check's host tests use
#   scripts/deps.sh all     those and what a kernel build, a boot and
#                           make test's kernel tests use (make bench,
#                           make test, make deps)
set -euo pipefail
tier=${1:-all}

check_packages=(
	gcc make		# the guest's programs and the host's tools
	libgsl-dev		# compare: Student's t distribution and its quantile
	libjansson-dev		# compare: reads meta.json and race.json
	linux-source-6.1	# BASE=6.1, the default base every variant starts from;
	linux-source-6.12	# BASE=6.12; make check reads their tarballs' kselftest.h and checkpatch.pl
	xz-utils perl		# ... with tar -J, and runs checkpatch.pl
	busybox-static cpio	# the initramfs a boot runs from (scripts/initramfs.sh)
	qemu-user		# the plugin's host tests: programs under qemu-x86_64
	bpftrace		# tracing in the guest (taken from the host root); dry runs in make check
	gnuplot-nox		# report plots
	jq			# writes meta.json
	shellcheck		# make check lints the shell scripts
	procps			# the host tests wait for processes (pgrep)
	git patch		# make variant: mbox splitting, git ranges, work trees, the apply check
	ccache flex bison	# kernel.sh up to Kconfig, which test_20 runs on 6.1's tree
	coccinelle		# spatch: the driver census (scripts/census.sh), which test_26 runs
)
kernel_packages=(
	qemu-system-x86		# boots the variants
	linux-perf		# tracing in the guest (taken from the host root)
	slurm-client		# EXECUTOR=slurm: sbatch, squeue
	slurmctld slurmd munge	# make test's one-node Slurm cluster
	kmod bc libelf-dev libssl-dev dwarves	# kernel build (with ccache, flex, bison)
)
case $tier in
check) packages=("${check_packages[@]}") ;;
all) packages=("${check_packages[@]}" "${kernel_packages[@]}") ;;
*) echo "cdevbench: TIER=$tier: check (make check's packages) or all" >&2; exit 1 ;;
esac
missing=()
for p in "${packages[@]}"; do
	[[ $p == \#* ]] && continue
	[ "$(dpkg-query -W -f='${Status}' "$p" 2> /dev/null)" = "install ok installed" ] ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	echo "cdevbench: missing packages: ${missing[*]}" >&2
	echo "cdevbench: run as root: apt-get update && $line" >&2
	exit 1
fi
echo "cdevbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$line
