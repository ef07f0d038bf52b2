#!/bin/sh
# chartless sweep: the skate's stability map against (42) and the closed-form
# margin, shards merged byte for byte (by hand, through GNU parallel and
# through the Slurm array script), the plot, and bad input.
#
# Expected values (App. A.1 with I2 = I3 (1 + asym)): on the spinning
# equilibrium the restricted Hessian, in an orthonormal basis of the tangent
# space spanned by e1 and (0, 0, -2 l W, 1, 0), has the eigenvalues
#   I1 + m l^2   and   K / (1 + 4 l^2 W^2),  K = (I3 + m l^2 - I2) W^2 - m g l,
# so the cell is stable exactly when K > 0, i.e. |W| > sqrt(mgl/(I3 + ml^2 - I2))
# (42), and unstable below it (K < 0: the Jacobian's pair +-sqrt(-K/(I1 + ml^2))
# is real, Prop. 11); the margin is min/max of the two |eigenvalues|. The
# check computes both with exact rationals (python3) from the CSV's own W and
# asym, and allows 4096 * 2^(1-p) on the margin: the Hessian is assembled from
# second derivatives and a QR null-space basis, a few hundred roundings of its
# scale (the largest eigenvalue, the margin's denominator).
. tests/tap.sh
T="${TMPDIR:-/tmp}/cl-sweep-$$"
mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
echo "1..53"
GRID="--system skate --x Omega0=0:10:21 --y asym=1:400:13"

# the map against (42) and the margin's closed form, at 113 bits
"$C" sweep $GRID --bits 113 > "$T/full.csv"; t $? "a 21 x 13 skate map at 113 bits exits 0"
check_map() { # $1 CSV, $2 bits: prints "cells wrong undecided" and the worst margin error over 2^(1-p)
    python3 - "$1" "$2" <<'PY'
import sys
from fractions import Fraction as F
from decimal import Decimal
m, l, g, I1, I3 = F(2), F(8, 10), F(98, 10), F(35, 100), F(4, 1000)
rows = open(sys.argv[1]).read().split("\n")[3:-1]
p = int(sys.argv[2])
wrong = undecided = 0
worst = F(0)
for r in rows:
    c, W, asym, verdict, margin = r.split(",")
    W, asym = F(Decimal(W)), F(Decimal(asym))
    I2 = I3 * (1 + asym)
    K = (I3 + m * l * l - I2) * W * W - m * g * l
    e = sorted([abs(I1 + m * l * l), abs(K / (1 + 4 * l * l * W * W))])
    if verdict == "undecided": undecided += 1
    elif verdict != ("stable" if K > 0 else "unstable"): wrong += 1
    worst = max(worst, abs(F(Decimal(margin)) - e[0] / e[1]) / F(2) ** (1 - p))
print(len(rows), wrong, undecided, int(worst) + 1)
PY
}
set -- $(check_map "$T/full.csv" 113)
[ "$1" = 273 ]; t $? "273 cells, in the order cell = iy*Nx + ix"
[ "$2" = 0 ]; t $? "every decided verdict is (42)'s (stable iff |Omega0| > sqrt(mgl/(I3 + ml^2 - I2)))"
[ "$3" = 0 ]; t $? "no cell undecided (none lies within the zero tolerance of (42))"
[ "$4" -le 4096 ]; t $? "margins within 4096 * 2^-112 of min/max |eig H_r| (worst $4 * 2^-112)"
grep -q ",stable," "$T/full.csv" && grep -q ",unstable," "$T/full.csv"; t $? "the map holds both verdicts"
sed -n 4p "$T/full.csv" | grep -q '^0,0,1,unstable,0\.10395408163265306122448979591836'; t $? "cell 0 (Omega0 = 0) has the margin (I1+ml^2)/(mgl) = 1.63/15.68 to 33 digits"
set -- $(check_map "$("$C" sweep $GRID > "$T/d.csv"; echo "$T/d.csv")" 53)
[ "$2" = 0 ] && [ "$4" -le 4096 ]; t $? "at 53 bits: the same verdicts, margins within 4096 * 2^-52"
# the boundary cell: Omega0 exactly at (42) in the 1-D map is undecided, its neighbours decided
W42=$(python3 -c 'from decimal import *; getcontext().prec=40; print((Decimal("15.68")/(Decimal("0.004")+Decimal("1.28")-Decimal("0.35"))).sqrt())')
"$C" sweep --system skate --x "Omega0=$W42:$W42:1" --bits 113 | tail -1 | grep -q ',undecided,'; t $? "Omega0 on (42) to 40 digits is undecided at 113 bits"

