// The driver census (docs/errpaths.md, scripts/census.sh): what each call
// of cdev_add() or cdev_device_add() in a file does to the cdev when the
// call fails, one line per call: file, line, function, pattern, reason
// (tab-separated; the reason says more where the pattern alone does not).
// A pattern is a fault phase flavour, <origin>[_name|_parent]_<action>
// (alloc_put, embed_parent_del, ...), device_put, device_del_put,
// device_other, panic or other.  The rules gather facts about each call;
// the last one, "report", joins them: read it first.
// Facts tie to a call by the cdev's expression: a cdev_alloc(),
// cdev_init(), kobject_set_name() or parent of the same expression, in
// the call's function where the expression names a local variable, else
// anywhere in the file.  The failure path is followed in the call's
// function, from the test of the result into its branch, through each
// goto that leaves the branch to the label and on, or past a negated test
// (if (!err) return 0;).  An action there counts where it names the cdev
// or device, or a name the function gave them (x = cdev); a call to a
// function of the same file that calls cdev_del() or put_device() on
// every path counts as that.  Nothing is followed into another file or
// a caller: a cdev made there is "other", a cleanup there is not seen.

@initialize:python@
@@
facts = {}
names = {}
paths = {}
calls = {}

def at(p):
    return (p[0].file, p[0].line, p[0].column)

def fact(p, what):
    facts.setdefault(at(p), set()).add(what)

# A fact found at pa: where the cdev's expression names a local variable,
# only one in the call's own function.
def fact_at(p, pa, what):
    if "local" not in facts.get(at(p), ()) or pa[0].current_element == p[0].current_element:
        fact(p, what)

def text(x):
    return "".join(str(x).split())

# A name of the call's cdev or device, its own or one given in its function.
def alias(p, pa, what, x):
    if pa[0].current_element == p[0].current_element:
        names.setdefault((at(p), what), set()).add(text(x))

def on_path(p, q):
    paths.setdefault(at(p), set()).add(at(q))

def call(q, what, x=None):
    calls.setdefault(q[0].file, []).append((at(q), what, x and text(x)))

# What p's failure path does: the calls on it that name its cdev (the
# kobject's expression for a put) or device, and those that need not.
def actions(p):
    on = paths.pop(at(p), set())
    cdev = names.pop((at(p), "cdev"), set())
    device = names.pop((at(p), "device"), set())
    found = set()
    for q, what, x in calls.get(p[0].file, ()):
        if q not in on:
            continue
        if what == "put":
            ours = (x.endswith("->kobj") and x[:-6] in cdev) or \
                (x.endswith(".kobj") and "&" + x[:-5] in cdev)
        elif what in ("del", "kfree"):
            ours = x in cdev
        elif what == "put_device":
            ours = x in device
        else:
            ours = True
        if ours:
            found.add(what)
    return found

// Every call, in a function.
@site@
identifier f, add = {cdev_add, cdev_device_add};
expression C;
position p;
@@
f(...) { <+... add@p(C, ...) ...+> }

@script:python@
p << site.p;
c << site.C;
@@
alias(p, p, "cdev", c)

@scoped@
identifier site.add;
position site.p;
local idexpression x;
@@
add@p(<+... x ...+>, ...)

@script:python@
p << site.p;
x << scoped.x;
@@
fact(p, "local")

// A cdev named as &E: embedded in E's struct, or static.
@obj@
identifier site.add;
position site.p;
expression E;
@@
add@p(&E, ...)

@script:python@
p << site.p;
e << obj.E;
@@
fact(p, "embedded")

// The device cdev_device_add() adds along with the cdev.
@dev@
position site.p;
expression site.C, D;
@@
cdev_device_add@p(C, D)

@script:python@
p << site.p;
d << dev.D;
@@
alias(p, p, "device", d)

// Other names of the cdev and the device in the call's function, which
// the failure path may unwind by: st keeps its cdev in STm->cdevs[rew],
// rpmsg_ctrl its device in dev.
@alias@
expression site.C, A;
position pa;
@@
A@pa = C

@script:python@
p << site.p;
pa << alias.pa;
a << alias.A;
@@
alias(p, pa, "cdev", a)

@alias_decl@
expression site.C;
identifier A;
type T;
position pa;
@@
T A@pa = C;

@script:python@
p << site.p;
pa << alias_decl.pa;
a << alias_decl.A;
@@
alias(p, pa, "cdev", a)

@dev_alias@
expression dev.D, A;
position pa;
@@
A@pa = D

@script:python@
p << site.p;
pa << dev_alias.pa;
a << dev_alias.A;
@@
alias(p, pa, "device", a)

