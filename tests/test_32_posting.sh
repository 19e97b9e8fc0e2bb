# shellcheck shell=bash
# make posting (scripts/posting.sh) on a stand-in run: a variant `fast`
# of two patches, a git format-patch mail and a plain diff, on a
# stand-in of base 6.1's tree (the files they touch, checkpatch.pl from
# the tarball).  The mails are numbered [PATCH k/2] under a cover letter
# [PATCH 0/2] whose subject is the variant's cover file's (else its
# name), whose body has lines of at most 72 columns and names the base,
# the rig's commit, the run and its reproduce line, whose figures are
# the run's compare.json's, and whose race check says it did not run;
# checkpatch's findings are reported per patch; a variant the run did
# not measure and a missing RUN are refused.
. "$(dirname "$0")/lib.sh"

[ -x build/bin/compare ] || fail "no build/bin/compare: run make check, or make tools"
home_files=$(. scripts/lib.sh && rig_init && use_base 6.1 && extract_host_files && echo "$HOST_FILES")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR=$tmp/build GIT_AUTHOR_NAME="A Poster" GIT_AUTHOR_EMAIL=poster@example.org
unset RUN

# The base: what checkpatch.pl takes for the top of a kernel tree, and
# fs/char_dev.c.
tree=$BUILD_DIR/src/linux-source-6.1
mkdir -p "$BUILD_DIR/bin" "$tree/scripts"
ln -s "$RIG_ROOT/build/bin/compare" "$BUILD_DIR/bin/compare"
for d in Documentation arch include drivers fs init ipc kernel lib; do mkdir "$tree/$d"; done
touch "$tree"/{COPYING,CREDITS,Kbuild,MAINTAINERS,README} "$tree/.cdevbench-extracted"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION =\n' > "$tree/Makefile"
cp "$home_files"/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch} "$tree/scripts/"
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0' '#include <linux/fs.h>' '' \
	'static int chrdev_open(struct inode *inode, struct file *filp)' '{' '	return 0;' '}' \
	> "$tree/fs/char_dev.c"

# The run: stock and fast, 2 boots of 3 repetitions; cdev_add_ns is
# 1000 + n and 500 + n, a lock per cached open 1 and 0.
id=20261201T000000Z-post
run=$tmp/results/$id
mkdir -p "$run/patches/stock" "$run/patches/fast" "$run/report"
{
	echo "variant,boot,metric,param,iter,value,unit"
	for v in stock fast; do
		for b in 1 2; do
			for i in 0 1 2; do
				for n in 1 100; do
					echo "$v,$b,cdev_add_ns,n=$n,$i,$(( $([ $v = stock ] && echo 1000 || echo 500) + n )),ns"
				done
				echo "$v,$b,lock_acquisitions_per_op,\"phase=cached,lock=cdev_lock\",$i,$([ $v = stock ] && echo 1.00 || echo 0.00),count"
			done
		done
	done
} > "$run/samples.csv"
cat > "$run/patches/fast/0001-chrdev-open-without-a-lock.patch" <<'EOF'
From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: A Developer <dev@example.org>
Date: Tue, 1 Dec 2026 10:00:00 +0000
Subject: [PATCH] chrdev: open without a lock

chrdev_open() returns at once: nothing to lock.

Signed-off-by: A Developer <dev@example.org>
---
 fs/char_dev.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/fs/char_dev.c b/fs/char_dev.c
--- a/fs/char_dev.c
+++ b/fs/char_dev.c
@@ -4,4 +4,5 @@
 static int chrdev_open(struct inode *inode, struct file *filp)
 {
+	/* nothing to lock */
 	return 0;
 }
-- 
2.39.5
EOF
cat > "$run/patches/fast/0002-chrdev-say-why.diff" <<'EOF'
--- a/fs/char_dev.c
+++ b/fs/char_dev.c
@@ -1,2 +1,3 @@
 // SPDX-License-Identifier: GPL-2.0
+/* char devices */
 #include <linux/fs.h>