# the same verdicts as `chartless stability` at the same points (Omega0 = 4, 4.5, 5 on the paper's skate)
v=$("$C" sweep --system skate --x Omega0=4:5:3 --I2 0.35 | tail -n +4 | cut -d, -f3 | tr '\n' ' ')
s=""; for w in 4 4.5 5; do s="$s$("$C" stability --system skate --equilibrium spinning --omega0 $w --I2 0.35 | grep -q 'verdict: stable' && echo stable || echo unstable) "; done
[ "$v" = "$s" ] && [ "$v" = "unstable stable stable " ]; t $? "Omega0 = 4, 4.5, 5: the sweep's verdicts are chartless stability's ($v)"

# certified verdicts (--certify, Arb balls): wherever decided, the MPFR verdict; undecided only on (42)
agree() { # $1 MPFR CSV, $2 certified CSV of a 2-D map (verdicts in columns 4 and 4 + 5): "disagreements undecided"
    paste -d, "$1" "$2" | tail -n +4 | awk -F, '{ if ($9 == "undecided") u++; else if ($4 != $9) d++ } END { print d + 0, u + 0 }'
}
"$C" sweep $GRID --bits 113 --certify > "$T/cert.csv"; t $? "--certify on the 273-cell map exits 0"
[ "$(cut -d, -f1-3 "$T/full.csv" | tail -n +4)" = "$(cut -d, -f1-3 "$T/cert.csv" | tail -n +4)" ] &&
    [ "$(agree "$T/full.csv" "$T/cert.csv")" = "0 0" ]; t $? "every cell proven, and proven as the MPFR verdict says ($(agree "$T/full.csv" "$T/cert.csv"))"
"$C" sweep --system skate --x "Omega0=$W42:$W42:1" --bits 113 --certify | tail -1 | grep -q ',undecided,'; t $? "--certify: Omega0 on (42) is undecided"
"$C" sweep --system skate --equilibrium sliding --x sigma=-0.00004:-0.000001:40 --y J1=0.001:0.008:15 --bits 113 > "$T/m-sl.csv"
"$C" sweep --system skate --equilibrium sliding --x sigma=-0.00004:-0.000001:40 --y J1=0.001:0.008:15 --bits 113 --certify > "$T/c-sl.csv"
[ "$(agree "$T/m-sl.csv" "$T/c-sl.csv")" = "0 0" ]; t $? "--certify on the sliding map: every cell proven as the MPFR verdict says"

# the controlled sliding equilibrium (Prop. 16) through the matched system (57): stable exactly
# when -J1^2/(I1 + ml^2) < sigma < 0 (58), I1 + ml^2 = 0.35 + 3 * 0.64 = 2.27 (Sec. 7.3 skate);
# below (58) the matched I1 + ml^2 + J1^2/sigma > 0 and (38)'s pair +-sqrt(mgl/that) is real
"$C" sweep --system skate --equilibrium sliding --x sigma=-0.00004:-0.000001:40 --y J1=0.001:0.008:15 --bits 113 > "$T/sliding.csv"
python3 - "$T/sliding.csv" > "$T/sliding.out" <<'PY'
import sys
from fractions import Fraction as F
from decimal import Decimal
rows = open(sys.argv[1]).read().split("\n")[3:-1]
wrong = undecided = 0
for r in rows:
    c, sigma, J1, verdict, margin = r.split(",")
    s, j = F(Decimal(sigma)), F(Decimal(J1))
    b58 = -j * j / (F(35, 100) + 3 * F(64, 100))
    if verdict == "undecided": undecided += 1
    elif verdict != ("stable" if b58 < s < 0 else "unstable"): wrong += 1
