# shellcheck shell=bash
# Variants and their series (docs/variants.md, docs/bases.md): which
# variants there are on the current base, the folder and the patches of
# a variant's series, a walk's prefixes, the files that describe a
# variant.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# A variant's series for a kernel line lives in patches/<v>/<line>/, but
# for SERIES_HOME_LINE's, in patches/<v>/ itself.
SERIES_HOME_LINE=6.1

# A prefix, a walk's step (docs/walk.md): <variant>~<k> names the first
# k patches of the variant's series for the base.  It is built and booted
# like a variant, in a tree and under a kernel release of its own name,
# from its variant's folder: no patch file is copied.  make variant never
# puts a '~' in a variant's name, and an arm's ':<base>' and AGAINST's
# '@<name>' come after it.  The variant whose folder holds a name's
# series: the name itself, or a prefix's variant.
series_variant() {
	if [[ $1 =~ ^([^~]+)~[1-9][0-9]*$ ]]; then echo "${BASH_REMATCH[1]}"; else echo "$1"; fi
}

# The folder of a variant's series for a kernel line.
series_dir() {	# series_dir VARIANT [LINE]
	local line=${2:-$BASE_LINE} v
	v=$(series_variant "$1")
	if [ "$line" = "$SERIES_HOME_LINE" ]; then
		echo "$PATCHES_DIR/$v"
	else
		echo "$PATCHES_DIR/$v/$line"
	fi
}

# The kernel lines a variant has a series for.
variant_lines() {
	local s line
	for s in "$PATCHES_DIR/$1/series" "$PATCHES_DIR/$1"/*/series; do
		[ -f "$s" ] || continue
		line=${s%/series}
		if [ "$line" = "$PATCHES_DIR/$1" ]; then echo "$SERIES_HOME_LINE"; else echo "${line##*/}"; fi
	done
	return 0
}

# A file that describes a variant (config, selftest.args, known-failures,
# control): the series folder's own for this base, else the variant's.  A
# prefix has its variant's, unless NAME~<k> beside one is its own (a
# selftest option that holds only once a later patch is in).
variant_file() {	# variant_file VARIANT NAME
	local v f
	v=$(series_variant "$1")
	for f in "$(series_dir "$v")/$2${1#"$v"}" "$PATCHES_DIR/$v/$2${1#"$v"}" "$(series_dir "$v")/$2"; do
		[ ! -f "$f" ] || { echo "$f"; return; }
	done
	echo "$PATCHES_DIR/$v/$2"
}

# Every variant: stock plus each folder of patches/ with a series for
# this base, but the negative controls (a folder with a file "control",
# which says why): those run only where named, as scripts/race-check.sh
# does.
all_variants() {
	local d
	echo stock
	for d in "$PATCHES_DIR"/*/; do
		d=$(basename "$d")
		[ -f "$(series_dir "$d")/series" ] && [ ! -f "$PATCHES_DIR/$d/control" ] && echo "$d"
	done
	return 0
}

control_variants() {
	local c
	for c in "$PATCHES_DIR"/*/control; do
		c=$(basename "$(dirname "$c")")
		[ -f "$(series_dir "$c")/series" ] && echo "$c"
	done
	return 0
}

check_variant() {
	local valid lines v n
	[ "$1" = stock ] && return
	v=$(series_variant "$1")
	if [ "$v" != "$1" ]; then
		check_variant "$v"
		n=$(series_patches "$v" | wc -l)
		[ "$n" -gt 1 ] ||
			die "'$1': $v has $n patch(es) on base $BASE, so no prefix but itself (docs/walk.md)"
		[ "${1##*~}" -lt "$n" ] ||
			die "'$1': a prefix of $v takes 1 to $((n - 1)) of its $n patches on base $BASE; all $n are $v itself (docs/walk.md)"
		return
	fi
	if [ -d "$PATCHES_DIR/$1" ] && [ ! -f "$(series_dir "$1")/series" ] &&
		lines=$(variant_lines "$1" | paste -sd' ') && [ -n "$lines" ]; then
		die "variant '$1' has no series for base $BASE (kernel line $BASE_LINE); it has series for: $lines (patches/$1/, docs/bases.md)"
	fi
	valid="$(all_variants) $(control_variants)"
	grep -qwx -- "$1" <<< "$(printf '%s\n' $valid)" ||
		die "unknown variant '$1'; valid variants on base $BASE: $(echo $valid)"
}

# Patch files of a variant's series for this base (or kernel line LINE), in
# order, as absolute paths; a prefix's, the first of its variant's.  A line
# names a file relative to the series' folder: a port's series names a
# patch that applies to its line unchanged as ../<file>.
series_patches() {	# series_patches VARIANT [LINE]
	local dir line v
	v=$(series_variant "$1")
	if [ "$v" != "$1" ]; then
		# sed reads to the end: head would leave the loop below a
		# broken pipe
		series_patches "$v" "${2:-}" | sed -n "1,${1##*~}p"
		return
	fi
	dir=$(series_dir "$1" "${2:-}")
	[ -f "$dir/series" ] || return 0
	while read -r line; do
		line=${line%%#*}
		line=$(echo $line)
		[ -n "$line" ] || continue
		[ -f "$dir/$line" ] ||
			die "variant $1: ${dir#$PATCHES_DIR/}/series names $line, which does not exist"
		realpath -s "$dir/$line"
	done < "$dir/series"
}

# The files of a variant's known selftest failures (the selftest's
# --known-failures): stock's, which every variant inherits, and the
# variant's own.
known_failures() {
	local v variants=(stock)
	[ "$1" = stock ] || variants+=("$1")
	for v in "${variants[@]}"; do
		[ ! -f "$(variant_file "$v" known-failures)" ] || variant_file "$v" known-failures
	done
}
