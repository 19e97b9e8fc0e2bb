# shellcheck shell=bash
# meta.json, a run's provenance: its one writer.  Sourced by scripts/lib.sh:
# defines functions, no more.
# Every write of a run's meta.json is one of these, each made whole
# beside the file and moved over it, so that a reader never sees half of
# one; no other script writes it:
#   meta_write_plan RUN ...          make bench: the whole file, from the
#                                    plan (meta_plan_*), once its kernels
#                                    are built and before any boot
#   meta_set_not_bisectable RUN ...  make merge: why each booted prefix
#                                    of a walk is left out, or null
#   meta_set_failures RUN ...        make merge: the kernels' failures,
#                                    by arm
#   meta_add_sitting RUN ...         make resume: a sitting, the units it ran
# and meta_write_comparable FILE writes, for make bench AGAINST=, what
# join_refusal compares of a run before any kernel is built (a scratch
# file).  The join of two runs (AGAINST), RUN/against-NAME/meta.json, is
# the report engine's: compare --join (compare/join.c).  Every key,
# its type, and which of these writes it when: docs/meta-json.md, which
# tests/test_46_meta_schema.sh holds to what they write.  Values are
# read first and given to one jq, so that a value that cannot be read
# fails the write instead of leaving a hole.

# Write FILE whole: CMD's output beside it, then moved over it.
meta_replace() {	# meta_replace FILE CMD...
	local file=$1
	shift
	"$@" > "$file.tmp" || { rm -f "$file.tmp"; return 1; }
	mv "$file.tmp" "$file"
}

# A run's meta.json changed by a jq filter (jq's options before it).
meta_update() {	# meta_update RUN JQ_ARGS... FILTER
	local run=$1
	shift
	meta_replace "$run/meta.json" jq "$@" "$run/meta.json"
}

# jq arguments of every setting of scope guest or run, key in lower case,
# typed by its check, in META_SETTINGS_ARGS.
meta_settings_args() {
	local name check scope key
	META_SETTINGS_ARGS=()
	while IFS='|' read -r name _ check scope _; do
		[ "$scope" = guest ] || [ "$scope" = run ] || continue
		key=${name,,}
		case $check in
		count | count:*) META_SETTINGS_ARGS+=(--argjson "$key" "${!name}") ;;
		counts) META_SETTINGS_ARGS+=(--argjson "$key" "[$(echo ${!name} | tr ' ' ',')]") ;;
		bool) META_SETTINGS_ARGS+=(--argjson "$key" "$( [ "${!name}" = 1 ] && echo true || echo false)") ;;
		*) META_SETTINGS_ARGS+=(--arg "$key" "${!name}") ;;
		esac
	done < <(settings_rows)
}

# jq arguments of the rig and the host, in META_FACTS_ARGS.
meta_facts_args() {
	local qemu
	# a QEMU that fails says nothing here: the check below names it
	qemu=$(qemu-system-x86_64 --version 2> /dev/null | head -1) || true
	[ -n "$qemu" ] || die "qemu-system-x86_64 --version printed nothing"
	META_FACTS_ARGS=(--arg rig_commit "$(rig_commit)"
		--arg measuring_code_sha256 "$(measuring_code_sha256)"
		--arg host_cpu "$(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -1)"
		--argjson host_cores "$(nproc)" --arg qemu_version "$qemu"
		--arg seeds "boot k of an arm ran with QEMU -seed k$([ "$AA" = 0 ] || echo ", of the A/A arm with -seed $BOOTS + k")")
}

