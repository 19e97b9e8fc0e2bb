#!/bin/bash
# make posting VARIANT=V RUN=R: V's series as a maintainer receives it,
# made from the run R that measured it (docs/posting.md).  R's own copy
# of the series is applied, by the rig's rule, to copies of the files
# it touches in the base it ran on, a commit per patch in a scratch git
# repository, and git format-patch writes the mails and a cover letter:
# its subject the first line of V's `cover` file (else V's name), its
# body the rest of that file, then the figures of V in R by the report
# engine (compare --format posting).  Writes R/posting/V/ and, beside
# it, V.checkpatch.txt: checkpatch.pl --strict of the base's tree on
# each patch, the cover letter left out.
set -euo pipefail
given_run=${RUN:-}	# before rig_init gives RUN its default, latest
. "$(dirname "$0")/lib.sh"
rig_init

variant=${1:-}
# a posting quotes a run: one named, not whichever ran last
[ -n "$variant" ] && [ -n "$given_run" ] ||
	die "usage: make posting VARIANT=<variant> RUN=<run folder>: both are needed"
run=$(cd "$given_run" 2> /dev/null && pwd -P) || die "no run at $given_run"
meta=$run/meta.json
[ -f "$meta" ] && [ -f "$run/samples.csv" ] || die "$run is not a run folder: no meta.json or samples.csv"
status=$(cat "$run/status" 2> /dev/null || echo "no status file")
[ "$status" = complete ] || die "$run is not a complete run ($status)"
compare=$BUILD_DIR/bin/compare
[ -x "$compare" ] || die "$compare missing: run 'make tools'"

# The arms a posting can be made of: those with patches, but the
# baseline's and a walk's prefixes.
id=$(jq -r .run_id "$meta") baseline=$(jq -r .baseline "$meta")
jq -e --arg v "$variant" '.variants[$v].patches | length > 0' "$meta" > /dev/null ||
	die "run $id did not measure '$variant' with patches; its variants: $(jq -r --arg b "$baseline" '
		[.variants | to_entries[] | select((.value.patches | length) > 0 and
			(.key | contains("~") | not) and .key != $b and (.key | startswith($b + ":") | not)) | .key]
		| join(", ")' "$meta")"
kernel=$(jq -r --arg v "$variant" '.variants[$v].kernel' "$meta")
base=$(jq -r --arg v "$variant" '.variants[$v].base' "$meta")
base_json=$(jq -c --arg b "$base" '.bases[] | select(.name == $b)' "$meta")
[ -n "$base_json" ] || die "$meta: no base $base in its bases"
# several bases: the arms are <variant>:<base key>, compared here with
# the baseline on their own base
[ "$(jq '.bases | length' "$meta")" = 1 ] || baseline=$baseline:$(jq -r .key <<< "$base_json")

# The cover letter's figures first: the engine refuses what the run
# cannot say of the variant.
tmp=$(mktemp -d)
dest=$run/posting/$variant
trap 'rm -rf "$tmp" "$dest.tmp"' EXIT
"$compare" --baseline "$baseline" --format posting --variant "$variant" "$run/samples.csv" > "$tmp/figures"

# The base as the run measured it: a packaged base's tree is extracted
# where it is not (a minute), a tree base's copy must be the one built.
if base_is_packaged "$base"; then
	use_base "$base"
	extract_pristine
else
	[ -f "$base/Makefile" ] || die "base $base: the tree is gone"
	use_base "$base"
	[ "$(cat "$PRISTINE_TREE/.cdevbench-extracted" 2> /dev/null)" = "$(jq -r .identity <<< "$base_json")" ] ||
		die "base $base: its copy in $PRISTINE_TREE is not the one the run built (the tree changed since)"
fi
version=$(jq -r .kernel_version <<< "$base_json")
[ "$(tree_version "$PRISTINE_TREE")" = "$version" ] ||
	die "base $base is $(tree_version "$PRISTINE_TREE") in $PRISTINE_TREE; the run measured $version"

# shellcheck disable=SC2034 # read by scripts/lib/variants.sh
PATCHES_DIR=$run/patches
list=$(series_patches "$kernel")
mapfile -t patches <<< "$list"
[ -n "$list" ] || die "the run's copy of $kernel has no series for base $base (patches/$kernel/)"

# The cover's subject and text: V's cover file (its own for the base's
# line first, as variant_file finds it), else V's name.
cover=$(variant_file "$kernel" cover)
if [ -f "$cover" ]; then
	subject=$(head -1 "$cover")
	[ -n "$subject" ] || die "$cover: its first line, the subject, is empty"
	[ "$(sed -n 2p "$cover")" = "" ] || die "$cover: line 2 must be blank (line 1 is the subject)"
	long=$(awk 'NR > 2 && length > 72 { printf "%s%d", sep, NR; sep = ", " }' "$cover")
	[ -z "$long" ] || die "$cover: lines $long are longer than 72 columns"
	text=$(tail -n +3 "$cover")
