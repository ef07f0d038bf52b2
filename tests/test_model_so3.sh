#!/bin/sh
# Model files on SO(3): the shipped heavy-top and rigid-body models against
# --system heavy-top / rigid-body to 70 digits at 256 bits in every form, a
# rigid body written in R' (the trace form of [EMB 3.4]) against one written
# in W, a non-quadratic L against its closed form, simulate's invariants, and
# bad models and states refused (exit 2, nothing on stdout, one line naming
# what is wrong).
. tests/model_cli.sh
echo "1..27"


# R from the quaternion (4, 2, 2, 1)/5 (exact decimals), W = (0.3, -0.7, 1.1); the
# same state as (R, Rdot), Rdot = R W^, and as (R, mu), mu = R (J W)^ / 2 with J = diag(1, 2, 3.5).
R="0.6 0 0.8  0.64 0.6 -0.48  -0.48 0.8 0.36"
S_ROmega="$R  0.3 -0.7 1.1"
S_RRdot="$R  0.56 -0.42 -0.42 0.324 -0.848 -0.628 1.132 0.636 0.096"
S_Rmu="$R  0.56 -1.035 -0.42 0.819 -1.304 -0.538 1.792 0.978 0.216"


REF="--system heavy-top"
agree "$S_ROmega" ROmega models/heavy-top.model
agree "$S_RRdot" RRdot models/heavy-top.model
agree "$S_Rmu" Rmu models/heavy-top.model
REF="--system heavy-top --J 1.5,2,3 --m 2 --g 3.5 --l 0.5 --axis 1,2,2"
agree "$S_ROmega" ROmega models/heavy-top.model --param J1=1.5 --param J3=3 --param m=2 --param g=3.5 --param l=0.5 \
    --param ax=1 --param ay=2 --param az=2
REF="--system rigid-body"
agree "$S_ROmega" ROmega models/rigid-body.model
agree "$S_Rmu" Rmu models/rigid-body.model

# A state within 2^-40 of SO(3) (R11 off by 1e-13) is made orthogonal as the chapter does it.
REF="--system heavy-top"
agree "0.6000000000001 0 0.8  0.64 0.6 -0.48  -0.48 0.8 0.36  0.3 -0.7 1.1" ROmega models/heavy-top.model

# The rigid body in the trace form L = 1/2 tr(R' Jd R'^T), Jd = tr(J)/2 I - J diagonal,
# written with R' (R' = R hat(W)): the same field as the model written in W.
cat > "$T/trace.model" <<'M'
manifold   R : SO3
parameters J1 = 1, J2 = 2, J3 = 3.5
lagrangian 1/2*(((J2 + J3 - J1)/2)*dot(R'*[1, 0, 0], R'*[1, 0, 0])
               + ((J1 + J3 - J2)/2)*dot(R'*[0, 1, 0], R'*[0, 1, 0])
               + ((J1 + J2 - J3)/2)*dot(R'*[0, 0, 1], R'*[0, 0, 1]))
M
REF="--model models/rigid-body.model"
agree "$S_ROmega" ROmega "$T/trace.model"
agree "$S_Rmu" Rmu "$T/trace.model"

# A non-quadratic L = F(K), K = W.J W, F(K) = K/2 + K^2/8: K is conserved along the motion, so
# W' = J^-1 (J W x W) as for Euler's free body, and Pi = (1 + K/2) J W. In the form Rmu the
# inverse Legendre map is then a true Newton iteration; its Rdot must be R W^.
cat > "$T/quartic.model" <<'M'
manifold   R : SO3 (Omega)
parameters J1 = 1, J2 = 2, J3 = 3.5
lagrangian 1/2*(J1*Omega.x^2 + J2*Omega.y^2 + J3*Omega.z^2) + 1/8*(J1*Omega.x^2 + J2*Omega.y^2 + J3*Omega.z^2)^2
M
printf '%s\n' "$S_ROmega" | "$C" rhs --bits 256 --model "$T/quartic.model" > "$T/q1" 2>/dev/null
s1=$?
W="0.3 -0.7 1.1"
python3 - "$T/q1" "$W" <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 200
f = [D(x) for x in open(sys.argv[1]).read().split()]
w = [D(x) for x in sys.argv[2].split()]; J = [D(1), D(2), D("3.5")]
p = [J[i] * w[i] for i in range(3)]
c = [p[1]*w[2] - p[2]*w[1], p[2]*w[0] - p[0]*w[2], p[0]*w[1] - p[1]*w[0]]
want = [c[i] / J[i] for i in range(3)]
sys.exit(0 if len(f) == 12 and max(abs(a - b) for a, b in zip(f[9:], want)) < D("1e-70") else 1)
PY
r=$?
[ $s1 = 0 ] && [ $r = 0 ]
t $? "non-quadratic L = F(W.J W): W' = J^-1 (J W x W) to 70 digits at 256 bits"
python3 - "$R" "$W" > "$T/qmu" <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 200
R = [D(x) for x in sys.argv[1].split()]; w = [D(x) for x in sys.argv[2].split()]; J = [D(1), D(2), D("3.5")]
K = sum(J[i] * w[i] ** 2 for i in range(3))
P = [(1 + K / 2) * J[i] * w[i] for i in range(3)]
h = [[0, -P[2], P[1]], [P[2], 0, -P[0]], [-P[1], P[0], 0]]
mu = [sum(R[3*i + k] * h[k][j] for k in range(3)) / 2 for i in range(3) for j in range(3)]
print(" ".join(str(x) for x in R + mu))
PY
"$C" rhs --bits 256 --form Rmu --model "$T/quartic.model" < "$T/qmu" > "$T/q2" 2>/dev/null
s2=$?
python3 - "$T/q2" "$S_RRdot" <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 200
f = [D(x) for x in open(sys.argv[1]).read().split()]
rd = [D(x) for x in sys.argv[2].split()][9:]
sys.exit(0 if len(f) == 18 and max(abs(a - b) for a, b in zip(f[:9], rd)) < D("1e-70") else 1)
PY
r=$?
[ $s2 = 0 ] && [ $r = 0 ]
t $? "non-quadratic L, form Rmu: Newton's inverse Legendre map gives Rdot = R W^ to 70 digits"

