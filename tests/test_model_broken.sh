#!/bin/sh
# Deliberately broken models, one per kind of model row that judges what a
# model declares: each is a shipped model with one statement mutated, and
# `oracle --quick --model` must call that row a mismatch (exit 1) while the
# unmutated model passes the same rows (exit 0). The short (--quick)
# versions are the ones shown to fail here; the full ones are in
# tests/test_model_oracle.sh.
. tests/tap.sh
T=${TMPDIR:-/tmp}/cl-model-broken-$$
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
echo "1..18"

# broken NAME ROW MODEL SED: the model mutated by SED is NAME; its row ROW is a mismatch, the original's passes.
broken() {
    name=$1 row=$2 model=$3 edit=$4
    sed "$edit" "models/$model.model" > "$T/$name.model"
    if cmp -s "models/$model.model" "$T/$name.model"; then
        t 1 "$name: the mutation '$edit' changed nothing in models/$model.model"
        return
    fi
    orig=$(echo "$row" | sed 's/^eq\..*/eq.*/') # the original's equilibria under their own names
    "$C" oracle --quick --model "models/$model.model" --check "*.$orig" > "$T/o" 2>&1
    st=$?
    [ $st = 0 ] && ! grep -q mismatch "$T/o"
    t $? "models/$model.model: $orig passes under --quick (exit $st)"
    "$C" oracle --quick --model "$T/$name.model" --check "*.$row" > "$T/o" 2>&1
    st=$?
    [ $st = 1 ] && grep -q "^model\.$name\.$row .* mismatch" "$T/o"
    t $? "$name ($model, $edit): model.$name.$row is a mismatch (exit $st: $(grep "^model\.$name\.$row" "$T/o" | tr -s ' ' | cut -c1-90))"
}

# S2 factors: an invariant that is not one (the x component of the angular momentum under gravity)
broken s2-lx conserve spherical "s/^invariant  Lz = m\*l^2\*cross(q, q')\.z/invariant  Lx = m*l^2*cross(q, q').x/"
# S2 factors: a point that is not an equilibrium
broken s2-tilted 'eq.tilted' spherical "s/^equilibrium inverted .*/equilibrium tilted = q: [0.6, 0, 0.8]/"
# SO(3): the body angular velocity's first component is not conserved by an asymmetric free body
broken so3-wx invariants rigid-body "s/^invariant  mx = .*/invariant  Wx = W.x/"
broken so3-wx-traj conserve rigid-body "s/^invariant  mx = .*/invariant  Wx = W.x/"
# R1 x S2: the cart's momentum with the pendulum's part of wrong sign
broken prod-px invariants cart-spherical "s/^invariant   px = M\*x' + m\*(x' + l\*q'\.x)/invariant   px = M*x' + m*(x' - l*q'.x)/"
# R1 x S2: the pendulum tilted is no equilibrium
broken prod-tilted 'eq.tilted' cart-spherical "s/^equilibrium inverted = .*/equilibrium tilted = x: 0, q: [0.6, 0, 0.8]/"
# SE(3): the vertical momentum of a free body under gravity is not conserved
broken se3-pz conserve free-body "s/^invariant   py = m\*r'\.y/invariant   pz = m*r'.z/"
# A constraint moving with t: the bead's Jacobi integral E - Omega L_z with the sign of Omega L_z flipped
broken bead-jacobi invariants hoop-bead "s/ - Omega\*m\*(p/ + Omega*m*(p/"

# SO3, Energy-Casimir: a steady rotation about the minor axis with only my and mz declared is no critical
# point of the energy plus those Casimirs (|Pi|^2 or the spatial mx would make it one)
I='[[1, 0, 0], [0, 1, 0], [0, 0, 1]]'
(cat models/rigid-body.model; echo "equilibrium spin = R: $I, W: [0.7, 0, 0]") > "$T/spin.model"
sed '/^invariant  Pi2/d; /^invariant  mx/d' "$T/spin.model" > "$T/so3-nocas.model"
"$C" oracle --quick --model "$T/spin.model" --check '*.ec.spin' > "$T/o" 2>&1
st=$?
[ $st = 0 ] && grep -q "^model\.spin\.ec\.spin .* pass" "$T/o"
t $? "rigid-body.model with a steady rotation about the minor axis: ec.spin passes under --quick (exit $st)"
"$C" oracle --quick --model "$T/so3-nocas.model" --check '*.ec.spin' > "$T/o" 2>&1
st=$?
[ $st = 1 ] && grep -q "^model\.so3-nocas\.ec\.spin .* mismatch" "$T/o"
t $? "so3-nocas (the spin with Pi2 and mx removed): model.so3-nocas.ec.spin is a mismatch (exit $st: $(grep "^model" "$T/o" | tr -s ' ' | cut -c1-90))"
