#!/bin/sh
# chartless equilibria / stability through the generic tools of the check kit
# (system/equilibria.c) for every system with equilibria: exit statuses, bad
# input, and the closed forms at 113 bits (relative tolerance 2^-100, i.e.
# 2^12 times the unit 2^(1-113): a Jacobian by Richardson extrapolation and
# hqr on double eigenvalues, measured at a few units by the oracle rows
# *.equilibria.*). Closed forms are evaluated by python3 at 60 digits.
# every number after the colon of the line of $1 (in stdin) is within 2^-100 of one of the
# closed forms $2 (a python expression of a list, decimal), and every closed form is matched
. tests/tap.sh
matches() {
    python3 -c '
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 60
line = [l for l in sys.stdin.read().splitlines() if l.strip().startswith(sys.argv[1])]
if len(line) != 1: sys.exit(1)
got = [D(x) for x in line[0].split(":", 1)[1].split()]
want = eval(sys.argv[2], {"D": D})
tol = D(2) ** -100
close = lambda a, b: abs(a - b) <= tol * abs(b)
sys.exit(0 if got and all(any(close(g, w) for w in want) for g in got)
         and all(any(close(g, w) for g in got) for w in want) else 1)' "$1" "$2"
}
echo "1..46"

# chain n = 2, m = l = 1: omega^2 = (2 -+ sqrt 2) g / l
out=$("$C" equilibria --system chain --n 2 --bits 113); t $? "equilibria --system chain --n 2 --bits 113 exits 0"
W='[(D(2) - D(2).sqrt()) * D("9.81"), (D(2) + D(2).sqrt()) * D("9.81")]'
echo "$out" | sed -n '/^equilibrium 0/,/^$/p' | matches "squared frequencies" "$W"; t $? "chain hanging: squared frequencies (2 -+ sqrt 2) g/l to 2^-100"
echo "$out" | sed -n '/^equilibrium 0/,/^$/p' | grep -q "linearization: spectrally stable"; t $? "chain hanging: spectrally stable"
echo "$out" | sed -n '/^equilibrium 1/,/^$/p' | matches "squared rates" "$W"; t $? "chain inverted: squared rates (2 -+ sqrt 2) g/l to 2^-100"
echo "$out" | sed -n '/^equilibrium 1/,/^$/p' | grep -q "linearization: unstable"; t $? "chain inverted: unstable"
echo "$out" | grep -q "tangent space: dimension 8 of R^12"; t $? "chain n = 2: the tangent space of T(S^2)^2 has dimension 8"

# chain n = 2, general: m1 l1 l2 w^4 - (m1+m2) g (l1+l2) w^2 + (m1+m2) g^2 = 0
out=$("$C" equilibria --system chain --n 2 --m 1,3 --l 0.7,1.2 --equilibrium hanging --bits 113); t $? "chain with m = (1, 3), l = (0.7, 1.2) exits 0"
W='(lambda m1, m2, l1, l2, g: (lambda a, b, c: [(b - (b*b - 4*a*c).sqrt()) / (2*a), (b + (b*b - 4*a*c).sqrt()) / (2*a)])(m1*l1*l2, (m1+m2)*g*(l1+l2), (m1+m2)*g*g))(D(1), D(3), D("0.7"), D("1.2"), D("9.81"))'
echo "$out" | matches "squared frequencies" "$W"; t $? "chain general masses and lengths: the double pendulum's frequencies to 2^-100"
echo "$out" | grep -q "^equilibrium 1"; [ $? = 1 ]; t $? "--equilibrium hanging selects one equilibrium"

# spherical pendulum, form qdot: g/l
out=$("$C" equilibria --system spherical --l 0.8 --bits 113); t $? "equilibria --system spherical exits 0"
echo "$out" | sed -n '/^equilibrium 0/,/^$/p' | matches "squared frequencies" '[D("9.81") / D("0.8")]'; t $? "spherical hanging: squared frequency g/l to 2^-100"
echo "$out" | sed -n '/^equilibrium 1/,/^$/p' | matches "squared rates" '[D("9.81") / D("0.8")]'; t $? "spherical inverted: squared rate g/l to 2^-100"

