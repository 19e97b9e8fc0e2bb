# shellcheck shell=bash
# Every kernel patch passes checkpatch.pl --strict from the tree of the
# base its series is for (extracted, never built): patches/<v>/*.patch
# from 6.1's, patches/<v>/<line>/*.patch from that line's.
# FILE_PATH_CHANGES only asks whether MAINTAINERS needs an update when a
# patch adds or removes a file; each such commit message answers it.
. "$(dirname "$0")/lib.sh"

checkpatch() {	# checkpatch TREE PATCH: checkpatch.pl's findings, if any
	(cd "$1" && perl scripts/checkpatch.pl --strict --quiet --ignore FILE_PATH_CHANGES "$2")
}

bad=0 checked=0
read -r home lines <<< "$(. scripts/lib.sh && echo "$SERIES_HOME_LINE ${PACKAGED_BASES[*]}")"
for line in $lines; do
	tree=$(. scripts/lib.sh && use_base "$line" && extract_pristine && echo "$PRISTINE_TREE")
	if [ "$line" = "$home" ]; then
		files=(patches/*/*.patch)
		home_tree=$tree
	else
		files=(patches/*/"$line"/*.patch)
	fi
	for p in "${files[@]}"; do
		[ -f "$p" ] || continue
		checked=$((checked + 1))
		if out=$(checkpatch "$tree" "$RIG_ROOT/$p"); then
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
expect_fail "a patch with trailing whitespace" "ERROR: trailing whitespace" checkpatch "${home_tree:?}" "$tmp/trailing.patch"
