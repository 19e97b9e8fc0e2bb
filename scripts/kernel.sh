#!/bin/bash
# Build one kernel variant on the current base (BASE; <b> below is its
# key, scripts/lib/bases.sh base_key), redoing only what changed:
#   tree    build/kernels/<b>/<v>/ : hard-linked copy of the base's pristine
#           tree with the variant's series for the base applied (only
#           patched files are real copies)
#   config  build/kernels/<b>/<v>/obj/.config : tinyconfig +
#           patches/rig.config (+ the variant's config), every requested
#           option verified
#   kernel  bzImage and modules_prepare, compiled with ccache
#   module  bench/module built against that tree, in build/modules/<b>/<v>/
# The fault flavour is the same tree with patches/fault.config merged last,
# built in build/kernels/<b>/<v>/obj-fault/ (module: build/modules/<b>/<v>-fault/),
# for the failure-path phase; the timing kernel is never touched by it.
# The checker flavour (patches/checker.config, obj-checker/) is the same
# for make race-check's checker boot: lockdep, atomic-sleep and list
# checks, KCSAN.
# The audit flavour (patches/audit.config, build/kernels/<b>/<v>/obj-audit/)
# builds no kernel: scripts/cdev-audit.sh checks the tree's users of a
# cdev's kobject and compiles them; every timing build ends with it.
# Usage: scripts/kernel.sh VARIANT [timing|fault|checker|audit]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

variant=${1:?usage: kernel.sh VARIANT [timing|fault|checker|audit]}
flavour=${2:-timing}
check_variant "$variant"
tree=$(variant_dir "$variant")
obj=$(kernel_obj_dir "$variant" "$flavour")
state=$tree/.cdevbench
mapfile -t patches < <(series_patches "$variant")
variant_config=$(variant_file "$variant" config)
frags=("$PATCHES_DIR/rig.config")
[ -f "$variant_config" ] && frags+=("$variant_config")
case $flavour in
timing) sfx= ;;
fault) sfx=-fault frags+=("$PATCHES_DIR/fault.config") ;;
checker) sfx=-checker frags+=("$PATCHES_DIR/checker.config") ;;
audit) sfx=-audit frags+=("$PATCHES_DIR/audit.config") ;;
*) die "unknown kernel flavour '$flavour': timing, fault, checker or audit" ;;
esac
name=$variant$sfx	# LOCALVERSION, module folder
who="$name on $BASE"	# log lines
JOBS=${JOBS:-$(nproc)}

# Give a file of the tree its pristine content again, as a file of its own
# with a new mtime so that make rebuilds what depends on it.
restore_pristine() {
	local f
	while read -r f; do
		[ -n "$f" ] || continue
		if [ -f "$PRISTINE_TREE/$f" ]; then
			cp --remove-destination "$PRISTINE_TREE/$f" "$tree/$f"
		else
			rm -f "$tree/$f"
		fi
	done
}

sync_tree() {
	local want have=""
	want=$(hash_files "${patches[@]}")
	if [ ! -d "$tree" ]; then
		log "$variant on $BASE: creating tree (hard links to the pristine tree)"
		mkdir -p "$(dirname "$tree")"
		rm -rf "$tree.tmp"
		cp -al "$PRISTINE_TREE" "$tree.tmp"
		mkdir -p "$tree.tmp/.cdevbench"
		mv "$tree.tmp" "$tree"
	fi
	[ -f "$state/series.sha" ] && have=$(cat "$state/series.sha")
	[ "$want" = "$have" ] && return

	log "$variant on $BASE: applying ${#patches[@]} patch(es)"
	# Record every file this or the previous series touches before changing
	# anything, so an interrupted or failed apply is undone on the next run.
	{ cat "$state/files.list" 2>/dev/null || true; patched_paths /dev/null "${patches[@]}"; } |
		sort -u > "$state/files.list.new"
	mv "$state/files.list.new" "$state/files.list"
	rm -f "$state/series.sha"
	restore_pristine < "$state/files.list"

	local p out
	for p in "${patches[@]}"; do
		if ! out=$(apply_patch "$tree" "$p" -); then
			printf '%s\n' "$out" >&2
			restore_pristine < "$state/files.list"
			die "variant $variant: patch ${p#$PATCHES_DIR/} does not apply to base $BASE (see the failed hunks above); other variants are not affected"
		fi
	done
	patched_paths /dev/null "${patches[@]}" > "$state/files.list"
	echo "$want" > "$state/series.sha"
}