# rigid body, form Pi: Lambda = w^2 (Jj - Jk)(Jk - Ji) / (Ji Jj)
out=$("$C" equilibria --system rigid-body --J 1,2,3.5 --omega 1.3 --bits 113); t $? "equilibria --system rigid-body exits 0"
L='(lambda w, i, j, k: w * w * (j - k) * (k - i) / (i * j))(D("1.3"), '
echo "$out" | sed -n '/^equilibrium 0/,/^$/p' | matches "squared frequencies" "[-$L D(2), D(\"3.5\"), D(1))]"; t $? "rigid body, smallest axis: squared frequency to 2^-100"
echo "$out" | sed -n '/^equilibrium 1/,/^$/p' | matches "squared rates" "[$L D(\"3.5\"), D(1), D(2))]"; t $? "rigid body, middle axis: squared rate to 2^-100"
echo "$out" | sed -n '/^equilibrium 1/,/^$/p' | grep -q "linearization: unstable"; t $? "rigid body, middle axis: unstable"
echo "$out" | sed -n '/^equilibrium 2/,/^$/p' | matches "squared frequencies" "[-$L D(1), D(2), D(\"3.5\"))]"; t $? "rigid body, largest axis: squared frequency to 2^-100"
v=$("$C" stability --system rigid-body --J 1,2,3.5 | grep -c "verdict: stable"); [ "$v" = 2 ]; t $? "Energy-Casimir: stable about the smallest and the largest axis"
"$C" stability --system rigid-body --J 1,2,3.5 --equilibrium 1 | grep -q "verdict: unstable (the linearization has an eigenvalue with positive real part; the Energy-Casimir test is not definite)"; t $? "Energy-Casimir not definite about the middle axis, and the verdict unstable by the spectral test"

# heavy top, symmetric, form PiGamma: mu = ((2A - C) w +- sqrt(C^2 w^2 - 4 A m g l)) / 2A
out=$("$C" equilibria --system heavy-top --J 1,1,1.5 --omega 3 --equilibrium sleeping --bits 113); t $? "equilibria --system heavy-top (sleeping, fast) exits 0"
W='(lambda A, C, w, mgl: [((2*A - C)*w + s*(C*C*w*w - 4*A*mgl).sqrt())**2 / (4*A*A) for s in (1, -1)])(D(1), D("1.5"), D(3), D("9.81") / 4)'
echo "$out" | matches "squared frequencies" "$W"; t $? "sleeping top, (C w)^2 > 4 A m g l: squared frequencies mu^2 to 2^-100"
echo "$out" | grep -q "fast-top criterion (J3 w)^2 > 4 J1 m g l: 20.25 > 9.81"; t $? "the sleeping top's name states the fast-top criterion"
# J1 = J2 = 0.3 are not exact in binary: at 53 bits (J1 - J2)^2 = S^2 - 4P is rounding, the top symmetric
"$C" equilibria --system heavy-top --J 0.3,0.3,0.7 --equilibrium sleeping | grep -q "fast-top criterion"; t $? "J = 0.3, 0.3, 0.7 at 53 bits: symmetric, the fast-top criterion stated"
out=$("$C" equilibria --system heavy-top --J 1,1,1.5 --omega 1 --equilibrium sleeping)
echo "$out" | grep -q "linearization: unstable"; t $? "sleeping top, (C w)^2 = 2.25 < 4 A m g l = 9.81: unstable"
"$C" stability --system heavy-top --J 1,1,1.5 --omega 3 --equilibrium 0 | grep -q "verdict: stable"; t $? "Energy-Casimir with Gamma.Pi, |Gamma|^2: sleeping top stable at (C - A) w^2 = 4.5 > m g l"
"$C" stability --system heavy-top --J 1,1,1.5 --omega 2.15 --equilibrium 0 | grep -q "inconclusive"; t $? "Energy-Casimir inconclusive at (C - A) w^2 < m g l < (C w)^2 / 4A (the Casimirs alone do not reach the fast-top criterion)"

