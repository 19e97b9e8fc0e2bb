# shellcheck shell=bash
# What the documentation names exists, so that a change to the code that
# leaves a doc behind fails here: every tracked script of scripts/, every
# top folder and every make target is in docs/layout.md or
# docs/running.md; every repository path that README.md or docs/*.md
# names in a code span exists (links: test_16), every VAR= in their code
# is a setting of scripts/settings.def (or a variable that a target or
# tests/run.sh reads), and every `compare --format X` is a format that
# build/bin/compare has; README's example block is the first lines of
# docs/example/report.txt and its command the one that made the example
# (its meta.json's reproduce line).  Each check also fails once, on a
# copy of the docs broken on purpose.
. "$(dirname "$0")/lib.sh"

compare=build/bin/compare
[ -x "$compare" ] || fail "no $compare: run make check, or make tools"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The repository's facts, from the tree (the docs checked may be a copy).
tracked=$(git ls-files)
[ -n "$tracked" ] || fail "git ls-files lists nothing: a test of a git checkout"
formats=$("$compare" 2>&1 | sed -n '/^FORMAT/,$p' | awk 'NR > 1 { print $1 }' || true)
grep -qx text <<< "$formats" || fail "no format list in $compare's usage: $formats"

# code_text FILE: each code span of FILE (which may wrap) and each line of
# its fenced code blocks, one a line.
code_text() {
	awk '
	function spans(  s) {
		s = para
		while (match(s, /`[^`]+`/)) {
			print substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
		}
		para = ""
	}
	/^ *```/ { spans(); code = !code; next }
	code { print; next }
	/^ *$/ { spans(); next }
	{ para = para " " $0 }
	END { spans() }' "$1"
}

# check_layout DOCS: every tracked file of scripts/, top folder and
# .PHONY target of the Makefile is named in DOCS/docs/layout.md or
# running.md (`name`, `folder/`, `make target`).
check_layout() {
	local pages name missing=()
	pages=$(cat "$1/docs/layout.md" "$1/docs/running.md")
	for name in $(grep '^scripts/' <<< "$tracked" | sed 's|^scripts/||'); do
		grep -qF -e "\`$name\`" -e "scripts/$name" <<< "$pages" || missing+=("script $name")
	done
	for name in $(grep / <<< "$tracked" | cut -d/ -f1 | sort -u); do
		grep -qF "\`$name/" <<< "$pages" || missing+=("folder $name/")
	done
	for name in $(sed -n 's/^\.PHONY: *//p' Makefile); do
		grep -qF "make $name" <<< "$pages" || missing+=("make $name")
	done
	[ ${#missing[@]} = 0 ] ||
		fail "not in docs/layout.md or docs/running.md: $(printf '%s, ' "${missing[@]}" | sed 's/, $//')"
}

# check_paths DOCS: every repository path a code span of DOCS's README.md
# or docs/*.md names exists.  A repository path starts with a tracked top
# folder; one with a placeholder (<x>, NAME, NAME.c, *, ...), the
# reader's own (my-fix) or where git ignores it (results/, build/) is a
# pattern or a file a run makes, not the tree's.
check_paths() {
	local page path tops missing=()
	tops=$(grep / <<< "$tracked" | cut -d/ -f1 | sort -u | sed 's/[.]/[.]/' | paste -sd'|')
	for page in "$1/README.md" "$1"/docs/*.md; do
		while IFS= read -r path; do
			[ ! -e "$path" ] || continue
			[[ ! $path =~ [\<\>*\$]|\.\.\.|(^|/)([A-Z][A-Z0-9_-]*(\.[a-z]+)?|my-[a-z-]+)(/|$) ]] || continue
			# (its first two parts too: git refuses a path beyond a
			# symbolic link, results/latest/... once a run has made it)
			git check-ignore -q "$path" 2> /dev/null ||
				git check-ignore -q "$(cut -d/ -f1-2 <<< "$path")" ||
				missing+=("${page#"$1"/}: $path")
		done < <(code_text "$page" | grep -oE "(^|[^A-Za-z0-9_./-])($tops)/[A-Za-z0-9_./<>*\$-]*" |
			sed -E 's/^[^A-Za-z.]//; s/[.]$//')
	done
	[ ${#missing[@]} = 0 ] || fail "paths that do not exist: $(printf '%s; ' "${missing[@]}" | sed 's/; $//')"
}

# check_settings DOCS: every VAR= in the code of DOCS's pages is
# declared: a setting, a variable a make target passes on ($(NAME)) or
# tests/run.sh reads (${TESTS...}), or the kernel's own (CONFIG_*,
# KBUILD_*); VAR is the placeholder of "make VAR=value".
check_settings() {
	local page declared var unknown=()
	declared=$({
		sed -n 's/^\([A-Z_][A-Z_0-9]*\) *|.*/\1/p' scripts/settings.def
		grep -oE '\$\([A-Z][A-Z0-9_]*\)' Makefile | tr -d '$()'
		grep -oE '\$\{[A-Z][A-Z0-9_]*' tests/run.sh | tr -d '${'
		echo VAR
	} | sort -u)
	for page in "$1/README.md" "$1"/docs/*.md; do
		for var in $(code_text "$page" | grep -oE '(^|[^A-Za-z0-9_])[A-Z][A-Z0-9_]*=' |
			grep -oE '[A-Z][A-Z0-9_]*' | grep -vE '^(CONFIG|KBUILD)_' | sort -u); do
			grep -qx "$var" <<< "$declared" || unknown+=("${page#"$1"/}: $var=")
		done
	done
	[ ${#unknown[@]} = 0 ] ||
		fail "not settings of scripts/settings.def: $(printf '%s, ' "${unknown[@]}" | sed 's/, $//')"
}

# check_formats DOCS: every --format X (or X|Y|...) in DOCS's pages,
# lines joined, is a format of build/bin/compare.
check_formats() {
	local page format unknown=()
	for page in "$1/README.md" "$1"/docs/*.md; do
		for format in $(tr '\n' ' ' < "$page" | grep -oE -- '--format[ =`]+[a-z][a-z|-]*' |
			sed -E 's/^--format[ =`]+//' | tr '|' '\n' | sort -u); do
			grep -qx -- "$format" <<< "$formats" || unknown+=("${page#"$1"/}: --format $format")
		done
	done
	[ ${#unknown[@]} = 0 ] ||
		fail "not formats of $compare ($(paste -sd' ' <<< "$formats")): $(printf '%s, ' "${unknown[@]}" | sed 's/, $//')"
}

# check_example DOCS: under DOCS/README.md's "A report's first lines",
# the text block is the first lines of docs/example/report.txt, and the
# make bench command above it, with the rig's defaults for what it does
# not set, is the example's reproduce line (the same settings, the same
# values; MODE named, as auto depends on the host); LABEL, which that
# line leaves out, is the run id's suffix.
check_example() {
	local section block command reproduce words name value got wrong=()
	section=$(awk '/^## / { on = ($0 == "## A report'"'"'s first lines") } on' "$1/README.md")
	block=$(awk '/^```text$/ { on = 1; next } on && /^```$/ { exit } on' <<< "$section")
	[ "$(wc -l <<< "$block")" -ge 10 ] || fail "README.md: no text block of 10 lines or more under \"A report's first lines\""
	diff <(echo "$block") <(head -n "$(wc -l <<< "$block")" docs/example/report.txt) ||
		fail "README.md's example block is not the first lines of docs/example/report.txt (above: < README, > report.txt)"
	command=$(awk '/^```text$/ { exit } 1' <<< "$section" | grep -oE '`make bench [^`]*`' | tail -1 | tr -d '`')
	[ -n "$command" ] || fail "README.md: no \`make bench ...\` above the example block"
	reproduce=$(jq -r .reproduce docs/example/meta.json)
	# the settings of each, NAME=value a line (xargs: the shell's quotes)
	xargs -n1 <<< "${command#make bench }" > "$tmp/readme.set"
	xargs -n1 <<< "${reproduce#*make bench }" | grep -v '^PATCHES_DIR=' > "$tmp/reproduce.set"
	words=$(cut -d= -f1 "$tmp/reproduce.set" | paste -sd' ')
	# MODE's default, auto, is the host's (KVM or not): the example's
	# command names its mode
	grep -q '^MODE=' "$tmp/readme.set" ||
		fail "README.md's command ($command) leaves MODE to auto, which depends on the host; the example ran $(grep '^MODE=' "$tmp/reproduce.set")"
	# the rig's value of each reproduced setting, given the README's
	# alone (settings.def's defaults, rig_init's checks)
	got=$(bash -c '
		for name in $(sed -n "s/^\([A-Z_][A-Z_0-9]*\) *|.*/\1/p" scripts/settings.def); do unset "$name"; done
		while IFS= read -r setting; do export "${setting?}"; done < "$1"
		. scripts/lib.sh && rig_init > /dev/null
		for name in $2; do printf "%s=%s\n" "$name" "${!name}"; done' sh "$tmp/readme.set" "$words") ||
		fail "rig_init (scripts/lib/settings.sh) refused README.md's command: $command"
	while IFS='=' read -r name value; do
		# how the boots were run, which their rows do not depend on
		# (docs/determinism.md), and which is the host's
		case $name in BOOT_JOBS | EXECUTOR) continue ;; esac
		[ "$(sed -n "s/^$name=//p" <<< "$got")" = "$value" ] ||
			wrong+=("$(grep "^$name=" <<< "$got"), the example $value")
	done < "$tmp/reproduce.set"
	[ ${#wrong[@]} = 0 ] ||
		fail "README.md's command ($command) is not the one that made the example (docs/example/meta.json's reproduce line): it runs $(printf '%s; ' "${wrong[@]}" | sed 's/; $//')"
	while IFS='=' read -r name value; do
		if [ "$name" = LABEL ]; then
			[[ $(jq -r .run_id docs/example/meta.json) = *-"$value" ]] ||
				fail "README.md's command says LABEL=$value; the example's run id is $(jq -r .run_id docs/example/meta.json)"
		else
			grep -q "^$name=" "$tmp/reproduce.set" || fail "README.md's command sets $name, which the example's reproduce line does not record"
		fi
	done < "$tmp/readme.set"
}

check_layout .
echo "every script of scripts/, top folder and make target is in docs/layout.md or docs/running.md"
check_paths .
echo "every repository path the docs name exists"
check_settings .
echo "every VAR= the docs name is declared"
check_formats .
echo "every compare --format the docs name is one of: $(paste -sd' ' <<< "$formats")"
check_example .
echo "README.md's example: the report's first lines, and the command that made it"

# Each check fails on a copy of the docs with one thing broken.
broken() {	# broken WHAT CHECK PATTERN FILE SED-SCRIPT
	rm -rf "$tmp/docs"
	mkdir -p "$tmp/docs"
	cp -r README.md docs "$tmp/docs/"
	sed -i "$5" "$tmp/docs/$4"
	! cmp -s "$4" "$tmp/docs/$4" || fail "$1: the sed script changed nothing in $4"
	expect_fail "$1" "$3" "$2" "$tmp/docs"
}
broken "a script missing from layout.md" check_layout 'script example.sh' docs/layout.md 's/`example.sh`/`an example`/'
broken "a folder missing from layout.md" check_layout 'folder plot/' docs/layout.md 's/`plot\/`/`plot`/g'
broken "a make target missing from running.md" check_layout 'make clean' docs/running.md 's/`make clean`/`make tidy`/'
broken "a path that does not exist" check_paths 'docs/report.md: scripts/report.sh' docs/report.md '1a See `scripts/report.sh`.'
broken "a setting not declared" check_settings 'docs/running.md: BOOTJOBS=' docs/running.md 's/`BOOT_JOBS=N`/`BOOTJOBS=N`/'
broken "a format compare lacks" check_formats 'docs/verdicts.md: --format metrics' docs/verdicts.md '1a `compare --format\nmetrics` prints the metrics.'
broken "an example block not the report's" check_example 'not the first lines of docs/example/report.txt' README.md 's/^cdevbench comparison$/cdevbench comparisons/'
broken "a command that did not make the example" check_example 'is not the one that made the example .*: it runs FAULTS=1, the example 0' README.md '/^`make bench /s/ FAULTS=0//'
