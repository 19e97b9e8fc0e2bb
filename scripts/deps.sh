#!/bin/bash
# make deps: check for the Debian packages the rig needs; as root, install
# the missing ones with apt-get, otherwise print the exact line to run.
set -euo pipefail

packages=(
	linux-source-6.1	# BASE=6.1, the default base every variant starts from
	linux-source-6.12	# BASE=6.12
	qemu-system-x86		# boots the variants
	busybox-static		# the initramfs a boot runs from (scripts/initramfs.sh)
	qemu-user		# the plugin's host tests: programs under qemu-x86_64
	bpftrace linux-perf	# tracing in the guest (taken from the host root)
	gnuplot-nox		# report plots
	jq			# writes meta.json
	libgsl-dev		# compare: Student's t distribution and its quantile
	libjansson-dev		# compare: reads meta.json and race.json
	shellcheck		# make test lints the shell scripts
	procps			# the host tests wait for processes (pgrep)
	ccache			# keeps kernel rebuilds cheap
	git			# make variant: mbox splitting, git ranges, work trees
	slurm-client		# EXECUTOR=slurm: sbatch, squeue
	slurmctld slurmd munge	# make test's one-node Slurm cluster
	gcc make patch xz-utils kmod
	flex bison bc libelf-dev libssl-dev dwarves cpio	# kernel build
)
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
