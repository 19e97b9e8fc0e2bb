# shellcheck shell=bash
# Patch files: the rule a series is applied by, and what a patch says
# (the paths it touches, the patch a line of a patched file came from,
# its subject).
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# The rule every series is applied by, here and in scripts/variant.sh:
# patch -p1 without fuzz (offsets are fine) on the 6.1 tree Debian ships.
# --forward: a hunk that applies only reversed (a fix 6.1.192 already has,
# a file that changed since) is a reject, never silently undone.
apply_patch() {	# apply_patch TREE PATCH REJECT_FILE (- drops the rejects)
	patch -d "$1" -p1 --fuzz=0 --no-backup-if-mismatch --reject-file="$3" --batch --forward < "$2" 2>&1
}

# Paths a patch touches, from its diff headers, as -p1 reads them.
patched_paths() {
	awk '/^(---|\+\+\+) / && $2 != "/dev/null" { p = $2; sub(/^[^\/]*\//, "", p); print p }' \
		"$@" | sort -u
}

# Copies of the files PATCHES touch that TREE has, in DEST: a tree to
# apply them to without writing into TREE (a pristine tree never is).
copy_patched_files() {	# copy_patched_files TREE DEST PATCH...
	local f
	while read -r f; do
		[ -f "$1/$f" ] || continue
		mkdir -p "$2/$(dirname "$f")"
		cp "$1/$f" "$2/$f"
	done < <(patched_paths /dev/null "${@:3}")
}

# The patch whose hunk holds LINE of FILE in a tree that PATCHES were
# applied to in order, or nothing: the patches, last first, each either
# holds the line or maps it back to the file before it.
patch_of_line() {	# patch_of_line FILE LINE PATCH...
	local file=$1 line=$2 i patches=("${@:3}")
	for ((i = ${#patches[@]} - 1; i >= 0; i--)); do
		line=$(awk -v file="$file" -v line="$line" '
			/^\+\+\+ / { f = $2; sub(/^[^\/]*\//, "", f); on = f == file; next }
			on && /^@@ / {
				split(substr($2, 2), o, ","); split(substr($3, 2), n, ",")
				ol = (2 in o) ? o[2] : 1; nl = (2 in n) ? n[2] : 1
				if (line >= n[1] && line < n[1] + nl) { hit = 1; exit }
				if (line >= n[1] + nl) shift += nl - ol
			}
			END { print hit ? "hit" : line - shift }' "${patches[i]}")
		[ "$line" != hit ] || { echo "${patches[i]##*/}"; return; }
	done
}

# A patch's subject: folded lines joined, the [PATCH ...] tag dropped
# (list archives may save the space after "Subject:" as a no-break space).
patch_subject() {
	awk '/^Subject:/ { s = $0; on = 1; next }
		on && /^[ \t]/ { s = s $0; next } on { exit }
		END { sub(/^Subject:([ \t]|\302\240)*/, "", s); sub(/^\[[^]]*\] */, "", s)
			gsub(/[ \t]+/, " ", s); print s }' "$1"
}