@dev_alias_decl@
expression dev.D;
identifier A;
type T;
position pa;
@@
T A@pa = D;

@script:python@
p << site.p;
pa << dev_alias_decl.pa;
a << dev_alias_decl.A;
@@
alias(p, pa, "device", a)

// Where the cdev comes from.
@alloc@
expression site.C;
position pa;
@@
C = cdev_alloc@pa()

@script:python@
p << site.p;
pa << alloc.pa;
@@
fact_at(p, pa, "alloc")

@init@
expression site.C;
position pa;
@@
cdev_init@pa(C, ...)

@script:python@
p << site.p;
pa << init.pa;
@@
fact_at(p, pa, "init")

// A name: kobject_set_name() allocates it, and only the kobject's
// release frees it.
@named@
expression site.C;
position pa;
@@
kobject_set_name@pa(&C->kobj, ...)

@named_obj@
expression obj.E;
position pa;
@@
kobject_set_name@pa(&E.kobj, ...)

@script:python@
p << site.p;
pa << named.pa;
@@
fact_at(p, pa, "name")

@script:python@
p << site.p;
pa << named_obj.pa;
@@
fact_at(p, pa, "name")

// A parent: cdev_add() takes its reference only when it succeeds, and
// the cdev's release drops one.
@parent@
expression site.C, X;
position pa;
@@
(
cdev_set_parent@pa(C, ...)
|
C->kobj.parent@pa = X
)

@parent_obj@
expression obj.E, X;
position pa;
@@
E.kobj.parent@pa = X

@script:python@
p << site.p;
pa << parent.pa;
@@
fact_at(p, pa, "parent")

@script:python@
p << site.p;
pa << parent_obj.pa;
@@
fact_at(p, pa, "parent")

// Calls whose failure has no branch: the result returned to the caller,
// dropped, or asserted.
@wrapper@
identifier site.add;
position site.p, pw;
@@
return@pw add@p(...);

@script:python@
p << site.p;
pw << wrapper.pw;
@@
fact(p, "wrapper")

@unchecked@
identifier site.add;
position site.p, pw;
@@
add@p@pw(...);

@script:python@
p << site.p;
pw << unchecked.pw;
@@
fact(p, "unchecked")

@asserted@
identifier site.add, assert = {BUG_ON, WARN_ON, WARN_ON_ONCE};
position site.p;
@@
assert(<+... add@p(...) ...+>)

@script:python@
p << site.p;
a << asserted.assert;
@@
fact(p, "panic" if a == "BUG_ON" else "warned")

// Where the failure path starts: pe on the test of the result (the test
// need not follow the call at once), pg on each goto that leaves the
// branch before the branch forgets the cdev (C = NULL: v4l2-dev's kfree()
// then a label that cdev_del()s only a cdev still set).
@entry exists@
identifier site.add;
position site.p, pe;
expression ret;
statement S, S2;
@@
(
ret = add@p(...);
... when != ret
(
if@pe (\(ret\|ret < 0\|ret != 0\|unlikely(ret)\|WARN_ON(ret)\|!ret\|ret == 0\|ret >= 0\)) S else S2
|
if@pe (\(ret\|ret < 0\|ret != 0\|unlikely(ret)\|WARN_ON(ret)\|!ret\|ret == 0\|ret >= 0\)) S
)
|
if@pe (<+... add@p(...) ...+>) S else S2
|
if@pe (<+... add@p(...) ...+>) S
)

@script:python@
p << site.p;
pe << entry.pe;
@@
fact(p, "tested")

@exit exists@
identifier site.add, L;
position site.p, pg;
expression site.C, ret;
@@
(
ret = add@p(...);
... when != ret
if (\(ret\|ret < 0\|ret != 0\|unlikely(ret)\|WARN_ON(ret)\)) { ... when != C = NULL
goto@pg L; }
|
if (\(add@p(...)\|add@p(...) < 0\|add@p(...) != 0\|unlikely(add@p(...))\|(ret = add@p(...))\|(ret = add@p(...)) < 0\|(ret = add@p(...)) != 0\)) { ... when != C = NULL
goto@pg L; }
)

// The calls on the failure path: in the branch of a test (the else
// branch of a negated one), after a negated test without else, after a
// goto's label.  The rules after these say which calls count.
@path exists@
position entry.pe, q;
identifier fn;
expression T;
statement S;
@@
(
if@pe (\(!T\|T == 0\|T >= 0\)) S else { ... when any
fn@q(...);
... when any
}
|
if@pe (\(!T\|T == 0\|T >= 0\)) S
... when any
fn@q(...);
|
if@pe (T) { ... when any
fn@q(...);
... when any
} else S
|
if@pe (T) { ... when any
fn@q(...);
... when any
}
)

