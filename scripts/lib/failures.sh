# shellcheck shell=bash
# A kernel's failure: a finding, not a fault of the rig.  What a kernel
# prints when it complains, and what a unit whose boot failed because of
# its kernel keeps of it.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

# A unit whose boot failed because of its kernel (a panic, an oops, a
# warning, a hang, a selftest or another step of the guest that failed)
# keeps why in failure.json (unit.sh; docs/units.md, "A kernel that
# fails"): its kind, the kernel's first complaint line (KERNEL_COMPLAINT)
# and the function it came from, the suite's step the guest was in, and
# the signature that tells two failures of one kernel apart.  A unit
# that failed without one (QEMU killed from outside, a full disk, a
# plan refused, a host step that failed) is a fault of the rig, which
# make resume runs again.

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
# prints "WARNING: CPU:"), its own WARN()s and BUGs, and those of the
# spinlock and rwlock debugging that PROVE_LOCKING selects ("spinlock
# bad magic": a lock in memory that is no longer one).
# shellcheck disable=SC2034
KERNEL_KCSAN='BUG: KCSAN:'
# shellcheck disable=SC2034
KERNEL_ATOMIC_SLEEP='BUG: sleeping function called from invalid context|BUG: scheduling while atomic'
# shellcheck disable=SC2034
KERNEL_LIST_CHECK=' at lib/list_debug\.c:|list_(add|del) corruption'
# shellcheck disable=SC2034
KERNEL_LOCKDEP='WARNING: [^C]| at kernel/locking/|BUG: MAX_LOCKDEP|BUG: looking up invalid subclass|BUG: (spinlock|rwlock) '

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
