#!/bin/bash
# A variant from a posted series: patches/NAME/ with the patches of an
# mbox (as `b4 am` or a list archive gives it), of a git commit range, or
# of patch files, in order, and its series file.  The series is tried on
# every packaged base, and on BASE where it names a tree, with the rig's
# rule (scripts/lib/patches.sh apply_patch), and filed under the kernel
# lines it applies to (docs/bases.md): patches/NAME/ for 6.1,
# patches/NAME/<line>/ for another, a line's series naming another's
# patch files where they are the same.  Where it applies to none, each
# base's failing file and hunk is named, the patches stay in
# patches/NAME/ for porting, and running this again with only NAME
# checks every series it has again.
# WORKTREE=DIR also leaves a git work tree of BASE's source in DIR, one
# commit per patch that applies and the rejects of the first that does
# not, for porting by hand (never in build/: variants hard-link to the
# pristine tree there).
# Usage: scripts/variant.sh NAME [MBOX | PATCH | DIR-OF-PATCHES | REPO RANGE]...
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

usage() { die "usage: make variant NAME=<name> FROM='<mbox | patch files | folder of patches | git repo and range>' [WORKTREE=<dir>]"; }
name=${1:-}
[ -n "$name" ] || usage
shift
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] && [ "$name" != stock ] ||
	die "variant name '$name': letters, digits, '.', '_', '-', and not 'stock'"
dir=$PATCHES_DIR/$name
user_base=$BASE	# BASE as given; use_base changes BASE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every message of the sources as one mbox, in order.
collect() {
	local src
	while [ $# -gt 0 ]; do
		src=$1
		shift
		if [ -d "$src" ] && [[ ${1:-} == *..* ]] && git -C "$src" rev-parse --git-dir > /dev/null 2>&1; then
			git -C "$src" format-patch --stdout "$1" || die "$src: no commits in range $1"
			shift
		elif [ -d "$src" ]; then
			local p found=0
			for p in "$src"/*.patch "$src"/*.diff; do
				[ -f "$p" ] || continue
				found=1
				as_message "$p"
			done
			[ "$found" = 1 ] || die "$src holds no *.patch or *.diff"
		elif [ -f "$src" ]; then
			as_message "$src"
		else
			die "$src: no such file, folder or git repository"
		fi
	done
}

# A file as mbox messages: an mbox as it is, a single mail (headers
# first, as a list archive saves it) behind an mbox "From " line, a bare
# diff under a Subject named after its file, without the extension.
as_message() {
	local sep='From cdevbench Mon Sep 17 00:00:00 2001'
	if head -1 "$1" | grep -q '^From '; then
		cat "$1"
	elif head -1 "$1" | grep -qE '^[A-Za-z-]+: '; then
		printf '%s\n' "$sep"
		cat "$1"
	else
		local base=${1##*/}
		printf '%s\nSubject: %s\n\n' "$sep" "${base%.*}"
		cat "$1"
	fi
	echo
}

