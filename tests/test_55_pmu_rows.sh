# shellcheck shell=bash
# The plugin's cache model on traces whose hits and misses are worked
# out by hand (bench/plugin/test_cache_model.c).  The plugin's records
# to rows (bench/plugin/pmu_rows.c) on records made here, whose counts
# are known: per-operation division, model cycles from the header's
# latencies, the shared-lines rule (a line one vCPU writes in half its
# operations and another touches in half its own; not one written once,
# nor one the other touches once, nor one written many times in one
# operation), naming by data symbol or writing function, transfers where
# the plugin counted them, and the refusals: windows or operations the
# guest and the plugin count differently, records of another format.
# The plugin under qemu-x86_64 on a host program, which counts no
# transfers of threads run at once, and whose vCPUs bound the threads
# alive at once, not QEMU's index of the last one.  And the plugin itself refuses
# arguments it does not know.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=build/bin/pmu_rows

build/bin/test_cache_model || fail "the cache model's unit test: the cases marked 'not ok' above"

# One vCPU: 10 operations, 1000 instructions, 20 L1D misses of which 10
# miss L2 and 4 miss the LLC: per op 100 insns and model cycles
# 100 + (2-1) x 10 + (1-0.4) x 40 + 0.4 x 176 = 204.4.
mkdir "$tmp/pmu"
cat > "$tmp/pmu/pmu.txt" <<'END'
# tcg_pmu 3 vcpus 1 l1d 32768/8 l2 262144/8 llc 8388608/16 lat 10,40,176
W 0 0 1 999 1 1 9 9 9 0
W 0 1 10 1000 300 200 20 10 4 0
END
printf '0 -1 1 x_ns n=1\n0 0 10 x_ns n=1\n' > "$tmp/pmu/windows.txt"
printf 'variant,boot,metric,param,iter,value,unit\nv,1,x_ns,n=1,0,101,ns\n' > "$tmp/pmu/pmu-timing.csv"
out=$("$rows" v 1 "$tmp/pmu")
for want in 'v,1,insns_per_op,"bench=x,n=1",0,100.0,count' \
	'v,1,l1d_misses_per_op,"bench=x,n=1",0,2.000,count' \
	'v,1,llc_misses_per_op,"bench=x,n=1",0,0.400,count' \
	'v,1,model_cycles_per_op,"bench=x,n=1",0,204.4,cycles' \
	'v,1,insns_icount_gap_pct,"bench=x,n=1",0,1.000,pct'; do
	grep -qxF "$want" <<< "$out" || fail "pmu boot: no row $want in: $out"
done
! grep -q ',-1,' <<< "$out" || fail "the warm-up window made rows"
echo "one vCPU: per-operation counts, model cycles, the gap to icount"

# Two vCPUs in lockstep, 4 operations each: A is written by both at every
# operation (shared), B written by vCPU 0 once (no), C written by vCPU 0
# at every operation and read by vCPU 1 once (no), D written by vCPU 1 at
# every operation and read by vCPU 0 at every other (shared, for vCPU 1
# only), E written 20 times by vCPU 0 and read 8 times by vCPU 1, each in
# one operation (no: a timer tick's line).  Lines per op: (4 + 4 for A,
# 4 for D) / 8 = 1.5.
mkdir "$tmp/share"
cat > "$tmp/share/pmu.txt" <<'END'
# tcg_pmu 3 vcpus 2 l1d 32768/8 l2 262144/8 llc 8388608/16 lat 10,40,176
W 0 0 4 100 10 10 0 0 0 3
L 0 0 0x1000 0xffffffff81001000 0xffffffff81000010 0 4 4 4 4
L 0 0 0x2000 0xff11000000002000 0xffffffff81000010 0 0 1 1 1
L 0 0 0x3000 0xff11000000003000 0xffffffff81000020 0 0 4 4 4
L 0 0 0x4000 0xff11000000004000 0 0xffffffff81000020 2 0 2 0
L 0 0 0x5000 0xffffffff81002000 0xffffffff81000030 0 0 20 1 1
W 1 0 4 100 10 10 0 0 0 5
L 1 0 0x1000 0xffffffff81001000 0xffffffff81000010 0 4 4 4 4
L 1 0 0x3000 0xff11000000003000 0 0xffffffff81000010 1 0 1 0
L 1 0 0x4000 0xff11000000004000 0xffffffff81000020 0 0 4 4 4
L 1 0 0x5000 0xffffffff81002000 0 0xffffffff81000030 8 0 1 0
END
printf '0 0 4 y_ns threads=2,sched=lockstep\n1 0 4 y_ns "threads=2,sched=lockstep"\n' > "$tmp/share/windows.txt"
printf 'ffffffff81000000 T lock_it\nffffffff81000020 t touch_it\nffffffff81001000 b the_lock\n' > "$tmp/share/kallsyms.txt"
out=$("$rows" v 1 "$tmp/share")
grep -qxF 'v,1,shared_lines_per_op,"bench=y,threads=2,sched=lockstep",0,1.500,count' <<< "$out" ||
	fail "lockstep: not 1.5 shared lines per op: $out"