EOF
printf '%s\n' 0001-chrdev-open-without-a-lock.patch 0002-chrdev-say-why.diff > "$run/patches/fast/series"
reproduce="git checkout abc123 && make bench PATCHES_DIR=results/$id/patches VARIANTS=stock\\ fast BASES=6.1 BASELINE=stock MODE=icount BOOTS=2 BISECT='' SWEEP_N=1\\ 100 REPS=3"
jq -n --arg id "$id" --arg reproduce "$reproduce" '{ run_id: $id, date: "2026-12-01T00:00:00Z",
	rig_commit: "abc123", measuring_code_sha256: "m1", baseline: "stock", mode: "icount",
	quick: false, boots: 2, reps: 3, ops: 50, vcpus: 1, guest_mem: 1024, trace_n: 100,
	sweep_n: [1, 100], race: false,
	bases: [{ name: "6.1", key: "6.1", kernel_version: "6.1.192", package: "linux-source-6.1",
		package_version: "6.1.192-3" }],
	variants: {
		stock: { kernel: "stock", base: "6.1", kernel_release: "6.1.192-stock",
			config_sha256: "aaaa", series_sha256: "e3b0", patches: [], config_fragment: null },
		fast: { kernel: "fast", base: "6.1", kernel_release: "6.1.192-fast",
			config_sha256: "aaaa", series_sha256: "f00d", config_fragment: null,
			patches: ["chrdev: open without a lock", "0002-chrdev-say-why"] } },
	reproduce: $reproduce }' > "$run/meta.json"
echo complete > "$run/status"
build/bin/compare --format json "$run/samples.csv" > "$run/report/compare.json"

post() { RUN=$run scripts/posting.sh fast; }
out=$run/posting/fast
cover=$out/0000-cover-letter.patch

# Without a cover file the subject is the variant's name; each patch
# is numbered, a mail keeps its message, a plain diff gets a subject
# from its file's name and the poster's identity; a posting is the
# same files each time.
post > "$tmp/first.out" 2> "$tmp/first.err" || { cat "$tmp/first.err"; fail "make posting failed"; }
grep -qx 'Subject: \[PATCH 0/2\] fast' "$cover" || fail "the subject is not the variant's name: $(grep '^Subject' "$cover")"
cp -r "$out" "$tmp/first"
grep -qx 'Subject: \[PATCH 1/2\] chrdev: open without a lock' "$out"/0001-*.patch ||
	fail "patch 1 is not [PATCH 1/2] with its subject"
grep -qx 'chrdev_open() returns at once: nothing to lock.' "$out"/0001-*.patch ||
	fail "patch 1 lost its commit message"
grep -qx 'Subject: \[PATCH 2/2\] chrdev say why' "$out"/0002-*.patch ||
	fail "the plain diff is not [PATCH 2/2] named after its file: $(grep '^Subject' "$out"/0002-*.patch)"
grep -qx 'From: A Poster <poster@example.org>' "$out"/0002-*.patch || fail "the plain diff is not the poster's"
grep -q '0002-chrdev-say-why.diff: no commit message' "$tmp/first.err" || fail "the plain diff's missing message is not said"
[ "$(ls "$out")" = "$(printf '%s\n' 0000-cover-letter.patch 0001-chrdev-open-without-a-lock.patch 0002-chrdev-say-why.patch)" ] ||
	fail "the posting folder holds more or less than the mails: $(ls "$out")"

# checkpatch: the mail is clean, the plain diff has no Signed-off-by;
# the findings beside the folder, where git send-email DIR does not
# take them for a mail.
grep -qx '  0001-chrdev-open-without-a-lock.patch: 0 errors, 0 warnings, 0 checks' "$tmp/first.out" ||
	fail "checkpatch's result for patch 1 is not reported: $(cat "$tmp/first.out")"
grep -qE '^  0002-chrdev-say-why.patch: [1-9][0-9]* errors?' "$tmp/first.out" ||
	fail "checkpatch's errors for the plain diff are not reported: $(cat "$tmp/first.out")"
grep -q 'Missing Signed-off-by' "$run/posting/fast.checkpatch.txt" || fail "no checkpatch findings in fast.checkpatch.txt"