@path_goto exists@
position exit.pg, q;
identifier fn, L;
@@
goto@pg L;
... when any
fn@q(...);

@script:python@
p << site.p;
q << path.q;
@@
on_path(p, q)

@script:python@
p << site.p;
q << path_goto.q;
@@
on_path(p, q)

// The calls that count where they are on a call's failure path and name
// its cdev or device, by expression or alias (report).
@put@
expression X;
position q;
@@
kobject_put@q(&X)

@script:python@
q << put.q;
x << put.X;
@@
call(q, "put", x)

@del@
expression X;
position q;
@@
\(cdev_del@q(X)\|cdev_device_del@q(X, ...)\)

@script:python@
q << del.q;
x << del.X;
@@
call(q, "del", x)

@freed@
expression X;
position q;
@@
kfree@q(X)

@script:python@
q << freed.q;
x << freed.X;
@@
call(q, "kfree", x)

@put_device@
expression X;
position q;
@@
put_device@q(X)

@script:python@
q << put_device.q;
x << put_device.X;
@@
call(q, "put_device", x)

@panicked@
position q;
@@
\(panic@q(...)\|BUG@q()\)

@script:python@
q << panicked.q;
@@
call(q, "panic")

// A function of the file that calls cdev_del() or put_device() on every
// path through it: the cleanup a failure path may call instead.  One
// that does so only on some paths (i2c-dev's put_i2c_dev(), whose flag
// says whether to cdev_del(); bsr's, which cdev_del()s a list of other
// cdevs) does not count.
@cleanup_del@
identifier h;
@@
h(...) { ... \(cdev_del(...);\|cdev_device_del(...);\) ... }

@cleanup_del_call@
identifier cleanup_del.h;
position q;
@@
h@q(...)

@script:python@
q << cleanup_del_call.q;
h << cleanup_del.h;
@@
call(q, "del:" + h)

@cleanup_put@
identifier h;
@@
h(...) { ... put_device(...); ... }

@cleanup_put_call@
identifier cleanup_put.h;
position q;
@@
h@q(...)

@script:python@
q << cleanup_put_call.q;
h << cleanup_put.h;
@@
call(q, "put_device:" + h)

// One line per call, its facts joined into a pattern.
@script:python report@
p << site.p;
f << site.f;
add << site.add;
@@
seen = facts.pop(at(p), set()) | actions(p)
# what a cleanup function did: "del:h" is h()'s cdev_del()
via = {}
for x in sorted(seen):
    if ":" in x:
        what, h = x.split(":")
        via.setdefault(what, []).append(h + "()")
acted = [a for a in ("put", "del", "kfree", "put_device") if a in seen or a in via]
notes = ["%s() in %s" % ("cdev_del" if what == "del" else what, ", ".join(hs))
         for what, hs in sorted(via.items()) if what not in seen]
if "panic" in seen:
    pattern, notes = "panic", []
elif "wrapper" in seen:
    pattern, notes = "other", ["returns the result to its caller"]
elif "unchecked" in seen:
    pattern, notes = "other", ["the result is not tested"]
elif "warned" in seen:
    pattern, notes = "other", ["the failure only warns"]
elif "tested" not in seen:
    pattern, notes = "other", ["no test of the result that the census follows"]
elif add == "cdev_device_add":
    if "del" in acted:
        pattern = "device_del_put"
    elif "put_device" in acted:
        pattern = "device_put"
    else:
        pattern = "device_other"
        notes.append("kobject_put() on the cdev" if "put" in acted else "no put_device() on the failure path")
else:
    origin = "alloc" if "alloc" in seen else "embed" if "embedded" in seen or "init" in seen else None
    if origin is None:
        pattern, notes = "other", ["the cdev is neither cdev_alloc()ed nor cdev_init()ed where the census looks"]
    else:
        if origin == "alloc" and "init" in seen:
            notes.append("cdev_init() on the cdev_alloc()ed cdev")
        mid = "_parent" if "parent" in seen else "_name" if "name" in seen else ""
        if mid == "_parent" and "name" in seen:
            notes.append("a name too")
        # an embedded cdev is never kfree()d by itself
        acts = [a for a in acted if a in ("put", "del") or (a == "kfree" and origin == "alloc")]
        pattern = origin + mid + "_" + (acts[0] if acts else "none")
        if len(acts) > 1:
            notes.append("also " + ", ".join(acts[1:]))
print("\t".join([p[0].file, p[0].line, f, pattern, "; ".join(notes)]))
