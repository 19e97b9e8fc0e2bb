#!/bin/bash
# make bench: build what is missing, boot every variant BOOTS times,
# interleaved (round 1: A B C, round 2: A B C, ...), and file the run under
# RESULTS_DIR/<run-id>/ as DESIGN.md describes.  A run becomes
# RESULTS_DIR/latest only when every boot of it succeeded.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

QUICK=${QUICK:-0}
MODE=${MODE:-auto}
if [ "$MODE" = auto ]; then
	if [ -w /dev/kvm ]; then MODE=kvm; else MODE=icount; fi
fi
case $MODE in
icount) VCPUS=${VCPUS:-1} ;;	# icount runs one vCPU thread anyway
tcg | kvm) VCPUS=${VCPUS:-$(nproc)} ;;
*) die "unknown MODE '$MODE': auto, icount, tcg or kvm" ;;
esac
if [ "$QUICK" = 1 ]; then
	BOOTS=${BOOTS:-2} SWEEP_N=${SWEEP_N:-1 10 100 1000} REPS=${REPS:-5} OPS=${OPS:-50}
else
	BOOTS=${BOOTS:-3} SWEEP_N=${SWEEP_N:-1 10 100 1000 10000} REPS=${REPS:-5} OPS=${OPS:-200}
fi
# Majors of the spread registration layout (run for N >= 10 x SPREAD_MAJORS);
# dynamic majors run out at about 150.
SPREAD_MAJORS=${SPREAD_MAJORS:-10}
# N of the traced pass: the largest N of the sweep up to 1000, so that
# tracing stays short.
TRACE_N=${TRACE_N:-$(printf '%s\n' $SWEEP_N | awk '$1 <= 1000' | sort -n | tail -1)}
# Threads for open_cached_ns: 1, 2 and, where vCPUs run in parallel, VCPUS.
THREADS=${THREADS:-$(printf '%s\n' 1 2 $([ "$MODE" != icount ] && echo "$VCPUS") | sort -nu | tr '\n' ' ')}
GUEST_MEM=${GUEST_MEM:-1024}
# 1: after the timing boots, one boot per variant of its fault kernel for
# the failure-path phase (patches/fault.config).
FAULTS=${FAULTS:-1}
# 1: an A/A control, the baseline's kernel booted as a second arm named
# BASELINE-aa, interleaved with the others; the report counts the verdicts
# it gets, which should all be "same".
AA=${AA:-0}
BASELINE=${BASELINE:-stock}
RESULTS_DIR=$(mkdir -p "${RESULTS_DIR:-$RIG_ROOT/results}" && cd "${RESULTS_DIR:-$RIG_ROOT/results}" && pwd)
export MODE VCPUS GUEST_MEM