print(len(rows), wrong, undecided)
PY
[ "$(cat "$T/sliding.out")" = "600 0 0" ]; t $? "sliding, sigma x J1: 600 cells, every verdict is (58)'s, none undecided ($(cat "$T/sliding.out"))"
"$C" sweep --system skate --equilibrium sliding --x Y0=0:3:7 | tail -n +4 | cut -d, -f3 | sort -u | grep -qx unstable; t $? "the uncontrolled sliding equilibrium is unstable at every Y0 (Prop. 12)"
"$C" sweep --system skate --equilibrium sliding --x sigma=-1:1:3 > "$T/o" 2>/dev/null; [ $? = 2 ] && [ ! -s "$T/o" ]; t $? "a sigma range through 0 is refused"

# shards merged byte for byte
for k in 1 2 3 4 5; do "$C" sweep $GRID --bits 113 --shard $k/5 --out "$T/s$k.csv" || echo "shard $k failed"; done
"$C" sweep --merge "$T/s4.csv" "$T/s2.csv" "$T/s5.csv" "$T/s1.csv" "$T/s3.csv" > "$T/merged.csv"; t $? "--merge of 5 shards in any order exits 0"
cmp -s "$T/full.csv" "$T/merged.csv"; t $? "the merged shards equal the unsharded run byte for byte"
"$C" sweep --merge --out "$T/m2.csv" "$T"/s[0-9].csv && cmp -s "$T/full.csv" "$T/m2.csv"; t $? "--merge --out writes the same file"
[ "$(sed -n 2p "$T/s3.csv")" = "# shard 3/5 of 273 cells" ] && [ "$(tail -n +4 "$T/s3.csv" | wc -l)" = 54 ] &&
    [ "$(sed -n 4p "$T/s3.csv" | cut -d, -f1)" = 109 ]; t $? "shard 3/5 holds cells floor(273*2/5) = 109 to floor(273*3/5) - 1 = 162"
"$C" sweep --merge "$T/s1.csv" "$T/s2.csv" "$T/s4.csv" "$T/s5.csv" > "$T/o" 2> "$T/e"; [ $? = 2 ] && [ ! -s "$T/o" ] && grep -q "shard 3/5 is missing" "$T/e"; t $? "a missing shard is named, exit 2, nothing on stdout"
"$C" sweep --system skate --x Omega0=0:10:21 --y asym=1:400:13 --bits 53 --shard 3/5 --out "$T/x3.csv"
"$C" sweep --merge "$T/s1.csv" "$T/s2.csv" "$T/x3.csv" "$T/s4.csv" "$T/s5.csv" > "$T/o" 2>/dev/null; [ $? = 2 ] && [ ! -s "$T/o" ]; t $? "a shard of another sweep (other --bits) is refused"
head -c -9 "$T/s2.csv" > "$T/cut.csv"
"$C" sweep --merge "$T/s1.csv" "$T/cut.csv" "$T/s3.csv" "$T/s4.csv" "$T/s5.csv" --out "$T/no.csv" 2>/dev/null; [ $? = 2 ] && [ ! -e "$T/no.csv" ]; t $? "a shard cut short is refused and no --out file is written"
"$C" sweep --merge "$T/s1.csv" "$T/s2.csv" "$T/s2.csv" "$T/s4.csv" "$T/s5.csv" 2>&1 >/dev/null | grep -q "shard 2/5 given twice"; t $? "a shard given twice is named"
"$C" sweep $GRID --bits 113 --certify --shard 3/5 --out "$T/c3.csv"
"$C" sweep --merge "$T/s1.csv" "$T/s2.csv" "$T/c3.csv" "$T/s4.csv" "$T/s5.csv" > "$T/o" 2>/dev/null; [ $? = 2 ] && [ ! -s "$T/o" ]; t $? "a certified shard does not merge with MPFR shards"

# GNU parallel (tools/need installs it for make check) and the Slurm array script
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite -j2 "$C" sweep $GRID --bits 113 --shard {}/4 --out "$T/p{}.csv" ::: 1 2 3 4; t $? "parallel -j2 ... --shard {}/4 runs the 4 shards"
    "$C" sweep --merge "$T"/p*.csv | cmp -s - "$T/full.csv"; t $? "the parallel shards merge into the unsharded run"