# The current base, as JSON: its name, the kernel version, and the
# package and its version, or the tree, its git describe and whether it
# has changes git has not committed.
meta_base_json() {
	local describe=null dirty=null
	if [ -n "$KERNEL_TARBALL" ]; then
		jq -n --arg name "$BASE" --arg key "$BASE_KEY" \
			--arg kernel_version "$(tree_version "$PRISTINE_TREE")" --arg package "linux-source-$BASE" \
			--arg package_version "$(dpkg-query -W -f='${Version}' "linux-source-$BASE" 2> /dev/null || echo unknown)" \
			'$ARGS.named'
		return
	fi
	if git -C "$BASE" rev-parse --git-dir > /dev/null 2>&1; then
		describe=$(git -C "$BASE" describe --always --tags 2> /dev/null | jq -R .)
		dirty=$([ -z "$(git -C "$BASE" status --porcelain --untracked-files=no)" ] && echo false || echo true)
	fi
	jq -n --arg name "$BASE" --arg key "$BASE_KEY" \
		--arg kernel_version "$(tree_version "$PRISTINE_TREE")" --arg tree "$BASE" --argjson git_describe "$describe" --argjson git_dirty "$dirty" \
		--arg identity "$(cat "$PRISTINE_TREE/.cdevbench-extracted")" '$ARGS.named'
}

# The subjects of a variant's patches, one per line, so that a report says
# which patches ran: each Subject header unfolded (continuation lines start
# with blanks), without its [PATCH] prefix.
patch_subjects() {
	local p patches
	mapfile -t patches < <(series_patches "$1")
	for p in "${patches[@]}"; do patch_subject "$p"; done
}

# Where a variant's patches were posted: each patch's Link: tags, or for
# a mail without one its Message-Id as a lore link (what b4 would add).
patch_links() {
	local p patches
	mapfile -t patches < <(series_patches "$1")
	for p in "${patches[@]}"; do
		grep -q '^Link: ' "$p" && { sed -n 's/^Link: *//p' "$p"; continue; }
		sed -n '/^$/q; s|^Message-I[Dd]: *<\(.*\)>.*|https://lore.kernel.org/r/\1|p' "$p"
	done
}

# Options that both kernel configs set (a value, or n for "is not set")
# and set differently, one "CONFIG_X: A -> B" per line.
config_differences() {	# config_differences A_CONFIG B_CONFIG
	awk 'FNR == 1 { file++ }
		/^CONFIG_/ { k = $0; sub(/=.*/, "", k); v = substr($0, length(k) + 2) }
		/^# CONFIG_.* is not set$/ { k = $2; v = "n" }
		!/^CONFIG_/ && !/^# CONFIG_.* is not set$/ { next }
		file == 1 { a[k] = v; next }
		k in a && a[k] != v { print k ": " a[k] " -> " v }' "$1" "$2"
}

# make bench's plan, built up in META_BASES, META_ARMS and META_WALKS by
# the calls below, in the shell that makes the plan (so that a value that
# cannot be read stops it), then written whole by meta_write_plan.
meta_plan_begin() {
	META_BASES='[]' META_ARMS='{}' META_WALKS='[]' META_CALIBRATION=
}

# The arm whose pmu boot runs the plugin's calibration benchmarks, which
# no other arm runs.
meta_plan_calibration() {	# meta_plan_calibration ARM BENCH...
	META_CALIBRATION=$(jq -n --arg arm "$1" '{arm: $arm, benches: $ARGS.positional}' --args "${@:2}")
}

# Each base, in order (meta_base_json); the current base is the last.
meta_plan_bases() {	# meta_plan_bases BASE...
	local b
	for b in "$@"; do
		use_base "$b"
		META_BASES=$(jq --argjson b "$(meta_base_json)" '. + [$b]' <<< "$META_BASES")
	done
}

