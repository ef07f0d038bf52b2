#!/bin/sh
# Every command on constrained and Hamiltonian models: the form dist (the
# velocities in a basis of the admissible directions) through rhs, simulate
# and grade, and equilibria, stability and sweep linearizing on the tangent
# space of the constraints; sweep and grade on a Hamiltonian model.
. tests/model_cli.sh
echo "1..16"
SCC=$(echo "${CC:-cc}" | sed 's/ -f[a-z-]*sanitize[^ ]*//g')

# The sleigh at theta = 1: the form dist keeps y' and theta' (x' follows from the constraint), and its
# rates are the qdot field's y'' and theta'' (the null-space method against the bordered solve).
d=$(echo "0 0 1  1 0.7" | "$C" rhs --model models/sleigh.model --form dist --bits 113 --labels)
q=$(echo "0 0 1  0.642092615934330703006419986594265634 1 0.7" | "$C" rhs --model models/sleigh.model --bits 113 --labels)
python3 - "$d" "$q" <<'PY'
import sys
d = dict(l.split() for l in sys.argv[1].splitlines()); q = dict(l.split() for l in sys.argv[2].splitlines())
ok = list(d) == ['x', 'y', 'theta', "y'", "theta'"]
ok = ok and all(abs(float(d[k]) - float(q[k])) < 1e-30 for k in d)
sys.exit(0 if ok else 1)
PY
t $? "rhs --form dist of the sleigh: names y', theta', the qdot field's rates to 30 digits"
# dist -> qdot -> dist, and the state's constraint drift is no column of its own in dist (0 by construction).
echo "0 0 1  1 0.7" | "$C" simulate --model models/sleigh.model --form dist --t 1 --bits 113 > "$T/d.csv" 2>/dev/null
echo "0 0 1  0.642092615934330703006419986594265634 1 0.7" | "$C" simulate --model models/sleigh.model --t 1 --bits 113 > "$T/q.csv" 2>/dev/null
python3 - "$T/d.csv" "$T/q.csv" <<'PY'
import sys
def last(f):
    rows = [l.strip().split(',') for l in open(f) if l[0].isdigit() or l.startswith('t,')]
    return dict(zip(rows[0], rows[-1])), len(rows)
d, nd = last(sys.argv[1]); q, nq = last(sys.argv[2])
ok = nd > 3 and nq > 3 and all(abs(float(d[k]) - float(q[k])) < 1e-25 for k in ('x', 'y', 'theta', "y'", "theta'", 'energy'))
sys.exit(0 if ok else 1)
PY
t $? "simulate --form dist and --form qdot of the sleigh end at the same state and energy (1e-25 at 113 bits)"
bad "the basis of the form dist is singular at this state" "0 0 0  1 0.5" --model models/sleigh.model --form dist

# grade: a student's sleigh in the quasivelocities passes; one that drops the term v w cos(theta) of y'' fails.
cat > "$T/sleigh.c" <<'SRC'
#include <math.h>
#include "cl_student.h"
int cl_student_sleigh_dist(double *dx, const double *x, const cl_student_params *p)
{
    double m = p->m[0], I = p->extra[0], a = p->extra[1];
    double s = sin(x[2]), c = cos(x[2]), w = x[4], v = x[3] / s;
    dx[0] = v * c;
    dx[1] = x[3];
    dx[2] = w;
    dx[3] = a * w * w * s + DROP v * w * c;
    dx[4] = -m * a * v * w / (I + m * a * a);
    return 0;
}
SRC
$SCC -shared -fPIC -O1 -Isrc -DDROP= -o "$T/right.so" "$T/sleigh.c" -lm && $SCC -shared -fPIC -O1 -Isrc -DDROP=0* -o "$T/wrong.so" "$T/sleigh.c" -lm
"$C" grade --model models/sleigh.model --form dist "$T/right.so" > "$T/g" 2>&1
st=$?
[ $st = 0 ] && [ "$(grep -c '^PASS: 0 of 5 components wrong' "$T/g")" = 2 ]
t $? "grade --form dist: the sleigh in its quasivelocities passes at both parameter sets (exit $st)"
"$C" grade --model models/sleigh.model --form dist "$T/wrong.so" > "$T/g" 2>&1
st=$?
[ $st = 1 ] && grep -q "^y' .*WRONG" "$T/g" && grep -q "^theta' .*rounding" "$T/g"
t $? "grade --form dist: the dropped term is caught in y'' only (exit $st)"

