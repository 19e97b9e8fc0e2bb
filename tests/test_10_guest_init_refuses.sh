# shellcheck shell=bash
# The guest init must change nothing when run by mistake on a host:
# not PID 1, PID 1 of a new PID namespace, or even with the marker in its
# environment (then it mounts /proc in its own mount namespace only, finds
# no marker in /proc/cmdline and refuses).
. "$(dirname "$0")/lib.sh"

expect_fail "not PID 1" "refusing to run: not PID 1" guest-init/init
expect_fail "PID 1 without marker" "refusing to run: no cdevbench_guest=1" \
	unshare --pid --fork guest-init/init
expect_fail "PID 1 with marker only in the environment" \
	"refusing to run: /proc/cmdline lacks" \
	unshare --pid --fork --mount --mount-proc env cdevbench_guest=1 guest-init/init
