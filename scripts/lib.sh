# shellcheck shell=bash
# The host-side scripts' library, one file of scripts/lib/ per concern
# (docs/layout.md), each sourced here.  Sourcing it defines functions and
# constants and does nothing else; a script then calls rig_init
# (scripts/lib/settings.sh), which gives every setting of
# scripts/settings.def its value:
#   . "$(dirname "$0")/lib.sh"
#   rig_init
. "$(dirname "${BASH_SOURCE[0]}")/lib/log.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/settings.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/kvm.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/bases.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/variants.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/patches.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/builds.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/phases.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/suite.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/units.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/failures.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/runs.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/meta.sh"
