# shellcheck shell=bash
# Lint: every shell script of the rig passes shellcheck at warning level,
# and the rig's user-space C (guest programs, host tools) builds without a
# finding from -Wall -Wextra -Wshadow and gcc's static analyzer, the
# selftest against the kselftest.h of every packaged base (the Makefile
# builds it with 6.1's).  The kernel modules build with the kernel's own
# flags in scripts/kernel.sh.
. "$(dirname "$0")/lib.sh"

lint_shell() { shellcheck -S warning "$@"; }
lint_c() {	# lint_c FILE [GCC OPTION...]
	gcc -O2 -Wall -Wextra -Wshadow -fanalyzer -Ibench/lib "${@:2}" -c "$1" -o /dev/null 2>&1 || true
}

# Both can fail: a script reading an unset variable, a C file that leaks
# a FILE on one path (which -Wall does not see, the analyzer does).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2016 # the text of a script
printf '#!/bin/sh\n[ $brk_unset = 1 ] && echo\n' > "$tmp/bad.sh"
expect_fail "shellcheck on an unset variable" "SC2154" lint_shell "$tmp/bad.sh"
printf '%s\n' '#include <stdio.h>' 'int f(int n);' 'int f(int n)' '{' '	FILE *f = fopen("x", "r");' \
	'	if (!f)' '		return -1;' '	if (n > 3)' '		return 1;' '	fclose(f);' '	return 0;' '}' > "$tmp/leak.c"
lint_c "$tmp/leak.c" | grep -q 'Wanalyzer-file-leak' || fail "the C lint does not see a leaked FILE: $(lint_c "$tmp/leak.c")"
echo "the C lint on a leaked FILE: a finding"

shell_files=(.ci/run guest-init/init guest-init/suite guest-init/attach scripts/*.sh scripts/lib/*.sh tests/*.sh)
lint_shell "${shell_files[@]}" || fail "shellcheck found the problems above"
echo "shellcheck: ${#shell_files[@]} files clean"

kselftest_dirs=()
for line in $(. scripts/lib.sh && rig_init && echo "${PACKAGED_BASES[*]}"); do
	files=$(. scripts/lib.sh && rig_init && use_base "$line" && extract_host_files && echo "$HOST_FILES")
	kselftest_dirs+=("$files/tools/testing/selftests")
done
c_files=(bench/selftest/*.c bench/lib/*.c bench/mem/*.c bench/faults/*.c bench/user/*.c bench/trace/*.c bench/plugin/*.c compare/*.c)
findings=0
for f in "${c_files[@]}"; do
	if [[ $f == bench/selftest/* ]]; then
		out=$(for d in "${kselftest_dirs[@]}"; do lint_c "$f" -I"$d"; done)
	else
		out=$(lint_c "$f")
	fi
	[ -z "$out" ] || { echo "$out"; findings=$((findings + 1)); }
done
[ "$findings" = 0 ] || fail "$findings C file(s) with compiler or analyzer findings"
echo "gcc -Wshadow -fanalyzer: ${#c_files[@]} files clean (the selftest with the kselftest.h of ${#kselftest_dirs[@]} bases)"
