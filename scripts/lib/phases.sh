# shellcheck shell=bash
# Phases (scripts/phases.def): each declared phase's row read, the
# settings it names given their values, and which phases and kernel
# flavours a run plans.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

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
