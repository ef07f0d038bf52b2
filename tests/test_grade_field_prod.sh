#!/bin/sh
# chartless grade --field beyond (S2)^n: fields derived by hand in this test
# for a model of each kind (S1 x R1, SO(3), SE(3), R1 x S2, a Hamiltonian in
# the momenta, Lie-Poisson with the attitude, a constrained model in the
# multiplier form) pass; a sign flipped fails with the hint naming it by
# line and column; bad field files (a name of the wrong form, a block of the
# wrong shape, a block missing, a form the model does not have) are exit 2
# with file:line:column.
. tests/tap.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..22"
pass() { # model, field file, description
    "$C" grade --model "$1" --field "$2" > "$T/out" 2>&1; r=$?
    [ $r = 0 ] && [ "$(grep -c '^PASS: 0 of' "$T/out")" = 2 ] && ! grep -q WRONG "$T/out"; t $? "$3"
}
# the cart pendulum (R1 x S1): the Euler-Lagrange equations
#   (M + m) x'' + m l (theta'' cos - theta'^2 sin) = 0,  x'' cos + l theta'' + g sin = 0,
# solved for x'' and theta''
cat > "$T/cart.field" <<'F'
form qdot
let s = sin(theta)
let c = cos(theta)
let a = m*s*(l*theta'^2 + g*c)/(M + m*s^2)
x'' = a
theta'' = -(a*c + g*s)/l
F
pass models/cart-pendulum.model "$T/cart.field" "the cart pendulum's field derived by hand passes (form qdot: x'' and theta'')"
sed 's/-(a\*c + g\*s)/-(a*c - g*s)/' "$T/cart.field" > "$T/cart_sign.field"
"$C" grade --model models/cart-pendulum.model --field "$T/cart_sign.field" > "$T/out" 2>&1; r=$?
[ $r = 1 ] && grep -q "^theta' .*WRONG" "$T/out" && grep -q "^x' .*rounding" "$T/out"; t $? "with a sign flipped it fails, exit $r, theta'' wrong and x'' not"
grep -q "^hint: a sign error at $T/cart_sign.field:6:17: with '+' for '-' there every component agrees at every state" "$T/out"
t $? "... and the hint names the sign by line and column"
# docs/grading.md shows the first report of the example with a sign slipped, to the character
E=docs/examples/cart_pendulum_sign.field
"$C" grade --model models/cart-pendulum.model --field $E --states 8 > "$T/out" 2>&1; r=$?
awk '/^\$ chartless grade --model models\/cart-pendulum.model --field docs\/examples\/cart_pendulum_sign.field --states 8$/ { on = 1; next }
     on && /^```/ { exit } on' docs/grading.md > "$T/doc"
[ $r = 1 ] && [ -s "$T/doc" ] && head -n "$(wc -l < "$T/doc")" "$T/out" | cmp -s - "$T/doc"; t $? "docs/grading.md's cart example fails (exit $r) with the report it shows"
sed 's/-(a\*c - g\*s)/-(a*c + g*s)/' $E > "$T/cart_doc.field"
pass models/cart-pendulum.model "$T/cart_doc.field" "... and passes with the sign the hint names"
# the same cart in the momenta: p_x = (M + m) x' + m l theta' cos, p_theta = m l (x' cos + l theta'),
# p_x' = dL/dx = 0, p_theta' = dL/dtheta = -m l x' theta' sin - m g l sin
cat > "$T/cart_p.field" <<'F'
form p
let c = cos(theta)
let det = m*l^2*(M + m - m*c^2)
let xd = (m*l^2*p_x - m*l*c*p_theta)/det
let thd = ((M + m)*p_theta - m*l*c*p_x)/det
x' = xd
theta' = thd
p_x' = 0
p_theta' = -m*l*sin(theta)*(xd*thd + g)
F
sed 's/^p_x. = 0$/p_x'"'"' = [0, 0, 0]/' "$T/cart_p.field" > "$T/cart_p_shape.field"
pass models/cart-pendulum.model "$T/cart_p.field" "the cart pendulum in the momenta passes (form p: x', theta', p_x', p_theta')"
# the free rigid body (SO(3)): Euler's equations W' = J^-1 ((J W) x W) and R' = R hat(W)
cat > "$T/rigid.field" <<'F'
form ROmega
let J = [[J1, 0, 0], [0, J2, 0], [0, 0, J3]]
let Jinv = [[1/J1, 0, 0], [0, 1/J2, 0], [0, 0, 1/J3]]
R' = R*hat(W)
W' = Jinv*cross(J*W, W)
F
pass models/rigid-body.model "$T/rigid.field" "the rigid body's Euler equations pass (R' = R hat(W), W' = J^-1 (JW x W))"
sed 's/cross(J\*W, W)/cross(W, J*W)/' "$T/rigid.field" > "$T/rigid_swap.field"
"$C" grade --model models/rigid-body.model --field "$T/rigid_swap.field" > "$T/out" 2>&1; r=$?
[ $r = 1 ] && grep -q "^hint: W' at state [0-9]*: student (.*), reference (.*); student = -reference: a sign flip" "$T/out"
t $? "W x JW for JW x W fails, exit $r, the hint on W' says a sign flip"
# a free body in space (SE(3)): r' = R V, and V' = V x W - g R^T e3 from d/dt (m V) = m V x W + R^T dL/dr
cat > "$T/free.field" <<'F'
form qdot
R' = R*hat(W)
r' = R*V
W' = [[1/J1, 0, 0], [0, 1/J2, 0], [0, 0, 1/J3]]*cross([J1*W.x, J2*W.y, J3*W.z], W)
V' = cross(V, W) - g*transpose(R)*[0, 0, 1]
F
pass models/free-body.model "$T/free.field" "a free body on SE(3) passes (R', r', W', V')"
# a cart carrying a spherical pendulum (R1 x S2): with the rod's tension nu along q,
# (M + m) x'' + m l q''.x = 0 and l q'' = -x'' e1 - g e3 + nu q, q.q'' = -|q'|^2
cat > "$T/cartsph.field" <<'F'
form qdot
let xdd = m*q.x*(l*dot(q', q') - g*q.z)/(M + m*q.x^2)
let nu = xdd*q.x + g*q.z - l*dot(q', q')
x'' = xdd
q'' = (-xdd*[1, 0, 0] - g*[0, 0, 1] + nu*q)/l
F
pass models/cart-spherical.model "$T/cartsph.field" "a cart with a spherical pendulum (R1 x S2) passes (x'', q'')"
# Henon-Heiles from its Hamiltonian, in the momenta: Hamilton's equations
cat > "$T/hh.field" <<'F'
form p
x' = p_x
y' = p_y
p_x' = -x - 2*lambda*x*y
p_y' = -y - lambda*(x^2 - y^2)
F
pass models/henon-heiles.model "$T/hh.field" "Henon-Heiles in the momenta passes (x' = p_x, p_x' = -dH/dx)"
# the heavy top from its Hamiltonian: Lie-Poisson with the attitude, Omega = J^-1 Pi,
# Pi' = Pi x Omega + m g l Gamma x chi, Gamma = R^T e3, chi the unit axis
cat > "$T/top.field" <<'F'
form p
let Omega = [Pi.x/J1, Pi.y/J2, Pi.z/J3]
R' = R*hat(Omega)
Pi' = cross(Pi, Omega) + m*g*l*cross(transpose(R)*[0, 0, 1], [ax, ay, az]/norm([ax, ay, az]))
F
pass models/heavy-top-hamiltonian.model "$T/top.field" "the heavy top from H in the momenta passes (R', Pi')"
# the Chaplygin sleigh in the multiplier form: on the constraint x' = v cos, y' = v sin with
# v the forward speed; d'Alembert gives v' = a w^2, w' = -m a v w/(I + m a^2)
cat > "$T/sleigh.field" <<'F'
form qdot
let v = cos(theta)*x' + sin(theta)*y'
let w = theta'
let vd = a*w^2
x'' = vd*cos(theta) - v*w*sin(theta)
y'' = vd*sin(theta) + v*w*cos(theta)
theta'' = -m*a*v*w/(I + m*a^2)
F
pass models/sleigh.model "$T/sleigh.field" "the Chaplygin sleigh in the multiplier form passes (x'', y'', theta'')"
sed 's/^theta.. = -m/theta'"''"' = m/' "$T/sleigh.field" > "$T/sleigh_sign.field"
"$C" grade --model models/sleigh.model --field "$T/sleigh_sign.field" > "$T/out" 2>&1; r=$?
[ $r = 1 ] && grep -q "^hint: theta'' at state .*; student = -reference: a sign flip" "$T/out"; t $? "the sleigh with theta'' negated fails, exit $r"
# the sleigh in the distribution's velocities (form dist: the quasivelocities y' and theta', chosen by the
# engine; x' = cot(theta) y' from the constraint), v = y'/sin(theta) the forward speed
cat > "$T/sleigh_dist.field" <<'F'
form dist
let c = cos(theta)
let s = sin(theta)
let v = y'/s
let w = theta'
x' = v*c
y'' = a*w^2*s + v*w*c
theta'' = -m*a*v*w/(I + m*a^2)
F
pass models/sleigh.model "$T/sleigh_dist.field" "the Chaplygin sleigh in the distribution form passes (x', y'', theta'')"
sed 's/+ v\*w\*c/- v*w*c/' "$T/sleigh_dist.field" > "$T/sleigh_dist_sign.field"
"$C" grade --model models/sleigh.model --field "$T/sleigh_dist_sign.field" > "$T/out" 2>&1; r=$?
[ $r = 1 ] && grep -q "^hint: a sign error at $T/sleigh_dist_sign.field:7:15: with '+' for '-'" "$T/out"; t $? "... with a sign flipped it fails (exit $r), the hint at 7:15"
# bad input
bad() { # model, name, expected message (grep -E), file
    "$C" grade --model "$1" --field "$4" > "$T/out" 2> "$T/err"; r=$?
    [ $r = 2 ] && [ ! -s "$T/out" ] && grep -Eq "^error: $3 \\($4:[0-9]+:[0-9]+\\)\$" "$T/err"; t $? "bad field: $2 (exit 2, nothing on stdout, file:line:col)"
}
printf "form qdot\nx'' = 0\ntheta'' = -g*sin(theta)/l + p_theta\n" > "$T/wrongname.field"
bad models/cart-pendulum.model "a momentum in form qdot" "unknown name 'p_theta': it names the state of form p, not of form qdot \\(whose state is x, theta, x', theta'\\)" "$T/wrongname.field"
bad models/cart-pendulum.model "a block of the wrong shape" "p_x' must be a scalar, this is a vector" "$T/cart_p_shape.field"
printf "form p\nx' = p_x\ntheta' = p_theta\nx'' = 0\n" > "$T/wrongblock.field"
bad models/cart-pendulum.model "a block of the other form" "x'' is the derivative of a block of form qdot, not of form p \\(whose blocks are x', theta', p_x', p_theta'\\)" "$T/wrongblock.field"
sed '/^theta/d' "$T/cart.field" > "$T/missing.field"
bad models/cart-pendulum.model "a block missing" "the field gives no theta'' = ... \\(every block of the state of form qdot is needed\\)" "$T/missing.field"
sed 's/^form qdot/form omega/' "$T/cart.field" > "$T/noform.field"
bad models/cart-pendulum.model "a form the model does not have" "expected a form of this model: qdot or p" "$T/noform.field"
printf "form ROmega\nR' = R*W\nW' = W\n" > "$T/matvec.field"
bad models/rigid-body.model "R' must be a matrix" "R' must be a matrix, this is a vector" "$T/matvec.field"
