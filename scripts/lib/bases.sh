# shellcheck shell=bash
# Bases: the kernel source a variant is applied to (docs/bases.md).  A
# packaged base is a kernel line Debian ships as linux-source-<line>,
# extracted once into BUILD_DIR/src/; a tree base is a kernel source the
# user has, given by its folder, copied into BUILD_DIR/src/ by hard links
# (never written into).
# Sourced by scripts/lib.sh: defines functions and constants, no more.

PACKAGED_BASES=(6.1 6.12)

base_is_packaged() {
	local b
	for b in "${PACKAGED_BASES[@]}"; do [ "$1" != "$b" ] || return 0; done
	return 1
}

# The kernel line (VERSION.PATCHLEVEL) of a tree, from its Makefile.
tree_line() {
	sed -nE '1,10{/^VERSION *=/{s/.*= *//;h};/^PATCHLEVEL *=/{s/.*= *//;H;x;s/\n/./p;q}}' "$1/Makefile"
}

# The full version of a tree (6.12.118, 6.19.0-rc3), from its Makefile.
tree_version() {
	awk -F' *= *' 'NR <= 10 && $1 ~ /^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)$/ { v[$1] = $2 }
		END { printf "%s.%s.%s%s\n", v["VERSION"], v["PATCHLEVEL"], v["SUBLEVEL"], v["EXTRAVERSION"] }' "$1/Makefile"
}

# Why FOLDER cannot be a tree base, or nothing.
tree_base_refusal() {
	[ -d "$1" ] || { echo "no such folder"; return; }
	[ -f "$1/Makefile" ] && [ -f "$1/fs/char_dev.c" ] && [ -n "$(tree_line "$1")" ] ||
		{ echo "not a kernel source tree (no Makefile with VERSION, or no fs/char_dev.c)"; return; }
	# Kbuild refuses O= builds from a tree built in place
	[ ! -e "$1/.config" ] && [ ! -d "$1/include/config" ] ||
		echo "the tree has been configured or built in place (.config or include/config/): run 'make mrproper' in it, or give a clean work tree (git worktree add)"
}

# A base's name in build folders and arm names: the line of a packaged
# base; tree-<folder name>-<hash of its path> for a tree.
base_key() {
	if base_is_packaged "$1"; then
		echo "$1"
	else
		printf 'tree-%s-%s\n' "$(basename "$1" | tr -c 'A-Za-z0-9._\n-' -)" \
			"$(printf '%s' "$1" | sha256sum | cut -c1-8)"
	fi
}

# The globals that name the current base, from BASE: BASE_KEY, BASE_LINE
# (the kernel line whose series a variant applies), PRISTINE_TREE (what
# every variant's tree hard-links to) and, for a packaged base,
# KERNEL_TARBALL and HOST_FILES (extract_host_files).  A script that
# handles several bases calls it again.
# shellcheck disable=SC2034 # globals for the other parts and the scripts
use_base() {	# use_base BASE
	BASE=$1
	BASE_KEY=$(base_key "$1")
	if base_is_packaged "$1"; then
		BASE_LINE=$1
		KERNEL_TARBALL=/usr/src/linux-source-$1.tar.xz
		HOST_FILES=$BUILD_DIR/host-files/linux-source-$1
	else
		BASE_LINE=$(tree_line "$1")
		KERNEL_TARBALL='' HOST_FILES=''
	fi
	PRISTINE_TREE=$BUILD_DIR/src/$(if base_is_packaged "$1"; then echo "linux-source-$1"; else echo "$BASE_KEY"; fi)
}

# What a tree base's files are: every path with its size and mtime (.git
# left out), hashed; a checkout, an edit or a build changes it.
tree_identity() {
	(cd "$1" && find . -path ./.git -prune -o -printf '%P %s %T@\n' | LC_ALL=C sort | sha256sum | cut -d' ' -f1)
}

