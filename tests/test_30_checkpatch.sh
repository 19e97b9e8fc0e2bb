# shellcheck shell=bash
# Every kernel patch passes checkpatch.pl --strict from the extracted tree.
# FILE_PATH_CHANGES only asks whether MAINTAINERS needs an update when a
# patch adds or removes a file; each such commit message answers it.
. "$(dirname "$0")/lib.sh"

tree=build/src/linux-source-6.1
[ -f "$tree/.cdevbench-extracted" ] || scripts/kernel.sh stock > /dev/null
status=0
for p in patches/*/*.patch; do
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --quiet --ignore FILE_PATH_CHANGES "$RIG_ROOT/$p"); then
		echo "$p: clean"
	else
		printf '%s\n%s\n' "$p:" "$out"
		status=1
	fi
done
exit $status
