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