# An arm ARM that boots variant KERNEL on the current base: its builds
# and patches; AA_OF, the arm it is the A/A control of, or nothing.  An
# arm on another base than the baseline's says which options of its
# config differ from BASE_CONFIG, the baseline's (nothing for an arm on
# the baseline's base): all of them (config_differences), and those
# rig.config or the variant's config ask for on every base
# (rig_config_differences, which the report engine refuses to compare; a
# line tagged with a kernel line, "[6.12] CONFIG_X=y", asks on that
# line's bases only and may differ).  With FAULTS=1, its fault kernel's
# too, the keys prefixed fault_.
meta_plan_arm() {	# meta_plan_arm ARM KERNEL AA_OF BASE_CONFIG
	local k=$2 aa_of=$3 base_config=$4 tree obj fobj subjects links release config series
	local fragment arm all_diffs diffs=[] rig_diffs=[]
	tree=$(variant_dir "$k") obj=$(kernel_obj_dir "$k") fobj=$(kernel_obj_dir "$k" fault)
	subjects=$(patch_subjects "$k" | jq -R . | jq -s .)
	links=$(patch_links "$k" | jq -R . | jq -s .)
	release=$(< "$obj/include/config/kernel.release")
	config=$(sha256sum < "$obj/.config" | cut -d' ' -f1)
	series=$(< "$tree/.cdevbench/series.sha")
	fragment=null
	[ ! -f "$(variant_file "$k" config)" ] || fragment="\"$(realpath -s --relative-to="$PATCHES_DIR/.." "$(variant_file "$k" config)")\""
	if [ -n "$base_config" ] && [ -f "$base_config" ]; then
		all_diffs=$(config_differences "$base_config" "$obj/.config")
		diffs=$(jq -R . <<< "$all_diffs" | jq -s 'map(select(. != ""))')
		rig_diffs=$(printf '%s' "$all_diffs" |
			{ grep -wFf <(sed -nE 's/^(# )?(CONFIG_[A-Za-z0-9_]+).*/\2/p' "$PATCHES_DIR/rig.config" \
				"$(variant_file "$k" config)" 2> /dev/null) || true; } |
			jq -R . | jq -s .)
	fi
	kernel_build_jq_args "$k" timing
	arm=$(jq -n --arg kernel "$k" --arg base "$BASE" --arg kernel_release "$release" \
		--arg config_sha256 "$config" \
		--arg series_sha256 "$series" --argjson patches "$subjects" --argjson links "$links" \
		--argjson config_fragment "$fragment" --argjson config_differences "$diffs" \
		--argjson rig_config_differences "$rig_diffs" "${KERNEL_BUILD_JQ_ARGS[@]}" '$ARGS.named')
	[ -z "$aa_of" ] || arm=$(jq --arg aa_of "$aa_of" '. + $ARGS.named' <<< "$arm")
	if [ "$FAULTS" = 1 ]; then
		release=$(< "$fobj/include/config/kernel.release")
		config=$(sha256sum < "$fobj/.config" | cut -d' ' -f1)
		kernel_build_jq_args "$k" fault fault_
		arm=$(jq --arg fault_kernel_release "$release" --arg fault_config_sha256 "$config" \
			--arg fault_config_fragment patches/fault.config "${KERNEL_BUILD_JQ_ARGS[@]}" \
			'. + $ARGS.named' <<< "$arm")
	fi
	META_ARMS=$(jq --arg v "$1" --argjson arm "$arm" '. + {($v): $arm}' <<< "$META_ARMS")
}

