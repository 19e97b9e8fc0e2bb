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

# without_source DEF: each benchmark DEF declares, "name where", that has
# no source file, after a line "checked N".
without_source() {
	local declared name where src
	declared=$(sed -n 's/^BENCH(\([a-z_0-9]*\), *\([A-Z]*\),.*/\1 \2/p' "$1" | sort -u)
	echo "checked $(grep -c . <<< "$declared")"
	while read -r name where; do
		[ -n "$name" ] || continue
		case $where in
		MODULE) src=bench/module/bench_$name.c ;;
		USER) src=$(ls bench/user/"$name".c bench/mem/"$name".c 2> /dev/null || true) ;;
		*) src= ;;
		esac
		[ -n "$src" ] && [ -f "$src" ] || echo "$name $where"
	done <<< "$declared"
}
out=$(without_source bench/benchmarks.def)
checked=$(sed -n 's/^checked //p' <<< "$out")
[ "$checked" -ge 5 ] || fail "fewer than 5 BENCH declarations read from bench/benchmarks.def: $checked"
[ "$(wc -l <<< "$out")" = 1 ] || fail "benchmarks with no source file: $(sed 1d <<< "$out" | paste -sd, -)"
echo "every declared benchmark ($checked) has its source file"

bad=$(mktemp -d)
mkdir -p "$bad/bench"
# the check can fail: a declaration whose source file is missing is named
{ cat bench/benchmarks.def; echo 'BENCH(no_such_bench, USER, NONE, "n=1")'; } > "$bad/bench/benchmarks.def"
[ "$(without_source "$bad/bench/benchmarks.def" | sed 1d)" = "no_such_bench USER" ] ||
	fail "a benchmark without a source file is not found: $(without_source "$bad/bench/benchmarks.def")"
echo "a benchmark without a source file: named"
sed 's/n=SWEEP_N pos=/n=NO_SUCH_SETTING pos=/' bench/benchmarks.def > "$bad/bench/benchmarks.def"
expect_fail "axis naming no setting" "no guest setting NO_SUCH_SETTING" plan "$bad"
sed 's/"threads=THREADS"/"threads"/' bench/benchmarks.def > "$bad/bench/benchmarks.def"
expect_fail "malformed axis" "axis 'threads' is neither" plan "$bad"
sed 's/^BENCH(open_cached, USER, HOLD/BENCH(open_cached, USER, HELD/' bench/benchmarks.def > "$bad/bench/benchmarks.def"
expect_fail "unknown fixture" "open_cached: 'USER' with fixture 'HELD'" plan "$bad"
rm -rf "$bad"
