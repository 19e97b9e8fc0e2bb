# shellcheck shell=bash
# Shared helpers for the host-side scripts: settings, paths, logging with
# elapsed time, and hashing.  Sourced, never run; sourcing gives every
# setting of scripts/settings.def its value.

RIG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SETTINGS_DEF=$RIG_ROOT/scripts/settings.def
# The whole run shares one start time so that every line shows run time.
export RIG_T0=${RIG_T0:-$(date +%s)}

log() {
	local t=$(( $(date +%s) - RIG_T0 ))
	printf '[%02d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*" >&2
}

die() {
	printf 'cdevbench: error: %s\n' "$*" >&2
	exit 1
}

# Progress on a long step: `every_minute CMD... &`, killed by the caller
# when the step ends.  Its sleep goes with it, on that TERM, on Ctrl-C's
# INT (which the sleep itself ignores, as a script's background command
# does) and on a closed terminal's HUP: left behind, it would hold the
# files the caller had open (make bench's results lock) for up to a
# minute, and the next make bench would be refused.
every_minute() {
	# jobs -p, not the sleep's $!: a TERM between the sleep's start and
	# an assignment of $! would leave it running; wait, so that the sleep
	# has let go of the caller's files when this returns
	trap 'kill $(jobs -p) 2> /dev/null; wait; exit 0' TERM INT HUP
	while sleep 60 & wait $!; do "$@"; done
}

# stop_progress PID: stop an every_minute.  One already gone (its sleep
# killed from outside, which ends the loop) is no failure of the step it
# reported on: a walk's boot that had run to its end failed so once.
stop_progress() { kill "$1" 2> /dev/null || true; }

# sha256 of the named files' contents, in order; missing files hash as empty.
hash_files() {
	local f
	for f in "$@"; do
		printf '%s\n' "${f##*/}"
		[ -f "$f" ] && cat "$f"
	done | sha256sum | cut -d' ' -f1
}

# --- Bases: the kernel source a variant is applied to (docs/bases.md) ---
# A packaged base is a kernel line Debian ships as linux-source-<line>,
# extracted once into BUILD_DIR/src/; a tree base is a kernel source the
# user has, given by its folder, copied into BUILD_DIR/src/ by hard links
# (never written into).  A variant's series for a kernel line lives in
# patches/<v>/<line>/, but for SERIES_HOME_LINE's, in patches/<v>/ itself.
PACKAGED_BASES=(6.1 6.12)
SERIES_HOME_LINE=6.1

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
	# shellcheck disable=SC2034 # for the scripts that source this file
	PRISTINE_TREE=$BUILD_DIR/src/$(if base_is_packaged "$1"; then echo "linux-source-$1"; else echo "$BASE_KEY"; fi)
}

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

# Patch files of a variant's series for this base, in order, as absolute
# paths; a prefix's, the first of its variant's.  A line names a file
# relative to the series' folder: a port's series names a patch that
# applies to its line unchanged as ../<file>.
series_patches() {
	local dir line v
	v=$(series_variant "$1")
	if [ "$v" != "$1" ]; then
		# sed reads to the end: head would leave the loop below a
		# broken pipe
		series_patches "$v" | sed -n "1,${1##*~}p"
		return
	fi
	dir=$(series_dir "$1")
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

# The rule every series is applied by, here and in scripts/variant.sh:
# patch -p1 without fuzz (offsets are fine) on the 6.1 tree Debian ships.
# --forward: a hunk that applies only reversed (a fix 6.1.192 already has,
# a file that changed since) is a reject, never silently undone.
apply_patch() {	# apply_patch TREE PATCH REJECT_FILE (- drops the rejects)
	patch -d "$1" -p1 --fuzz=0 --no-backup-if-mismatch --reject-file="$3" --batch --forward < "$2" 2>&1
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

# A variant's tree on the current base.
variant_dir() { echo "$BUILD_DIR/kernels/$BASE_KEY/$1"; }

# Objects of a variant's kernel: obj/ for timing, obj-<flavour>/ otherwise.
kernel_obj_dir() {	# kernel_obj_dir VARIANT [FLAVOUR]
	case ${2:-timing} in
	timing) echo "$(variant_dir "$1")/obj" ;;
	*) echo "$(variant_dir "$1")/obj-$2" ;;
	esac
}

# The rig's modules built for that kernel.
module_dir() {	# module_dir VARIANT [FLAVOUR]
	case ${2:-timing} in
	timing) echo "$BUILD_DIR/modules/$BASE_KEY/$1" ;;
	*) echo "$BUILD_DIR/modules/$BASE_KEY/$1-$2" ;;
	esac
}

# --- Settings (scripts/settings.def) ---

# The declarations, one per line: name|default|check|scope|doc|meaning,
# each field without the blanks around it.
settings_rows() {
	sed -n 's/ *| */|/g; s/^\([A-Z]\)/\1/p' "$SETTINGS_DEF"
}

quick_or() { if [ "$QUICK" = 1 ]; then echo "$1"; else echo "$2"; fi; }
default_vcpus() { if [ "$MODE" = icount ]; then echo 1; else nproc; fi; }
# The largest N of the sweep up to 1000, so that tracing stays short.
default_trace_n() { printf '%s\n' $SWEEP_N | awk '$1 <= 1000' | sort -n | tail -1; }
# 1, 2 and, where vCPUs run in parallel, VCPUS.
default_threads() {
	{ echo 1; echo 2; [ "$MODE" = icount ] || echo "$VCPUS"; } | sort -nu | paste -sd' '
}

