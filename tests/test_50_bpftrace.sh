# shellcheck shell=bash
# Every bpftrace tool parses and passes bpftrace's semantic checks on the
# host without attaching anything (-d: dry run), like bpftrace's own CI.
# tracefs is mounted in a private mount namespace only, for the tracepoint
# formats; the host's mounts are not touched.
. "$(dirname "$0")/lib.sh"

# Positional parameters (address halves) are dummies here.
dry_run() {	# dry_run TOOL: bpftrace's errors, if any
	unshare --mount sh -c 'mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
		bpftrace -d -- "$1" 0 0 0' sh "$1" 2>&1
}

bad=0 tools=0
for bt in bench/trace/*.bt; do
	tools=$((tools + 1))
	status=0
	[ -f "${bt%.bt}_example.txt" ] || { echo "$bt: no example output beside it"; status=1; }
	head -20 "$bt" | grep -q '^ \* ' || { echo "$bt: no header comment"; status=1; }
	if out=$(dry_run "$bt"); then
		echo "$bt: parses"
	else
		grep ERROR <<< "$out" | grep -v RLIMIT_MEMLOCK
		echo "$bt: bpftrace dry run failed"
		status=1
	fi
	bad=$((bad + status))
done
[ "$bad" = 0 ] || fail "$bad of $tools bpftrace tools fail (above)"

# the check can fail: a tool reading a tracepoint field that does not exist
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ cat bench/trace/cdev_rwsem.bt; echo 'tracepoint:sched:sched_switch { @brk = args->no_such_field; }'; } > "$tmp/bad.bt"
expect_fail "a tool reading a field that does not exist" "does not contain a field named 'no_such_field'" \
	dry_run "$tmp/bad.bt"

# Every function a tool probes by name is a text symbol of each timing
# kernel built here (a probe on one the kernel lacks, renamed or inlined
# away, fails the boot's traced pass); skipped where none is built.
probed() {	# the functions the tools probe by name, sorted
	sed -n 's/^k\(ret\)\{0,1\}probe:\([A-Za-z_][A-Za-z0-9_]*\).*/\2/p' bench/trace/*.bt | LC_ALL=C sort -u
}
missing_in() {	# missing_in SYSTEM_MAP: the probed functions it lacks
	LC_ALL=C comm -23 <(probed) <(awk '$2 ~ /^[tT]$/ { print $3 }' "$1" | LC_ALL=C sort -u)
}
[ "$(probed | grep -cx 'do_exit\|synchronize_rcu\|_raw_spin_lock\|__fput')" = 4 ] ||
	fail "the probed functions are not read from the tools: $(probed | tr '\n' ' ')"
probed | sed 's/^/ffffffff81000000 T /' | grep -v ' do_exit$' > "$tmp/System.map"
[ "$(missing_in "$tmp/System.map")" = do_exit ] ||
	fail "a System.map without do_exit is not seen to lack it: $(missing_in "$tmp/System.map")"
maps=0
for map in "${BUILD_DIR:-build}"/kernels/*/*/obj/System.map; do
	[ -f "$map" ] || continue
	maps=$((maps + 1))
	missing=$(missing_in "$map")
	[ -z "$missing" ] || fail "$map lacks functions the tools probe: $(tr '\n' ' ' <<< "$missing")"
done
if [ "$maps" = 0 ]; then
	echo "no kernel built here: the $(probed | wc -l) probed functions not checked"
else
	echo "the $(probed | wc -l) probed functions: in each of $maps kernels' System.map"
fi