# A variant's first kernel (or audit) of a flavour starts from stock's
# objects of that flavour.  obj/ sits inside the tree, so Kbuild names
# every source, header and dependency relative to it (srctree is ".."):
# stock's objects, dependency files and command lines hold for this tree
# too.  What differs from stock's tree is made newer than them (the
# patched files are touched, files only stock's patches change get their
# pristine content back as new files), so make rebuilds those and what
# depends on them, and what this variant's LOCALVERSION and config touch:
# 9-17 s here, where a build in an empty folder takes 51 s with every
# object in ccache and minutes without.
# Stock's own fault kernel starts from its timing objects: rig.config
# gives the timing kernels FAULT_INJECTION's fields of task_struct, so
# fault.config changes no struct that most files see, and the files it
# makes make recompile (SLAB_FAILSLAB's users) preprocess to what the
# timing build left in ccache.
seed_objects() {
	local from_tree from_obj from_flavour=$flavour from_done=build$sfx.sha f
	[ "$flavour" != audit ] || from_done=audit.sha
	if [ "$variant" = stock ]; then
		[ "$flavour" = fault ] || return 0
		from_flavour=timing from_done=build.sha
	fi
	from_tree=$(variant_dir stock)
	from_obj=$(kernel_obj_dir stock "$from_flavour")
	[ ! -d "$obj" ] && [ -f "$from_tree/.cdevbench/$from_done" ] || return 0
	log "$who: starting from stock's $from_flavour objects"
	# what the variant's state says of an earlier obj/ no longer holds
	rm -f "$state/config$sfx.sha" "$state/build$sfx.sha"
	[ "$flavour" != audit ] || rm -f "$state/audit.sha"
	rm -rf "$obj.tmp"
	cp -a "$from_obj" "$obj.tmp"
	# objtool's own build names its files by absolute path: renamed here,
	# or it would be rebuilt, and every object after it
	# (none where stock's objects name its tree by another path: grep
	# then finds nothing, which is no error)
	{ grep -rlZ --include='*.cmd' --include='*.d' "$from_tree/" "$obj.tmp/tools" 2> /dev/null || true; } |
		xargs -0 -r sed -i -e "s|$from_obj/|$obj/|g" -e "s|$from_tree/|$tree/|g"
	if [ "$from_tree" != "$tree" ]; then
		restore_pristine < <(comm -23 <(sort "$from_tree/.cdevbench/files.list") \
			<(sort "$state/files.list"))
		while read -r f; do
			[ -z "$f" ] || [ ! -f "$tree/$f" ] || touch "$tree/$f"
		done < "$state/files.list"
	fi
	mv "$obj.tmp" "$obj"
}

# The fragment as Kconfig wants it: the lines of this base's kernel line
# ("[6.12] CONFIG_X=y") without their tag, the others dropped, inline
# reasons stripped.
normalized_fragment() {
	sed -E -e "s/^\[$BASE_LINE\] +//" -e '/^\[/d' "$@" |
		sed -nE -e 's/^(CONFIG_[A-Za-z0-9_]+=[^[:space:]]+).*/\1/p' \
			-e 's/^(# CONFIG_[A-Za-z0-9_]+ is not set).*/\1/p'
}