grep -qxF 'v,1,shared_line_per_op,"bench=y,threads=2,sched=lockstep,site=the_lock+0",0,1.000,count' <<< "$out" ||
	fail "the shared static line is not named by its symbol: $out"
grep -qxF 'v,1,shared_line_per_op,"bench=y,threads=2,sched=lockstep,site=heap@touch_it",0,0.500,count' <<< "$out" ||
	fail "the shared heap line is not named by its writer: $out"
[ "$(grep -c shared_line_per_op <<< "$out")" = 2 ] ||
	fail "a line shared in fewer than half the operations was counted: $out"
sed -i 's/sched=lockstep/sched=free/' "$tmp/share/windows.txt"
out=$("$rows" v 1 "$tmp/share")
grep -qxF 'v,1,transfers_per_op,"bench=y,threads=2,sched=free",0,1.000,count' <<< "$out" ||
	fail "free: not (3 + 5) / 8 transfers per op: $out"
! grep -q shared_lines <<< "$out" || fail "free threads made a shared-lines row: $out"
# vCPU 1's transfers not counted (its vCPUs ran at once): no row
sed -i 's/^\(W 1 0 .*\) 5$/\1 -/' "$tmp/share/pmu.txt"
out=$("$rows" v 1 "$tmp/share")
! grep -q transfers <<< "$out" || fail "free: a transfers row from windows of which one counted none: $out"
echo "two vCPUs: shared lines in lockstep, named; transfers free, where counted"

printf '0 0 4 y_ns threads=2,sched=free\n' > "$tmp/share/windows.txt"
expect_fail "a window the guest did not list" "the guest did not list" "$rows" v 1 "$tmp/share"
printf '0 0 4 y_ns threads=2\n1 0 4 y_ns threads=2\n0 1 4 y_ns threads=2\n' > "$tmp/share/windows.txt"
expect_fail "a window the plugin did not close" "more windows on CPU 0" "$rows" v 1 "$tmp/share"
printf '0 0 5 y_ns threads=2\n1 0 4 y_ns threads=2\n' > "$tmp/share/windows.txt"
expect_fail "a window of other operations" "5 operations in window 0 of CPU 0, the plugin saw 4" \
	"$rows" v 1 "$tmp/share"
sed -i 's/^\(W 1 0 .*\) -$/\1 5x/' "$tmp/share/pmu.txt"
expect_fail "transfers neither a count nor -" "transfers 5x: a count or -" "$rows" v 1 "$tmp/share"
sed -i 's/^# tcg_pmu 3 /# tcg_pmu 2 /' "$tmp/share/pmu.txt"
expect_fail "records of an older plugin" "records of format 2" "$rows" v 1 "$tmp/share"

# Under qemu-x86_64 (user mode) the plugin counts a host program's
# windows: pingpong on one thread, a window of 10 operations per
# repetition, the warm-up's too; one thread transfers nothing.
qemu-x86_64 -plugin "build/bin/tcg_pmu.so,out=$tmp/user.txt" build/bin/pingpong --variant v \
	--boot 1 --param threads=1 --reps 2 --ops 10 --run 0 > /dev/null ||
	fail "pingpong under qemu-x86_64 with the plugin failed"
