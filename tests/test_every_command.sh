#!/bin/sh
# Every command on every kind of system: rhs, simulate, equilibria, stability,
# sweep, oracle and grade on the chain, the heavy top, the skate, and models
# on S1, Rk, S2, SO(3), SE(3), a product of flat factors (R1 x S1, "flat") and
# a product across kinds (R1 x S2, "mixed"), each in its
# text output and (where it has one) its JSON, validated against the schema
# in docs/. Prints the table "command x system kind" as TAP diagnostics.
#
# A cell passes when the command exits 0 with a result of the right shape:
# rhs a number per state component, simulate at least two rows, equilibria
# and stability at least one equilibrium, sweep one row per cell, oracle
# every row passed, grade the reference's own values (chartless rhs at the
# grader's states, through --emit-states and --values) graded PASS.
# A cell the engine cannot do yet is listed in todo() with its reason: it
# is reported "not ok ... # TODO reason" (not a pass), and a listed cell
# that passes shows as a TODO passed (then take it off the list). A cell
# not listed that fails is a failure.
. tests/tap.sh
T="${TMPDIR:-/tmp}/cl-every-$$"
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
V=tools/validate-json

# ------------------------------------------------------------ the models of each kind
# (the product engine runs SE3, mixed products, and S1 / Rk / SO3 models with equilibria, forces or t)
cat > "$T/s1.model" <<'EOF'
# a planar pendulum: the angle theta from the downward vertical
manifold   theta : S1
parameters m = 1, l = 1, g = 9.81
lagrangian 1/2*m*l^2*theta'^2 + m*g*l*cos(theta)
equilibrium hanging = theta: 0
EOF
cat > "$T/rk.model" <<'EOF'
# two masses on a line, each tied to a wall and to the other by springs
manifold   x, y : R1
parameters m = 1, k = 2, c = 0.5
lagrangian 1/2*m*(x'^2 + y'^2) - 1/2*k*(x^2 + y^2) - 1/2*c*(x - y)^2
equilibrium rest = x: 0, y: 0
EOF
cat > "$T/so3.model" <<'EOF'
# a symmetric heavy top about a fixed point, asleep upright at spin w
manifold   R : SO3 (W)
parameters J1 = 1, J2 = 1, J3 = 1.5, m = 1, g = 9.81, l = 0.25, w = 3
lagrangian 1/2*(J1*W.x^2 + J2*W.y^2 + J3*W.z^2) - m*g*l*(R*[0, 0, 1]).z
invariant  mz = (R*[J1*W.x, J2*W.y, J3*W.z]).z
invariant  GammaPi = dot(transpose(R)*[0, 0, 1], [J1*W.x, J2*W.y, J3*W.z])
equilibrium sleeping = R: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], W: [0, 0, w]
EOF
cat > "$T/se3.model" <<'EOF'
# a free rigid body in space: attitude and position, body angular and linear velocities
manifold   B, r : SE3 (W, V)
parameters m = 1, J1 = 1, J2 = 2, J3 = 3, k = 1
lagrangian 1/2*(J1*W.x^2 + J2*W.y^2 + J3*W.z^2) + 1/2*m*dot(V, V) - 1/2*k*dot(r, r)
equilibrium rest = B: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], r: [0, 0, 0]
EOF
cat > "$T/flat.model" <<'EOF'
# a pendulum on a cart: R1 x S1
manifold   x : R1
manifold   theta : S1
parameters M = 2, m = 1, l = 1, g = 9.81
lagrangian 1/2*(M + m)*x'^2 + m*l*x'*theta'*cos(theta) + 1/2*m*l^2*theta'^2 + m*g*l*cos(theta)
invariant  px = (M + m)*x' + m*l*theta'*cos(theta)
equilibrium down = x: 0, theta: 0
EOF
cat > "$T/mixed.model" <<'EOF'
# a cart (position x on a rail) carrying a spherical pendulum q: R1 x S2
manifold   x : R1
manifold   q : S2
parameters M = 2, m = 1, l = 1, g = 9.81
lagrangian 1/2*M*x'^2 + 1/2*m*dot([x', 0, 0] + l*q', [x', 0, 0] + l*q') - m*g*l*q.z
invariant  px = M*x' + m*(x' + l*q'.x)
equilibrium hanging = x: 0, q: [0, 0, -1]
EOF
# A model the engine cannot read with its equilibrium serves the commands that need none without it.
for k in s1 rk so3 se3 flat mixed; do
    if "$C" rhs --model "$T/$k.model" < /dev/null 2>&1 | grep -q "$k.model:"; then grep -v '^equilibrium' "$T/$k.model" > "$T/$k.base.model"
    else cp "$T/$k.model" "$T/$k.base.model"; fi
done

KINDS="chain top skate S1 Rk S2 SO3 SE3 flat mixed"
COMMANDS="rhs simulate equilibria stability sweep oracle grade"

