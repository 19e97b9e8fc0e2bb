# shellcheck shell=bash
# The results schema has one owner, bench/lib/results.c: params come out in
# the declared key order and quoted when they hold a comma, whatever order
# a producer gave; an undeclared key is refused.  Checked through
# build/bin/rows, the schema's command line for the module and the shell.
. "$(dirname "$0")/lib.sh"

rows=build/bin/rows
out=$(printf '%s\n' 'cdev_add_ns n=100 0 345.6 ns' 'cdev_del_ns majors=10,n=1000 4 1234.5 ns' \
	'timer_overhead_ns clock=ktime 0 98 ns' | $rows module stock 2)
want='stock,2,cdev_add_ns,n=100,0,345.6,ns
stock,2,cdev_del_ns,"n=1000,majors=10",4,1234.5,ns
stock,2,timer_overhead_ns,clock=ktime,0,98,ns'
[ "$out" = "$want" ] || fail "module records became: $out"
# (each exit status checked apart from the row it printed)
got=$(echo 'cdev_add_ns minors=4096,n=100 1 7 350' | $rows raw) || fail "rows raw failed on a good record"
[ "$got" = 'cdev_add_ns,"n=100,minors=4096",1,7,350' ] || fail "a raw record was not ordered and quoted: $got"
got=$($rows one v 1 open_lookup_ns pos=tail,n=1000 12.25 ns) || fail "rows one failed on a good row"
[ "$got" = 'v,1,open_lookup_ns,"n=1000,pos=tail",0,12.25,ns' ] || fail "one row was not ordered and quoted: $got"
got=$($rows one v 1 fail_warnings - 0 count) || fail "rows one failed on an empty param"
[ "$got" = 'v,1,fail_warnings,-,0,0,count' ] || fail "an empty param is not '-': $got"
expect_fail "undeclared key" "key 'colour' is not declared" $rows one v 1 m colour=red 1 ns
expect_fail "repeated key" "key 'n' is given twice" $rows one v 1 m n=1,n=2 1 ns
expect_fail "malformed record" "line 1 is not a record" sh -c "echo 'cdev_add_ns,n=1,0,3,ns' | $rows module v 1"
echo "the results schema orders and quotes params in one place"
