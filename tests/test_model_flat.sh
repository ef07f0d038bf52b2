#!/bin/sh
# Model files on S1 and R^k factors on the command line: a particle in the
# Kepler potential on R3 against Newton's law to 70 digits at 256 bits in both
# forms, the cart pendulum's qdot and p forms against each other, simulate's
# conservation of energy and momentum, and bad models refused (exit 2,
# nothing on stdout).
. tests/model_cli.sh
echo "1..10"

# Kepler: L = m/2 |r'|^2 + k/|r|, m = 2, k = 3, so r'' = -k r/(m |r|^3), and in the momenta
# p = m r', p' = -k r/|r|^3. The state r = (0.3, -1.2, 0.4) has |r| = 1.3 (exact decimals).
cat > "$T/kepler.model" <<'M'
manifold   r : R3
parameters m = 2, k = 3
lagrangian 1/2*m*dot(r', r') + k/norm(r)
invariant  Lz = m*cross(r, r').z
M
kepler() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 200
f = [D(x) for x in open(sys.argv[1]).read().split()]
r = [D("0.3"), D("-1.2"), D("0.4")]; v = [D(x) for x in sys.argv[3].split()]
n3 = sum(x * x for x in r) ** 3
n3 = n3.sqrt()
if sys.argv[2] == "qdot": want = v + [-3 * x / (2 * n3) for x in r]
else: want = [x / 2 for x in v] + [-3 * x / n3 for x in r]  # v holds p here: r' = p/m
sys.exit(0 if len(f) == 6 and max(abs(a - b) for a, b in zip(f, want)) < D("1e-70") else 1)
PY
}
echo "0.3 -1.2 0.4  0.5 0.25 -1" | "$C" rhs --bits 256 --model "$T/kepler.model" > "$T/k1" 2>"$T/err"
s=$?; kepler "$T/k1" qdot "0.5 0.25 -1"; r=$?
[ $s = 0 ] && [ $r = 0 ]
t $? "Kepler on R3, form qdot: r'' = -k r/(m |r|^3) to 70 digits at 256 bits"
echo "0.3 -1.2 0.4  1 0.5 -2" | "$C" rhs --bits 256 --form p --model "$T/kepler.model" > "$T/k2" 2>"$T/err"
s=$?; kepler "$T/k2" p "1 0.5 -2"; r=$?
[ $s = 0 ] && [ $r = 0 ]
t $? "Kepler on R3, form p: (p/m, -k r/|r|^3) to 70 digits at 256 bits"

# The cart pendulum at theta = 0.7: the qdot field and the p field at the same state agree on
# x', theta' (the inverse Legendre map) and the p field's p_x' is 0 (no horizontal force).
S="0.3 0.7  -0.4 1.3"
echo "$S" | "$C" rhs --bits 256 --model models/cart-pendulum.model > "$T/c1" 2>/dev/null
s1=$?
python3 - > "$T/cp" <<'PY'
from decimal import Decimal as D, getcontext
getcontext().prec = 200
# cos 0.7 by its series, to 200 digits
x = D("0.7"); c = D(0); term = D(1); k = 0
while abs(term) > D("1e-190"):
    c += term; k += 2; term = -term * x * x / (k * (k - 1))
M, m, l = 2, 1, 1
xd, td = D("-0.4"), D("1.3")
print("0.3 0.7", (M + m) * xd + m * l * c * td, m * l * c * xd + m * l * l * td)
PY
"$C" rhs --bits 256 --form p --model models/cart-pendulum.model < "$T/cp" > "$T/c2" 2>/dev/null
s2=$?
python3 - "$T/c1" "$T/c2" <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 200
a = [D(x) for x in open(sys.argv[1]).read().split()]; b = [D(x) for x in open(sys.argv[2]).read().split()]
ok = len(a) == 4 and len(b) == 4 and abs(a[0] - b[0]) < D("1e-70") and abs(a[1] - b[1]) < D("1e-70") and abs(b[2]) < D("1e-70")
sys.exit(0 if ok else 1)
PY
r=$?
[ $s1 = 0 ] && [ $s2 = 0 ] && [ $r = 0 ]
t $? "cart pendulum: the p form gives back x', theta' to 70 digits and p_x' = 0"

# simulate keeps the cart's energy and horizontal momentum.
echo "$S" | "$C" simulate --model models/cart-pendulum.model --t 1 --bits 113 > "$T/sim.csv" 2>/dev/null
conserved "$T/sim.csv" energy px
t $? "simulate --model models/cart-pendulum.model at 113 bits keeps energy and px to 1e-20"

model() { printf '%s\n' "$@" > "$T/bad.model"; }
model "manifold x : R2" "lagrangian 0"
bad "R^k factors are R1 (a number) or R3 (a vector); write R2 as two R1 factors ($T/bad.model:1:14)" "0 0" --model "$T/bad.model"
model "manifold q : S2" "manifold x : R1" "lagrangian 1/2*dot(q', q') + 1/2*x'^2"
bad "wrong number of values in the state: expected 8, got 2" "0 0" --model "$T/bad.model"
model "manifold x : R1" "manifold q : S2" "lagrangian 1/2*dot(q', q') + 1/2*x'^2"
bad "q is not a unit vector" "0 0 0 2  0 0 0 0" --model "$T/bad.model"
model "manifold x, y : R1" "lagrangian 1/2*x'^2 + y'*x"
bad "the Lagrangian is degenerate at this state: its velocity Hessian is singular" "1 0 0 0" --model "$T/bad.model"
bad "wrong number of values" "0.3 0.7 -0.4" --model models/cart-pendulum.model
model "manifold r : R3" "lagrangian 1/2*dot(r', r') + 1/norm(r)"
bad "the model is not defined at this state: $T/bad.model:2:32: 'norm(r)' leaves its domain" "0 0 0  1 0 0" --model "$T/bad.model"