sync_config() {
	local want have="" fragment=$state/fragment$sfx.config
	want=$(hash_files "${frags[@]}" "$state/series.sha")
	[ -f "$state/config$sfx.sha" ] && have=$(cat "$state/config$sfx.sha")
	[ -f "$obj/.config" ] && [ "$want" = "$have" ] && return

	log "$who: configuring (tinyconfig + ${frags[*]#$PATCHES_DIR/})"
	rm -f "$state/config$sfx.sha"
	mkdir -p "$obj"
	normalized_fragment "${frags[@]}" > "$fragment"
	make -s -C "$tree" O="$obj" tinyconfig > "$state/config$sfx.log" 2>&1
	(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m .config \
		"$fragment") >> "$state/config$sfx.log" 2>&1
	make -s -C "$obj" olddefconfig >> "$state/config$sfx.log" 2>&1

	local line option missing=()
	while read -r line; do
		if [[ $line == "# CONFIG_"* ]]; then
			option=${line#\# }; option=${option%% *}
			! grep -q "^$option=" "$obj/.config" || missing+=("$line")
		else
			grep -qxF "$line" "$obj/.config" || missing+=("$line")
		fi
	done < "$fragment"
	[ ${#missing[@]} -eq 0 ] ||
		die "variant $who: Kconfig dropped requested options (a missing dependency?): ${missing[*]}"
	echo "$want" > "$state/config$sfx.sha"
}

# Progress of a build: objects compiled so far, against the previous
# build of this variant and flavour.
build_progress() {	# build_progress T0
	local last_objects="" last_seconds="" objects t
	[ ! -f "$state/build$sfx.last" ] || read -r last_objects last_seconds < "$state/build$sfx.last"
	objects=$(grep -c '^  CC ' "$obj/build.log" || true)
	t=$(( $(date +%s) - $1 ))
	log "$who: building, $objects objects compiled in $((t / 60))m${last_objects:+ (the previous build compiled $last_objects in $((last_seconds / 60))m)}"
}

# The compiler's first errors, each with the patch that wrote its line.
show_build_errors() {
	local where file line patch
	grep -E 'error|Error' "$obj/build.log" | head -20 | while IFS= read -r where; do
		read -r file line < <(sed -nE 's|^(\.\./)?([^: ]+):([0-9]+):[0-9]+: error:.*|\2 \3|p' <<< "$where") || true
		patch=
		[ -z "$file" ] || patch=$(patch_of_line "$file" "$line" "${patches[@]}")
		printf '%s%s\n' "$where" "${patch:+   <- written by $patch}"
	done >&2
}

build_kernel() {
	local want have="" t0 progress
	want=$(hash_files "$state/series.sha" "$state/config$sfx.sha" "$0")
	[ -f "$state/build$sfx.sha" ] && have=$(cat "$state/build$sfx.sha")
	if [ -f "$obj/arch/x86/boot/bzImage" ] && [ "$want" = "$have" ]; then
		log "$who: kernel up to date"
		return
	fi
	log "$who: building bzImage (ccache, -j$JOBS; log in ${obj#$RIG_ROOT/}/build.log)"
	rm -f "$state/build$sfx.sha"
	# No kernel here until make has written one whole: not stock's, which
	# seed_objects copied in, nor one a make killed outright left cut
	# short and newer than its inputs (Ctrl-C's make deletes it itself).
	rm -f "$obj/arch/x86/boot/bzImage"
	t0=$(date +%s)
	: > "$obj/build.log"
	every_minute build_progress "$t0" &
	progress=$!
	if ! make -C "$obj" -j"$JOBS" CC="ccache gcc" LOCALVERSION="-$name" \
			KBUILD_BUILD_TIMESTAMP="cdevbench" KBUILD_BUILD_USER=cdevbench \
			KBUILD_BUILD_HOST=cdevbench KBUILD_BUILD_VERSION=1 bzImage modules_prepare \
			> "$obj/build.log" 2>&1; then
		stop_progress "$progress"
		show_build_errors
		die "variant $who: kernel build failed, full log in $obj/build.log"
	fi
	stop_progress "$progress"
	echo "$(grep -c '^  CC ' "$obj/build.log" || true) $(( $(date +%s) - t0 ))" > "$state/build$sfx.last"
	echo "$want" > "$state/build$sfx.sha"
	log "$who: built $(cat "$obj/include/config/kernel.release")"
}

# The rig's module, against this variant's build tree.  Sources are copied
# (mtimes kept) so that each variant keeps its own objects; those of a
# file no longer in bench/module/ go first, as Kbuild builds every
# bench_*.c it finds, and so do the modules (make links them again in
# seconds): the guest is given every .ko here, and one that Kbuild no
# longer builds for this kernel must not be among them.  The benchmark
# declarations go along (the harness lists its in-kernel benchmarks from
# them), and the TCG plugin's window marker.
build_module() {
	local mod
	mod=$(module_dir "$variant" "$flavour")
	mkdir -p "$mod"
	rm -f "$mod"/*.[ch] "$mod"/*.ko
	cp -p "$RIG_ROOT"/bench/module/Kbuild "$RIG_ROOT"/bench/module/*.[ch] \
		"$RIG_ROOT"/bench/benchmarks.def "$RIG_ROOT"/bench/lib/pmu_window.h "$mod/"
	if ! make -C "$obj" M="$mod" CC="ccache gcc" modules > "$mod/build.log" 2>&1; then
		cat "$mod/build.log" >&2
		die "variant $who: module build failed"
	fi
}

command -v ccache > /dev/null || die "ccache is missing: run 'make deps'"
extract_pristine
sync_tree
seed_objects
sync_config
if [ "$flavour" = audit ]; then
	"$RIG_ROOT/scripts/cdev-audit.sh" "$variant" "$obj"
	exit
fi
build_kernel
build_module
[ "$flavour" != timing ] || "$0" "$variant" audit
