#!/bin/sh
# Model files on the command line: the shipped chain model against the
# chain chapter to 70 digits in every form, --param, and bad models and
# states refused with file, line and column (exit 2, nothing on stdout).
. tests/model_cli.sh
echo "1..62"

S2="0.6 0 0.8  0 0.6 -0.8  0 0.3 0  0.5 0.8 0.6"
REF="--system chain --n 2"
for f in qdot omega mu pi; do agree "$S2" $f models/chain2.model; done
REF="--system chain --n 2 --m 1,2.5 --l 0.5,1.25 --g 3.5"
agree "$S2" omega models/chain2.model --param m2=2.5 --param l1=0.5 --param l2=1.25 --param g=3.5
agree "$S2" pi models/chain2.model --m2 2.5 --l1 0.5 --l2 1.25 --g 3.5
REF="--system chain --n 1"
agree "0.6 0 0.8  0 0.3 0" qdot models/spherical.model
agree "0.6 0 0.8  0 0.3 0" mu models/spherical.model

# The spring model: every form's field carried back to (q, qdot) is the qdot field (the forms agree).
printf '%s\n' "$S2" | "$C" rhs --bits 256 --model models/spring.model > "$T/q" 2>/dev/null
printf '%s\n' "$S2" | "$C" rhs --bits 256 --model models/spring.model --form omega > "$T/w" 2>/dev/null
python3 - "$T/q" "$T/w" <<'EOF'
import sys
from decimal import Decimal, getcontext
getcontext().prec = 200
q = [Decimal(x) for x in open(sys.argv[1]).read().split()]
w = [Decimal(x) for x in open(sys.argv[2]).read().split()]
x = [Decimal(s) for s in "0.6 0 0.8 0 0.6 -0.8 0 0.3 0 0.5 0.8 0.6".split()]
cross = lambda a, b: [a[1]*b[2]-a[2]*b[1], a[2]*b[0]-a[0]*b[2], a[0]*b[1]-a[1]*b[0]]
worst = 0
for i in range(2):
    qi, qdd = x[3*i:3*i+3], q[6+3*i:9+3*i]
    wdot = cross(qi, qdd)                      # d/dt (q x qdot) = q x qddot
    worst = max(worst, max(abs(a - b) for a, b in zip(wdot, w[6+3*i:9+3*i])))
sys.exit(0 if worst < Decimal("1e-70") else 1)
EOF
t $? "spring model: the omega field is q x qddot of the qdot field to 70 digits"

