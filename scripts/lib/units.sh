# shellcheck shell=bash
# Units: one boot each, run by any executor (scripts/unit.sh,
# docs/units.md): what a unit depends on and ran with, its state, its
# rows joined, the time its steps took.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# What a unit's numbers depend on besides its settings: the run it
# belongs to, the rig, the mode, and the builds of the kernel it boots
# and of the rig's modules for it.
UNIT_FACTS=(run_id rig_commit measuring_code_sha256 mode kernel_sha256 module_sha256)

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

# Whether a unit's boot runs the traced pass, from its suite.env.
unit_traced() { grep -q '^SUITE_STEPS=.*traced_pass' "$1/suite.env"; }

# The order in which the local executor starts RUN's units, BOOT_JOBS at
# a time: a line "pool UNIT" or "alone UNIT" each.  The longest first, so
# that no core idles at the end: the plugin's boots (the cache model sees
# every access of the boot), then the timing boots with a traced pass,
# then the rest, each class in the plan's order.  A boot that times in
# real time (outside icount, no plugin) runs after them, alone; the share
# boot, TCG in real time too, counts lines and shares the cores
# (docs/running.md, "Parallel boots").
start_order() {	# start_order RUN
	local u plugin=() traced=() other=() alone=()
	while read -r u; do
		phase_load "$(unit_phase "$1/$u")"
		if [ "$PHASE_PLUGIN" != - ]; then
			plugin+=("$u")
		elif [ "$PHASE_MODE" != icount ]; then
			alone+=("$u")
		elif unit_traced "$1/$u"; then
			traced+=("$u")
		else
			other+=("$u")
		fi
	done < "$1/units.list"
	for u in "${plugin[@]}" "${traced[@]}" "${other[@]}"; do echo "pool $u"; done
	for u in "${alone[@]}"; do echo "alone $u"; done
}

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
