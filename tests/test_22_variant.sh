# shellcheck shell=bash
# make variant: a series from an mbox, a git range or a bare diff becomes
# patches/NAME/ with its series; a hunk that does not apply is shown and
# the pristine tree is never written.  A small stand-in for the 6.1 tree
# keeps this fast.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR=$tmp/build PATCHES_DIR=$tmp/patches
pristine=$BUILD_DIR/src/linux-source-6.1
mkdir -p "$pristine/fs" "$PATCHES_DIR"
seq 1 40 | sed 's/^/line /' > "$pristine/fs/char_dev.c"
touch "$pristine/.cdevbench-extracted"
printf '/*\n!/debian/\n' > "$pristine/.gitignore"	# as Debian's tree has it
cp "$pristine/fs/char_dev.c" "$tmp/char_dev.orig"

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
grep -q 'applies' "$tmp/log" || fail "mbox: the apply check did not run"
echo "mbox with a cover letter: 2 patches, named by subject, checked"

scripts/variant.sh from-git "$repo" HEAD~2..HEAD 2> /dev/null || fail "git range import failed"
cmp -s <(grep -v '^#' "$PATCHES_DIR/from-mbox/series") <(grep -v '^#' "$PATCHES_DIR/from-git/series") ||
	fail "git range: not the series the mbox gave"
echo "git repository and range: the same series"

git diff HEAD~1 > "$tmp/thirty.diff"
scripts/variant.sh bare "$tmp/thirty.diff" 2> /dev/null || fail "bare diff import failed"
grep -qx '0001-thirty.patch' "$PATCHES_DIR/bare/series" || fail "bare diff: not named after its file"
echo "a bare diff: one patch named after its file"

# A patch written against another kernel: its hunk, file and line shown.
sed -i 's/^line 20$/line twenty/' "$repo/fs/char_dev.c" && git commit -qam "chrdev: other kernel"
sed -i 's/^line twenty$/line 20 changed/' "$repo/fs/char_dev.c" && git commit -qam "chrdev: needs the other kernel"
git format-patch -q -o "$tmp/bad" HEAD~1..HEAD
expect_fail "a series that does not apply" "does not apply to linux-source-6.1" \
	scripts/variant.sh stale "$tmp"/bad/*.patch
out=$(scripts/variant.sh stale 2>&1) && fail "check of a kept folder succeeded"
grep -q 'Hunk #1 FAILED at 17' <<< "$out" || fail "the failed hunk's line is not named: $out"
grep -q '^-line twenty' <<< "$out" || fail "the rejected hunk is not shown: $out"
grep -q "$pristine/<file>" <<< "$out" || fail "the tree to port against is not named: $out"
echo "a stale patch: hunk, line and tree shown, folder kept for porting"
cmp -s "$tmp/char_dev.orig" "$pristine/fs/char_dev.c" || fail "the pristine tree was written"

# A patch whose change the tree already has (a fix 6.1.192 backported)
# looks reversed to patch: a reject, never silently undone.
printf -- '--- a/fs/char_dev.c\n+++ b/fs/char_dev.c\n@@ -29,3 +29,3 @@\n line 29\n-line thirty\n+line 30\n line 31\n' > "$tmp/reversed.diff"
expect_fail "a patch the tree already has" "does not apply to linux-source-6.1" \
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
[ "$(. scripts/lib.sh && patched_paths "$tmp/delete.patch")" = drivers/base/map.c ] ||
	fail "patched_paths of a deletion is not the deleted file"
echo "a deleted file: its path, not /dev/null's"
