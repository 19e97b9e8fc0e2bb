#!/bin/bash
# The driver census (docs/errpaths.md): every in-tree call of cdev_add()
# and cdev_device_add() on each base, classified by what its caller does
# to the cdev when the call fails, by Coccinelle's spatch with
# scripts/census/errpath.cocci:
#   scripts/census.sh [-o FILE] [BASE...]
# BASE: a packaged base or a kernel tree's folder, as BASES takes them
# (default: every packaged base), extracted first where it is not yet.
# FILE (default build/census.tsv): a header line, then a row per call
# sorted by base, file and line: base, file, function, pattern, line,
# reason (why a row is "other", and what else the pattern leaves out).
# Prints the count of each pattern per base.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

usage="usage: scripts/census.sh [-o FILE] [BASE...]"
out=$BUILD_DIR/census.tsv
while getopts o: opt; do
	case $opt in
	o) out=$(realpath -m -- "$OPTARG") ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
BASES=${*:-${PACKAGED_BASES[*]}}
check_setting BASES bases
command -v spatch > /dev/null ||
	die "spatch is missing: 'make deps TIER=check' installs it (package coccinelle)"
cocci=$RIG_ROOT/scripts/census/errpath.cocci
# two processes at most: the census shares the host with kernel builds
jobs=$(($(nproc) < 2 ? $(nproc) : 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

keys=()
for b in $BASES; do
	use_base "$b"
	keys+=("$BASE_KEY")
	extract_pristine
	# spatch parses only the files that name a call (grep preselects,
	# spatch decides), each file a group of its own: the rules' facts
	# about a cdev hold within one file
	(cd "$PRISTINE_TREE" && grep -rlE --include='*.[ch]' --exclude-dir=Documentation \
		--exclude-dir=tools '\bcdev_(device_)?add\b' .) | sed 's|^\./||' | LC_ALL=C sort > "$tmp/files"
	[ -s "$tmp/files" ] || die "base $b: no file of $PRISTINE_TREE names cdev_add or cdev_device_add"
	sed 's/$/\n/' "$tmp/files" > "$tmp/groups"
	log "census of base $b: spatch on $(wc -l < "$tmp/files") files, $jobs jobs"
	t0=$(date +%s)
	every_minute log "census of base $b: spatch still running" &
	progress=$!
	# --no-includes: the rules need no types, and the headers that call
	# are among the files; --tmp-dir: its jobs' output, which spatch would
	# otherwise keep in the tree while it runs
	if ! (cd "$PRISTINE_TREE" && spatch --sp-file "$cocci" --file-groups "$tmp/groups" \
		--jobs "$jobs" --tmp-dir "$tmp/spatch" --very-quiet --no-includes) \
		> "$tmp/spatch.out" 2> "$tmp/spatch.err"; then
		stop_progress "$progress"
		cat "$tmp/spatch.err" >&2
		die "spatch failed on base $b (above)"
	fi
	stop_progress "$progress"
	[ ! -s "$tmp/spatch.err" ] || sed 's/^/spatch: /' "$tmp/spatch.err" >&2
	# five fields a row, or a rule printed something else (a python error)
	awk -F'\t' -v OFS='\t' -v base="$BASE_KEY" '
		NF != 5 || $2 !~ /^[0-9]+$/ { print "cdevbench: error: spatch printed a row the census cannot read: " $0 > "/dev/stderr"; exit 1 }
		{ print base, $1, $3, $4, $2, $5 }' "$tmp/spatch.out" > "$tmp/rows.$BASE_KEY"
	silent=$(cut -f2 "$tmp/rows.$BASE_KEY" | LC_ALL=C sort -u | LC_ALL=C comm -23 "$tmp/files" - | paste -sd' ')
	log "census of base $b: $(wc -l < "$tmp/rows.$BASE_KEY") calls in $(($(date +%s) - t0)) s; files without one (names in comments or declarations only, or code spatch could not parse): ${silent:-none}"
done

mkdir -p "$(dirname "$out")"
{
	printf 'base\tfile\tfunction\tpattern\tline\treason\n'
	LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2 -k5,5n -k3,3 "$tmp"/rows.*
} > "$out.tmp"
mv "$out.tmp" "$out"
log "census written to $out"
# the counts: a column per base, in the order given
printf '%-20s' pattern
printf ' %8s' "${keys[@]}"
echo
awk -F'\t' -v keys="${keys[*]}" 'NR > 1 { n[$4, $1]++; p[$4] }
	END { nb = split(keys, b, " ")
		for (q in p) { printf "%-20s", q; for (i = 1; i <= nb; i++) printf " %8d", n[q, b[i]]; print "" } }' "$out" |
	LC_ALL=C sort