# The pristine tree of the current base, made once: a packaged base's
# tarball extracted; a tree base copied by hard links where it shares a
# filesystem with BUILD_DIR (.git left out), again when its files
# changed, with the kernels built from the old copy.  Every variant's
# tree hard-links to it: nothing may ever write into it.  One at a time
# (tests run side by side): a subshell holding a lock beside the tree,
# whose failure stops the caller as a die in it would.
extract_pristine() { extract_pristine_locked || exit; }
extract_pristine_locked() (
	local identity=
	mkdir -p "$(dirname "$PRISTINE_TREE")"
	exec 8> "$PRISTINE_TREE.lock"
	flock 8
	if [ -n "$KERNEL_TARBALL" ]; then
		[ -f "$PRISTINE_TREE/.cdevbench-extracted" ] && return
		[ -f "$KERNEL_TARBALL" ] ||
			die "$KERNEL_TARBALL is missing: run 'make deps' (package linux-source-$BASE)"
		log "extracting $KERNEL_TARBALL (once)"
	else
		identity=$(tree_identity "$BASE")
		[ "$(cat "$PRISTINE_TREE/.cdevbench-extracted" 2> /dev/null)" = "$identity" ] && return
		[ ! -d "$PRISTINE_TREE" ] ||
			log "base $BASE changed since it was copied: copying it again, its kernels are rebuilt"
		rm -rf "$BUILD_DIR/kernels/$BASE_KEY" "$BUILD_DIR/modules/$BASE_KEY"
		log "copying base $BASE to ${PRISTINE_TREE#$BUILD_DIR/} (hard links where it can)"
	fi
	rm -rf "$PRISTINE_TREE" "$PRISTINE_TREE.tmp"
	mkdir -p "$PRISTINE_TREE.tmp"
	if [ -n "$KERNEL_TARBALL" ]; then
		tar -xJf "$KERNEL_TARBALL" -C "$PRISTINE_TREE.tmp" --strip-components=1 ||
			die "could not extract $KERNEL_TARBALL to $PRISTINE_TREE.tmp"
	else
		(cd "$BASE" && find . -path ./.git -prune -o -print0 |
			cpio -0 -pdlm --quiet "$PRISTINE_TREE.tmp") ||
			die "could not copy base $BASE to $PRISTINE_TREE.tmp"
	fi
	# a copied tree's marker is a link to the tree's own: never written through
	rm -f "$PRISTINE_TREE.tmp/.cdevbench-extracted"
	echo "$identity" > "$PRISTINE_TREE.tmp/.cdevbench-extracted"
	mv "$PRISTINE_TREE.tmp" "$PRISTINE_TREE"
)

# What the host tests read of a packaged base, extracted once from its
# tarball into HOST_FILES (under 400 KB, where the whole tree is 1.5 GB
# and a minute to extract): kselftest*.h, which the selftest is built
# (the Makefile) and linted (tests/test_15_lint.sh) against, and
# checkpatch.pl with the files it reads beside it (tests/test_30).
extract_host_files() {
	[ -n "$HOST_FILES" ] || die "base $BASE: a tree base's files are not extracted alone"
	mkdir -p "$(dirname "$HOST_FILES")"
	(
		flock 8
		[ -d "$HOST_FILES" ] && exit
		[ -f "$KERNEL_TARBALL" ] ||
			die "$KERNEL_TARBALL is missing: run 'make deps TIER=check' (package linux-source-$BASE)"
		rm -rf "$HOST_FILES.tmp"
		mkdir -p "$HOST_FILES.tmp"
		tar -xJf "$KERNEL_TARBALL" -C "$HOST_FILES.tmp" --strip-components=1 --wildcards \
			'*/tools/testing/selftests/kselftest*.h' '*/scripts/checkpatch.pl' \
			'*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch' ||
			die "could not extract the host tests' files of $KERNEL_TARBALL"
		mv "$HOST_FILES.tmp" "$HOST_FILES"
	) 8> "$HOST_FILES.lock" || exit
}