# With a cover file, its subject and text.
printf '%s\n' 'chrdev: open char devices without a lock' '' 'Opens take no lock once this is in.' \
	> "$run/patches/fast/cover"
post > /dev/null 2>&1 || fail "make posting with a cover file failed"
grep -qx 'Subject: \[PATCH 0/2\] chrdev: open char devices without a lock' "$cover" ||
	fail "the subject is not the cover file's: $(grep '^Subject' "$cover")"
grep -qx 'Opens take no lock once this is in.' "$cover" || fail "the cover file's text is not in the cover letter"
diff -r -x 0000-cover-letter.patch "$tmp/first" "$out" || fail "the same run posts other patch files"

# The body: lines of at most 72 columns, the base, the rig's commit, the
# run, and the reproduce line whole once its backslashes join the lines.
body() { sed '1,/^$/d' "$1"; }
check_width() {
	local long
	long=$(body "$1" | awk 'length > 72 { print length ": " $0 }')
	[ -z "$long" ] || fail "cover letter lines longer than 72 columns: $long"
}
check_width "$cover"
awk 'NR == 6 { $0 = $0 " and more words to make it longer than seventy-two columns" } 1' "$cover" > "$tmp/wide.patch"
expect_fail "a cover letter with a line of more than 72 columns" "longer than 72 columns" check_width "$tmp/wide.patch"
joined=$(body "$cover" | tr '\n' ' ' | tr -s ' ')
for fact in "6.1.192 (linux-source-6.1 6.1.192-3)" "rig commit abc123" "run $id" "kernel 6.1.192-fast"; do
	grep -qF "$fact" <<< "$joined" || fail "the cover letter does not say '$fact'"
done
body "$cover" | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | grep -qxF "$reproduce" ||
	fail "the cover letter's reproduce line is not the run's: $(body "$cover" | grep -A9 '^git checkout')"

# The figures: the matrix row of cdev_add_ns as the report makes it from
# compare.json's comparisons (B better at k of m params, from the least
# to the most ratio), the largest change's medians, and every change in
# kind of fast (line: item from -> to).
json=$run/report/compare.json
row=$(jq -r '[.comparisons[] | select(.variant == "fast" and .metric == "cdev_add_ns")] |
	def pct: (. - 1) * 100 | round | if . > 0 then "+\(.)" else "\(.)" end;
	"  cdev_add_ns           B \(map(select(.verdict == "better")) | length)/\(length) \(map(.ratio) | min | pct)..\(map(.ratio) | max | pct)%"' "$json")
grep -qxF "$row" "$cover" || fail "the cover letter has no row '$row': $(grep cdev_add_ns "$cover")"
largest=$(jq -r '[.comparisons[] | select(.variant == "fast" and .metric == "cdev_add_ns")] |
	min_by(.ratio) | "cdev_add_ns at \(.param), \(.median_base) -> \(.median_variant) ns"' "$json")
grep -qF "$largest" <<< "$joined" || fail "the cover letter does not say '$largest'"
kinds=$(jq -r '.in_kind[] | select(.variant == "fast") | "\(.line): \(.item) \(.from[0]) -> \(.to[0])"' "$json")
[ -n "$kinds" ] || fail "the stand-in run has no change in kind of fast"
while IFS= read -r kind; do
	grep -qF "$kind" <<< "$joined" || fail "the cover letter does not say '$kind'"
done <<< "$kinds"
grep -qF "Race check: not run in this run (make race-check, or RACE=1)." <<< "$joined" ||
	fail "the cover letter does not say that the race check did not run"
echo "the cover letter: 72 columns, the run's facts, compare.json's figures"

# Refused: a variant the run did not measure (naming the run's), the
# baseline, no RUN, a RUN that is no run.
expect_fail "a variant the run did not measure" "did not measure 'slow'.*its variants: fast" \
	env RUN="$run" scripts/posting.sh slow
expect_fail "the baseline" "did not measure 'stock'" env RUN="$run" scripts/posting.sh stock
expect_fail "no RUN" "RUN=<run folder>: both are needed" scripts/posting.sh fast
expect_fail "a RUN that is not there" "no run at $tmp/nothing" env RUN="$tmp/nothing" scripts/posting.sh fast