# In icount a boot's sealed part sees nothing the host times
# (docs/determinism.md): as many boots at once as the cores hold and the
# memory (a guest's and 512 MiB for QEMU and its plugin each); elsewhere
# boots side by side time each other, so one.
default_boot_jobs() {
	local cores mem
	[ "$MODE" = icount ] || { echo 1; return; }
	cores=$(nproc)
	mem=$(awk -v per=$((GUEST_MEM + 512)) '/^MemAvailable:/ { print int($2 / 1024 / per) }' /proc/meminfo)
	[ "$mem" -ge 1 ] || mem=1
	echo $((cores < mem ? cores : mem))
}

# How boot.sh runs QEMU in kvm mode.
KVM_ACCEL=(-accel kvm -cpu host)

# Why QEMU cannot run the rig's vCPU under KVM here, or nothing where it
# can.  /dev/kvm may exist and still refuse the vCPU (a nested host that
# rejects an MSR of -cpu host): QEMU then aborts at once, where a usable
# KVM keeps the stopped (-S) guest until the timeout.  The answer of a
# probe made before, RIG_KVM_REFUSAL (check_setting), where one was: a
# usable KVM's probe waits its whole 2 s, and every script of a run, and
# of a host test, sources this file.
kvm_refusal() {
	local out rc=0
	if [ -n "${RIG_KVM_REFUSAL+set}" ]; then
		echo "$RIG_KVM_REFUSAL"
		return
	fi
	if [ ! -w /dev/kvm ]; then
		echo "/dev/kvm $([ -e /dev/kvm ] && echo "is not writable by $(id -un)" ||
			echo "does not exist here")"
		return
	fi
	out=$(timeout 2 qemu-system-x86_64 "${KVM_ACCEL[@]}" -S -nodefaults -no-user-config \
		-display none -monitor none 2>&1) || rc=$?
	[ $rc = 124 ] || echo "QEMU cannot run a vCPU under KVM here: $(head -1 <<< "$out")"
}