else
	subject=$kernel text=
	log "no cover file in ${cover%/*}/: the subject is the variant's name (docs/posting.md)"
fi

# git as it is with no configuration: a user's (diff.noprefix,
# format.signOff, ...) would change the mails.
g() { GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -C "$tmp/repo" "$@"; }
mkdir "$tmp/repo"

# Each patch as git am reads a mail (git mailinfo): author, date,
# subject, message.  A patch without an author, as a plain diff, is
# committed under the poster's git identity, one without a date at the
# run's, one without a subject under its file's name.
date=$(jq -r .date "$meta")
for i in "${!patches[@]}"; do
	p=${patches[i]}
	g mailinfo "$tmp/msg$i" /dev/null < "$p" > "$tmp/info$i"
	name=$(sed -n 's/^Author: //p' "$tmp/info$i")
	email=$(sed -n 's/^Email: //p' "$tmp/info$i")
	when=$(sed -n 's/^Date: //p' "$tmp/info$i")
	when=${when:-$date}
	title=$(sed -n 's/^Subject: //p' "$tmp/info$i")
	if [ -z "$email" ]; then
		ident=$(git -C "$RIG_ROOT" var GIT_AUTHOR_IDENT) ||
			die "${p##*/} has no author (From:): give it one, or set git's user.name and user.email to post it as yours"
		name=${ident%% <*} email=${ident#*<} email=${email%%>*}
		log "${p##*/}: no author: posted as $name <$email>"
	fi
	if [ -z "$title" ]; then
		title=$(basename "$p" | sed -E 's/\.[^.]*$//; s/^[0-9]+-//; s/-/ /g')
		log "${p##*/}: no subject: '$title', from its file's name"
	fi
	[ -s "$tmp/msg$i" ] || log "${p##*/}: no commit message: write one before posting it"
	printf '%s\n%s\n%s\n' "$name" "$email" "$when" > "$tmp/author$i"
	{ printf '%s\n\n' "$title"; cat "$tmp/msg$i"; } > "$tmp/commit$i"
done

# The commits, the cover letter's included, are committed by the first
# author at the run's date, so that a run posts the same files each time.
{ read -r GIT_COMMITTER_NAME; read -r GIT_COMMITTER_EMAIL; } < "$tmp/author0"
export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE=$date
copy_patched_files "$PRISTINE_TREE" "$tmp/repo" "${patches[@]}"
g init -q -b posting
g add -A
GIT_AUTHOR_NAME=$GIT_COMMITTER_NAME GIT_AUTHOR_EMAIL=$GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE=$date \
	g commit -q --allow-empty -m "base $base ($version)"
for i in "${!patches[@]}"; do
	out=$(apply_patch "$tmp/repo" "${patches[i]}" -) ||
		die "${patches[i]##*/} does not apply to base $base as the run applied it: $out"
	g add -A
	{ read -r name; read -r email; read -r when; } < "$tmp/author$i"
	GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_AUTHOR_DATE=$when \
		g commit -q --cleanup=whitespace -F "$tmp/commit$i"
done
g config branch.posting.description "$(printf '%s\n\n' "$subject"
	[ -z "$text" ] || printf '%s\n\n' "$text"
	cat "$tmp/figures")"
g format-patch -q --cover-letter --cover-from-description=subject -o "$dest.tmp" HEAD~${#patches[@]}
rm -rf "$dest" "$dest.checkpatch.txt"
mv "$dest.tmp" "$dest"

# checkpatch.pl as a maintainer runs it, in the base's tree (it reads
# MAINTAINERS there), on each patch: a cover letter has no diff.
log "posting of $variant from run $id: $dest/, the cover letter and ${#patches[@]} patch(es)"
echo "checkpatch.pl --strict in base $base's tree, on each patch ($dest.checkpatch.txt):"
for mail in "$dest"/*.patch; do
	[ "${mail##*/}" != 0000-cover-letter.patch ] || continue
	found=$(cd "$PRISTINE_TREE" && perl scripts/checkpatch.pl --strict "$mail" 2>&1) || true
	printf '%s\n%s\n\n' "${mail##*/}:" "$found" >> "$dest.checkpatch.txt"
	total=$(sed -n 's/^total: \(.*\), [0-9]* lines checked$/\1/p' <<< "$found")
	[ -n "$total" ] || die "checkpatch.pl gave no total for ${mail##*/}: $found"
	echo "  ${mail##*/}: $total"
done