[ "$(awk '$1 == "W" && $2 == 0 && $4 == 10 && $11 == 0' "$tmp/user.txt" | wc -l)" = 3 ] ||
	fail "qemu-x86_64: not 3 windows of 10 operations and no transfer: $(cat "$tmp/user.txt")"
# Two threads run at once, each on its host thread: the plugin counts
# no transfers in any window (test_cache_model's arrival_order: the
# callbacks do not tell the order of the accesses), "-" for them.
qemu-x86_64 -plugin "build/bin/tcg_pmu.so,out=$tmp/user.txt" build/bin/pingpong --variant v \
	--boot 1 --param threads=2,sched=free --reps 1 --ops 10 --run 0 > /dev/null ||
	fail "pingpong on two threads under qemu-x86_64 with the plugin failed"
[ "$(awk '$1 == "W" && $4 == 10 && $11 == "-"' "$tmp/user.txt" | wc -l)" = 4 ] ||
	fail "qemu-x86_64, two threads: not 4 windows with transfers '-': $(cat "$tmp/user.txt")"
echo "user mode: a host program's windows; with threads at once, no transfers"

# QEMU's user mode numbers a new thread's vCPU the highest live index + 1
# (cpus-common.c, cpu_get_free_index), so threads that overlap in time
# run up the indices: thread_chain's 100 threads, two alive at once
# beside the main thread, are QEMU's vCPUs 1 to 100.  The model's 64
# vCPUs bound the threads alive, not QEMU's index: every thread's window
# is written (one operation, 16 loads), on a vCPU of the model below 64.
timeout 120 qemu-x86_64 -plugin "build/bin/tcg_pmu.so,out=$tmp/chain.txt" build/bin/thread_chain 100 2 ||
	fail "100 threads, 2 alive at once, under qemu-x86_64 with the plugin failed"
[ "$(awk '$1 == "W" && $2 < 64 && $4 == 1 && $6 == 16' "$tmp/chain.txt" | wc -l)" = 100 ] ||
	fail "qemu-x86_64, 100 threads 2 at once: not 100 windows of 1 operation and 16 loads on vCPUs below 64: $(cat "$tmp/chain.txt")"
grep -qxF "# vcpu 1 is QEMU's vCPU 100 from here" "$tmp/chain.txt" ||
	fail "qemu-x86_64, 100 threads 2 at once: QEMU's vCPU 100 not on the model's vCPU 1: $(cat "$tmp/chain.txt")"
# 64 threads alive at once and the main thread are one more than the
# model holds: refused, whatever the indices
expect_fail "65 threads alive at once" "more vCPUs or threads alive at once than the 64 the model holds" \
	timeout 120 qemu-x86_64 -plugin "build/bin/tcg_pmu.so,out=$tmp/chain.txt" build/bin/thread_chain 64 64
echo "user mode: 100 threads past QEMU's vCPU 64, 3 alive at once, each window written; 65 alive refused"

# each refused with its own reason ("tcg_pmu: " alone is also what a
# plugin built for another QEMU says); QEMU splits -plugin at a comma, so
# the plugin sees "lat=1,2" where the command line has "lat=1,,2".  QEMU
# loads the plugin before the kernel, whose missing file ends a QEMU
# that took the argument (rather than a time limit on a stopped guest).
for case in "bad=1|unknown argument bad " "lines=maybe|lines=maybe: on or off" \
	"l1d=32768|l1d: expected BYTES/WAYS" "lat=1,,2|lat=1,2: expected L2,L3,MEM cycles"; do
	arg=${case%%|*}
	expect_fail "plugin argument $arg" "tcg_pmu: ${case#*|}" qemu-system-x86_64 -display none \
		-nodefaults -kernel /nonexistent -plugin "build/bin/tcg_pmu.so,out=$tmp/p.txt,$arg"
done
expect_fail "plugin without out=" "out=FILE is required" qemu-system-x86_64 \
	-display none -nodefaults -kernel /nonexistent -plugin build/bin/tcg_pmu.so
