# shellcheck shell=bash
# Settings (scripts/settings.def, docs/settings.md): their declarations
# read, their computed defaults, their checks, and rig_init, which a
# script calls once after sourcing scripts/lib.sh: every setting given
# its value there.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# The declarations, one per line: name|default|check|scope|doc|meaning,
# each field without the blanks around it.
settings_rows() {
	sed -n 's/ *| */|/g; s/^\([A-Z]\)/\1/p' "$RIG_ROOT/scripts/settings.def"
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

# rig_init: what a script of the rig does first, after sourcing
# scripts/lib.sh: RIG_ROOT, the rig's folder; RIG_T0, the run's start
# time, one for the whole run (the scripts a run starts inherit it), so
# that every log line shows run time; every setting given its value and
# checked (load_settings); BUILD_DIR made, and absolute; the current
# base's globals (use_base).
rig_init() {
	RIG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	export RIG_T0=${RIG_T0:-$(date +%s)}
	load_settings
	BUILD_DIR=$(mkdir -p "$BUILD_DIR" && cd "$BUILD_DIR" && pwd)
	use_base "$BASE"
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

# docs/settings.md's table of settings.
settings_table() {
	local name default check scope doc meaning
	echo '| variable | default | meaning |'
	echo '|---|---|---|'
	while IFS='|' read -r name default check scope doc meaning; do
		printf '| `%s` | %s | %s |\n' "$name" "${doc:-none}" "$meaning"
	done < <(settings_rows)
}