else
    skip "GNU parallel not installed (tools/need cmd:parallel:parallel as root)"
    skip "GNU parallel not installed"
fi
for k in 1 2 3; do SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_COUNT=3 CHARTLESS="$C" sh tools/slurm-sweep.sh "$T/slurm" $GRID --bits 113; done
"$C" sweep --merge "$T"/slurm/part-*.csv | cmp -s - "$T/full.csv"; t $? "tools/slurm-sweep.sh's tasks 1-3 of an array merge into the unsharded run"

# the plot
if command -v gnuplot >/dev/null 2>&1; then
    "$C" sweep $GRID --plot "$T/map.png" > "$T/o" && cmp -s "$T/o" "$T/d.csv" && [ "$(head -c 4 "$T/map.png" | tail -c 3)" = PNG ]; t $? "--plot draws a PNG and the CSV still goes to stdout"
    "$C" sweep --merge "$T"/s[0-9].csv --plot "$T/merged.png" >/dev/null && [ -s "$T/merged.png" ]; t $? "--merge --plot draws the merged map"
else
    skip "gnuplot not installed"; skip "gnuplot not installed"
fi

# the generic map of a system without maps of its own (cli/sweep/sweep_generic.c), from its equilibria:
# the rigid body's spectral abscissa about its middle axis is sqrt(Lambda),
# Lambda = w^2 (J3 - J2)(J2 - J1)/(J1 J3) (docs/equilibria.md), to 2^-100 at 113 bits
"$C" sweep --system rigid-body --J 1,2,3.5 --x omega=0.5:2:7 --bits 113 > "$T/rb.csv"; t $? "sweep --system rigid-body (no sweep hook) exits 0"
[ "$(sed -n 3p "$T/rb.csv")" = "cell,omega,eq0.verdict,eq0.max_re,eq0.ec_margin,eq1.verdict,eq1.max_re,eq1.ec_margin,eq2.verdict,eq2.max_re,eq2.ec_margin" ]
t $? "the columns: each equilibrium's verdict, spectral abscissa and Energy-Casimir margin"
python3 - "$T/rb.csv" <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 60
rows = [r.split(",") for r in open(sys.argv[1]).read().split("\n")[3:-1]]
ok = len(rows) == 7
for r in rows:
    w, lam = D(r[1]), (D("3.5") - 2) * (2 - D(1)) / D("3.5")
    ok &= r[2] == "stable" and r[5] == "unstable" and r[8] == "stable"
    ok &= abs(D(r[6]) - w * lam.sqrt()) <= D(2) ** -100 * w * lam.sqrt()
sys.exit(0 if ok else 1)
PY
t $? "rigid body: stable about the smallest and largest axis, unstable about the middle one at sqrt(Lambda) to 2^-100"
# the sleeping symmetric top (J = 1, 1, 1.5, m g l = 9.81/4): below the fast-top bound
# C w = 2 sqrt(A m g l), w0 = 2.088..., the linearization has a pair with a positive real part
# (unstable); above it the spectrum is on the imaginary axis, and the Energy-Casimir test with the
# Casimirs the system declares is definite exactly when (C - A) w^2 > m g l, w1 = 2.2147...
# (docs/equilibria.md): stable above w1, undecided between w0 and w1 (cells within 2^-20 of a
# bound may be either)
"$C" sweep --system heavy-top --J 1,1,1.5 --equilibrium sleeping --x omega=0.1:6:60 --bits 113 > "$T/top.csv"; t $? "sweep --system heavy-top --equilibrium sleeping exits 0"
python3 - "$T/top.csv" <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 60
rows = [r.split(",") for r in open(sys.argv[1]).read().split("\n")[3:-1]]
w0, w1 = 2 * (D("9.81") / 4).sqrt() / D("1.5"), (D("9.81") / 4 / D("0.5")).sqrt()
want = lambda w: "unstable" if w < w0 else "undecided" if w < w1 else "stable"
near = lambda w: min(abs(w - w0), abs(w - w1)) < D(2) ** -20
wrong = [r[1] for r in rows if r[2] != want(D(r[1])) and not near(D(r[1]))]
sys.exit(0 if len(rows) == 60 and not wrong and {r[2] for r in rows} == {"unstable", "undecided", "stable"} else 1)
PY
t $? "sleeping top: 60 cells, unstable below C w = 2 sqrt(A m g l), stable above (C - A) w^2 = m g l, undecided between"
"$C" sweep --model models/spherical.model --x l=0.5:2:3 --y g=1:20:4 > "$T/sp.csv" &&
    [ "$(tail -n +4 "$T/sp.csv" | cut -d, -f4,7 | sort -u)" = "stable,unstable" ]; t $? "a model's map (--model, --y): hanging stable, inverted unstable in every cell"
