# shellcheck shell=bash
# Benchmarks as data: build/bin/bench_plan, bench/benchmarks.def compiled
# in, is its one reader of the sweeps, and the guest suite runs what it
# lists (PHASE=plan, as the guest would run it; BENCHES a subset, an
# undeclared name refused).  The grammar means what benchmarks.def says,
# on declarations of the test's own that use all of it (settings that
# are lists, key>=N, the spread over majors, majors and minors of 1 left
# out, a plugin boot's threads against its vCPUs, the traced pass); a
# declaration that names no setting, has a malformed axis or an unknown
# param key, fixture or where is refused, naming it.  Every declared
# benchmark has its one source file (which the Makefile and Kbuild pick
# up by name).
. "$(dirname "$0")/lib.sh"

plan=build/bin/bench_plan
[ -x "$plan" ] || fail "no $plan: run make check, or make $plan"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
settings=(SWEEP_N="1 10 100 1000" SPREAD_MAJORS=10 THREADS="1 2")

suite_plan() {	# suite_plan [NAME=VALUE...]: the suite's timed pass, listed
	env -i PATH="$PATH" RIG_ROOT="$RIG_ROOT" BIN_DIR="$RIG_ROOT/build/bin" PHASE=plan \
		"${settings[@]}" "$@" sh guest-init/suite "$tmp"
}

got=$(suite_plan)
want=$(env -i "${settings[@]}" "$plan" runs timing)
[ "$(wc -l <<< "$want")" -ge 10 ] || fail "bench_plan lists fewer than 10 runs: $want"
[ "$got" = "$want" ] || fail "the suite's runs differ from bench_plan's:
$(diff <(echo "$want") <(echo "$got"))"
echo "the suite runs what bench_plan lists ($(wc -l <<< "$got") runs)"

got=$(suite_plan BENCHES="unplug_close open_cached")
want="open_cached USER HOLD threads=1
open_cached USER HOLD threads=2
unplug_close USER NONE alloc=dynamic
unplug_close USER NONE alloc=embedded
open_cached USER HOLD threads=2,nodes=many"
[ "$got" = "$want" ] || fail "BENCHES='unplug_close open_cached': the suite runs
$got"
echo "BENCHES: the suite runs the runs of the benchmarks it names, in their declared order"
expect_fail "an undeclared benchmark in BENCHES" \
	"BENCHES names 'open_cahced', which bench/benchmarks.def does not declare; it declares: register " \
	suite_plan BENCHES="open_cached open_cahced"

# The declarations' meaning, on a benchmarks.def of the test's own.
build_plan() {	# build_plan DEF OUT: a bench_plan of DEF
	gcc -Wall -Werror -Ibench/lib -DBENCHMARKS_DEF="\"$1\"" -o "$2" bench/lib/bench_plan.c
}
cat > "$tmp/test.def" << 'EOF'
BENCH(a, MODULE, NONE, "n=SWEEP_N majors=1,SPREAD_MAJORS minors=1,4")
METRIC(a_ns, "ns", LOWER, SAMPLE, HEADLINE)
BENCH(b, USER, HOLD, "n>=5 n=1,10,100")
BENCH(b, USER, HOLD, "n=1,10,100 n>=10 threads=THREADS,1")
BENCH(c, USER, NONE, "minors=1 majors=2 n=10,20,30")
BENCH(d, USER, NONE, "")
BENCH(e, USER, NONE, "pos=head,,tail   kib=7")
METRIC(e_count, "count", HIGHER, COUNT, SECONDARY)
PMU_RUN(f, USER, NONE, pmu, "threads=1,THREADS sched=lockstep")
PMU_RUN(g, MODULE, NONE, share, "n=100 majors=SPREAD_MAJORS threads=4,1")
EOF
build_plan "$tmp/test.def" "$tmp/plan"
fixture=(SWEEP_N="1 10 100" SPREAD_MAJORS=5 THREADS="2 3")
check_plan() {	# check_plan WANT BENCH_PLAN_ARGUMENTS...
	local want=$1 out
	shift
	out=$(env -i "${fixture[@]}" "$tmp/plan" "$@") || fail "bench_plan $*: $out"
	[ "$out" = "$want" ] || fail "bench_plan $*, of the test's declarations:
$(diff <(echo "$want") <(echo "$out"))"
}
check_plan "a MODULE NONE n=1
a MODULE NONE n=1,minors=4
a MODULE NONE n=10
a MODULE NONE n=10,minors=4
a MODULE NONE n=100
a MODULE NONE n=100,minors=4
a MODULE NONE n=100,majors=5
a MODULE NONE n=100,majors=5,minors=4
b USER HOLD n=10,threads=2
b USER HOLD n=10,threads=3
b USER HOLD n=10,threads=1
b USER HOLD n=100,threads=2
b USER HOLD n=100,threads=3
b USER HOLD n=100,threads=1
c USER NONE majors=2,n=20
c USER NONE majors=2,n=30
d USER NONE -
e USER NONE pos=head,kib=7
e USER NONE pos=tail,kib=7" runs timing
check_plan "f USER NONE threads=1,sched=lockstep
f USER NONE threads=2,sched=lockstep" runs pmu 2
check_plan "g MODULE NONE n=100,majors=5,threads=4
g MODULE NONE n=100,majors=5,threads=1" runs share 4
check_plan "e USER NONE pos=head,kib=7
e USER NONE pos=tail,kib=7
d USER NONE -" traced e d
check_plan "a MODULE
b USER
c USER
d USER
e USER
f USER
g MODULE" benches
check_plan "SWEEP_N
SPREAD_MAJORS
THREADS" settings
check_plan "a_ns ns lower sample headline
e_count count higher count secondary" metrics
echo "the grammar: settings as lists, key>=N, the spread's 10 cdevs a chain, majors and minors of 1 left out, threads against vCPUs, the traced pass"

