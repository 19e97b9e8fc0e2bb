# shellcheck shell=bash
# make variant: a series from an mbox, a git range or a bare diff becomes
# patches/NAME/ with its series, filed under the kernel lines of the bases
# it applies to; a hunk that does not apply is shown and the pristine
# trees are never written.  Small stand-ins for the 6.1 and 6.12 trees
# (6.12's line 20 differs) keep this fast.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR=$tmp/build PATCHES_DIR=$tmp/patches
pristine=$BUILD_DIR/src/linux-source-6.1
mkdir -p "$pristine/fs" "$PATCHES_DIR"
seq 1 40 | sed 's/^/line /' > "$pristine/fs/char_dev.c"
touch "$pristine/.cdevbench-extracted"
printf '/*\n!/debian/\n' > "$pristine/.gitignore"	# as Debian's tree has it
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION =\n' > "$pristine/Makefile"
cp "$pristine/fs/char_dev.c" "$tmp/char_dev.orig"
pristine12=$BUILD_DIR/src/linux-source-6.12
mkdir -p "$pristine12/fs"
sed 's/^line 20$/line twenty/' "$pristine/fs/char_dev.c" > "$pristine12/fs/char_dev.c"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n' > "$pristine12/Makefile"
touch "$pristine12/.cdevbench-extracted"

# A two-patch series with a cover letter, as git send-email posts it.
repo=$tmp/repo
mkdir -p "$repo/fs"
cp "$pristine/fs/char_dev.c" "$repo/fs/"
git() { command git -C "$repo" -c user.name=T -c user.email=t@example.org "$@"; }
git init -q && git add -A && git commit -qm base
sed -i 's/^line 10$/line ten/' "$repo/fs/char_dev.c" && git commit -qam "chrdev: name line ten"
sed -i 's/^line 30$/line thirty/' "$repo/fs/char_dev.c" &&
	git commit -qam "chrdev: name line thirty" -m "Link: https://lore.kernel.org/r/x@example.org"