# Bad input: exit 2, nothing on stdout, "error: <what> (<file>:<line>:<col>)".
bad() {
    want=$1; shift
    out=$(printf '%s\n' "$S2" | "$C" rhs "$@" 2>"$T/err")
    st=$?
    err=$(head -1 "$T/err")
    [ $st = 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -qF -- "$want"
    t $? "refused with '$want': $(printf '%s' "$err" | cut -c1-150)"
}
model() { printf '%s\n' "$@" > "$T/bad.model"; }
model "manifold q1, q2 : S2" "lagrangian dot(q1', q1') + dot(q2', q2') + * q1.z"
bad "expected a number, a name, '(' or '[', found '*' ($T/bad.model:2:44)" --model "$T/bad.model"
model "manifold q1, q2 : S2" "parameters m = 1" "lagrangian m*dot(q1', q1') + dot(q2', q2') - k*q1.z"
bad "unknown name 'k' ($T/bad.model:3:46)" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrangian dot(q1', q1') + dot(q2', q2') + q3'.z"
bad "unknown name 'q3'' ($T/bad.model:2:44)" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrangian q1' + q2'"
bad "the lagrangian must be a scalar, this is a vector ($T/bad.model:2:12)" --model "$T/bad.model"
model "manifold q1, q2 : S2"
bad "expected a lagrangian statement ($T/bad.model:2:1)" --model "$T/bad.model"
model "manifold q1, q2 : T2" "lagrangian 0"
bad "expected the factor S1, R1, R3, S2, SO3 or SE3 after ':'" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrange dot(q1', q1')"
bad "expected manifold, parameters, let, lagrangian, hamiltonian, invariant, equilibrium, force or constraint at the start of a statement ($T/bad.model:2:1)" --model "$T/bad.model"
model "manifold q1, q2 : S2" "parameters m = one" "lagrangian m"
bad "expected a decimal number as the default value of m ($T/bad.model:2:16)" --model "$T/bad.model"
model "manifold q1, q1 : S2" "lagrangian 0"
bad "'q1' is declared twice ($T/bad.model:1:14)" --model "$T/bad.model"
bad "cannot open $T/missing.model (No such file or directory)" --model "$T/missing.model"
bad "unknown option (--mass); no option is near that name (chartless rhs --model models/chain2.model --help lists them)" --model models/chain2.model --mass 2
bad "give --system or --model, not both" --model models/chain2.model --system chain
# L without kinetic energy: the velocity Hessian is zero on the tangent space.
model "manifold q1, q2 : S2" "lagrangian -q1.z - q2.z"
bad "the Lagrangian is degenerate at this state" --model "$T/bad.model"
# the spring at q1 = q2: norm(q1 - q2) has no derivative there, and the message points at it
out=$(echo "0 0 1  0 0 1  1 0 0  0 1 0" | "$C" rhs --model models/spring.model 2>"$T/err"); st=$?
[ $st = 2 ] && [ -z "$out" ] && grep -q "models/spring.model:8:.*'norm(q1 - q2).*leaves its domain" "$T/err"
t $? "a state where L has no derivative is refused, naming the subexpression: $(cut -c1-160 "$T/err")"
model "manifold q : S2" "lagrangian dot(q', q')/(q.z - 1)"
out=$(echo "0 0 1  1 0 0" | "$C" rhs --model "$T/bad.model" 2>"$T/err"); st=$?
[ $st = 2 ] && [ -z "$out" ] && grep -q "bad.model:2:23: '/(q.z - 1)'" "$T/err"
t $? "a division by zero at the state names the '/': $(cut -c1-160 "$T/err")"
# simulate takes a model too, and conserves its energy and declared invariant
printf '%s\n' "$S2" | "$C" simulate --model models/spring.model --t 1 --bits 113 > "$T/sim.csv" 2>/dev/null
python3 - "$T/sim.csv" <<'EOF'
import sys
rows = [l.strip().split(',') for l in open(sys.argv[1])]
h = rows[0]; e, lz = h.index('energy'), h.index('Lz')
first, last = rows[1], rows[-1]
ok = len(rows) > 3 and abs(float(last[e]) - float(first[e])) < 1e-20 and abs(float(last[lz]) - float(first[lz])) < 1e-20
sys.exit(0 if ok else 1)
EOF
t $? "simulate --model models/spring.model at 113 bits keeps energy and Lz to 1e-20"

# Time-dependent L: the pendulum with a vertically oscillating pivot against
# its hand-derived field. With z(t) = a cos(nu t) the height of the pivot,
# the Euler-Lagrange equations [S2 (11)] give
#   qddot = -(g + z''(t))/l (e3 - q_z q) - |qdot|^2 q,   z''(t) = -a nu^2 cos(nu t),
# checked at three states and times at 113 and 256 bits, to 2^-p times 2^8
# (relative to the largest component) in every entry.
# hand FILE BITS STATE EXPR NAME=VALUE...: the field in FILE (q', q'') against
# q' = v and q''_k = EXPR (Python, Decimal at 320 digits: q, v, v2 = |v|^2,
# e3, cos and the NAME=VALUE pairs, component k), to 2^(8 - BITS) relative.
cat > "$T/hand.py" <<'EOF'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 320
def cos(x):  # Taylor series, |x| < 40 here
    s, term, k = D(0), D(1), 0
    while abs(term) > D(10) ** -310:
        s += term
        term = -term * x * x / ((2 * k + 1) * (2 * k + 2))
        k += 1
    return s
bits = int(sys.argv[2]); x = [D(s) for s in sys.argv[3].split()]
got = [D(s) for s in open(sys.argv[1]).read().split()]
ns = {kv.split('=')[0]: D(kv.split('=')[1]) for kv in sys.argv[5:]}
ns.update(q=x[:3], v=x[3:], v2=sum(c * c for c in x[3:]), e3=[0, 0, 1], cos=cos)
want = x[3:] + [eval(sys.argv[4], dict(ns, k=k)) for k in range(3)]
scale = max(abs(w) for w in want)
err = max(abs(u - w) for u, w in zip(got, want)) / scale if len(got) == 6 else 1
sys.exit(0 if err <= D(2) ** (8 - bits) else 1)
EOF
pivot() {
    bits=$1 state=$2 time=$3 a=${4:-0.1} nu=${5:-20}
    printf '%s\n' "$state" | "$C" rhs --model models/pivot.model --bits "$bits" --time "$time" --a "$a" --nu "$nu" > "$T/p" 2>"$T/e"
    st=$?
    python3 "$T/hand.py" "$T/p" "$bits" "$state" "-(g - a*nu*nu*cos(nu*t))/l*(e3[k] - q[2]*q[k]) - v2*q[k]" \
        g=9.81 l=1 a="$a" nu="$nu" t="$time"
    ok=$?
    [ $st = 0 ] && [ $ok = 0 ]
    t $? "pivot.model at $bits bits, t = $time, a = $a, nu = $nu, state $state: the hand-derived field to 2^(8-p)"
}
for b in 113 256; do
    pivot $b "0.6 0 0.8  0 0.3 0" 0.3
    pivot $b "0 0.28 -0.96  1.2 0 0" 1.7
    pivot $b "0.48 0.6 0.64  -0.8 0.64 0" 0.05 0.25 7.5
done
# simulate integrates the time-dependent field (t enters the field): Lz is kept, E(t) is not
echo "0.6 0 0.8  0 0.3 0" | "$C" simulate --model models/pivot.model --t 1 --bits 113 > "$T/piv.csv" 2>/dev/null
python3 - "$T/piv.csv" <<'EOF'
import sys
rows = [l.strip().split(',') for l in open(sys.argv[1])]
h = rows[0]; e, lz = h.index('E(t)'), h.index('Lz')
first, last = rows[1], rows[-1]
ok = len(rows) > 3 and 'energy' not in h and abs(float(last[lz]) - float(first[lz])) < 1e-20 \
     and abs(float(last[e]) - float(first[e])) > 1e-3
sys.exit(0 if ok else 1)
EOF
t $? "simulate --model models/pivot.model keeps Lz to 1e-20 and reports E(t), which changes"
# A time-dependent model's bad input, and equilibria
model "manifold q : S2" "parameters t = 1" "lagrangian dot(q', q')"
bad "'t' is the time and cannot name a parameter ($T/bad.model:2:12)" --model "$T/bad.model"
model "manifold q : S2" "lagrangian dot(q', q') - q.z*cos(t)" "invariant I = q.z*t"
bad "the invariant I depends on the time t (an invariant is a function of the state only) ($T/bad.model:3:15)" --model "$T/bad.model"
model "manifold q : S2" "parameters time = 1" "lagrangian dot(q', q') - q.z*cos(t)"
bad "a time-dependent model cannot name a parameter 'time'" --model "$T/bad.model"
model "manifold q : S2" "lagrangian dot(q', q') - q.z*cos(t)" "equilibrium down = q: [0, 0, -1]"
bad "equilibria of a time-dependent model are not supported" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrangian dot(q1', q1') + dot(q2', q2')" "equilibrium down = q1: [0, 0, -1]"
bad "the equilibrium down does not give q2 (every factor is needed) ($T/bad.model:3:13)" --model "$T/bad.model"
model "manifold q : S2" "lagrangian dot(q', q')" "equilibrium down = q: q'"
bad "unknown name 'q''" --model "$T/bad.model"
model "manifold q : S2" "lagrangian dot(q', q')" "equilibrium down = q: 1"
bad "the point of q must be a vector, this is a scalar" --model "$T/bad.model"
bad "unknown option (--time); no option is near that name (chartless rhs --model models/spring.model --help lists them)" --model models/spring.model --time 1
# Sums over an index range: models/chain3.model, written with sum() and
# indexed names, is the chain of three links in every form.
REF="--system chain --n 3"
S3="0.6 0 0.8  0 0.6 -0.8  0 0 1  0 0.3 0  0.5 0.8 0.6  1 0 0"
for f in qdot omega mu pi; do agree "$S3" $f models/chain3.model; done
REF="--system chain --n 3 --m 1,2,0.5 --l 0.75,1.5,1 --g 3"
agree "$S3" pi models/chain3.model --param m2=2 --param m3=0.5 --param l1=0.75 --param l2=1.5 --g 3
# Bad sums
model "manifold q1, q2 : S2" "lagrangian sum(i = 2..1, dot(q[i]', q[i]'))"
bad "the range 2..1 of a sum is empty ($T/bad.model:2:16)" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrangian sum(i = 1..3, dot(q[i]', q[i]'))"
bad "unknown name 'q3'' ($T/bad.model:2:30)" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrangian sum(i = 1..2, dot(q[j]', q[i]'))"
bad "expected an index: a whole number or the index of an enclosing sum" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrangian sum(i = 1..2, dot(q[i]', q[i]')*i')"
bad "the index 'i' of a sum has no velocity" --model "$T/bad.model"
model "manifold q1, q2 : S2" "lagrangian sum(i = 1..2000, 1) + dot(q1', q1') + dot(q2', q2')"
bad "a sum of more than 1000 terms" --model "$T/bad.model"
# Generalized forces: models/damped.model (force q = -b*q') against the
# hand-derived field qddot = -(g/l)(e3 - q_z q) - b/(m l^2) qdot - |qdot|^2 q,
# at two states at 113 and 256 bits, to 2^(8-p) relative.
damped() {
    bits=$1 state=$2
    printf '%s\n' "$state" | "$C" rhs --model models/damped.model --bits "$bits" --b 0.75 --l 1.5 > "$T/d" 2>"$T/e"
    st=$?
    python3 "$T/hand.py" "$T/d" "$bits" "$state" "-(g/l)*(e3[k] - q[2]*q[k]) - b/(m*l*l)*v[k] - v2*q[k]" m=1 l=1.5 g=9.81 b=0.75
    ok=$?
    [ $st = 0 ] && [ $ok = 0 ]
    t $? "damped.model at $bits bits, state $state: the hand-derived field with the force to 2^(8-p)"
}
for b in 113 256; do damped $b "0.6 0 0.8  0 0.3 0"; damped $b "0 0.28 -0.96  1.2 0 0"; done
model "manifold q : S2" "lagrangian dot(q', q')" "force q = -q'.z"
bad "the force on q must be a vector, this is a scalar ($T/bad.model:3:11)" --model "$T/bad.model"
model "manifold q : S2" "lagrangian dot(q', q')" "force p = -q'"
bad "expected the name of a factor of the manifold after force ($T/bad.model:3:7)" --model "$T/bad.model"
model "manifold q : S2" "lagrangian dot(q', q')" "force q = -q'" "force q = q'"
bad "a second force on q ($T/bad.model:4:7)" --model "$T/bad.model"
model "manifold q : S2" "lagrangian dot(q', q') + sum(i = 1..1000, sum(j = 1..1000, sum(k = 1..1000, 1)))"
bad "more than 100000 terms in the sums of one expression (nested sums multiply) ($T/bad.model:2:60)" --model "$T/bad.model"

# let: a body under a spherical pendulum written with lets gives the field of
# models/body-on-pendulum.model to the last digit (the same graph, shared nodes)
cat > "$T/let.model" <<'LET'
manifold   q : S2
manifold   R : SO3 (W)
parameters m0 = 0.5, m = 2, l = 1.2, c1 = 0.1, c2 = -0.2, c3 = -0.6, J1 = 0.3, J2 = 0.4, J3 = 0.2, g = 9.81
let c = [c1, c2, c3]
let J = [[J1, 0, 0], [0, J2, 0], [0, 0, J3]]
let vc = l*q' + R'*c
lagrangian 1/2*m0*l^2*dot(q', q') + 1/2*m*dot(vc, vc) + 1/2*dot(W, J*W) - g*(m0*l*q.z + m*(l*q + R*c).z)
LET
S="0.6 0 -0.8  1 0 0 0 1 0 0 0 1  0 0.5 0  0.1 0.2 0.3"
a=$(echo "$S" | "$C" rhs --model "$T/let.model" --bits 113)
b=$(echo "$S" | "$C" rhs --model models/body-on-pendulum.model --bits 113 --c1 0.1 --c2 -0.2)
[ -n "$a" ] && [ "$a" = "$b" ]
t $? "let and a matrix literal: the field of the written-out model to the last digit"
model "manifold q : S2" "let a = a + 1" "lagrangian dot(q', q')"
bad "the let a refers to itself ($T/bad.model:2:9)" --model "$T/bad.model"
model "manifold q : S2" "parameters a = 1" "let a = 2" "lagrangian dot(q', q')"
bad "'a' is declared twice ($T/bad.model:3:5)" --model "$T/bad.model"
# the cart carrying a spherical pendulum hanging: squared frequencies g/l across the rail and (M + m)g/(M l) along it
# (6.54 and 9.81 at M = 2, m = 1, l = 1.5, g = 9.81), on the tangent space of R x T S^2 (the product's constraints)
out=$("$C" equilibria --model models/cart-spherical.model 2>&1 | awk '/hanging/ { h = 1 } h && /squared/ { print; exit }')
printf '%s\n' "$out" | grep -q "6\.54000000000000[0-9]* 9\.8100000000000[0-9]*"
t $? "equilibria of models/cart-spherical.model: squared frequencies g/l and (M + m)g/(M l): $out"