read -r -a variants <<< "${VARIANTS:-$(all_variants | tr '\n' ' ')}"
[ ${#variants[@]} -gt 0 ] || die "VARIANTS is empty"
for v in "${variants[@]}"; do check_variant "$v"; done
[[ $BOOTS =~ ^[1-9][0-9]*$ ]] || die "BOOTS must be a positive number, not '$BOOTS'"
[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive number, not '$REPS'"
[[ $OPS =~ ^[1-9][0-9]*$ ]] || die "OPS must be a positive number, not '$OPS'"
[[ $TRACE_N =~ ^[1-9][0-9]*$ ]] || die "TRACE_N must be a positive number (SWEEP_N needs an N <= 1000), not '$TRACE_N'"
[[ $SPREAD_MAJORS =~ ^[1-9][0-9]*$ ]] && [ "$SPREAD_MAJORS" -le 100 ] ||
	die "SPREAD_MAJORS must be a number from 1 to 100, not '$SPREAD_MAJORS'"
for n in $SWEEP_N; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die "SWEEP_N holds '$n', not a positive number"
done
[[ $FAULTS =~ ^[01]$ ]] || die "FAULTS must be 0 or 1, not '$FAULTS'"
[[ $AA =~ ^[01]$ ]] || die "AA must be 0 or 1, not '$AA'"
# Arms are what boots: the variants, then the A/A arm right after its
# baseline so that both see the same stretch of host load.
arms=()
for v in "${variants[@]}"; do
	arms+=("$v")
	[ "$AA" = 0 ] || [ "$v" != "$BASELINE" ] || arms+=("$BASELINE-aa")
done
[ "$AA" = 0 ] || [ ${#arms[@]} -gt ${#variants[@]} ] ||
	die "AA=1 needs the baseline '$BASELINE' in VARIANTS (${variants[*]})"
# The kernel an arm boots.
arm_kernel() { if [ "$AA" = 1 ] && [ "$1" = "$BASELINE-aa" ]; then echo "$BASELINE"; else echo "$1"; fi; }
flavours=(timing)
[ "$FAULTS" = 0 ] || flavours+=(fault)

# Two runs on one results folder would race for 'latest': refuse the second.
exec 9> "$RESULTS_DIR/.lock"
flock -n 9 || die "another 'make bench' is using $RESULTS_DIR; wait for it or set RESULTS_DIR"

log "step 1/3: kernels (${flavours[*]}) for ${variants[*]}"
for v in "${variants[@]}"; do
	for f in "${flavours[@]}"; do "$RIG_ROOT/scripts/kernel.sh" "$v" "$f"; done
done

run_id=$(date -u +%Y%m%dT%H%M%SZ)${LABEL:+-$LABEL}
run=$RESULTS_DIR/$run_id
[ ! -e "$run" ] || die "$run already exists"
mkdir -p "$run"
echo running > "$run/status"
interrupted() {
	echo interrupted > "$run/status"
	log "interrupted: $run is marked interrupted and does not become latest"
	exit 130
}
trap interrupted INT TERM

json_str() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }

# The subjects of a variant's patches as a JSON array, so that a report
# says which patches ran.
patch_subjects() {
	local p first=1 patches
	mapfile -t patches < <(series_patches "$1")
	printf '['
	for p in "${patches[@]}"; do
		[ $first = 1 ] || printf ', '
		first=0
		# the header unfolded: continuation lines start with blanks
		json_str "$(awk '/^Subject:/ { s = $0; on = 1; next }
			on && /^[ \t]/ { s = s $0; next } on { exit }
			END { sub(/^Subject: *(\[[^]]*\] *)?/, "", s); gsub(/[ \t]+/, " ", s); print s }' "$p")"
	done
	printf ']'
}

write_meta() {
	local v k tree first=1 commit
	commit=$(git -C "$RIG_ROOT" rev-parse HEAD 2> /dev/null || echo unknown)
	[ -z "$(git -C "$RIG_ROOT" status --porcelain --untracked-files=no 2> /dev/null)" ] ||
		commit="$commit-dirty"
	{
		echo "{"
		echo "  \"run_id\": $(json_str "$run_id"),"
		echo "  \"date\": $(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)"),"
		echo "  \"rig_commit\": $(json_str "$commit"),"
		echo "  \"host_cpu\": $(json_str "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"),"
		echo "  \"host_cores\": $(nproc),"
		echo "  \"qemu_version\": $(json_str "$(qemu-system-x86_64 --version | head -1)"),"
		echo "  \"mode\": $(json_str "$MODE"),"
		echo "  \"vcpus\": $VCPUS,"
		echo "  \"guest_mem_mib\": $GUEST_MEM,"
		echo "  \"sweep_n\": [$(echo $SWEEP_N | tr ' ' ',')],"
		echo "  \"spread_majors\": $SPREAD_MAJORS,"
		echo "  \"trace_n\": $TRACE_N,"
		echo "  \"reps\": $REPS,"
		echo "  \"ops\": $OPS,"
		echo "  \"threads\": [$(echo $THREADS | tr ' ' ',')],"
		echo "  \"boots\": $BOOTS,"
		echo "  \"quick\": $([ "$QUICK" = 1 ] && echo true || echo false),"
		echo "  \"faults\": $([ "$FAULTS" = 1 ] && echo true || echo false),"
		echo "  \"baseline\": $(json_str "$BASELINE"),"
		echo "  \"variants\": {"
		for v in "${arms[@]}"; do
			k=$(arm_kernel "$v")
			tree=$(variant_dir "$k")
			[ $first = 1 ] || echo ","
			first=0
			printf '    %s: {"kernel": %s, "kernel_release": %s, "config_sha256": %s, "series_sha256": %s, "patches": %s, "config_fragment": %s' \
				"$(json_str "$v")" "$(json_str "$k")" \
				"$(json_str "$(cat "$tree/obj/include/config/kernel.release")")" \
				"$(json_str "$(sha256sum < "$tree/obj/.config" | cut -d' ' -f1)")" \
				"$(json_str "$(cat "$tree/.cdevbench/series.sha")")" \
				"$(patch_subjects "$k")" \
				"$( [ -f "$PATCHES_DIR/$k/config" ] && json_str "patches/$k/config" || echo null)"
			[ "$FAULTS" = 0 ] || printf ', "fault_kernel_release": %s, "fault_config_sha256": %s, "fault_config_fragment": "patches/fault.config"' \
				"$(json_str "$(cat "$tree/obj-fault/include/config/kernel.release")")" \
				"$(json_str "$(sha256sum < "$tree/obj-fault/.config" | cut -d' ' -f1)")"
			printf '}'
		done
		echo
		echo "  }"
		echo "}"
	} > "$run/meta.json"
}
write_meta

log "step 2/3: run $run_id: ${arms[*]} x $BOOTS boots, mode $MODE, N in {$SWEEP_N}, $REPS reps"
echo "variant,boot,metric,param,iter,value,unit" > "$run/samples.csv"
failed=()

# One boot: boot_one VARIANT BOOT_DIR FLAVOUR LABEL.  A timing boot's rows
# join the run's samples.csv when it succeeded; a fault boot's always, so
# that the report shows what broke, and its host-side check can fail it.
boot_one() {
	local v=$1 boot_dir=$2 flavour=$3 what=$4 t rc=0 check=0 k
	k=$(arm_kernel "$v")
	{
		echo "VARIANT=$v"
		echo "BOOT=${boot_dir##*-}"
		echo "PHASE=$flavour"
		echo "KERNEL_RELEASE=$(cat "$(kernel_obj_dir "$k" "$flavour")/include/config/kernel.release")"
		echo "RIG_ROOT=$RIG_ROOT"
		echo "MODULE_DIR=$(module_dir "$k" "$flavour")"
		echo "BIN_DIR=$BUILD_DIR/bin"
		echo "SELFTEST_ARGS='$(cat "$PATCHES_DIR/$k/selftest.args" 2> /dev/null || true)'"
		echo "SWEEP_N='$SWEEP_N'"
		echo "SPREAD_MAJORS=$SPREAD_MAJORS"
		echo "TRACE_N=$TRACE_N"
		echo "REPS=$REPS"
		echo "OPS=$OPS"
		echo "THREADS='$THREADS'"
	} > "$boot_dir/suite.env"
	log "$what: $v booting ($flavour kernel, $MODE, $VCPUS vCPU)"
	t=$(date +%s)
	"$RIG_ROOT/scripts/boot.sh" "$k" "$boot_dir" "$flavour" || rc=$?
	if [ "$flavour" = fault ] && [ -s "$boot_dir/samples.csv" ]; then
		"$RIG_ROOT/scripts/fault-check.sh" "$boot_dir" || check=$?
		tail -n +2 "$boot_dir/samples.csv" >> "$run/samples.csv"
		[ $rc != 0 ] || rc=$check
	elif [ $rc = 0 ]; then
		tail -n +2 "$boot_dir/samples.csv" >> "$run/samples.csv"
	fi
	if [ $rc = 0 ]; then
		log "$what: $v done in $(( $(date +%s) - t ))s"
	else
		echo "$rc" > "$boot_dir/failed"
		failed+=("${boot_dir#$run/}")
		log "$what: $v FAILED (status $rc) after $(( $(date +%s) - t ))s; log: $boot_dir/serial.log"
	fi
}

for ((b = 1; b <= BOOTS; b++)); do
	for v in "${arms[@]}"; do
		mkdir -p "$run/$v/boot-$b"
		boot_one "$v" "$run/$v/boot-$b" timing "round $b/$BOOTS"
	done
done
if [ "$FAULTS" = 1 ]; then
	for v in "${variants[@]}"; do
		mkdir -p "$run/$v/fault-1"
		boot_one "$v" "$run/$v/fault-1" fault "failure paths"
	done
fi

if [ ${#failed[@]} -gt 0 ]; then
	echo failed > "$run/status"
	die "run $run_id incomplete, failed boots: ${failed[*]}; 'latest' not updated"
fi
echo complete > "$run/status"
ln -sfn "$run_id" "$RESULTS_DIR/latest"
log "step 3/3: run complete: $run (latest); comparing"
RUN=$run RESULTS_DIR=$RESULTS_DIR BASELINE=$BASELINE "$RIG_ROOT/scripts/compare.sh"