# equilibria and stability of the rod pendulum: on the 4-dimensional tangent space of h = 0 and h' = 0,
# the squared frequencies g/l = 12.2625 hanging, the same squared rates upright.
out=$("$C" equilibria --model models/rod-pendulum.model --bits 113)
echo "$out" | grep -q "tangent space: dimension 4 of R^6" && python3 - "$out" <<'PY'
import sys
from decimal import Decimal
sq = [l.split(':')[1].split() for l in sys.argv[1].splitlines() if 'squared' in l]
ok = len(sq) == 2 and all(abs(Decimal(v) - Decimal('12.2625')) < Decimal('1e-32') for r in sq for v in r)
sys.exit(0 if ok else 1)
PY
t $? "equilibria of the rod pendulum: dimension 4, g/l hanging and upright to 33 digits"
out=$("$C" stability --model models/rod-pendulum.model)
echo "$out" | grep -q "with 2 constraint(s) of the state manifold" && [ "$(echo "$out" | grep -c 'verdict: stable')" = 1 ]
t $? "stability of the rod pendulum: the energy on the constraints (h, h'), hanging stable, upright not"
"$C" sweep --model models/rod-pendulum.model --x l=0.5:1:2 > "$T/s.csv" 2>&1
python3 - "$T/s.csv" <<'PY'
import sys, math
rows = [l.strip().split(',') for l in open(sys.argv[1]) if not l.startswith('#')]
h = rows[0]; r = [dict(zip(h, x)) for x in rows[1:]]
ok = len(r) == 2 and all(x['hanging.verdict'] == 'stable' and x['upright.verdict'] == 'unstable' for x in r)
ok = ok and all(abs(float(x['upright.max_re']) - math.sqrt(9.81 / float(x['l']))) < 1e-12 for x in r)
sys.exit(0 if ok else 1)
PY
t $? "sweep of the rod's length: hanging stable, upright unstable at the rate sqrt(g/l)"
# A nonholonomic equilibrium: the sleigh at rest, a 5-dimensional tangent space (6 numbers, one constraint).
printf 'equilibrium rest = x: 0, y: 0, theta: 0\n' | cat models/sleigh.model - > "$T/rest.model"
"$C" equilibria --model "$T/rest.model" | grep -q "tangent space: dimension 5 of R^6"
t $? "equilibria of the sleigh at rest: the tangent space of its constraint, dimension 5"
printf 'equilibrium off = p: [0, 0, -1]\n' | cat models/rod-pendulum.model - > "$T/off.model"
out=$("$C" equilibria --model "$T/off.model" 2>"$T/err"); st=$?
[ $st = 2 ] && [ -z "$out" ] && grep -q "the equilibrium off is off the constraint set at the defaults .*off.model:[0-9]*:13" "$T/err"
t $? "an equilibrium off the constraint set is refused with its place (exit $st)"

# Hamiltonian models: sweep, and grade of a shared object in the momenta.
"$C" sweep --model models/henon-heiles.model --x lambda=0:1:3 > "$T/s.csv" 2>&1
[ "$(grep -c ',stable,0,' "$T/s.csv")" = 3 ]
t $? "sweep of the Henon-Heiles Hamiltonian: the origin stable for every lambda"
cat > "$T/hh.c" <<'SRC'
#include "cl_student.h"
int cl_student_henon_heiles_p(double *dx, const double *x, const cl_student_params *p)
{
    double l = p->extra[0];
    dx[0] = x[2];
    dx[1] = x[3];
    dx[2] = -x[0] - 2 * l * x[0] * x[1];
    dx[3] = -x[1] - l * (x[0] * x[0] - SIGN x[1] * x[1]);
    return 0;
}
SRC
$SCC -shared -fPIC -O1 -Isrc -DSIGN= -o "$T/hh.so" "$T/hh.c" && $SCC -shared -fPIC -O1 -Isrc -DSIGN=- -o "$T/hhw.so" "$T/hh.c"
"$C" grade --model models/henon-heiles.model --form p "$T/hh.so" > "$T/g" 2>&1
st=$?
[ $st = 0 ] && [ "$(grep -c '^PASS: 0 of 4 components wrong' "$T/g")" = 2 ]
t $? "grade --form p of Hamilton's equations of Henon-Heiles passes (exit $st)"
"$C" grade --model models/henon-heiles.model --form p "$T/hhw.so" > "$T/g" 2>&1
st=$?
[ $st = 1 ] && grep -q "^p_y .*WRONG" "$T/g"
t $? "grade --form p: the sign of y^2 in p_y' is caught (exit $st)"
"$C" grade --model models/henon-heiles.model --field /dev/null > "$T/g" 2>&1
st=$?
[ $st = 2 ] && grep -q "expected a form statement" "$T/g"
t $? "grade --field of a Hamiltonian model: an empty field file is refused with the rule (exit $st)"

# Found by the model fuzzer: a part of an equilibrium or a force with no name matched the empty second
# name of a factor (only SE(3) has two) and read or wrote past the equilibrium's numbers.
model() { printf '%s\n' "$@" > "$T/bad.model"; }
model "manifold p : R3" "lagrangian dot(p', p')/2" "equilibrium e = %: [0, 0, 1]"
bad "expected the name of a factor of the manifold (p: its point), or of the body velocity of a rotation ($T/bad.model:3:17)" "0 0 0 0 0 0" --model "$T/bad.model"
model "manifold p : R3" "lagrangian dot(p', p')/2" "force = -p'"
bad "expected the name of a factor of the manifold after force ($T/bad.model:3:7)" "0 0 0 0 0 0" --model "$T/bad.model"