# bad input: exit 2, the message, nothing on stdout
chk() { # $1 expected stderr, rest the command
    want=$1; shift
    o=$("$C" "$@" 2>/dev/null); e=$("$C" "$@" 2>&1 >/dev/null); "$C" "$@" >/dev/null 2>&1; s=$?
    [ $s = 2 ] && [ -z "$o" ] && [ "$e" = "$want" ]
}
chk "error: no such equilibrium (all, a number from 0, or the first word of its name) (upside)" equilibria --system chain --equilibrium upside; t $? "an unknown equilibrium exits 2, named, nothing on stdout"
chk "error: the system has no equilibrium in form angles (--form)" equilibria --system spherical --form angles; t $? "a form without equilibria (the angles' poles) exits 2"
chk "error: the Energy-Casimir test takes states of at most 32 numbers (this one has 36) (chain)" stability --system chain --n 6; t $? "stability beyond 32 state numbers exits 2"
chk "error: the system has no equilibrium at these parameters, in any form (heavy-top)" equilibria --system heavy-top --J 1,2,3 --axis 1,1,0; t $? "a heavy top whose axis is not principal has no sleeping state: exit 2"
chk "error: option given twice (--equilibrium)" equilibria --system chain --equilibrium 0 --equilibrium 1; t $? "--equilibrium twice exits 2"
"$C" equilibria --help | grep -q "systems that offer it: .*chain.*spherical.*skate"; t $? "equilibria --help lists the systems that offer it"
"$C" stability --help | grep -q "systems that offer it: .*rigid-body, heavy-top.*chain.*skate"; t $? "stability --help lists the systems that offer it"
chk "error: equilibrium 0, hanging (q_i = -e3), is not a zero of the field at these parameters (chain)" equilibria --system chain --tau 0,1,0; t $? "a control torque moves the hanging state: exit 2, nothing on stdout"
chk "error: equilibria needs a system with equilibria; the model declares none (models/rigid-body.model)" equilibria --model models/rigid-body.model; t $? "a model file without equilibria exits 2"
# a model's declared equilibria reach the generic tool: chain2.model's hanging state
# has the chapter's squared frequencies (2 -+ sqrt 2) g/l
out=$("$C" equilibria --model models/chain2.model --bits 113); t $? "equilibria --model models/chain2.model exits 0"
echo "$out" | sed -n '/^equilibrium 0/,/^$/p' | matches "squared frequencies" '[(D(2) - D(2).sqrt()) * D("9.81"), (D(2) + D(2).sqrt()) * D("9.81")]'; t $? "chain2.model hanging: squared frequencies (2 -+ sqrt 2) g/l to 2^-100"
# damping on every degree of freedom makes the hanging pendulum asymptotically stable; damping on
# one of two uncoupled pendulums leaves two pairs on the imaginary axis: no verdict from the spectrum
out=$("$C" equilibria --model models/damped.model)
echo "$out" | sed -n '/^equilibrium 0/,/^$/p' | grep -q "linearization: asymptotically stable"; t $? "damped.model hanging: asymptotically stable"
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-eq-XXXXXX"); trap 'rm -rf "$T"' EXIT
cat > "$T/half.model" <<'M'
manifold   q1, q2 : S2
parameters g = 9.81, b = 0.3
lagrangian 1/2*dot(q1', q1') + 1/2*dot(q2', q2') - g*(q1.z + q2.z)
force      q1 = -b*q1'
equilibrium hanging = q1: [0, 0, -1], q2: [0, 0, -1]
M
out=$("$C" equilibria --model "$T/half.model")
echo "$out" | grep -q "linearization: inconclusive (eigenvalues on the imaginary axis"; t $? "one of two pendulums damped: inconclusive, not asymptotically stable"

# --format json (docs/equilibria.schema.json, docs/stability.schema.json): the same numbers as the text
"$C" equilibria --system chain --n 2 --bits 113 --equilibrium hanging --format json > "$T/eq.json" &&
    tools/validate-json docs/equilibria.schema.json < "$T/eq.json"; t $? "equilibria --format json is what docs/equilibria.schema.json says"
python3 - "$T/eq.json" <<'PY'
import json, sys
from decimal import Decimal as D, getcontext
getcontext().prec = 60
d = json.load(open(sys.argv[1]), parse_float=D)
e = d["equilibria"]
want = [(D(2) - D(2).sqrt()) * D("9.81"), (D(2) + D(2).sqrt()) * D("9.81")]
got = e[0]["squared_frequencies"]
close = lambda g, w: abs(g - w) <= D(2) ** -100 * w
ok = len(e) == 1 and e[0]["name"].startswith("hanging") and e[0]["linearization"] == "spectrally stable" and len(got) == 4
ok = ok and all(any(close(g, w) for w in want) for g in got) and all(any(close(g, w) for g in got) for w in want)
sys.exit(0 if ok and e[0]["tangent_dimension"] == 8 and len(e[0]["A"]) == 8 else 1)
PY
t $? "chain hanging in JSON: the squared frequencies (2 -+ sqrt 2) g/l to 2^-100 with every digit, A 8 x 8"
"$C" stability --system rigid-body --J 1,2,3.5 --format json > "$T/st.json" && tools/validate-json docs/stability.schema.json < "$T/st.json" &&
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if [e["verdict"] for e in d["equilibria"]] == ["stable", "unstable", "stable"] else 1)' "$T/st.json"
t $? "stability --format json: the rigid body stable about the smallest and largest axis, unstable (spectral) about the middle"
"$C" equilibria --system skate --format json | tools/validate-json docs/equilibria.schema.json; t $? "the skate's JSON comes from the generic tool on its equilibria"
chk "error: no such equilibrium (all, a number from 0, or the first word of its name) (upside)" equilibria --system chain --equilibrium upside --format json; t $? "--format json on bad input: exit 2, nothing on stdout"
# the top of the precision range: the derivatives run some hundred bits above --bits, within 65536
"$C" equilibria --model models/spherical.model --bits 33000 --format json > "$T/p33.json" && python3 - "$T/p33.json" <<'PY'
import json, sys
from decimal import Decimal as D, getcontext
getcontext().prec = 11000
e = json.load(open(sys.argv[1]), parse_float=D)["equilibria"]
got = e[0]["squared_frequencies"]
sys.exit(0 if e[0]["name"] == "hanging" and len(got) == 2 and all(abs(x - D("9.81")) <= D(2) ** (16 - 33000) * D("9.81") for x in got) else 1)
PY
t $? "equilibria --bits 33000: the spherical pendulum's squared frequencies g/l to 2^(16-33000), relative"
chk "error: precision too high for the linearization: at most 64724 bits (--bits)" equilibria --model models/spherical.model --bits 64725; t $? "--bits above what the linearization's derivatives leave room for: exit 2, nothing on stdout"