git format-patch -q --cover-letter -o "$tmp/out" HEAD~2..HEAD
cat "$tmp"/out/*.patch > "$tmp/series.mbox"

scripts/variant.sh from-mbox "$tmp/series.mbox" 2> "$tmp/log" || { cat "$tmp/log"; fail "mbox import failed"; }
[ "$(grep -cv '^#' "$PATCHES_DIR/from-mbox/series")" = 2 ] || fail "mbox: series does not list two patches (the cover letter is no patch)"
grep -qx '0001-chrdev-name-line-ten.patch' "$PATCHES_DIR/from-mbox/series" || fail "mbox: first patch not named by its subject"
grep -q 'applies to base 6.1 ' "$tmp/log" && grep -q 'applies to base 6.12 ' "$tmp/log" ||
	fail "mbox: not tried on both bases: $(cat "$tmp/log")"
[ "$(. scripts/lib.sh && rig_init && series_patches from-mbox | paste -sd' ')" = \
	"$(BASE=6.12 bash -c '. scripts/lib.sh && rig_init && series_patches from-mbox' | paste -sd' ')" ] ||
	fail "mbox: 6.12's series does not name 6.1's patch files"
echo "mbox with a cover letter: 2 patches, named by subject, filed for 6.1 and 6.12 (the same files)"

scripts/variant.sh from-git "$repo" HEAD~2..HEAD 2> /dev/null || fail "git range import failed"
cmp -s <(grep -v '^#' "$PATCHES_DIR/from-mbox/series") <(grep -v '^#' "$PATCHES_DIR/from-git/series") ||
	fail "git range: not the series the mbox gave"
echo "git repository and range: the same series"

git diff HEAD~1 > "$tmp/thirty.diff"
scripts/variant.sh bare "$tmp/thirty.diff" 2> /dev/null || fail "bare diff import failed"
grep -qx '0001-thirty.patch' "$PATCHES_DIR/bare/series" || fail "bare diff: not named after its file"
echo "a bare diff: one patch named after its file"

# A patch written against another kernel (6.12's line 20): filed for
# 6.12 alone, with 6.1's failing file and hunk named; refused on 6.1,
# naming the line it has.
sed -i 's/^line 20$/line twenty/' "$repo/fs/char_dev.c" && git commit -qam "chrdev: other kernel"
sed -i 's/^line twenty$/line 20 changed/' "$repo/fs/char_dev.c" && git commit -qam "chrdev: needs the other kernel"
git format-patch -q -o "$tmp/new" HEAD~1..HEAD
scripts/variant.sh newer "$tmp"/new/*.patch 2> "$tmp/log" || { cat "$tmp/log"; fail "a 6.12 series was refused"; }
grep -q 'does not apply to base 6.1 (6.1.192): 0001-chrdev-needs-the-other-kernel.patch: fs/char_dev.c: Hunk #1 FAILED at 17' "$tmp/log" ||
	fail "6.1's failing hunk is not named: $(cat "$tmp/log")"
[ -f "$PATCHES_DIR/newer/6.12/series" ] && [ ! -f "$PATCHES_DIR/newer/series" ] ||
	fail "a 6.12 series not filed under patches/newer/6.12/ alone: $(cd "$PATCHES_DIR" && find newer)"
expect_fail "a 6.12 series on base 6.1" "variant 'newer' has no series for base 6.1 .*it has series for: 6.12" \
	bash -c '. scripts/lib.sh && rig_init && check_variant newer'
echo "a series for 6.12 alone: filed under 6.12, 6.1's hunk named, refused on 6.1"

# A patch that applies to no base: each base's hunk named, the whole
# output of 6.1's shown, the folder kept for porting.
printf -- '--- a/fs/char_dev.c\n+++ b/fs/char_dev.c\n@@ -19,3 +19,3 @@\n line 19\n-line 20 changed\n+line 20 again\n line 21\n' > "$tmp/stale.diff"
expect_fail "a series that applies to no base" "applies to no base here \(6.1 6.12\)" \
	scripts/variant.sh stale "$tmp/stale.diff"
out=$(scripts/variant.sh stale 2>&1) && fail "check of a kept folder succeeded"
grep -q 'Hunk #1 FAILED at 19' <<< "$out" || fail "the failed hunk's line is not named: $out"
grep -q '^-line 20 changed' <<< "$out" || fail "the rejected hunk is not shown: $out"
grep -q "$pristine/<file>" <<< "$out" || fail "the tree to port against is not named: $out"
echo "a stale patch: hunk, line and tree shown, folder kept for porting"
cmp -s "$tmp/char_dev.orig" "$pristine/fs/char_dev.c" || fail "the pristine tree was written"

# A patch whose change the tree already has (a fix 6.1.192 backported)
# looks reversed to patch: a reject, never silently undone.
printf -- '--- a/fs/char_dev.c\n+++ b/fs/char_dev.c\n@@ -29,3 +29,3 @@\n line 29\n-line thirty\n+line 30\n line 31\n' > "$tmp/reversed.diff"
expect_fail "a patch the tree already has" "applies to no base here" \
	scripts/variant.sh reversed "$tmp/reversed.diff"
cmp -s "$tmp/char_dev.orig" "$pristine/fs/char_dev.c" || fail "the pristine tree was written"
out=$(scripts/variant.sh reversed 2>&1) && fail "a reversed patch was applied"
grep -q 'Reversed (or previously applied) patch detected!  Skipping' <<< "$out" ||
	fail "a reversed patch is not named as such: $out"
echo "a patch the tree already has: a reject, not undone"

# Patch files are named as git format-patch names them ('_' and '.' kept),
# so that a series ported in WORKTREE and exported replaces its files.
git commit -q --allow-empty -m "char_dev: keep cdev_map v1.2"
git format-patch -q -o "$tmp/named" HEAD~1..HEAD
sed -i 's/^line 5$/line five/' "$repo/fs/char_dev.c" && git commit -q --amend -a --no-edit
scripts/variant.sh named "$repo" HEAD~1..HEAD 2> /dev/null || fail "import of char_dev: ... failed"
grep -qx "$(basename "$tmp"/named/*.patch)" "$PATCHES_DIR/named/series" ||
	fail "not git format-patch's name $(basename "$tmp"/named/*.patch): $(grep -v '^#' "$PATCHES_DIR/named/series")"
echo "patch files named as git format-patch names them"

expect_fail "a name in use" "patches/from-mbox exists" scripts/variant.sh from-mbox "$tmp/series.mbox"
expect_fail "stock as a name" "not 'stock'" scripts/variant.sh stock "$tmp/series.mbox"
expect_fail "a work tree in build/" "inside" env WORKTREE="$BUILD_DIR/wt" scripts/variant.sh from-git

WORKTREE=$tmp/wt scripts/variant.sh from-git 2> /dev/null || fail "work tree failed"
[ "$(command git -C "$tmp/wt" rev-list --count HEAD)" = 3 ] || fail "work tree: not the tree plus two commits"
grep -qx 'line thirty' "$tmp/wt/fs/char_dev.c" || fail "work tree: series not applied"
echo "WORKTREE: the 6.1 tree and one commit per patch"

# A patch that deletes a file lists that file, never /dev/null's path.
printf -- '--- a/drivers/base/map.c\n+++ /dev/null\n' > "$tmp/delete.patch"
[ "$(. scripts/lib.sh && rig_init && patched_paths "$tmp/delete.patch")" = drivers/base/map.c ] ||
	fail "patched_paths of a deletion is not the deleted file"
echo "a deleted file: its path, not /dev/null's"

# A build error's line is blamed on the patch that wrote it: patch 1
# inserts two lines after line 10, patch 2 changes line 30 (32 after
# patch 1); an untouched line is nobody's.
printf -- '--- a/fs/char_dev.c\n+++ b/fs/char_dev.c\n@@ -10,2 +10,4 @@\n line 10\n+line 10a\n+line 10b\n line 11\n' > "$tmp/p1.patch"
printf -- '--- a/fs/char_dev.c\n+++ b/fs/char_dev.c\n@@ -31,3 +31,3 @@\n line 29\n-line 30\n+line thirty\n line 31\n' > "$tmp/p2.patch"
blame() { (. scripts/lib.sh && rig_init && patch_of_line fs/char_dev.c "$1" "$tmp/p1.patch" "$tmp/p2.patch"); }
[ "$(blame 11)" = p1.patch ] || fail "line 11 (added by patch 1) blamed on '$(blame 11)'"
[ "$(blame 32)" = p2.patch ] || fail "line 32 (patch 2's) blamed on '$(blame 32)'"
[ -z "$(blame 20)" ] || fail "an untouched line blamed on '$(blame 20)'"
[ "$(. scripts/lib.sh && rig_init && patch_of_line drivers/other.c 11 "$tmp/p1.patch")" = "" ] || fail "another file's line blamed"
# A later patch that adds lines above an earlier one's moves its lines:
# five lines on top, after patch 1, make its line 11 line 16, and the
# untouched line 6 line 11.
printf -- '--- a/fs/char_dev.c\n+++ b/fs/char_dev.c\n@@ -1,2 +1,7 @@\n line 1\n+a\n+b\n+c\n+d\n+e\n line 2\n' > "$tmp/top.patch"
blame_top() { (. scripts/lib.sh && rig_init && patch_of_line fs/char_dev.c "$1" "$tmp/p1.patch" "$tmp/top.patch"); }
[ "$(blame_top 16)" = p1.patch ] || fail "line 16 (patch 1's line 11, 5 lines down) blamed on '$(blame_top 16)'"
[ -z "$(blame_top 11)" ] || fail "line 11 (the untouched line 6, 5 lines down) blamed on '$(blame_top 11)'"
echo "a build error's line: blamed on the patch that wrote it, or on none"
