# shellcheck shell=bash
# Benchmarks as data: the guest suite runs what bench/benchmarks.def
# declares (listed with PHASE=plan, as the guest would run it), every
# declared benchmark has its one source file (which the Makefile and
# Kbuild pick up by name), and a declaration that names no setting, a
# malformed axis or an unknown fixture stops the suite with a message.
. "$(dirname "$0")/lib.sh"

plan() {	# plan RIG_ROOT
	env -i PATH="$PATH" RIG_ROOT="$1" PHASE=plan SWEEP_N="1 10 100 1000" \
		SPREAD_MAJORS=10 THREADS="1 2" sh guest-init/suite "$(mktemp -d)"
}

got=$(plan "$RIG_ROOT")
want="register MODULE NONE n=1
register MODULE NONE n=10
register MODULE NONE n=100
register MODULE NONE n=1000
register MODULE NONE majors=10,n=100
register MODULE NONE majors=10,n=1000
mem_per_cdev USER NONE n=100
mem_per_cdev USER NONE n=1000
mem_per_cdev USER NONE n=100,minors=4096
open_lookup USER HOLD n=1,pos=head
open_lookup USER HOLD n=1,pos=middle
open_lookup USER HOLD n=1,pos=tail
open_lookup USER HOLD n=10,pos=head
open_lookup USER HOLD n=10,pos=middle
open_lookup USER HOLD n=10,pos=tail
open_lookup USER HOLD n=100,pos=head
open_lookup USER HOLD n=100,pos=middle
open_lookup USER HOLD n=100,pos=tail
open_lookup USER HOLD n=1000,pos=head
open_lookup USER HOLD n=1000,pos=middle
open_lookup USER HOLD n=1000,pos=tail
open_cached USER HOLD threads=1
open_cached USER HOLD threads=2
unplug_del_cached USER NONE alloc=dynamic
unplug_del_cached USER NONE alloc=embedded
unplug_close USER NONE alloc=dynamic
unplug_close USER NONE alloc=embedded
unplug_exit USER NONE alloc=dynamic,files=1
unplug_exit USER NONE alloc=dynamic,files=16
unplug_exit USER NONE alloc=dynamic,files=256
unplug_exit USER NONE alloc=embedded,files=1
unplug_exit USER NONE alloc=embedded,files=16
unplug_exit USER NONE alloc=embedded,files=256"
[ "$got" = "$want" ] || fail "the suite's runs differ from the declarations' meaning:
$(diff <(echo "$want") <(echo "$got"))"
echo "plan: $(wc -l <<< "$got") runs, as declared (spread only where chains keep 10, n>=100 filter)"

declared=$(sed -n 's/^BENCH(\([a-z_0-9]*\), *\([A-Z]*\),.*/\1 \2/p' bench/benchmarks.def | sort -u)
[ "$(wc -l <<< "$declared")" -ge 5 ] || fail "fewer than 5 BENCH declarations read from bench/benchmarks.def: $declared"
while read -r name where; do
	case $where in
	MODULE) src=bench/module/bench_$name.c ;;
	USER) src=$(ls bench/user/"$name".c bench/mem/"$name".c 2> /dev/null || true) ;;
	esac
	[ -n "$src" ] && [ -f "$src" ] || fail "benchmark $name ($where) has no source file"
done <<< "$declared"
echo "every declared benchmark ($(wc -l <<< "$declared")) has its source file"

bad=$(mktemp -d)
mkdir -p "$bad/bench"
sed 's/n=SWEEP_N pos=/n=NO_SUCH_SETTING pos=/' bench/benchmarks.def > "$bad/bench/benchmarks.def"
expect_fail "axis naming no setting" "no guest setting NO_SUCH_SETTING" plan "$bad"
sed 's/"threads=THREADS"/"threads"/' bench/benchmarks.def > "$bad/bench/benchmarks.def"
expect_fail "malformed axis" "axis 'threads' is neither" plan "$bad"
sed 's/^BENCH(open_cached, USER, HOLD/BENCH(open_cached, USER, HELD/' bench/benchmarks.def > "$bad/bench/benchmarks.def"
expect_fail "unknown fixture" "open_cached: 'USER' with fixture 'HELD'" plan "$bad"
rm -rf "$bad"