# check_setting NAME CHECK: die with what NAME should be.
check_setting() {
	local name=$1 value=${!1} n why
	case $2 in
	count) [[ $value =~ ^[1-9][0-9]*$ ]] || die "$name must be a positive number, not '$value'" ;;
	count:*)
		[[ $value =~ ^[1-9][0-9]*$ ]] && [ "$value" -le "${2#count:}" ] ||
			die "$name must be a number from 1 to ${2#count:}, not '$value'" ;;
	counts)
		[ -n "$value" ] || die "$name is empty"
		for n in $value; do
			[[ $n =~ ^[1-9][0-9]*$ ]] || die "$name holds '$n', not a positive number"
		done ;;
	bool) [[ $value =~ ^[01]$ ]] || die "$name must be 0 or 1, not '$value'" ;;
	mode)
		case $value in
		auto | kvm)
			# probed once for this script and the scripts it starts
			RIG_KVM_REFUSAL=$(kvm_refusal)
			export RIG_KVM_REFUSAL
			if [ -z "$RIG_KVM_REFUSAL" ]; then
				MODE=kvm
			elif [ "$value" = kvm ]; then
				die "MODE=kvm: $RIG_KVM_REFUSAL; use MODE=icount or tcg"
			else
				MODE=icount
				[ ! -e /dev/kvm ] || log "MODE=auto: icount, because $RIG_KVM_REFUSAL"
			fi ;;
		icount | tcg) ;;
		*) die "unknown MODE '$value': auto, icount, tcg or kvm" ;;
		esac ;;
	base)
		if base_is_packaged "$value"; then
			use_base "$value"
			return
		fi
		[[ $value == */* ]] || [ -d "$value" ] ||
			die "$name=$value: a packaged base (${PACKAGED_BASES[*]}) or a kernel tree's folder"
		why=$(tree_base_refusal "$value")
		[ -z "$why" ] || die "$name=$value: $why"
		printf -v "$name" '%s' "$(cd "$value" && pwd -P)"
		[ "$name" != BASE ] || use_base "$BASE" ;;
	bases)
		[ -n "$value" ] || die "$name is empty"
		# each checked as BASE is, a tree's folder made absolute
		local b seen=" "
		for b in $value; do
			b=$(BASE=$b; check_setting BASE base > /dev/null; echo "$BASE") || exit 1
			[[ $seen != *" $b "* ]] || die "$name names $b twice"
			seen+="$b "
		done
		printf -v "$name" '%s' "$(echo $seen)" ;;
	variants)
		[ -n "$value" ] || die "$name is empty"
		for n in $value; do check_variant "$n"; done ;;
	interleave)
		case $value in single | multi) ;; *) die "$name must be single or multi, not '$value'" ;; esac ;;
	executor)
		case $value in local | slurm) ;; *) die "$name must be local or slurm, not '$value'" ;; esac ;;
	benches)	# named as bench_plan, which the suite asks, knows them
		[ -z "$value" ] || [ -x "$BUILD_DIR/bin/bench_plan" ] ||
			die "$name=$value is checked by $BUILD_DIR/bin/bench_plan: make progs"
		[ -z "$value" ] || why=$(BENCHES=$value "$BUILD_DIR/bin/bench_plan" benches 2>&1 > /dev/null) ||
			die "${why#bench_plan: }" ;;
	bisect)	# a metric bench_plan knows, of a kind the report decides
		[ -n "$value" ] || return 0
		local metric param kind
		read -r metric param n <<< "$value"
		[ -n "$param" ] && [ -z "$n" ] && [[ $param =~ ^[a-z_]+=[^,]+(,[a-z_]+=[^,]+)*$ ]] ||
			die "$name='$value': METRIC PARAM, as the report names them, e.g. 'cdev_add_ns n=1000'"
		[ -x "$BUILD_DIR/bin/bench_plan" ] || die "$name is checked by $BUILD_DIR/bin/bench_plan: make progs"
		kind=$("$BUILD_DIR/bin/bench_plan" metrics | awk -v m="$metric" '$1 == m { print $4 }')
		case $kind in
		sample | count) ;;
		'') die "$name: '$metric' is no metric of bench/benchmarks.def (build/bin/bench_plan metrics)" ;;
		*) die "$name: '$metric' is a $kind, which the report draws but does not decide" ;;
		esac ;;
	words) ;;
	label) [[ $value =~ ^[A-Za-z0-9._-]*$ ]] ||
		die "$name may hold letters, digits, '.', '_' and '-', not '$value'" ;;
	path)
		[ -n "$value" ] || die "$name is empty"
		# absolute: the reproduce line gives one relative to the rig, and
		# a file under it reaches the guest (SELFTEST_ARGS), whose
		# working folder is /
		printf -v "$name" %s "$(realpath -m -- "$value")" ;;
	against) [ -z "$value" ] || against_run > /dev/null ;;
	*) die "scripts/settings.def: $name has an unknown check '$2'" ;;
	esac
}

# Whether AGAINST names a saved baseline (make baseline), not a folder.
against_saved() { [[ $AGAINST =~ ^[A-Za-z0-9._-]+$ ]] && [ -d "$RESULTS_DIR/baselines/$AGAINST" ]; }

# The run AGAINST names: a saved baseline or a folder.
against_run() {
	local saved
	if against_saved; then
		(cd "$RESULTS_DIR/baselines/$AGAINST" && pwd -P)
	elif [ -f "$AGAINST/samples.csv" ]; then
		(cd "$AGAINST" && pwd -P)
	else
		saved=$(cd "$RESULTS_DIR/baselines" 2> /dev/null && ls)
		die "AGAINST=$AGAINST: neither a saved baseline (${saved:-none saved: make baseline SAVE=NAME}) nor a run folder with samples.csv"
	fi
}

# Every setting not given gets its default, in declaration order; each is
# checked and exported.
load_settings() {
	local name default check scope doc meaning
	while IFS='|' read -r name default check scope doc meaning; do
		[ -n "${!name:-}" ] || eval "$name=$default"
		check_setting "$name" "$check"
		export "${name?}"
	done < <(settings_rows)
}

# NAME='VALUE', quoted for sh, of each variable named.
shell_assignments() {	# shell_assignments NAME...
	local name
	for name in "$@"; do printf "%s='%s'\n" "$name" "${!name//\'/\'\\\'\'}"; done
}

# The same, of every setting of one scope, for a file sh sources.
settings_env() {	# settings_env SCOPE
	local name default check scope doc meaning
	while IFS='|' read -r name default check scope doc meaning; do
		[ "$scope" != "$1" ] || shell_assignments "$name"
	done < <(settings_rows)
}

# --- Phases (scripts/phases.def) ---

# The declarations, one per line: the fields separated by '|' without the
# blanks around them.
phase_rows() {
	sed -n 's/ *| */|/g; /^[a-z]/p' "$RIG_ROOT/scripts/phases.def"
}

phase_names() { phase_rows | cut -d'|' -f1; }

# A column that may name a setting (a word in capitals): that setting's
# value, else the column as written.
phase_value() {
	[[ $1 =~ ^[A-Z][A-Z0-9_]*$ ]] || { echo "$1"; return; }
	grep -qx -- "$1" <<< "$(settings_rows | cut -d'|' -f1)" ||
		die "scripts/phases.def names $1, which scripts/settings.def does not declare"
	echo "${!1}"
}

# phase_load PHASE: its row in globals, the settings it names read now:
# PHASE_KERNEL, PHASE_MODE (icount, tcg or kvm), PHASE_THREADS (TCG's
# thread=; empty where the row names none), PHASE_VCPUS, PHASE_PLUGIN,
# PHASE_CMDLINE (an array), PHASE_SUITE, PHASE_BOOTS, PHASE_ON (- or the
# setting's name), PHASE_FOLDER, PHASE_LABEL, PHASE_ROWS, PHASE_FAILED.
# shellcheck disable=SC2034 # for the scripts that source this file
phase_load() {
	local row mode vcpus cmdline
	row=$(phase_rows | awk -F'|' -v p="$1" '$1 == p')
	[ -n "$row" ] || die "unknown phase '$1'; the phases: $(phase_names | paste -sd' ') (scripts/phases.def)"
	IFS='|' read -r _ PHASE_KERNEL mode vcpus PHASE_PLUGIN cmdline PHASE_SUITE PHASE_BOOTS \
		PHASE_ON PHASE_FOLDER PHASE_LABEL PHASE_ROWS PHASE_FAILED <<< "$row"
	PHASE_MODE=$(phase_value "${mode%%:*}")
	PHASE_THREADS=
	[[ $mode != *:* ]] || PHASE_THREADS=$(phase_value "${mode#*:}")
	PHASE_VCPUS=$(phase_value "$vcpus")
	PHASE_CMDLINE=()
	# read -a splits without expanding a glob (slub_debug's '*')
	[ "$cmdline" = - ] || read -r -a PHASE_CMDLINE <<< "$cmdline"
}

# The kernel flavour a phase boots.
phase_flavour() { phase_load "$1" && echo "$PHASE_KERNEL"; }

# Whether make bench plans the phase phase_load read: it has boots there,
# and the setting it depends on, if any, is 1.
phase_planned() {
	[ "$PHASE_BOOTS" != none ] && { [ "$PHASE_ON" = - ] || [ "$(phase_value "$PHASE_ON")" = 1 ]; }
}

# The kernel flavours make bench (and make kernels) builds: those of the
# phases it plans, each once.
run_flavours() {
	local p
	for p in $(phase_names); do
		phase_load "$p"
		! phase_planned || echo "$PHASE_KERNEL"
	done | awk '!seen[$0]++'
}

# What a kernel prints when it complains, as grep -E reads it: boot.sh
# fails a boot whose serial log has it, fault-check.sh counts its lines
# (fail_warnings), race-check.sh gives the first as its evidence.  "BUG: "
# is BUG(), KASAN's and KFENCE's reports and bad pointers; "BUG <cache>
# (...)" slub_debug's (Poison overwritten, Object corrupt); "WARNING: "
# WARN() ("WARNING: CPU: ...") and lockdep's and RCU's; "general
# protection" a fault that 6.1 does not call an Oops (6.12 prefixes
# "Oops: "), and a user task's ("traps: ..."); "refcount_t" its
# saturation message, which says what went wrong before its WARNING
# does; "Kernel panic" a panic, whatever caused it.
# shellcheck disable=SC2034 # for the scripts that source this file
KERNEL_COMPLAINT='Kernel panic|BUG: |BUG [^ ]+ \(|kernel BUG at|Oops|WARNING: |general protection|refcount_t'
# Which of those say what, for fault-check.sh's outcome of a group: the
# kernel stopped (a panic, an oops, a bad pointer, BUG(), which 6.1
# prints as "kernel BUG at" and "invalid opcode", no Oops); slab
# debugging or KASAN found memory used after its free, freed twice or
# overrun, or cdev_faults found a driver's put_device() on a holder
# already freed (refcount_t's "use-after-free" is a reference count's
# warning, not this).  Every other complaint is a warning.
# shellcheck disable=SC2034
KERNEL_CRASH='Kernel panic|Oops|general protection|BUG: unable to handle|kernel BUG at'
# shellcheck disable=SC2034
KERNEL_MEMORY_ERROR='BUG [^ ]+ \(|BUG: KASAN|BUG: KFENCE|cdevbench-fault: use after free'
# Which checker of a checker kernel (patches/checker.config) made a
# complaint, for checker-check.sh: KCSAN's report; a sleep where none may
# be; a list's check (6.1 and 6.12 print its reason before WARN()'s
# line); lockdep's reports (a "WARNING: " and what it found, where WARN()
# prints "WARNING: CPU:") and lockdep's own WARN()s and BUGs.
# shellcheck disable=SC2034
KERNEL_KCSAN='BUG: KCSAN:'
# shellcheck disable=SC2034
KERNEL_ATOMIC_SLEEP='BUG: sleeping function called from invalid context|BUG: scheduling while atomic'
# shellcheck disable=SC2034
KERNEL_LIST_CHECK=' at lib/list_debug\.c:|list_(add|del) corruption'
# shellcheck disable=SC2034
KERNEL_LOCKDEP='WARNING: [^C]| at kernel/locking/|BUG: MAX_LOCKDEP|BUG: looking up invalid subclass'

# The selftest's --known-failures options for a variant: stock's known
# failures, which every variant inherits, and the variant's own.
known_failure_args() {
	local v variants=(stock)
	[ "$1" = stock ] || variants+=("$1")
	for v in "${variants[@]}"; do
		[ -f "$(variant_file "$v" known-failures)" ] &&
			printf ' --known-failures %s' "$(variant_file "$v" known-failures)"
	done
	return 0
}

# What repeats without adding information runs once.  The traced pass
# runs on the first TRACED_BOOTS timing boots of an arm (write_suite_env
# leaves it out of the others' steps).  The plugin's calibration runs
# (CALIBRATION_BENCHES: they describe the cache model, not a kernel) run
# on one arm's pmu boot (bench.sh: the baseline's); every other arm's
# plugin boots run calibration_free_benches, and meta.json's calibration
# names the arm, so that the report does not take their absence for a
# missing side.
CALIBRATION_BENCHES=(pchase)
calibration_free_benches() {
	"$BUILD_DIR/bin/bench_plan" benches | awk -v skip=" ${CALIBRATION_BENCHES[*]} " \
		'index(skip, " " $1 " ") == 0 { printf "%s%s", sep, $1; sep = " " }'
}

# What the guest suite is told for one boot, in BOOT_DIR/suite.env, and
# the boot's seed: write_suite_env ARM KERNEL BOOT_DIR PHASE.  The phase's steps
# (SUITE_STEPS) are all the suite knows of it; a timing boot past
# TRACED_BOOTS leaves out the traced pass.  A subshell: the caller's
# phase_load stays as it was.
# The seed of a boot whose suite.env is in DIR (write_suite_env's SEED).
boot_seed() {	# boot_seed DIR
	local seed
	seed=$(sed -n 's/^SEED=//p' "$1/suite.env")
	[[ $seed =~ ^[0-9]+$ ]] || die "$1/suite.env gives no SEED, the boot's seed"
	echo "$seed"
}

write_suite_env() (
	phase_load "$4"
	steps=$PHASE_SUITE
	boot=${3##*-}
	[ "$boot" -le "$TRACED_BOOTS" ] || steps=${steps//, traced_pass/}
	# QEMU's seed (scripts/boot.sh): the boot's number, so that boot k of
	# every arm draws alike; the A/A arm's continue after its baseline's,
	# so that the control sees what other draws (layouts) move
	seed=$boot
	[ "${1%%:*}" != "$BASELINE-aa" ] || seed=$((BOOTS + boot))
	{
		echo "VARIANT=$1"
		echo "BOOT=$boot"
		echo "SEED=$seed"
		echo "PHASE=$4"
		SUITE_STEPS=$steps shell_assignments SUITE_STEPS
		echo "KERNEL_RELEASE=$(cat "$(kernel_obj_dir "$2" "$PHASE_KERNEL")/include/config/kernel.release")"
		echo "RIG_ROOT=$RIG_ROOT"
		echo "MODULE_DIR=$(module_dir "$2" "$PHASE_KERNEL")"
		echo "BIN_DIR=$BUILD_DIR/bin"
		echo "SELFTEST_ARGS='$(cat "$(variant_file "$2" selftest.args)" 2> /dev/null || true)$(known_failure_args "$2")'"
		settings_env guest
	} > "$3/suite.env"
)

# --- Comparing two runs (AGAINST) ---

# What decides a run's numbers besides its kernels: these settings, and
# the rig's measuring code, by content (committed or not).
MEASURED_ALIKE=(mode reps ops vcpus guest_mem trace_n)
MEASURING_CODE=(bench guest-init scripts/boot.sh scripts/initramfs.sh scripts/phases.def scripts/kernel.sh patches/rig.config)
measuring_code_sha256() {
	(cd "$RIG_ROOT" && find "${MEASURING_CODE[@]}" -type f -print0 | sort -z | xargs -0 sha256sum) |
		sha256sum | cut -d' ' -f1
}

# The rig's commit; a variant folder that git does not track, or one
# changed since the commit, makes it "-dirty" like any other change.
rig_commit() {
	local commit
	commit=$(git -C "$RIG_ROOT" rev-parse HEAD 2> /dev/null || echo unknown)
	[ -z "$(git -C "$RIG_ROOT" status --porcelain --untracked-files=no 2> /dev/null)" ] &&
		[ -z "$(git -C "$RIG_ROOT" status --porcelain -- "$PATCHES_DIR" 2> /dev/null)" ] ||
		commit="$commit-dirty"
	echo "$commit"
}

# The first KEY whose values differ in the JSON files A and B, as a
# sentence naming them as A_NAME and B_NAME, or nothing.
json_difference() {	# json_difference A_NAME A B_NAME B KEY...
	jq -rn --arg a_name "$1" --arg b_name "$3" --slurpfile a "$2" --slurpfile b "$4" '
		first($ARGS.positional[] | . as $k | [$a[0][$k], $b[0][$k]] | select(.[0] != .[1])
			| "\($k) is \(.[0] | tojson) in \($a_name), \(.[1] | tojson) in \($b_name)") // empty' \
		--args "${@:5}"
}

# The same, of two runs' meta.json.
meta_difference() {	# meta_difference THIS OTHER KEY...
	json_difference "this run" "$1" "the other" "$2" "${@:3}"
}

# Why the run of meta.json THIS cannot be compared against the run of
# meta.json OTHER, or nothing.
join_refusal() {	# join_refusal THIS OTHER
	local a b why
	why=$(meta_difference "$1" "$2" "${MEASURED_ALIKE[@]}")
	[ -z "$why" ] || { echo "$why"; return; }
	a=$(jq -c '[.bases[]? | del(.key)]' "$1")
	b=$(jq -c '[.bases[]? | del(.key)]' "$2")
	[ "$a" = "$b" ] || {
		echo "they ran on other kernel bases ($(jq -r '[.bases[]? | "\(.name) \(.kernel_version)"] | join(", ") | if . == "" then "none recorded" else . end' "$1") in this run, $(jq -r '[.bases[]? | "\(.name) \(.kernel_version)"] | join(", ") | if . == "" then "none recorded" else . end' "$2") in the other); compare bases in one run: make bench BASES=\"A B\""
		return
	}
	# outside icount a guest's clock is the host's
	[ "$(jq -r .mode "$1")" = icount ] ||
		why=$(meta_difference "$1" "$2" host_cpu host_cores qemu_version)
	[ -z "$why" ] || { echo "$why: outside icount, times of two hosts do not compare"; return; }
	a=$(jq -r '.measuring_code_sha256 // empty' "$1")
	b=$(jq -r '.measuring_code_sha256 // empty' "$2")
	if [ -n "$a" ] && [ -n "$b" ]; then
		[ "$a" = "$b" ] ||
			echo "the rig's measuring code (${MEASURING_CODE[*]}) differs: rig $(jq -r .rig_commit "$1") in this run, $(jq -r .rig_commit "$2") in the other"
		return 0
	fi
	a=$(jq -r .rig_commit "$1")
	b=$(jq -r .rig_commit "$2")
	[ "$a" = "$b" ] && [ "${a%-dirty}" = "$a" ] ||
		echo "a run without measuring_code_sha256 (an older rig) compares only with a run of its own clean rig commit: $a in this run, $b in the other"
}

# --- Units: one boot each, run by any executor (scripts/unit.sh) ---

# What a unit's numbers depend on besides its settings: the run it
# belongs to, the rig, the mode, and the builds of the kernel it boots
# and of the rig's modules for it.
UNIT_FACTS=(run_id rig_commit measuring_code_sha256 mode kernel_sha256 module_sha256)

# The builds of a variant's kernel of one flavour, as jq arguments in
# KERNEL_BUILD_JQ_ARGS: sha256 of bzImage and of the modules the guest
# loads, keys PREFIXkernel_sha256 and PREFIXmodule_sha256.
kernel_build_jq_args() {	# kernel_build_jq_args VARIANT FLAVOUR [PREFIX]
	local bzimage
	bzimage=$(kernel_obj_dir "$1" "$2")/arch/x86/boot/bzImage
	[ -f "$bzimage" ] || die "no $2 kernel for $1 at $bzimage: run 'make kernels'"
	KERNEL_BUILD_JQ_ARGS=(--arg "${3:-}kernel_sha256" "$(sha256sum < "$bzimage" | cut -d' ' -f1)"
		--arg "${3:-}module_sha256" "$(hash_files "$(module_dir "$1" "$2")"/*.ko)")
}

# This executor's facts for a unit that boots KERNEL of FLAVOUR, as JSON
# (the run id is the unit's).
unit_facts_json() {	# unit_facts_json KERNEL FLAVOUR
	kernel_build_jq_args "$1" "$2"
	jq -n --arg run_id "$UNIT_RUN_ID" --arg rig_commit "$(rig_commit)" \
		--arg measuring_code_sha256 "$(measuring_code_sha256)" --arg mode "$MODE" \
		"${KERNEL_BUILD_JQ_ARGS[@]}" '$ARGS.named'
}

# Its words as a JSON array of strings, [] for none.
json_array() { jq -cn '$ARGS.positional' --args "$@"; }

# semicolons WORD...: the words joined by "; " (a message's list of units
# and why).
semicolons() {
	local s
	s=$(printf '%s; ' "$@")
	echo "${s%; }"
}

# join_rows OUT UNIT_DIR...: the units' rows (their samples.csv, a unit
# without rows passed over) under one header, in the order given.
join_rows() {
	local out=$1 dir
	shift
	"$BUILD_DIR/bin/rows" header > "$out"
	for dir; do
		[ ! -s "$dir/samples.csv" ] || tail -n +2 "$dir/samples.csv" >> "$out"
	done
}

# A unit's state, from its folder: finished (and did not fail),
# failed, missing (it never ran, or did not finish: unit.sh writes
# `seconds` last) or corrupt (it finished, but its rows are not a
# samples.csv: cut short by a full disk or a copy, or written over).
unit_state() {
	if [ ! -f "$1/ran.json" ] || [ ! -s "$1/seconds" ]; then
		echo missing
	elif [ -f "$1/failed" ]; then
		echo failed
	elif [ -n "$(unit_rows_refusal "$1")" ]; then
		echo corrupt
	else
		echo finished
	fi
}

# Why a unit's samples.csv is not one, naming the file and the line, or
# nothing.
unit_rows_refusal() {
	"$BUILD_DIR/bin/rows" check "$1/samples.csv" 2>&1 || true
}

# --- A kernel's failure: a finding, not a fault of the rig ---
# A unit whose boot failed because of its kernel (a panic, an oops, a
# warning, a hang, a selftest or another step of the guest that failed)
# keeps why in failure.json (unit.sh; docs/units.md, "A kernel that
# fails"): its kind, the kernel's first complaint line (KERNEL_COMPLAINT)
# and the function it came from, the suite's step the guest was in, and
# the signature that tells two failures of one kernel apart.  A unit
# that failed without one (QEMU killed from outside, a full disk, a
# plan refused, a host step that failed) is a fault of the rig, which
# make resume runs again.

# What says an oops (the kernel stopped a task: a bad pointer, BUG(), a
# general protection fault in the kernel), beside a panic alone
# ("Kernel panic - not syncing" with no oops before it: init killed, a
# root not mounted) and the complaints that let the kernel go on
# (warnings, slab debugging's reports, refcount_t's).
# shellcheck disable=SC2034
KERNEL_OOPS='Oops|kernel BUG at|BUG: unable to handle|BUG: kernel NULL pointer|general protection'
# Frames of a call trace that only report a complaint (dump_stack, the
# panic, WARN's and BUG's traps, an oops's die): the function a
# complaint came from is the first frame after them.
KERNEL_REPORTING_FRAMES='^(dump_stack|dump_stack_lvl|show_stack|show_trace_log_lvl|panic|vpanic|nmi_panic|__warn|warn_slowpath_fmt|report_bug|handle_bug|exc_invalid_op|asm_exc_invalid_op|__die|__die_body|die|die_addr|oops_end|page_fault_oops|kernelmode_fixup_or_oops|__bad_area_nosemaphore|bad_area_nosemaphore|do_user_addr_fault|exc_page_fault|asm_exc_page_fault|exc_general_protection|asm_exc_general_protection|do_trap|do_error_trap|refcount_warn_saturate|__warn_printk|kasan_report|print_report|check_bytes_and_report|check_object|print_trailer|object_err|slab_err)$'

# serial_failure SERIAL_LOG [trace]: what a serial log says of a
# failure, as "KEY<TAB>VALUE" lines: complaint (the kernel's first
# complaint line, without a printk time stamp) and its line number,
# function (the first kernel "RIP: 0010:func+0x.../0x..." within 200
# lines after it, unless it only reports the complaint (refcount_t's
# refcount_warn_saturate), else the first frame of the first "Call
# Trace:" there that is not marked unreliable ("? ") and does not only
# report it; " [module]" kept), oops and panic (1 where a line says so), step (the
# guest's step at the complaint: "kernel boot" before init, "init",
# else the suite's step), failed_step and failed_line (the suite's
# "FAILED in step ..." and its first "FAILED: ..."), last_line (the
# console's last).  With "trace": the complaint line, the RIP line and
# the call trace, from "Call Trace:" to "</TASK>" (or the end of its
# indented lines), its frames without a user task's registers, at most
# 40 lines of it, as a reader wants them.
serial_failure() {	# serial_failure SERIAL_LOG [trace]
	awk -v complaint="$KERNEL_COMPLAINT" -v oops="$KERNEL_OOPS" -v reporting="$KERNEL_REPORTING_FRAMES" \
		-v mode="${2:-fields}" '
	function symbol(s,   name, rest) {	# "f+0x3c/0x170 [m]": "f [m]"
		if (!match(s, /^[A-Za-z_.$][A-Za-z0-9_.$]*\+0x[0-9a-f]+\/0x[0-9a-f]+/)) return ""
		name = substr(s, 1, RLENGTH)
		rest = substr(s, RLENGTH + 1)
		sub(/\+0x.*/, "", name)
		# a clone the compiler made (.cold, .part.0, .isra.0, .constprop.0) is
		# its function
		sub(/(\.(cold|part|isra|constprop|lto_priv)(\.[0-9]+)?)+$/, "", name)
		if (match(rest, /^ \[[^]]+\]/)) name = name substr(rest, 1, RLENGTH)
		return name
	}
	{
		line = $0
		sub(/\r$/, "", line); sub(/^\[ *[0-9]+\.[0-9]+\] /, "", line); gsub(/\t/, " ", line)
		if (line != "") last = line
	}
	!at && line ~ /cdevbench-init: / { step = "init" }
	!at && line ~ /cdevbench-suite: step / { step = line; sub(/.*cdevbench-suite: step /, "", step) }
	line ~ /cdevbench-suite: FAILED in step / && failed_step == "" {
		failed_step = line; sub(/.*cdevbench-suite: FAILED in step /, "", failed_step)
		sub(/ \(status [0-9]+\)$/, "", failed_step)
	}
	line ~ /cdevbench-suite: FAILED: / && failed_line == "" { failed_line = line; sub(/.*cdevbench-suite: /, "", failed_line) }
	line ~ oops && line !~ /^traps: / { is_oops = 1 }
	line ~ /Kernel panic/ { is_panic = 1 }
	!at && line ~ complaint { at = NR; first = line; if (step == "") step = "kernel boot" }
	!at { next }
	NR - at <= 200 && rip == "" && line ~ /^RIP: 0010:/ {
		s = line; sub(/^RIP: 0010:/, "", s)
		if ((f = symbol(s)) != "") {
			rip = line; name = f; sub(/ .*/, "", name)
			if (name !~ reporting) func_rip = f
		}
	}
	NR - at <= 200 && !trace_at && line ~ /^Call Trace:/ { trace_at = NR; in_trace = 1; task = 0; kept = 0 }
	trace_at && NR > trace_at && in_trace {
		if (line ~ /^ *<TASK>/) task = 1
		if (!task && line !~ /^ /) { in_trace = 0; next }
		# the registers of a user task inside <TASK> are no frame
		if (line !~ /^ /) next
		if (kept < 40) trace[++kept] = line
		else cut = 1
		s = line; sub(/^ +/, "", s)
		if (func_frame == "" && (f = symbol(s)) != "") {
			name = f; sub(/ .*/, "", name)
			if (name !~ reporting) func_frame = f
		}
		if (line ~ /^ *<\/TASK>/) in_trace = 0
	}
	END {
		func_name = func_rip != "" ? func_rip : func_frame
		if (mode == "trace") {
			if (!at) exit
			print first
			if (rip != "") print rip
			if (trace_at) {
				print "Call Trace:"
				for (i = 1; i <= kept; i++) print trace[i]
				if (cut) print " ... (cut at 40 lines; serial.log has it whole)"
			}
			exit
		}
		printf "complaint\t%s\ncomplaint_line\t%s\nfunction\t%s\noops\t%d\npanic\t%d\n", first, at, func_name, is_oops, is_panic
		printf "step\t%s\nfailed_step\t%s\nfailed_line\t%s\nlast_line\t%s\n", step, failed_step, failed_line, last
	}' "$1" 2> /dev/null
}

# failure_json UNIT_DIR BOOT_STATUS: the unit's failure.json, where the
# boot (scripts/boot.sh, whose status is BOOT_STATUS) failed because of
# its kernel; nothing where it did not fail, or failed for the rig
# (QEMU killed from outside: qemu-signal; a status of boot.sh's own with
# no complaint in the serial log: QEMU that would not start, a console
# that could not be written, a guest that handed back no status).  The
# kinds: hang (124), panic, oops or warning (125 and a complaint), and,
# where the guest handed back BOOT_STATUS as its own (exit-status),
# selftest (its selftest failed: the first "not ok" line of
# selftest.tap, the failed cases) or step (another step of the suite, or
# init, failed: its "FAILED: ..." line).  The signature, what two
# failures of one kernel share when they fail the same way: the kind and
# the function, else the failed cases, else the step.
failure_json() {	# failure_json UNIT_DIR BOOT_STATUS
	local dir=$1 status=$2 guest
	[ "$status" != 0 ] && [ ! -f "$dir/qemu-signal" ] || return 0
	guest=$(cat "$dir/exit-status" 2> /dev/null || true)
	serial_failure "$dir/serial.log" |
		jq -R 'split("\t") | {(.[0]): (.[1:] | join("\t"))}' | jq -s 'add // {}' |
		jq -c --argjson status "$status" --arg guest "$guest" --argjson timeout "${BOOT_TIMEOUT:-0}" \
			--argjson cases "$(sed -n 's/^not ok [0-9]* \([^ ]*\).*/\1/p' "$dir/selftest.tap" 2> /dev/null | json_array_stdin)" \
			--arg not_ok "$(grep -m1 '^not ok ' "$dir/selftest.tap" 2> /dev/null | tr -d '\r' || true)" '
		def nonempty: if . == "" or . == null then null else . end;
		(.function | nonempty) as $function
		| (.complaint | nonempty) as $complaint
		| if $status == 124 then
			{ kind: "hang", line: ($complaint // "no power-off within \($timeout)s; the console'"'"'s last line: \(.last_line)"),
			  function: (if $complaint then $function else null end), step: (.step | nonempty) }
		elif $status == 125 and $complaint then
			{ kind: (if .oops == "1" then "oops" elif .panic == "1" then "panic" else "warning" end),
			  line: $complaint, function: $function, step: (.step | nonempty) }
		elif $guest == ($status | tostring) then
			(.failed_step | nonempty) as $failed
			| if ($failed // "" | test("^(race_)?selftest")) or ($cases | length > 0) then
				{ kind: "selftest", line: (($not_ok | nonempty) // (.failed_line | nonempty) // .last_line),
				  function: null, step: ($failed // "selftest"), cases: $cases }
			else
				{ kind: "step", line: ((.failed_line | nonempty) // .last_line), function: null,
				  step: ($failed // "init") }
			end
		else empty end
		| . + { status: $status,
			signature: "\(.kind) \(.function // (if .kind == "selftest" then (.cases | join(",")) | nonempty
				elif .kind == "step" then .step else null end) // "in step \(.step // "kernel boot")")" }
		| del(.cases)'
}

# Its standard input's lines as a JSON array of strings.
json_array_stdin() { jq -cR . | jq -cs .; }

# Every kernel failure of a run, "KERNEL_SHA256<TAB>SIGNATURE" a line:
# each unit's failure.json and its earlier attempts' (attempt-<k>/),
# under the kernel its plan boots (expected.json's kernel_sha256: the
# A/A arm's and its baseline's alike, a timing and a plugin boot alike).
kernel_failures() {	# kernel_failures RUN
	local u found
	while read -r u; do
		mapfile -t found < <(find "$1/$u" -maxdepth 2 -name failure.json \( -path "$1/$u/failure.json" \
			-o -path "$1/$u/attempt-*/failure.json" \) 2> /dev/null | sort)
		[ ${#found[@]} -gt 0 ] || continue
		jq -r --arg k "$(jq -r .kernel_sha256 "$1/$u/expected.json")" '"\($k)\t\(.signature)"' "${found[@]}"
	done < "$1/units.list"
}

# How many times the kernel UNIT boots failed in the run the way its
# failure.json says (KERNEL_FAILURES: kernel_failures' lines).
times_failed() {	# times_failed RUN UNIT KERNEL_FAILURES
	grep -cxF "$(jq -r .kernel_sha256 "$1/$2/expected.json")"$'\t'"$(jq -r .signature "$1/$2/failure.json")" <<< "$3" || true
}

# A unit whose kernel failed, and failed that way twice or more in the
# run (two boots, or a boot and its attempt again): a finding that make
# resume keeps, booting it no more (docs/units.md).  Its current
# failure.json is the one counted: a hang on a host too slow for
# BOOT_TIMEOUT is booted again once that file is removed.
unit_settled() {	# unit_settled RUN UNIT KERNEL_FAILURES
	[ "$(unit_state "$1/$2")" = failed ] && [ -f "$1/$2/failure.json" ] &&
		[ "$(times_failed "$@")" -ge 2 ]
}

# Why nothing can be written into DIR (a full filesystem, a read-only
# one: the system's error), or nothing: a probe of 1 MiB written there
# and removed.
write_refusal() {	# write_refusal DIR
	local err
	err=$(head -c 1M /dev/zero 2>&1 > "$1/.cdevbench-probe") || err=${err:-cannot write}
	rm -f "$1/.cdevbench-probe"
	[ -z "$err" ] || echo "cannot write into $1: ${err##*: }"
}

# A boot's steps and their host seconds, from its steps.tsv (boot.sh: each
# line the start of a step, the last QEMU's exit), "STEP<TAB>SECONDS", the
# kernel's boot first.  An address in a step's name becomes "0x...", and
# init's lines that name the boot or its status "init" and "power-off", so
# that the boots of different kernels sum by step.
unit_profile() {	# unit_profile UNIT_DIR
	awk -F'\t' '{ name = $2; gsub(/0x[0-9a-f]+/, "0x...", name)
			sub(/^init: variant .*/, "init", name)
			sub(/^init: powering off.*/, "power-off", name) }
		NR == 1 { printf "kernel boot\t%.2f\n", $1 }
		NR > 1 { printf "%s\t%.2f\n", prev, $1 - t }
		{ prev = name; t = $1 }' "$1/steps.tsv"
}

# A unit's phase, from its unit.env.
# shellcheck source=/dev/null
unit_phase() { (. "$1/unit.env" && echo "$UNIT_PHASE"); }

# What the run of META expects a unit of ARM and PHASE to run with, as
# JSON of UNIT_FACTS.
unit_expected_json() {	# unit_expected_json META ARM PHASE
	jq --arg arm "$2" --arg flavour "$(phase_flavour "$3")" '
		{ run_id, rig_commit, measuring_code_sha256, mode } +
		(.variants[$arm] | if $flavour == "fault"
			then { kernel_sha256: .fault_kernel_sha256, module_sha256: .fault_module_sha256 }
			else { kernel_sha256, module_sha256 } end)' "$1"
}

# Why a unit's ran.json is not what EXPECTED (a JSON file of UNIT_FACTS,
# named EXPECTED_NAME) says, or nothing.
unit_refusal() {	# unit_refusal UNIT_DIR EXPECTED EXPECTED_NAME
	json_difference "the unit (ran.json)" "$1/ran.json" "$3" "$2" "${UNIT_FACTS[@]}"
}

# docs/settings.md's table of settings.
settings_table() {
	local name default check scope doc meaning
	echo '| variable | default | meaning |'
	echo '|---|---|---|'
	while IFS='|' read -r name default check scope doc meaning; do
		printf '| `%s` | %s | %s |\n' "$name" "${doc:-none}" "$meaning"
	done < <(settings_rows)
}

# meta.json's one writer
. "$RIG_ROOT/scripts/meta.sh"

load_settings
BUILD_DIR=$(mkdir -p "$BUILD_DIR" && cd "$BUILD_DIR" && pwd)
use_base "$BASE"