# A walk (WALK=1) on the current base: WHOLE, the arm of its whole series
# (of variant KERNEL); FROM, its step 0's arm; REASONS, a JSON object of
# why a step's arm is left out (make bench: its kernel did not build);
# STEP..., its steps' arms, 1 to the whole, each with its patch's subject.
meta_plan_walk() {	# meta_plan_walk WHOLE KERNEL FROM REASONS STEP...
	META_WALKS=$(jq --arg variant "$1" --arg base "$BASE" --arg from "$3" \
		--argjson subjects "$(patch_subjects "$2" | jq -R . | jq -s .)" \
		--argjson reasons "$4" '. + [{ variant: $variant, base: $base, from: $from,
			steps: [$ARGS.positional | to_entries[] | { step: (.key + 1), arm: .value,
				subject: $subjects[.key], not_bisectable: ($reasons[.value] // null) }] }]' \
		--args "${@:5}" <<< "$META_WALKS")
}

# The command that makes run RUN again, in a clone of the rig: the rig at
# its commit, the patches from the run folder (relative to the rig where
# the run is in it: no path of this machine), every setting the results
# depend on.
meta_reproduce_command() {	# meta_reproduce_command RUN VARIANTS BASES
	local name scope cmd commit patches_dir=$1/patches
	commit=$(rig_commit)
	[[ $patches_dir != "$RIG_ROOT"/* ]] || patches_dir=${patches_dir#"$RIG_ROOT"/}
	cmd="git checkout ${commit%-dirty} && make bench"
	cmd+=" PATCHES_DIR=$(printf %q "$patches_dir") VARIANTS=$(printf %q "$2")"
	cmd+=" BASES=$(printf %q "$3")"
	while IFS='|' read -r name _ _ scope _; do
		case $scope in
		guest | run) cmd+=" $name=$(printf %q "${!name}")" ;;
		esac
	done < <(settings_rows)
	echo "$cmd"
}

# The plan, RUN/meta.json, whole: the run's id, date, facts and
# settings, the plan's bases, arms, walks (none, no key) and calibration
# (no plugin boots, no key), and
# reproduce, from VARIANTS and BASES as make bench was given them.
meta_write_plan() {	# meta_write_plan RUN RUN_ID VARIANTS BASES
	local plan_args=()
	[ "$META_WALKS" = '[]' ] || plan_args=(--argjson walks "$META_WALKS")
	[ -z "$META_CALIBRATION" ] || plan_args+=(--argjson calibration "$META_CALIBRATION")
	meta_settings_args
	meta_facts_args
	meta_replace "$1/meta.json" jq -n --arg run_id "$2" --arg date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		"${META_FACTS_ARGS[@]}" "${META_SETTINGS_ARGS[@]}" --argjson bases "$META_BASES" \
		--argjson variants "$META_ARMS" "${plan_args[@]}" \
		--arg reproduce "$(meta_reproduce_command "$1" "$3" "$4")" '$ARGS.named'
}

# make resume: a sitting, its date and the units it ran, after the
# earlier ones.
meta_add_sitting() {	# meta_add_sitting RUN DATE UNIT...
	meta_update "$1" --arg date "$2" --argjson units "$(json_array "${@:3}")" \
		'.sittings = (.sittings // []) + [{ date: $date, units: $units }]'
}

# make bench BISECT=: the bisection's steps decided and its answer
# (BISECTION, a JSON object, docs/meta-json.md).
meta_set_bisection() {	# meta_set_bisection RUN BISECTION
	meta_update "$1" --argjson b "$2" '.bisection = $b'
}

# make merge: every walk step whose arm is in BOOTED (a JSON array of the
# arms with units) gets its reason from REASONS (a JSON object by arm),
# or null: a prefix that booted again may be bisectable now.
meta_set_not_bisectable() {	# meta_set_not_bisectable RUN BOOTED REASONS
	meta_update "$1" --argjson booted "$2" --argjson reasons "$3" \
		'.walks[].steps[] |= (.arm as $a | if $booted | index([$a]) then .not_bisectable = ($reasons[$a] // null) else . end)'
}

# make merge: FAILURES (a JSON object by arm: its units whose kernel
# failed, docs/meta-json.md) as failures, before bisection and sittings,
# or no failures where it is empty (a resume booted them again).
meta_set_failures() {	# meta_set_failures RUN FAILURES
	meta_update "$1" --argjson f "$2" '
		def last: .key == "bisection" or .key == "sittings";
		to_entries | map(select(.key != "failures"))
		| map(select(last | not)) + (if $f == {} then [] else [{key: "failures", value: $f}] end) + map(select(last))
		| from_entries'
}

# make bench AGAINST=: this run's settings, facts and base, as meta.json
# will have them, in FILE, for join_refusal before any kernel is built.
meta_write_comparable() {	# meta_write_comparable FILE
	local base
	meta_settings_args
	meta_facts_args
	extract_pristine
	base=$(meta_base_json)
	meta_replace "$1" jq -n "${META_SETTINGS_ARGS[@]}" "${META_FACTS_ARGS[@]}" \
		--argjson bases "[$base]" '$ARGS.named'
}