for k in 1 2 3; do "$C" sweep --model models/spherical.model --x l=0.5:2:3 --y g=1:20:4 --shard $k/3 --out "$T/g$k.csv"; done
"$C" sweep --merge "$T/g3.csv" "$T/g1.csv" "$T/g2.csv" | cmp -s - "$T/sp.csv"; t $? "the generic map's shards merge into the unsharded run byte for byte"
"$C" sweep --merge "$T"/g[123].csv --format json | tools/validate-json docs/sweep.schema.json &&
    "$C" sweep --system skate --x Omega0=0:10:3 --format json | tools/validate-json docs/sweep.schema.json; t $? "--format json (a sweep, a merge) is what docs/sweep.schema.json says"
"$C" sweep --model models/spherical.model --x l=0.5:2:3 --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d["columns"][:3] == ["cell", "l", "hanging.verdict"] and [r[2] for r in d["rows"]] == ["stable"] * 3 else 1)'; t $? "the JSON holds the CSV's columns and rows"

# bad input: exit 2, nothing on stdout, no file
bad() {
    "$C" sweep "$@" --out "$T/bad.csv" > "$T/o" 2> "$T/e"
    [ $? = 2 ] && [ ! -s "$T/o" ] && [ ! -e "$T/bad.csv" ] && grep -q '^error: .* (.*)$' "$T/e"
}
bad --system skate --x Omega0=0:10; t $? "a range without N is refused"
bad --system skate --x Omega0=0:10:0; t $? "N = 0 is refused"
bad --system skate --x Omega0=0:10:5 --shard 6/5; t $? "k > N is refused"
bad --system skate --x Omega0=0:10:5 --y asym=0:400:5; t $? "a range leaving the parameter's domain (asym > 0) is refused"
bad --system skate --x Omega0=0:10:5 --shard 1/2 --plot "$T/bad.png" && [ ! -e "$T/bad.png" ]; t $? "--plot on a shard is refused, no PNG"
bad --system skate --x Omega0=0:10:5 --y omega0=0:1:2; t $? "the same parameter on both axes (by its alias) is refused"
bad --system skate --x Omega0=1:10:5 --I3 0.5; t $? "a cell the system refuses (I2 <= I3) is refused before anything is written"
printf 'keep\n' > "$T/keep.csv"
"$C" sweep --system skate --x Omega0=0:10 --out "$T/keep.csv" 2>/dev/null; [ $? = 2 ] && [ "$(cat "$T/keep.csv")" = keep ]; t $? "bad input leaves an existing --out file as it was"
bad --system rigid-body --x omega=0:1:3 --certify; t $? "--certify on a system without certified verdicts is refused"
bad --system rigid-body --x omega=0:1:3 --equilibrium fourth; t $? "the generic map: an unknown --equilibrium is refused"
bad --model models/pivot.model --x a=0:1:3; t $? "a model without equilibria is refused"
"$C" sweep --merge > "$T/o" 2> "$T/e"; [ $? = 2 ] && [ ! -s "$T/o" ] && grep -q '^error: .* (.*)$' "$T/e"; t $? "--merge without files is refused"
"$C" sweep --help | grep -q "^exit status: 0 done"; t $? "sweep --help ends with the exit statuses"