# One patch file per message, NNNN-<subject>.patch named as git format-patch
# names it (so that a port exported from WORKTREE replaces it), and the series.
import() {
	local n=0 msg subject file
	collect "$@" > "$tmp/all.mbox"
	mkdir -p "$tmp/msgs"
	git mailsplit -o"$tmp/msgs" "$tmp/all.mbox" > /dev/null
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	{
		echo "# imported by 'make variant' on $(date -u +%Y-%m-%d) from: $*"
		for msg in "$tmp"/msgs/*; do
			grep -q '^+++ ' "$msg" || continue	# a cover letter, a reply
			n=$((n + 1))
			subject=$(patch_subject "$msg" |
				tr -c 'A-Za-z0-9._\n' - | tr -s - | cut -c1-52 | sed 's/-$//')
			file=$(printf '%04d-%s.patch' "$n" "${subject:-patch}")
			cp "$msg" "$dir.tmp/$file"
			echo "$file"
		done
	} > "$dir.tmp/series"
	[ "$n" -gt 0 ] || { rm -rf "$dir.tmp"; die "no patch (no '+++' line) in: $*"; }
	log "$name: $n patch(es)"
}

# Apply PATCHES to copies of the files they touch in the current base's
# tree, as kernel.sh would.  Quiet prints, for the first patch that
# fails, one line naming its files and hunks; loud, patch's whole output
# and the rejected hunks.
check() {	# check quiet|loud PATCH...
	local mode=$1 p out
	shift
	rm -rf "$tmp/tree" "$tmp/rejects"
	mkdir -p "$tmp/tree"
	copy_patched_files "$PRISTINE_TREE" "$tmp/tree" "$@"
	for p in "$@"; do
		if ! out=$(apply_patch "$tmp/tree" "$p" "$tmp/rejects"); then
			if [ "$mode" = quiet ]; then
				printf '%s: %s\n' "${p##*/}" "$(awk '/^(patching|checking) file / { f = $3 }
					/^Hunk #[0-9]+ FAILED|Reversed|can.t find file|No file to patch/ {
						sub(/\.$/, ""); printf "%s%s: %s", sep, f, $0; sep = "; " }' <<< "$out")"
				return 1
			fi
			printf '%s\n' "$out" >&2
			if [ -s "$tmp/rejects" ]; then
				echo "--- the hunks that do not apply:" >&2
				cat "$tmp/rejects" >&2
			fi
			echo "--- port them against the lines named above in $PRISTINE_TREE/<file> (read it, never edit it: every variant hard-links to it), or with WORKTREE=<dir>" >&2
			return 1
		fi
		[ "$mode" = quiet ] || log "$name: ${p##*/} applies to base $BASE"
	done
}

# The bases a new series is tried on: every packaged base, and BASE
# where it names a tree.
candidate_bases() {
	printf '%s\n' "${PACKAGED_BASES[@]}"
	base_is_packaged "$user_base" || echo "$user_base"
}

