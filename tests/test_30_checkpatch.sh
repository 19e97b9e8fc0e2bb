# Every kernel patch passes checkpatch.pl --strict from the extracted tree.
. "$(dirname "$0")/lib.sh"

tree=build/src/linux-source-6.1
[ -f "$tree/.cdevbench-extracted" ] || scripts/kernel.sh stock > /dev/null
status=0
for p in patches/*/*.patch; do
	if out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --quiet "$RIG_ROOT/$p"); then
		echo "$p: clean"
	else
		printf '%s\n%s\n' "$p:" "$out"
		status=1
	fi
done
exit $status
