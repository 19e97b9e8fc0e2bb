# shellcheck shell=bash
# What a script says: a log line with the run's elapsed time (RIG_T0,
# set by rig_init), an error that ends the script, and progress on a
# long step.
# Sourced by scripts/lib.sh: defines functions and constants, no more.

log() {
	local t=$(( $(date +%s) - RIG_T0 ))
	printf '[%02d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*" >&2
}

die() {
	printf 'cdevbench: error: %s\n' "$*" >&2
	exit 1
}

# Progress on a long step: `every_minute CMD... &`, killed by the caller
# when the step ends.  Its sleep goes with it, on that TERM, on Ctrl-C's
# INT (which the sleep itself ignores, as a script's background command
# does) and on a closed terminal's HUP: left behind, it would hold the
# files the caller had open (make bench's results lock) for up to a
# minute, and the next make bench would be refused.
every_minute() {
	# jobs -p, not the sleep's $!: a TERM between the sleep's start and
	# an assignment of $! would leave it running; wait, so that the sleep
	# has let go of the caller's files when this returns
	trap 'kill $(jobs -p) 2> /dev/null; wait; exit 0' TERM INT HUP
	while sleep 60 & wait $!; do "$@"; done
}

# stop_progress PID: stop an every_minute.  One already gone (its sleep
# killed from outside, which ends the loop) is no failure of the step it
# reported on: a walk's boot that had run to its end failed so once.
stop_progress() { kill "$1" 2> /dev/null || true; }
