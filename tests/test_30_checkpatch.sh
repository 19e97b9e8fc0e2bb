# shellcheck shell=bash
# Every kernel patch passes checkpatch.pl --strict of the base its
# series is for: patches/<v>/*.patch 6.1's, patches/<v>/<line>/*.patch
# that line's.  checkpatch.pl and the files it reads beside it come from
# the base's tarball alone (scripts/lib/bases.sh, extract_host_files),
# without the tree (--no-tree): what the tree adds is MAINTAINERS's
# status of a file, the kernel's CamelCase names (which only spare a
# finding) and whether an asm/ header has a linux/ one; the rig's
# patches gave the same findings with and without it.  FILE_PATH_CHANGES
# only asks whether MAINTAINERS needs an update when a patch adds or
# removes a file; each such commit message answers it.
. "$(dirname "$0")/lib.sh"

checkpatch() {	# checkpatch FILES PATCH: checkpatch.pl's findings, if any
	perl "$1/scripts/checkpatch.pl" --no-tree --strict --quiet --ignore FILE_PATH_CHANGES "$2"
}

bad=0 checked=0
read -r home lines <<< "$(. scripts/lib.sh && rig_init && echo "$SERIES_HOME_LINE ${PACKAGED_BASES[*]}")"
for line in $lines; do
	base_files=$(. scripts/lib.sh && rig_init && use_base "$line" && extract_host_files && echo "$HOST_FILES")
	if [ "$line" = "$home" ]; then
		files=(patches/*/*.patch)
		home_files=$base_files
	else
		files=(patches/*/"$line"/*.patch)
	fi
	for p in "${files[@]}"; do
		[ -f "$p" ] || continue
		checked=$((checked + 1))
		if out=$(checkpatch "$base_files" "$RIG_ROOT/$p"); then
			echo "$p: clean ($line)"
		else
			printf '%s\n%s\n' "$p ($line):" "$out"
			bad=$((bad + 1))
		fi
	done
done
[ "$checked" -gt 0 ] || fail "no patch found to check"
[ "$bad" = 0 ] || fail "$bad of $checked patches have checkpatch findings (above)"

# the check can fail: a patch with trailing whitespace on a line it adds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
home_patches=(patches/*/*.patch)
awk '!done && /^\+[^+]/ { $0 = $0 " "; done = 1 } 1' "${home_patches[0]}" > "$tmp/trailing.patch"
expect_fail "a patch with trailing whitespace" "ERROR: trailing whitespace" checkpatch "${home_files:?}" "$tmp/trailing.patch"
