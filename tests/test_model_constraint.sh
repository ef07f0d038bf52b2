#!/bin/sh
# Constraints in model files: the multipliers and the drift on the command
# line, and the rules a constraint and a constrained state obey, each
# refused with the rule (exit 2, nothing on stdout).
. tests/model_cli.sh
echo "1..17"

# The rod pendulum at p = (l, 0, 0), p' = (0, 1, 0): the rod's multiplier m (g p.z - |p'|^2)/l^2 = -1.3/0.64.
out=$(echo '0.8 0 0  0 1 0' | "$C" rhs --model models/rod-pendulum.model --multipliers --bits 64)
[ "$out" = "rod        -2.03125" ]
t $? "rhs --multipliers prints the rod's tension: $out"

# simulate reports the drift of h and of its rate h' (columns rod and rod'), at the working precision.
echo '0.8 0 0  0 1 0' | "$C" simulate --model models/rod-pendulum.model --t 1 --bits 113 > "$T/sim.csv" 2>/dev/null
python3 - "$T/sim.csv" <<'PY'
import sys
rows = [l.strip().split(',') for l in open(sys.argv[1]) if l[0].isdigit() or l.startswith('t,')]
h = rows[0]
ok = len(rows) > 3 and 'rod' in h and "rod'" in h
for r in rows[1:]:
    ok = ok and abs(float(r[h.index('rod')])) < 1e-25 and abs(float(r[h.index("rod'")])) < 1e-25
sys.exit(0 if ok else 1)
PY
t $? "simulate of the rod pendulum reports the drift of rod and rod', below 1e-25 at 113 bits"

model() { printf '%s\n' "$@" > "$T/bad.model"; }
SL="0 0 0.3  0.955336489125606 0.295520206661340 0.5"
bad "the state is off the constraint set: the constraint noslip is 0.296 in magnitude, not 0 (state)" "0 0 0.3  1 0 0.5" --model models/sleigh.model
bad "the state is off the constraint set: the holonomic constraint rod is 0.005 in magnitude, not 0 (state)" "0.8 0 0.1  0 1 0" --model models/rod-pendulum.model
bad "the state is off the constraint set: the constraint rod' is 0.08 in magnitude, not 0 (state)" "0.8 0 0  0.1 1 0" --model models/rod-pendulum.model
model "manifold x, y : R1" "lagrangian (x'^2 + y'^2)/2" "constraint c = x*y'^2"
bad "the constraint c is neither linear in the velocities (nonholonomic) nor a function of the configuration only (holonomic) ($T/bad.model:3:16)" "0 0 0 0" --model "$T/bad.model"
model "manifold x, y : R1" "lagrangian (x'^2 + y'^2)/2" "constraint c = x' - sin(y')"
bad "the constraint c is neither linear in the velocities" "0 0 0 0" --model "$T/bad.model"
model "manifold x, y : R1" "lagrangian (x'^2 + y'^2)/2" "constraint c = t*x'^2 - y'"
bad "the constraint c is neither linear in the velocities (nonholonomic) nor a function of the configuration only (holonomic) ($T/bad.model:3:16)" "0 0 0 0" --model "$T/bad.model"
# A constraint moving with t: x' = t y' at t = 2, c' = x'' - t y'' - y' = 0 with the force lambda (1, -t):
# lambda = y'/(1 + t^2) = 1/5, x'' = 1/5, y'' = -2/5.
model "manifold x, y : R1" "lagrangian (x'^2 + y'^2)/2" "constraint c = x' - t*y'"
out=$(echo "0 0 2 1" | "$C" rhs --model "$T/bad.model" --time 2 --bits 113)
echo "$out" | awk '{ e = 0; split("2 1 0.2 -0.4", w, " "); for (i = 1; i <= 4; i++) { d = $i - w[i]; if (d < 0) d = -d; if (d > e) e = d }
                     exit !(NF == 4 && e < 1e-15) }'
t $? "a nonholonomic constraint depending on t (x' = t y' at t = 2): the field $out"
model "manifold x, y : R1" "parameters a = 1" "lagrangian (x'^2 + y'^2)/2" "constraint c = a - 1"
bad "the constraint c does not depend on the configuration (it constrains nothing) ($T/bad.model:4:16)" "0 0 0 0" --model "$T/bad.model"
model "manifold x, y : R1" "lagrangian (x'^2 + y'^2)/2" "constraint c = x'" "constraint c = y'"
bad "'c' is declared twice ($T/bad.model:4:12)" "0 0 0 0" --model "$T/bad.model"
# dependent at x = 0: the rows (1, 0, 0) and (1, x, 0)
model "manifold x, y, z : R1" "lagrangian (x'^2 + y'^2 + z'^2)/2" "constraint c1 = x'" "constraint c2 = x' + x*y'"
bad "the constraints are dependent at this state (their rows on the tangent space have lower rank) (state)" "0 0 0  0 1 0.5" --model "$T/bad.model"
bad "--multipliers needs a model with constraint statements (models/spring.model)" "$SL" --model models/spring.model --multipliers
out=$(echo "1 0 0  0 0 0.5" | "$C" rhs --model "$T/bad.model")
[ "$out" = "0 0 0.5 0 0 0" ]
t $? "the same constraints away from x = 0 are independent: the field $out"
# A constrained model's declared equilibria: the field vanishes there in every form, dist included.
"$C" oracle --model models/rod-pendulum.model --check '*.eq.*' --bits 53,113 > "$T/o" 2>&1
st=$?
[ $st = 0 ] && grep -q "model.rod-pendulum.eq.hanging .* rounding" "$T/o" && grep -q "model.rod-pendulum.eq.upright .* rounding" "$T/o"
t $? "oracle: the rod pendulum's equilibria rows pass (exit $st)"

# The oracle's rows of a constrained model, and the energy row catching a broken one: the sleigh's
# blade on a belt moving sideways (an affine constraint, whose force does work) conserves no energy.
"$C" oracle --model models/sleigh.model --check '*.constraints,*.multipliers' --bits 53,113 --format tap > "$T/o" 2>/dev/null
st=$?
[ $st = 0 ] && [ "$(grep -c '^ok' "$T/o")" = 2 ]
t $? "oracle --model models/sleigh.model: the constraints and multipliers rows pass (exit $st)"
sed "s/^constraint noslip = .*/constraint noslip = -sin(theta)*x' + cos(theta)*y' - 0.5/" models/sleigh.model > "$T/belt.model"
"$C" oracle --model "$T/belt.model" --check '*.invariants,*.constraints' --bits 53,113 > "$T/o" 2>/dev/null
st=$?
[ $st = 1 ] && grep -q "model.belt.invariants .* mismatch" "$T/o" && grep -q "model.belt.constraints .* rounding" "$T/o"
t $? "a sleigh on a moving belt: its energy row is a mismatch (exit $st), its constraint still holds"
