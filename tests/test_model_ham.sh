#!/bin/sh
# Hamiltonian models on the command line: rhs, simulate, equilibria and
# stability on models/henon-heiles.model (the origin, squared frequencies
# 1 and 1), the H and L fields of Hénon–Heiles and of the heavy top alike,
# and bad Hamiltonian models refused with file, line and column (exit 2,
# nothing on stdout).
. tests/model_cli.sh
echo "1..13"
H=models/henon-heiles.model
L=models/henon-heiles-lagrangian.model

# rhs: the p field of H and of L at 256 bits, and H's p and qdot fields (p = q' for this H), to 70 digits.
S="0.1 -0.2 0.3 0.25"
for f in p qdot; do
    printf '%s\n' "$S" | "$C" rhs --bits 256 --model $H --form $f --lambda 0.7 > "$T/h" 2>"$T/e"
    printf '%s\n' "$S" | "$C" rhs --bits 256 --model $L --form $f --lambda 0.7 > "$T/l" 2>>"$T/e"
    d=$(digits "$T/h" "$T/l")
    [ -s "$T/h" ] && [ "${d%.*}" -ge 70 ]
    t $? "rhs --form $f: $H against $L at 256 bits, $d digits"
done
# Hamilton's equations at this state by hand: x' = p_x, y' = p_y, p_x' = -x - 2 l x y, p_y' = -y - l (x^2 - y^2).
echo "0.3 0.25 -0.072 0.221" > "$T/want"
printf '%s\n' "$S" | "$C" rhs --bits 256 --model $H --lambda 0.7 > "$T/h" 2>/dev/null
d=$(digits "$T/h" "$T/want")
[ "${d%.*}" -ge 70 ]
t $? "rhs: Hamilton's equations of Henon-Heiles at (0.1, -0.2, 0.3, 0.25), lambda = 0.7: $d digits"

# simulate: the energy H is conserved.
printf '%s\n' "$S" | "$C" simulate --model $H --bits 113 --t 2 --tol 1e-28 > "$T/sim.csv" 2>"$T/e"
conserved "$T/sim.csv" energy
t $? "simulate $H: the energy conserved to 1e-20 over t in [0, 2]"

# equilibria and stability at the origin.
"$C" equilibria --model $H > "$T/eq" 2>&1
grep -q "squared frequencies (imag^2 of the eigenvalues i\*w, w > 0): 1 1$" "$T/eq"
t $? "equilibria $H: the origin, squared frequencies 1 1"
"$C" stability --model $H > "$T/st" 2>&1
grep -q "verdict: stable" "$T/st"
t $? "stability $H: the origin is stable"

# The heavy top from H: the qdot field of models/heavy-top-hamiltonian.model is models/heavy-top.model's ROmega field.
R="0.36 0.48 -0.8 -0.8 0.6 0 0.48 0.64 0.6  0.3 -0.2 0.5"
printf '%s\n' "$R" | "$C" rhs --bits 256 --model models/heavy-top-hamiltonian.model --form qdot --ax 0.2 --ay 0.3 > "$T/h" 2>/dev/null
printf '%s\n' "$R" | "$C" rhs --bits 256 --model models/heavy-top.model --form ROmega --ax 0.2 --ay 0.3 > "$T/l" 2>/dev/null
d=$(digits "$T/h" "$T/l")
[ -s "$T/h" ] && [ "${d%.*}" -ge 70 ]
t $? "rhs: the heavy top from H against the heavy top from L at 256 bits, $d digits"

# Bad input.
model() { printf '%s\n' "$@" > "$T/bad.model"; }
model "manifold x : R1" "hamiltonian p_x^2/2 + x'^2"
bad "a hamiltonian model has no velocities" "0 0" --model "$T/bad.model"
bad "($T/bad.model:2:23)" "0 0" --model "$T/bad.model"
model "manifold x : R1" "lagrangian x'^2/2" "hamiltonian p_x^2/2"
bad "a lagrangian and a hamiltonian both (a model gives one of them) ($T/bad.model:2:1)" "0 0" --model "$T/bad.model"
model "manifold x, y : R1" "hamiltonian p_x^2/2 + p_x*p_y + p_y^2/2"
bad "the Hamiltonian is degenerate in the momenta at this state" "0 0 1 1" --model "$T/bad.model"
model "parameters mu_q = 1" "manifold q : S2" "hamiltonian dot(mu_q, mu_q)"
bad "'mu_q' names a momentum of q in a hamiltonian model: it cannot name anything else ($T/bad.model:2:10)" "0 0 1 0 0 0" --model "$T/bad.model"
model "manifold x : R1" "hamiltonian p_x^2/2" "invariant v = x'"
bad "a hamiltonian model has no velocities" "0 0" --model "$T/bad.model"