# how each kind is named (with equilibria, and for the commands that need none), a state of its
# default form, a sweep axis, and its oracle rows
args() {
    case $1 in
    chain) echo "--system chain --n 2" ;; top) echo "--system heavy-top" ;; skate) echo "--system skate" ;;
    S1) echo "--model $T/s1.model" ;; Rk) echo "--model $T/rk.model" ;; S2) echo "--model models/spherical.model" ;;
    SO3) echo "--model $T/so3.model" ;; SE3) echo "--model $T/se3.model" ;; flat) echo "--model $T/flat.model" ;;
    mixed) echo "--model $T/mixed.model" ;;
    esac
}
base_args() {
    case $1 in
    S1 | Rk | SO3 | SE3 | flat | mixed) echo "--model $T/$(echo "$1" | tr 'A-Z' 'a-z').base.model" ;;
    *) args "$1" ;;
    esac
}
state() {
    case $1 in
    chain) echo "0 0 -1 0 0 -1 0.1 0 0 0.1 0 0" ;; top | SO3) echo "1 0 0 0 1 0 0 0 1 0.1 0.2 0.3" ;;
    skate) echo "0 1 0 0 1" ;; S1) echo "0.3 0.1" ;; Rk) echo "0.1 0.2 0 0" ;; S2) echo "0 0 -1 0.1 0 0" ;;
    SE3) echo "1 0 0 0 1 0 0 0 1 0.5 0 0 0.1 0.2 0.3 0 0 0" ;; flat) echo "0 0.3 0 0" ;;
    mixed) echo "0 0 0 -1 0 0.1 0 0" ;;
    esac
}
axis() {
    case $1 in
    chain | S1 | S2 | flat | mixed) echo "g=5:15:3" ;; top) echo "omega=1:5:3" ;; skate) echo "Omega0=0:10:3" ;;
    Rk) echo "k=1:3:3" ;; SO3) echo "w=1:5:3" ;; SE3) echo "k=1:3:3" ;;
    esac
}
oracle_rows() {
    case $1 in
    chain) echo "--check s2.chain.*" ;; top) echo "--check emb.heavy_top.*" ;; skate) echo "--check skate.*" ;;
    *) base_args "$1" ;;
    esac
}

# The cells the engine cannot do yet, with the reason (none now: every cell must pass).
todo() { :; }

# ------------------------------------------------------------ one cell: 0, or the reason in $T/why
JSONS=0
json_ok() { # $1 schema, $2 file, $3 python condition on the document d: checked in one pass at the end
    JSONS=$((JSONS + 1))
    cp "$2" "$T/doc$JSONS.json"
    printf '%s\t%s\t%s\t%s\n' "$CELL" "$1" "$T/doc$JSONS.json" "$3" >> "$T/jsons"
}
run() { # the command, its stderr's first line into $T/why on failure
    "$@" > "$T/out" 2> "$T/err" || { echo "exit $?: $(head -1 "$T/err")" > "$T/why"; return 1; }
}
cell() {
    k=$1 A=$(args "$1") B=$(base_args "$1")
    case $2 in
    rhs)
        state "$k" | run "$C" rhs $B || return 1
        nw=$(wc -w < "$T/out")
        state "$k" | run "$C" rhs $B --format json && cp "$T/out" "$T/j" &&
            json_ok rhs "$T/j" "len(d['rhs']) == len(d['components']) == $nw > 0" ;;
    simulate)
        state "$k" | run "$C" simulate $B --t 0.05 || return 1
        [ "$(wc -l < "$T/out")" -ge 3 ] || { echo "fewer than two rows" > "$T/why"; return 1; }
        state "$k" | run "$C" simulate $B --t 0.05 --format json && cp "$T/out" "$T/j" &&
            json_ok simulate "$T/j" "len(d['rows']) >= 2 and all(len(r) == len(d['columns']) for r in d['rows'])" ;;
    equilibria | stability)
        # the skate's own stability test needs its equilibrium; its JSON is the generic tools'
        [ "$k $2" = "skate stability" ] && A="$A --equilibrium spinning --Omega0 5"
        run "$C" "$2" $A || return 1
        grep -q 'equilibrium\|verdict' "$T/out" || { echo "no equilibrium printed" > "$T/why"; return 1; }
        run "$C" "$2" $A --format json && cp "$T/out" "$T/j" && json_ok "$2" "$T/j" "len(d['equilibria']) >= 1" ;;
    sweep)
        run "$C" sweep $A --x "$(axis "$k")" || return 1
        [ "$(tail -n +4 "$T/out" | wc -l)" = 3 ] || { echo "not one row per cell" > "$T/why"; return 1; }
        run "$C" sweep $A --x "$(axis "$k")" --format json && cp "$T/out" "$T/j" &&
            json_ok sweep "$T/j" "len(d['rows']) == 3 and all(len(r) == len(d['columns']) for r in d['rows'])" ;;
    oracle)
        # shellcheck disable=SC2046
        run "$C" oracle --quick --bits 53,113 $(oracle_rows "$k") --format json && cp "$T/out" "$T/j" &&
            json_ok oracle "$T/j" "d['passed'] >= 1 and d['failed'] == 0" ;;
    grade) grade_cell "$k" "$B" "$(state "$k")" ;;
    esac
}

