#!/bin/sh
# chartless eom: the C it writes (the shipped cart pendulum, relativistic
# particle, chain2, damped spherical pendulum and cart with a spherical
# pendulum, a double pendulum, a particle on R3 coupled to an angle, a
# driven damped pendulum with its force depending on t, a Lagrangian
# depending on t; the shipped models on SO3 and SE3 factors and their
# products with S2, the Hamiltonian ones and the constrained ones),
# compiled by cc with warnings as errors and run, gives rhs's field in
# double: within 2^(8-53) max(1, |v|) of rhs at 256 bits. Every shipped
# model prints as text and as one balanced LaTeX block. The text names every shared
# subexpression once and uses each name at least twice; the LaTeX is one
# balanced aligned block. Help, and bad input refused with exit 2 and
# nothing on stdout.
. tests/model_cli.sh
echo "1..$((16 + 12 + 2))"
CC=${CC:-cc}

cat > "$T/double-pendulum.model" <<'M'
manifold a : S1
manifold b : S1
parameters m1 = 1.5, m2 = 0.8, l1 = 1.2, l2 = 0.9, g = 9.81
lagrangian 1/2*(m1 + m2)*l1^2*a'^2 + 1/2*m2*l2^2*b'^2 + m2*l1*l2*a'*b'*cos(a - b)
           + (m1 + m2)*g*l1*cos(a) + m2*g*l2*cos(b)
