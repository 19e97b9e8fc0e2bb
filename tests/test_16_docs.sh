# shellcheck shell=bash
# The documentation holds together: every relative link in README.md and
# docs/*.md names a file or folder that exists, without an anchor (headings
# move; a page does not); README.md stays within 150 lines; docs/README.md
# lists every page of docs/; and the metrics table of docs/metrics.md is
# the one build/bin/bench_plan metrics-table makes from
# bench/benchmarks.def (make docs writes it), every declared metric with
# a row saying what it means and every such row naming a declared metric.
. "$(dirname "$0")/lib.sh"

plan=build/bin/bench_plan
[ -x "$plan" ] || fail "no $plan: run make check, or make $plan"
pages=(README.md docs/*.md)

# The targets of a page's links, inline ([text](target "title")) and
# reference definitions ([name]: target), outside fenced code blocks and
# code spans.
link_targets() {	# link_targets FILE
	awk '/^ *```/ { code = !code; next } !code' "$1" |
		sed -E 's/`[^`]*`//g' |
		grep -oE '\]\([^)[:space:]]*|^ {0,3}\[[^]]+\]: *[^[:space:]]+' |
		sed -E 's/^\]\(//; s/^ {0,3}\[[^]]+\]: *//; s/^<//; s/>$//' || true
}

# check_links PAGE: fails on a relative link with an anchor or to no
# file; else prints how many relative links it checked.
check_links() {
	local page=$1 dir target links=0
	dir=$(dirname "$page")
	while IFS= read -r target; do
		[ -n "$target" ] || fail "$page: a link with no target"
		[[ ! $target =~ ^[a-zA-Z][a-zA-Z0-9+.-]*: ]] || continue	# https:, mailto:
		links=$((links + 1))
		[[ $target != *'#'* ]] ||
			fail "$page: link '$target' has an anchor; link the page and name the section in words"
		[ -e "$dir/$target" ] || fail "$page: link '$target' names no file ($dir/$target)"
	done < <(link_targets "$page")
	echo "$links"
}

links=0
for page in "${pages[@]}"; do
	n=$(check_links "$page") || exit 1
	links=$((links + n))
done
[ "$links" -ge 10 ] || fail "only $links relative links found in ${#pages[@]} pages: is link_targets reading them?"
echo "${#pages[@]} pages, $links relative links, each to a file that exists, none with an anchor"
# the check can fail: a page with a link to no file, one with an anchor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'See [the page](page.md) and [gone](no-such.md).\n' > "$tmp/page.md"
expect_fail "a link to no file" "link 'no-such.md' names no file" check_links "$tmp/page.md"
printf 'See [the page][p].\n\n[p]: page.md#a-section\n' > "$tmp/page.md"
expect_fail "a link with an anchor" "link 'page.md#a-section' has an anchor" check_links "$tmp/page.md"

lines=$(wc -l < README.md)
[ "$lines" -le 150 ] || fail "README.md has $lines lines; at most 150 (move the rest to docs/)"
echo "README.md: $lines lines"

for page in docs/*.md; do
	name=${page#docs/}
	[ "$name" = README.md ] || grep -qF "]($name)" docs/README.md ||
		fail "docs/README.md, the index, does not link $name"
done
echo "docs/README.md links every page"

# docs/metrics.md: the generated table between its markers (on; blank
# lines around it, so that markdown sees a table), the rest (off).
begin='<!-- BEGIN metrics table: build/bin/bench_plan metrics-table'
end='<!-- END metrics table -->'
metrics_part() {	# metrics_part on|off
	awk -v b="$begin" -v e="$end" -v want="$1" '
		index($0, b) == 1 { inside = 1; next }
		index($0, e) == 1 { inside = 0; next }
		(want == "on") == inside' docs/metrics.md
}
[ "$(grep -cF -- "$begin" docs/metrics.md)" = 1 ] && [ "$(grep -cxF -- "$end" docs/metrics.md)" = 1 ] ||
	fail "docs/metrics.md: the metrics table's two markers are missing or repeated"
diff <("$plan" metrics-table) <(metrics_part on | sed '/^$/d') ||
	fail "docs/metrics.md's metrics table is not what '$plan metrics-table' makes from bench/benchmarks.def (above: < bench_plan, > docs); make docs writes it"
echo "docs/metrics.md's metrics table is bench_plan's"

# The meanings: the metric names in the first column of every other table
# of docs/metrics.md whose header starts "| metric |".
declared=$("$plan" metrics | cut -d' ' -f1 | sort)
[ -n "$declared" ] || fail "'$plan metrics' lists no metric"
meant=$(metrics_part off |
	awk '/^\| metric \|/ { t = 1; next } !/^\|/ { t = 0 } t && !/^\|---/' |
	cut -d'|' -f2 | grep -oE '`[a-z][a-z0-9_]*`' | tr -d '`' | sort -u || true)
undescribed=$(comm -23 <(echo "$declared") <(echo "$meant"))
[ -z "$undescribed" ] ||
	fail "declared in bench/benchmarks.def but no row of docs/metrics.md says what it means: ${undescribed//$'\n'/ }"
undeclared=$(comm -13 <(echo "$declared") <(echo "$meant"))
[ -z "$undeclared" ] ||
	fail "docs/metrics.md explains metrics that bench/benchmarks.def does not declare: ${undeclared//$'\n'/ }"
echo "$(wc -l <<< "$declared") declared metrics, each with its meaning in docs/metrics.md"