# grade: the reference's own values (chartless rhs at the grader's states) must be graded PASS
grade_cell() {
    # the default form, as rhs names it
    echo "$3" | run "$C" rhs $2 --format json || return 1
    form=$(sed -n 's/.*"form": "\([^"]*\)".*/\1/p' "$T/out")
    run "$C" grade $2 --form "$form" --states 2 --emit-states json || return 1
    python3 - "$C" "$T/out" "$T/values" "$form" $2 <<'PY' > "$T/why" 2>&1 || return 1
import json, subprocess, sys
C, emit, out, form, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
doc = json.load(open(emit))
lines = ["chartless-values 1", "name the reference (chartless rhs)"]
for i, inst in enumerate(doc["instances"]):
    lines.append("instance %d" % i)
    params = []
    for key, v in inst["params"].items():
        if "--" + key in args or (key == "n" and "--n" not in args): continue
        params += ["--" + key, ",".join(repr(x) for x in v) if isinstance(v, list) else str(v)]
    for j, x in enumerate(inst["states"]):
        r = subprocess.run([C, "rhs", *args, "--form", form, *params], input=" ".join(repr(t) for t in x),
                           capture_output=True, text=True)
        if r.returncode: sys.exit("rhs: " + r.stderr.strip())
        lines.append("state %d 0 %s" % (j + 1, " ".join(r.stdout.split())))
    lines.append("end done -1 0 0")
open(out, "w").write("\n".join(lines) + "\n")
PY
    run "$C" grade $2 --form "$form" --states 2 --values "$T/values" || return 1
}

# ------------------------------------------------------------ the table
# Each cell's commands run here; their JSON documents are checked against the schemas in one
# pass at the end (python3 starts once), which prints the TAP lines and the table.
: > "$T/cells"
: > "$T/jsons"
for k in $KINDS; do
    for c in $COMMANDS; do
        CELL="$c $k"
        : > "$T/why"
        cell "$k" "$c"
        printf '%s\t%s\t%s\t%s\t%s\n' "$k" "$c" "$?" "$(head -1 "$T/why")" "$(todo "$k" "$c")" >> "$T/cells"
    done
done
python3 - "$T/cells" "$T/jsons" "$V" "$KINDS" "$COMMANDS" <<'PY'
import json, runpy, sys
cells_file, jsons_file, validator, kinds, commands = sys.argv[1:6]
kinds, commands = kinds.split(), commands.split()
# the schema check of tools/validate-json, without its reading of stdin
src = open(validator).read().split("\nschema = json.load")[0]
ns = {}
exec(compile(src, validator, "exec"), ns)
bad = {}
for line in open(jsons_file):
    cell, schema, path, cond = line.rstrip("\n").split("\t")
    try:
        doc = json.load(open(path))
    except ValueError as e:
        bad.setdefault(cell, "JSON: not JSON (%s)" % e)
        continue
    errs = []
    ns["check"](doc, json.load(open("docs/%s.schema.json" % schema)), "$", errs)
    if errs:
        bad.setdefault(cell, "JSON: not what docs/%s.schema.json says: %s" % (schema, errs[0]))
    elif not eval(cond, {"d": doc}):
        bad.setdefault(cell, "JSON: valid, but not the result wanted (%s)" % cond)
print("1..%d" % (len(kinds) * len(commands) + 2))
marks, n = {}, 0
for line in open(cells_file):
    k, c, st, why, reason = line.rstrip("\n").split("\t")
    cell = "%s %s" % (c, k)
    if st == "0" and cell in bad:
        st, why = "1", bad[cell]
    n += 1
    if reason:
        print("%s %d - %s on %s # TODO %s" % ("ok" if st == "0" else "not ok", n, c, k, reason))
        if st != "0": print("#   got: " + why)
        marks[k, c] = "ok(todo?)" if st == "0" else "TODO"
    else:
        print("%s %d - %s on %s" % ("ok" if st == "0" else "not ok", n, c, k))
        if st != "0": print("#   " + why)
        marks[k, c] = "ok" if st == "0" else "FAIL"
print("# command x system kind (TODO: what the engine cannot do yet, reasons above):")
print("# %-8s" % "" + "".join("%-11s" % c for c in commands))
for k in kinds:
    print("# %-8s" % k + "".join("%-11s" % marks[k, c] for c in commands))
PY
n=$(($(echo $KINDS | wc -w) * $(echo $COMMANDS | wc -w)))

# systems, which lists named systems only, and a schema check that can fail
"$C" systems --format json > "$T/j" && $V docs/systems.schema.json < "$T/j" &&
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if len(d['systems']) >= 9 and 'sweep' in [c for s in d['systems'] if s['name'] == 'chain' for c in s['commands']] else 1)" "$T/j"
t $? "systems --format json: every named system, the chain offering sweep, as docs/systems.schema.json says"
echo '{"schema": "chartless-rhs/1", "system": "x", "form": "y", "bits": "53", "components": [], "rhs": []}' | $V docs/rhs.schema.json > /dev/null
[ $? = 1 ]; t $? "the schema check refuses a document that breaks its schema (bits as a string)"
