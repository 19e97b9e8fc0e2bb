# shellcheck shell=bash
# Every bpftrace tool parses and passes bpftrace's semantic checks on the
# host without attaching anything (-d: dry run), like bpftrace's own CI.
# tracefs is mounted in a private mount namespace only, for the tracepoint
# formats; the host's mounts are not touched.
. "$(dirname "$0")/lib.sh"

status=0
for bt in bench/trace/*.bt; do
	[ -f "${bt%.bt}_example.txt" ] || { echo "$bt: no example output beside it"; status=1; }
	head -20 "$bt" | grep -q '^ \* ' || { echo "$bt: no header comment"; status=1; }
	# Positional parameters (address halves) are dummies here.
	if out=$(unshare --mount sh -c 'mount -t tracefs nodev /sys/kernel/tracing 2> /dev/null
		bpftrace -d -- "$1" 0 0 0' sh "$bt" 2>&1); then
		echo "$bt: parses"
	else
		grep ERROR <<< "$out" | grep -v RLIMIT_MEMLOCK
		echo "$bt: bpftrace dry run failed"
		status=1
	fi
done
exit $status
