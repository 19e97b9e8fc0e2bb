#!/bin/bash
# A variant from a posted series: patches/NAME/ with the patches of an
# mbox (as `b4 am` or a list archive gives it), of a git commit range, or
# of patch files, in order, and its series file; then the check that the
# series applies to the 6.1 tree with the rig's rule (scripts/lib.sh
# apply_patch).  A hunk that does not apply is shown with the file and
# line to port it against; the folder stays for porting, and running
# this again with only NAME checks it again.
# WORKTREE=DIR also leaves a git work tree of the 6.1 source in DIR, one
# commit per patch that applies and the rejects of the first that does
# not, for porting by hand (never in build/: variants hard-link to the
# pristine tree there).
# Usage: scripts/variant.sh NAME [MBOX | PATCH | DIR-OF-PATCHES | REPO RANGE]...
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { die "usage: make variant NAME=<name> FROM='<mbox | patch files | folder of patches | git repo and range>' [WORKTREE=<dir>]"; }
name=${1:-}
[ -n "$name" ] || usage
shift
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] && [ "$name" != stock ] ||
	die "variant name '$name': letters, digits, '.', '_', '-', and not 'stock'"
dir=$PATCHES_DIR/$name
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
	mv "$dir.tmp" "$dir"
	log "$name: $n patch(es) in patches/$name/"
}

# Apply the series to copies of the files it touches, as kernel.sh would.
check() {
	local p f out
	mapfile -t patches < <(series_patches "$name")
	[ ${#patches[@]} -gt 0 ] || die "patches/$name/series names no patch"
	mkdir -p "$tmp/tree"
	while read -r f; do
		[ -f "$PRISTINE_TREE/$f" ] || continue
		mkdir -p "$tmp/tree/$(dirname "$f")"
		cp "$PRISTINE_TREE/$f" "$tmp/tree/$f"
	done < <(patched_paths /dev/null "${patches[@]}")
	for p in "${patches[@]}"; do
		if ! out=$(apply_patch "$tmp/tree" "$p" "$tmp/rejects"); then
			printf '%s\n' "$out" >&2
			if [ -s "$tmp/rejects" ]; then
				echo "--- the hunks that do not apply:" >&2
				cat "$tmp/rejects" >&2
			fi
			echo "--- port them against the lines named above in $PRISTINE_TREE/<file> (read it, never edit it: every variant hard-links to it), or with WORKTREE=<dir>" >&2
			return 1
		fi
		log "$name: ${p##*/} applies"
	done
}

# A git work tree of the 6.1 source with the series applied, for porting.
worktree() {
	local wt=$1 p
	case $(realpath -m "$wt")/ in
	"$BUILD_DIR"/*) die "WORKTREE=$wt is inside $BUILD_DIR, which holds the pristine tree" ;;
	esac
	[ ! -e "$wt" ] || die "WORKTREE=$wt exists already"
	log "$name: copying the 6.1 source to $wt (a real copy, a few minutes)"
	cp -a "$PRISTINE_TREE" "$wt"
	rm -f "$wt/.cdevbench-extracted"
	git -C "$wt" init -q
	# -f: Debian's .gitignore ignores the whole top level of its tree
	git -C "$wt" add -A -f
	git -C "$wt" -c user.name=cdevbench -c user.email=cdevbench@localhost \
		commit -q -m "linux-source-6.1 as Debian ships it ($(basename "$KERNEL_TARBALL"))"
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

extract_pristine
[ $# -eq 0 ] || {
	[ ! -e "$dir" ] || die "patches/$name exists; choose another NAME, or run 'make variant NAME=$name' to check it again"
	import "$@"
}
[ -d "$dir" ] || die "patches/$name does not exist; give FROM=<mbox, patches or git range>"
status=0
check || status=$?
[ -z "${WORKTREE:-}" ] || worktree "$WORKTREE"
[ "$status" = 0 ] || die "variant $name: the series does not apply to linux-source-6.1 (hunks above); patches/$name/ is kept for porting"
log "$name: ready; 'make bench' compares it with stock (VARIANTS='stock $name' for these two only)"
