#!/bin/bash
# make baseline SAVE=NAME: keep RUN (default RESULTS_DIR/latest) as the
# baseline NAME, a link in RESULTS_DIR/baselines/ that later runs are
# compared against (make compare AGAINST=NAME, make bench AGAINST=NAME).
# A complete run only; a name once given is not moved to another run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rig_init

[ -n "$SAVE" ] || die "make baseline SAVE=NAME [RUN=...]: name the baseline"
run=$(cd "$RUN" 2> /dev/null && pwd -P) || die "no run at $RUN: run 'make bench' or set RUN"
status=$(cat "$run/status" 2> /dev/null || echo "no status file")
[ "$status" = complete ] || die "$run is not a complete run ($status)"
[ -f "$run/meta.json" ] || die "$run has no meta.json"
baselines=$(mkdir -p "$RESULTS_DIR/baselines" && cd "$RESULTS_DIR/baselines" && pwd -P)
link=$baselines/$SAVE
if [ -L "$link" ] || [ -e "$link" ]; then
	[ "$(cd "$link" 2> /dev/null && pwd -P)" = "$run" ] || die "baseline $SAVE is $(readlink "$link") already; remove $link to give the name to another run"
	log "baseline $SAVE is $run already"
	exit 0
fi
ln -s "$(realpath --relative-to="$baselines" "$run")" "$link"
log "baseline $SAVE: $run; compare a run against it with make compare AGAINST=$SAVE"
