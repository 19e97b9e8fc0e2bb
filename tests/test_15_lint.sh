# shellcheck shell=bash
# Lint: every shell script of the rig passes shellcheck at warning level,
# and the rig's user-space C (guest programs, host tools) builds without a
# finding from -Wall -Wextra -Wshadow and gcc's static analyzer.  The
# kernel modules build with the kernel's own flags in scripts/kernel.sh.
. "$(dirname "$0")/lib.sh"

shell_files=(.ci/run guest-init/init guest-init/suite scripts/*.sh tests/*.sh)
shellcheck -S warning "${shell_files[@]}" || fail "shellcheck found the problems above"
echo "shellcheck: ${#shell_files[@]} files clean"

c_files=(bench/selftest/*.c bench/lib/*.c bench/mem/*.c bench/faults/*.c bench/user/*.c bench/trace/*.c bench/plugin/*.c compare/*.c)
findings=0
for f in "${c_files[@]}"; do
	out=$(gcc -O2 -Wall -Wextra -Wshadow -fanalyzer -Ibench/lib -c "$f" -o /dev/null 2>&1) || true
	[ -z "$out" ] || { echo "$out"; findings=$((findings + 1)); }
done
[ "$findings" = 0 ] || fail "$findings C file(s) with compiler or analyzer findings"
echo "gcc -Wshadow -fanalyzer: ${#c_files[@]} files clean"