# simulate keeps the heavy top's energy and its declared invariants m_z and Gamma.Pi.
printf '%s\n' "$S_ROmega" | "$C" simulate --model models/heavy-top.model --t 1 --bits 113 > "$T/sim.csv" 2>/dev/null
conserved "$T/sim.csv" energy mz GammaPi
t $? "simulate --model models/heavy-top.model at 113 bits keeps energy, mz and GammaPi to 1e-20"

# Bad input: exit 2, nothing on stdout, the first line of stderr says what.
HT="--model models/heavy-top.model"
bad "R is not orthogonal (|R^T R - I| = 2^-29" "0.600000001 0 0.8  0.64 0.6 -0.48  -0.48 0.8 0.36  0.3 -0.7 1.1" $HT
bad "R must have determinant +1" "-0.6 0 -0.8  -0.64 -0.6 0.48  0.48 -0.8 -0.36  0.3 -0.7 1.1" $HT
bad "R^T Rdot is not skew" "$R  1 0 0  0 1 0  0 0 1" $HT --form RRdot
bad "R^T mu is not skew" "$R  1 0 0  0 1 0  0 0 1" $HT --form Rmu
bad "NaN or infinity in the input (state)" "$R  nan 0 0" $HT
bad "wrong number of values" "$R  0.3 -0.7" $HT
model() { printf '%s\n' "$@" > "$T/bad.model"; }
model "manifold R : SO3" "lagrangian 1/2*dot(W', W')"
bad "unknown name 'W'' ($T/bad.model:2:20)" "$S_ROmega" --model "$T/bad.model"
model "manifold R : SO3" "lagrangian R"
bad "the lagrangian must be a scalar, this is a matrix ($T/bad.model:2:12)" "$S_ROmega" --model "$T/bad.model"
model "manifold R : SO3" "lagrangian dot(transpose(W), W)"
bad "transpose needs a matrix, got a vector ($T/bad.model:2:26)" "$S_ROmega" --model "$T/bad.model"
model "manifold q : S2" "manifold R : SO3" "lagrangian 0"
bad "wrong number of values in the state: expected 18, got 12" "$S_ROmega" --model "$T/bad.model"
model "manifold R, Q : SO3" "lagrangian 0"
bad "one SO3 factor per statement: manifold R : SO3 (W) ($T/bad.model:1:17)" "$S_ROmega" --model "$T/bad.model"
model "manifold R : SO3 (Omega" "lagrangian 0"
bad "expected ')' after the name of the body angular velocity" "$S_ROmega" --model "$T/bad.model"
model "manifold R : SO3" "parameters W = 1" "lagrangian W"
bad "'W' is declared twice" "$S_ROmega" --model "$T/bad.model"
# no kinetic energy about the third axis: L_WW is singular
model "manifold R : SO3" "lagrangian 1/2*(W.x^2 + W.y^2) - (R*[0, 0, 1]).z"
bad "the Lagrangian is degenerate at this state: its Hessian in the body angular velocity is singular" "$S_ROmega" --model "$T/bad.model"
model "manifold R : SO3" "lagrangian dot(W, W)/(R*[0, 0, 1]).z - 1"
bad "the model is not defined at this state: $T/bad.model:2:21: '/(R*[0, 0, 1]).z - 1' leaves its domain" \
    "1 0 0  0 0 -1  0 1 0  0.3 -0.7 1.1" --model "$T/bad.model"
