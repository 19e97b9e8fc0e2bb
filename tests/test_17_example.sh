# shellcheck shell=bash
# The golden test of the report engine: build/bin/compare, run on the
# committed example run (docs/example/: a QUICK run's samples.csv,
# meta.json and selftest.tap files), writes the committed report.txt
# byte for byte, and the example was measured by the tree's measuring
# code.  When the report or the measuring changes on purpose, `make
# example RUN=<a QUICK run>` makes the example again.
. "$(dirname "$0")/lib.sh"

scripts/example.sh check || fail "docs/example/report.txt is not what compare writes"
echo "docs/example/report.txt: compare writes it byte for byte"
# the check can fail: a report with one byte changed is refused
broken=$(mktemp -d)
trap 'rm -rf "$broken"' EXIT
cp -r docs "$broken/"
sed -i '1s/$/ /' "$broken/docs/example/report.txt"
expect_fail "a changed example report" "no longer writes docs/example/report.txt" \
	env RIG_EXAMPLE_ROOT="$broken" scripts/example.sh check
# ... and so is an example measured by other measuring code
jq '.measuring_code_sha256 = "0"' docs/example/meta.json > "$broken/docs/example/meta.json"
cp docs/example/report.txt "$broken/docs/example/report.txt"
expect_fail "an example of other measuring code" "measured by other measuring code .*make example" \
	env RIG_EXAMPLE_ROOT="$broken" scripts/example.sh check
# ... and so is a compare that writes the report and then fails
mkdir -p "$broken/build/bin"
printf '#!/bin/sh\n"%s" "$@"\nexit 1\n' "$RIG_ROOT/build/bin/compare" > "$broken/build/bin/compare"
chmod +x "$broken/build/bin/compare"
expect_fail "a compare that fails after its report" "compare failed on docs/example/ \(exit status 1\)" \
	env BUILD_DIR="$broken/build" scripts/example.sh check