M
cat > "$T/bead.model" <<'M'
manifold r : R3
manifold phi : S1
parameters m = 2, k = 3, I = 0.7
lagrangian 1/2*m*dot(r', r') + 1/2*I*phi'^2 + 0.3*phi'*cross(r, r').z + k/norm(r) - sin(phi)*r.x
M
cat > "$T/driven.model" <<'M'
manifold th : S1
parameters b = 0.3, A = 1.2, w = 0.9
lagrangian 1/2*th'^2 + cos(th)
force th = -b*th' + A*cos(w*t)
M
cat > "$T/kanai.model" <<'M'
manifold x : R1
parameters m = 1.3, k = 2, gam = 0.4
lagrangian exp(gam*t)*(1/2*m*x'^2 - 1/2*k*x^2)
M

# A main for the generated f: the state (and t) from the command line, dx printed to 17 digits.
cat > "$T/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
void f(const double *x, double *dx);
int main(int argc, char **argv)
{
    double x[64], dx[64];
    int n = argc - 2, dim = atoi(argv[1]);
    for (int i = 0; i < n; i++) x[i] = strtod(argv[i + 2], NULL);
    f(x, dx);
    for (int i = 0; i < dim; i++) printf("%.17g\n", dx[i]);
    return 0;
}
C

# compiled NAME MODEL STATE [T]: eom --format c of MODEL compiled and run at STATE (and t = T) against rhs at 256 bits.
compiled() {
    name=$1 model=$2 state=$3 time=$4
    dim=$(echo $state | wc -w)
    "$C" eom --model "$model" --format c > "$T/$name.c" 2>"$T/err" &&
        $CC -std=c99 -Wall -Wextra -Werror -O2 -o "$T/$name" "$T/$name.c" "$T/main.c" -lm 2>>"$T/err" &&
        "$T/$name" $dim $state $time > "$T/$name.got" &&
        echo "$state" | "$C" rhs --model "$model" --bits 256 ${time:+--time $time} > "$T/$name.want" 2>>"$T/err"
    s=$?
    gap=$(python3 - "$T/$name.got" "$T/$name.want" <<'PY'
import sys
from fractions import Fraction as F
got = [F(float(x)) for x in open(sys.argv[1]).read().split()]
want = [F(x) for x in open(sys.argv[2]).read().split()]
import math
gap = max((abs(a - b) / max(1, abs(b)) for a, b in zip(got, want)), default=1) if len(got) == len(want) else 1
print("-inf" if gap == 0 else "%.1f" % math.log2(gap))
PY
)
    [ $s = 0 ] && python3 -c "import sys; sys.exit(0 if float('$gap') <= 8 - 53 else 1)"
    t $? "$name: eom --format c compiled and run gives rhs's field to 2^$gap (tolerance 2^-45)"
    [ $s = 0 ] || sed 's/^/#   /' "$T/err"
}

compiled cart-pendulum models/cart-pendulum.model "0.3 0.7 -0.4 1.3"
compiled relativistic models/relativistic.model "0.8 0.6"
compiled double-pendulum "$T/double-pendulum.model" "0.3 -0.5 1.1 0.7"
compiled bead "$T/bead.model" "0.3 -0.5 1.1 0.7 -0.2 0.45 0.35 -0.25"
compiled driven "$T/driven.model" "0.3 -0.5" 0.7
compiled kanai "$T/kanai.model" "0.3 -0.5" 0.7
compiled chain2 models/chain2.model "0.6 0 0.8  0 0.6 -0.8  0.4 0.3 -0.3  0.25 0.4 0.3"
compiled damped models/damped.model "0.6 0 0.8  0.4 0.3 -0.3"
compiled cart-spherical models/cart-spherical.model "0.3  0.6 0 0.8  -0.4  0.4 0.3 -0.3"
# A rotation with exact decimal entries, and the identity.
R="0.36 0.48 -0.8  -0.8 0.6 0  0.48 0.64 0.6" I="1 0 0  0 1 0  0 0 1"
compiled heavy-top models/heavy-top.model "$R  0.3 -0.5 1.1"
compiled rigid-body models/rigid-body.model "$R  0.3 -0.5 1.1"
compiled free-body models/free-body.model "$R  0.1 0.2 0.3  0.3 -0.5 1.1  0.2 -0.4 0.7"
compiled two-bodies models/two-bodies.model "$R  $I  0.3 -0.5 1.1  -0.2 0.4 0.25"
compiled body-on-pendulum models/body-on-pendulum.model "0.6 0 0.8  $R  0.4 0.3 -0.3  0.3 -0.5 1.1"
compiled quadrotor-load models/quadrotor-load.model "$R  0.1 0.2 0.3  0.6 0 -0.8  0.3 -0.5 1.1  0.2 -0.4 0.7  0.4 0.3 0.3"
compiled heavy-top-hamiltonian models/heavy-top-hamiltonian.model "$R  0.3 -0.5 1.1"
compiled spring-hamiltonian models/spring-hamiltonian.model "0.6 0 0.8  0 0.6 -0.8  0.4 0.3 -0.3  0.25 0.4 0.3"
compiled henon-heiles models/henon-heiles.model "0.3 -0.2  0.1 0.4"
# States on the constraints: no slip across the sleigh at theta = 0, rolling at phi = 0, |p| = l and p.p' = 0.
compiled sleigh models/sleigh.model "0.3 -0.2 0  0.7 0 0.4"
compiled rolling-disk models/rolling-disk.model "0.1 0.2 0 0.4  0.3 0 0.7 0.5"
compiled rod-pendulum models/rod-pendulum.model "0.48 0 -0.64  0.64 0.3 0.48"

# latex_block FILE: the lines after the % comments are one aligned block, its braces balanced.
latex_block() {
    python3 - "$1" <<'PY'
import sys
body = [l for l in open(sys.argv[1]) if not l.startswith('%')]
depth, ok = 0, True
for c in ''.join(body):
    depth += (c == '{') - (c == '}')
    ok = ok and depth >= 0
sys.exit(0 if ok and depth == 0 and body[0].strip() == r'\begin{aligned}' and body[-1].strip() == r'\end{aligned}' else 1)
PY
}

# Every shipped model as text (a rate for every component that is not a velocity) and as LaTeX (one balanced block).
fails=""
for f in models/*.model; do
    "$C" eom --model "$f" > "$T/all.txt" 2>"$T/err" && "$C" eom --model "$f" --format latex > "$T/all.tex" 2>>"$T/err" &&
        grep -q "^[^#t].* = " "$T/all.txt" &&
        latex_block "$T/all.tex" || fails="$fails $f"
done
[ -z "$fails" ]
t $? "every shipped model ($(ls models/*.model | wc -l)) printed as text and as one balanced LaTeX block${fails:+; failed:$fails}"
"$C" eom --model models/heavy-top-hamiltonian.model > "$T/ham.txt" && grep -q "^# .*Hamilton's equations" "$T/ham.txt" &&
    grep -q "^Pi1' = " "$T/ham.txt" && "$C" eom --model models/sleigh.model | grep -q "Lagrange-d'Alembert"
t $? "the header says Hamilton's equations (and the momenta's rates Pi1' are given) or Lagrange-d'Alembert"

# The text: each t<k> defined once and used at least twice.
"$C" eom --model "$T/double-pendulum.model" > "$T/dp.txt"
s=$?
python3 - "$T/dp.txt" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith('#')]
defs = [l.split(' = ')[0] for l in lines if re.match(r't\d+ = ', l)]
rhs = ' '.join(l.split(' = ', 1)[1] for l in lines)
uses = {d: len(re.findall(r'\b%s\b' % d, rhs)) for d in defs}
ok = defs and len(set(defs)) == len(defs) and all(u >= 2 for u in uses.values())
ok = ok and any(l.startswith("a'' = ") for l in lines) and any(l.startswith("b'' = ") for l in lines)
sys.exit(0 if ok else 1)
PY
[ $s = 0 ] && [ $? = 0 ]
t $? "text: a'' and b'' given, every named subexpression ($(grep -c '^t[0-9]' "$T/dp.txt")) defined once and used at least twice"

"$C" eom --model models/cart-pendulum.model --format latex > "$T/cp.tex"
[ $? = 0 ] && latex_block "$T/cp.tex" && grep -q '^\\ddot{\\theta} &= ' "$T/cp.tex" && grep -q '^\\ddot{x} &= ' "$T/cp.tex"
t $? "latex: one aligned block, braces balanced, the accelerations of x and theta given"

"$C" eom --help > "$T/help" 2>&1
[ $? = 0 ] && grep -q "usage: chartless eom --model FILE" "$T/help" && grep -q "latex" "$T/help"
t $? "eom --help: usage and the formats, exit 0"

# eom_bad WANT ARGUMENT...: exit 2, nothing on stdout, WANT in stderr.
eom_bad() {
    want=$1; shift
    out=$("$C" eom "$@" 2>"$T/err")
    st=$?
    [ $st = 2 ] && [ -z "$out" ] && grep -qF -- "$want" "$T/err"
    t $? "refused with '$want': $(head -1 "$T/err" | cut -c1-120)"
}
eom_bad "unknown format (pdf)" --model models/cart-pendulum.model --format pdf
eom_bad "needs --model" --format text
eom_bad "cannot open" --model "$T/none.model"
eom_bad "unknown option (--bits)" --model models/cart-pendulum.model --bits 53
