# shellcheck shell=bash
# The driver census (scripts/census.sh, scripts/census/errpath.cocci) on
# a stand-in kernel tree whose drivers are tests/census/: each file there
# calls cdev_add() or cdev_device_add() once and unwinds a failure as the
# pattern its name starts with (alloc_put.c, embed_del.goto_chain.c), and
# the census must say so, in one row per file of a sorted TSV.  The check
# fails once, on a stand-in whose kobject_put() is gone.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# stand_in_tree DIR: a tree the rig takes for a kernel source (a Makefile
# with its version, fs/char_dev.c), with tests/census/ as drivers/census/
stand_in_tree() {
	mkdir -p "$1/fs" "$1/drivers"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION =\n' > "$1/Makefile"
	echo '/* a stand-in */' > "$1/fs/char_dev.c"
	cp -r tests/census "$1/drivers/census"
}

# check TREE: the census of TREE has a row for each of its stand-ins, and
# that row's pattern is the one the file's name starts with.
check() {
	local out=$tmp/${1##*/}.tsv wrong
	BUILD_DIR=$tmp/build scripts/census.sh -o "$out" "$1" > "$tmp/census.log" 2>&1 ||
		{ cat "$tmp/census.log"; fail "scripts/census.sh failed on $1 (above)"; }
	[ "$(head -1 "$out")" = "$(printf 'base\tfile\tfunction\tpattern\tline\treason')" ] ||
		fail "$out: not the census's header: $(head -1 "$out")"
	tail -n +2 "$out" | LC_ALL=C sort -c -t "$(printf '\t')" -k1,1 -k2,2 -k5,5n ||
		fail "$out: rows not sorted by base, file and line"
	wrong=$( (cd "$1" && ls drivers/census/*.c) | awk -F'\t' '
		NR == FNR { want[$0]; next }
		FNR > 1 { n = $2; sub(/.*\//, "", n); sub(/\..*/, "", n)
			rows[$2]++
			if (!($2 in want)) print $2 ": a row for no stand-in"
			else if ($4 != n) print $2 ": " $4 ", not " n }
		END { for (f in want) if (rows[f] != 1) print f ": " rows[f] + 0 " rows, not 1" }' - "$out")
	[ -z "$wrong" ] || fail "the census of $1: $(paste -sd';' <<< "$wrong")"
}

stand_in_tree "$tmp/tree"
check "$tmp/tree"
echo "$(find tests/census -name '*.c' | wc -l) stand-ins, each classified as its name says:" \
	"$(find tests/census -name '*.c' -printf '%f\n' | sed 's/\..*//' | sort -u | paste -sd' ')"

stand_in_tree "$tmp/broken"
sed -i '/kobject_put(&cdev->kobj);/d' "$tmp/broken/drivers/census/alloc_put.c"
! cmp -s tests/census/alloc_put.c "$tmp/broken/drivers/census/alloc_put.c" ||
	fail "the sed script changed nothing in alloc_put.c"
expect_fail "a stand-in whose kobject_put() is gone" \
	'drivers/census/alloc_put.c: alloc_none, not alloc_put' check "$tmp/broken"