# refused WHAT PATTERN SED [BENCH_PLAN_ARGUMENTS...]: the test's
# declarations edited by SED do not compile, or bench_plan refuses them
# (by default when it lists the benchmarks), saying PATTERN.
refused() {
	local what=$1 pattern=$2 edit=$3
	shift 3
	sed "$edit" "$tmp/test.def" > "$tmp/bad.def"
	if build_plan "$tmp/bad.def" "$tmp/bad" 2> "$tmp/cc.err"; then
		expect_fail "$what" "$pattern" env -i "${fixture[@]}" "$tmp/bad" "${@:-benches}"
	else
		grep -qE -- "$pattern" "$tmp/cc.err" ||
			fail "$what: the compiler's error does not match '$pattern': $(cat "$tmp/cc.err")"
		echo "$what: does not compile, as expected"
	fi
}
refused "an axis naming no setting" "benchmarks.def:4: b: no guest setting NO_SUCH_SETTING" \
	's/"n=1,10,100 n>=10/"n=NO_SUCH_SETTING n>=10/' runs timing
refused "a malformed axis" "benchmarks.def:5: c: axis 'majors' is neither key=values nor key>=number" \
	's/majors=2/majors/'
refused "a key>= without a number" "axis 'n>=x' is neither" 's/n>=5/n>=x/'
refused "an unknown param key" "axis 'node=1,10,100': 'node' is not a param key of bench/lib/results.h" \
	's/"n>=5 n=/"n>=5 node=/'
refused "a number that is not one" "benchmarks.def:5: c: majors=two is not a number" 's/majors=2/majors=two/' runs timing
refused "MODULE with HOLD" "benchmarks.def:1: a: 'MODULE' with fixture 'HOLD'" 's/^BENCH(a, MODULE, NONE/BENCH(a, MODULE, HOLD/'
refused "one benchmark, two wheres" "benchmarks.def:4: b: MODULE here, USER on line 3" '4s/USER/MODULE/'
refused "a metric declared twice" "benchmarks.def:8: a_ns: a metric declared twice \(line 2\)" 's/METRIC(e_count/METRIC(a_ns/'
refused "an unknown fixture" "F_HELD" 's/^BENCH(e, USER, NONE/BENCH(e, USER, HELD/'
refused "an unknown where" "W_KERNEL" 's/^BENCH(e, USER/BENCH(e, KERNEL/'
refused "an unknown phase" "P_timing" 's/pmu, "threads/timing, "threads/'
refused "an unknown kind" "K_MEAN" 's/SAMPLE, HEADLINE/MEAN, HEADLINE/'
refused "the traced pass of a HOLD benchmark" "benchmarks.def:3: b: the traced pass runs USER NONE benchmarks only" \
	'' traced b
refused "the traced pass of no benchmark" "no BENCH\(x, ...\) in bench/benchmarks.def" '' traced x

# every declared benchmark ("name where" on stdin) without its source file
without_source() {
	local name where src
	while read -r name where; do
		case $where in
		MODULE) src=bench/module/bench_$name.c ;;
		USER) src=$(ls bench/user/"$name".c bench/mem/"$name".c 2> /dev/null || true) ;;
		*) src= ;;
		esac
		[ -n "$src" ] && [ -f "$src" ] || echo "$name $where"
	done
}
declared=$(env -i "$plan" benches)
[ "$(wc -l <<< "$declared")" -ge 5 ] || fail "bench_plan declares fewer than 5 benchmarks: $declared"
missing=$(without_source <<< "$declared")
[ -z "$missing" ] || fail "benchmarks with no source file: $missing"
echo "every declared benchmark ($(wc -l <<< "$declared")) has its source file"
# the check can fail: a declaration whose source file is missing is named
[ "$(printf '%s\nno_such_bench USER\n' "$declared" | without_source)" = "no_such_bench USER" ] ||
	fail "a benchmark without a source file is not found"
echo "a benchmark without a source file: named"

# every setting the axes name is a guest setting (suite.env)
for s in $(env -i "$plan" settings); do
	grep -qE "^$s *\|[^|]*\|[^|]*\| *guest *\|" scripts/settings.def ||
		fail "benchmarks.def's axes name $s, which scripts/settings.def does not declare with scope guest"
done
echo "the settings the axes name are guest settings: $(env -i "$plan" settings | paste -sd' ')"
