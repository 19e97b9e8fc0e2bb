# shellcheck shell=bash
# Comparing two runs (AGAINST, docs/against.md): what must be alike
# (settings, the measuring code, the bases, the host outside icount),
# the rig's commit, why two runs' meta.json do not compare, and the run
# AGAINST names.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# What decides a run's numbers besides its kernels: these settings, and
# the rig's measuring code, by content (committed or not): what the
# guest runs, how a kernel is built and booted, the phases and the
# library's files that read them into QEMU's command line and each
# boot's suite.env and seed (phases.sh, suite.sh, variants.sh's known
# failures, kvm.sh's KVM_ACCEL), and the Makefile, whose flags make the
# guest programs' bytes.
MEASURED_ALIKE=(mode reps ops vcpus guest_mem trace_n)
MEASURING_CODE=(bench guest-init scripts/boot.sh scripts/initramfs.sh scripts/phases.def scripts/kernel.sh
	scripts/lib/phases.sh scripts/lib/suite.sh scripts/lib/variants.sh scripts/lib/kvm.sh patches/rig.config
	Makefile)
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