# File the series imported into $dir.tmp under the kernel lines of the
# bases it applies to, saying for each base where it does not.  Fails
# when it applies to none; the patches are then filed under 6.1's line,
# for porting.
file_series() {
	local b f files=() fits=0 home line lines=() why home_dir line_dir
	mapfile -t files < <(grep -v '^#' "$dir.tmp/series")
	for b in $(candidate_bases); do
		use_base "$b"
		extract_pristine
		if why=$(check quiet "${files[@]/#/$dir.tmp/}"); then
			log "$name: applies to base $b ($(tree_version "$PRISTINE_TREE"))"
			fits=1
			[[ " ${lines[*]} " == *" $BASE_LINE "* ]] || lines+=("$BASE_LINE")
		else
			log "$name: does not apply to base $b ($(tree_version "$PRISTINE_TREE")): $why"
		fi
	done
	# the patch files live in one line's folder, 6.1's where it is one
	home=${lines[0]:-$SERIES_HOME_LINE}
	for line in "${lines[@]}"; do [ "$line" != "$SERIES_HOME_LINE" ] || home=$line; done
	home_dir=$(series_dir "$name" "$home")
	mkdir -p "$home_dir"
	mv "$dir.tmp"/* "$home_dir/"
	rmdir "$dir.tmp"
	for line in "${lines[@]}"; do
		[ "$line" != "$home" ] || continue
		line_dir=$(series_dir "$name" "$line")
		mkdir -p "$line_dir"
		{
			echo "# the patches of kernel line $home's series, which apply to $line unchanged"
			for f in "${files[@]}"; do realpath -s --relative-to="$line_dir" "$home_dir/$f"; done
		} > "$line_dir/series"
	done
	[ "$fits" = 1 ] || return 1
	for line in "${lines[@]}"; do
		log "$name: filed for kernel line $line: $(realpath -s --relative-to="$PATCHES_DIR/.." "$(series_dir "$name" "$line")")/series"
	done
}

# The base a kernel line's series is checked on: the packaged base of
# that line, or BASE where it is a tree of that line.
line_base() {
	local b
	for b in "${PACKAGED_BASES[@]}"; do [ "$b" != "$1" ] || { echo "$b"; return; }; done
	! base_is_packaged "$user_base" && [ "$(tree_line "$user_base")" = "$1" ] && echo "$user_base"
}

# Check every series the variant has, each on its line's base.
recheck() {
	local line b status=0 patches
	for line in $(variant_lines "$name"); do
		b=$(line_base "$line") || { log "$name: no base here for kernel line $line (BASE=<a tree of $line>)"; continue; }
		use_base "$b"
		extract_pristine
		mapfile -t patches < <(series_patches "$name")
		[ ${#patches[@]} -gt 0 ] || die "$(series_dir "$name")/series names no patch"
		check loud "${patches[@]}" || { status=1; log "$name: its series for $line does not apply to base $b"; }
	done
	return $status
}

# A git work tree of BASE's source with its series applied, for porting.
worktree() {
	local wt=$1 p patches
	use_base "$user_base"
	extract_pristine
	mapfile -t patches < <(series_patches "$name")
	case $(realpath -m "$wt")/ in
	"$BUILD_DIR"/*) die "WORKTREE=$wt is inside $BUILD_DIR, which holds the pristine tree" ;;
	esac
	[ ! -e "$wt" ] || die "WORKTREE=$wt exists already"
	log "$name: copying base $BASE's source to $wt (a real copy, a few minutes)"
	cp -a "$PRISTINE_TREE" "$wt"
	rm -f "$wt/.cdevbench-extracted"
	git -C "$wt" init -q
	# -f: Debian's .gitignore ignores the whole top level of its tree
	git -C "$wt" add -A -f
	git -C "$wt" -c user.name=cdevbench -c user.email=cdevbench@localhost \
		commit -q -m "base $BASE ($(tree_version "$PRISTINE_TREE")) as the rig copied it"
	for p in "${patches[@]}"; do
		# git am keeps the author; a bare diff has none and is committed as is
		git -C "$wt" am -q "$p" 2> /dev/null && continue
		git -C "$wt" am --abort 2> /dev/null || true
		if git -C "$wt" apply --index "$p" 2> /dev/null; then
			git -C "$wt" -c user.name=cdevbench -c user.email=cdevbench@localhost \
				commit -q -m "${p##*/}"
			continue
		fi
		git -C "$wt" apply --reject "$p" || true
		log "$name: ${p##*/} is left in $wt with its *.rej files; port it there, commit, and export the series with git format-patch"
		return
	done
	log "$name: the series is committed in $wt"
}

base_list="${PACKAGED_BASES[*]}$(base_is_packaged "$user_base" || echo " $user_base")"
if [ $# -gt 0 ]; then
	[ ! -e "$dir" ] || die "patches/$name exists; choose another NAME, or run 'make variant NAME=$name' to check it again"
	import "$@"
	if ! file_series; then
		# the whole output on the first base, for porting
		use_base "${PACKAGED_BASES[0]}"
		mapfile -t patches < <(series_patches "$name")
		check loud "${patches[@]}" || true
		[ -z "${WORKTREE:-}" ] || worktree "$WORKTREE"
		die "variant $name: the series applies to no base here ($base_list); patches/$name/ is kept for porting"
	fi
else
	[ -d "$dir" ] || die "patches/$name does not exist; give FROM=<mbox, patches or git range>"
	recheck || {
		[ -z "${WORKTREE:-}" ] || worktree "$WORKTREE"
		die "variant $name: a series does not apply to its base (hunks above); patches/$name/ is kept for porting"
	}
fi
[ -z "${WORKTREE:-}" ] || worktree "$WORKTREE"
use_base "$user_base"
how="make bench VARIANTS=\"stock $name\""
[ -f "$(series_dir "$name")/series" ] || how="make bench BASE=$(variant_lines "$name" | head -1) VARIANTS=\"stock $name\""
log "$name: ready; compare it with stock: $how"
