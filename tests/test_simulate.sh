#!/bin/sh
# chartless simulate: different integrators agree on the same trajectory,
# invariants are written, bad input is refused with exit 2 and no file.
. tests/tap.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# Largest |difference| of the state columns 2..(dim+1) of the last rows of two
# CSV files, in exact decimal arithmetic (the numbers carry more digits than a double).
lastdiff() {
    python3 -c '
import sys
from decimal import Decimal, getcontext
getcontext().prec = 400
a = open(sys.argv[1]).read().split()[-1].split(",")
b = open(sys.argv[2]).read().split()[-1].split(",")
d = int(sys.argv[3])
print("%.3e" % max(abs(Decimal(a[i]) - Decimal(b[i])) for i in range(1, d + 1)))
' "$1" "$2" "$3"
}
# Largest |energy - energy(0)| in column $2 (1-based) of a CSV file, exactly.
drift() {
    python3 -c '
import sys
from decimal import Decimal, getcontext
getcontext().prec = 400
rows = [l.split(",") for l in open(sys.argv[1]).read().split()[1:]]
k = int(sys.argv[2]) - 1
e0 = Decimal(rows[0][k])
print("%.3e" % max(abs(Decimal(r[k]) - e0) for r in rows))
' "$1" "$2"
}
# a < b for numbers; an empty or non-numeric a (the run or the comparison failed) is not.
lt() { awk -v a="$1" -v b="$2" 'BEGIN{exit !(a ~ /^[0-9.eE+-]+$/ && a + 0 < b + 0)}'; }
if ! command -v python3 >/dev/null 2>&1; then
    echo "1..0 # SKIP python3 is needed to compare numbers beyond double precision"
    exit 0
fi
echo "1..39"
S0="0 0 -1 0 0 -1 1 0 0 0 1 0"
P="--system chain --n 2 --m 1,2 --l 1,0.5 --form omega --t 2"
echo "$S0" | "$C" simulate $P --integrator rkf78 --bits 113 --tol 1e-28 --out "$T/rkf.csv"; t $? "rkf78 at 113 bits runs"
echo "$S0" | "$C" simulate $P --integrator gbs --bits 113 --tol 1e-28 --out "$T/gbs.csv"; t $? "gbs at 113 bits runs"
# Both adaptive methods at tolerance 1e-28: the final states agree to 1e-24 (tolerance times the growth over t = 2).
d=$(lastdiff "$T/rkf.csv" "$T/gbs.csv" 12); lt "$d" 1e-24; t $? "rkf78 and gbs agree at t = 2 to 1e-24 (difference $d)"
echo "$S0" | "$C" simulate $P --integrator rkmk4 --h 0.002 --out "$T/lie.csv"; t $? "rkmk4 (Lie group) runs"
# RKMK4 with h = 0.002: global error about C h^4 = 1e-9 for this smooth motion; 1e-6 leaves room for C.
d=$(lastdiff "$T/rkf.csv" "$T/lie.csv" 12); lt "$d" 1e-6; t $? "rkmk4 agrees with rkf78 to 1e-6 (difference $d)"
head -1 "$T/rkf.csv" | grep -q '^t,q1.x,.*,w2.z,energy,Lz'; t $? "CSV header names the state components and invariants"
# Energy column (14th) stays within 1e-25 of its initial value along the 113-bit rkf78 run.
d=$(drift "$T/rkf.csv" 14); lt "$d" 1e-25; t $? "energy conserved to 1e-25 along rkf78 at 113 bits (drift $d)"
echo "$S0" | "$C" simulate $P --integrator euler > /dev/null 2>&1; [ $? = 2 ]; t $? "unknown integrator: exit 2"
echo "$S0" | "$C" simulate --system chain --n 2 --form qdot --integrator rkmk4 --t 1 > /dev/null 2>&1; [ $? = 2 ]; t $? "Lie integrator on the qdot form: exit 2"
echo "0 0 -2 0 0 -1 1 0 0 0 1 0" | "$C" simulate $P --out "$T/bad.csv" > /dev/null 2>&1; [ $? = 2 ] && [ ! -e "$T/bad.csv" ] && [ -z "$(ls "$T" | grep partial)" ]; t $? "non-unit q: exit 2 and no output file"
echo "$S0" | "$C" simulate $P --t -1 > /dev/null 2>&1; [ $? = 2 ]; t $? "negative final time: exit 2"
# --every 7 still ends with the state at the final time.
echo "$S0" | "$C" simulate $P --every 7 > "$T/every.csv" 2>/dev/null && tail -1 "$T/every.csv" | grep -q '^2,'; t $? "--every K: the last row is the final time t = 2"
echo "$S0" | "$C" simulate $P --integrator gl --h 0.01 > /dev/null 2>&1; t $? "--integrator gl is Gauss-Legendre"
# rkmk45 (adaptive) at a loose tolerance: the end of each output interval is reached, not an underflow.
echo "$S0" | "$C" simulate $P --integrator rkmk45 --tol 1e-9 > /dev/null 2>&1; t $? "rkmk45 at tol 1e-9 reaches t = 2"
# High precision through the command: the benchmark chain (bench/bench_ode --chain) at 512 bits
# with gbs, against a run at 600 bits and a tolerance 10^-20 of it. --tol is the error wanted at the
# end, so the difference must be below 1e-150 (the field runs with the integrator's guard bits;
# on an instance at 512 bits it would stall at about 2^(1.15k - 512), k = 51 columns).
SB="0 0 -1  0.6 0 -0.8  1 0 0  0 2 0"
PB="--system chain --n 2 --t 0.5 --integrator gbs --every 1000000"
echo "$SB" | "$C" simulate $PB --bits 512 --tol 1e-150 > "$T/g512.csv"; t $? "gbs at 512 bits, --tol 1e-150 reaches t = 0.5"
echo "$SB" | "$C" simulate $PB --bits 600 --tol 1e-170 > "$T/g600.csv"; t $? "gbs at 600 bits, --tol 1e-170 reaches t = 0.5"
d=$(lastdiff "$T/g512.csv" "$T/g600.csv" 12); lt "$d" 1e-150; t $? "gbs at 512 bits delivers the --tol 1e-150 asked for (difference $d)"
# Every integrator's defaults finish at 512 and 1024 bits (short runs): the last row is t = 0.02
# (printed with the digits of the precision: 0.0199...).
at002() { tail -1 "$1" | awk -F, '{exit !($1 > 0.02 - 1e-12 && $1 < 0.02 + 1e-12)}'; }
for b in 512 1024; do
    for m in rk4 rkf78 gauss gbs; do
        echo "$SB" | "$C" simulate --system chain --n 2 --bits $b --t 0.02 --integrator $m > "$T/d.csv" 2> "$T/d.err" &&
            at002 "$T/d.csv"; t $? "$m with its defaults at $b bits reaches t = 0.02"
    done
    for m in lie-euler rkmk4 cf4 rkmk45; do
        echo "$SB" | "$C" simulate --system chain --n 2 --form omega --bits $b --t 0.02 --integrator $m > "$T/d.csv" 2> "$T/d.err" &&
            at002 "$T/d.csv"; t $? "$m with its defaults at $b bits reaches t = 0.02"
    done
done
# Without --integrator, 1024 bits gets gbs and finishes; rkf78's default is raised to 2^-96, with a note.
echo "$SB" | "$C" simulate --system chain --n 2 --bits 1024 --t 0.02 > "$T/d.csv" 2> "$T/d.err" && at002 "$T/d.csv"
t $? "no --integrator at 1024 bits: the default (gbs) reaches t = 0.02"
echo "$SB" | "$C" simulate --system chain --n 2 --bits 1024 --t 0.02 --integrator rkf78 2>&1 > /dev/null | grep -q '^note: rkf78 .*2^-96'
t $? "rkf78 at 1024 bits says that its default tolerance is 2^-96"
# Above 256 bits the default is taylor where the field is a graph (a model), gbs elsewhere; at
# 256 bits taylor where the field has a transcendental function of the state (the cart
# pendulum's cos theta), gbs on a polynomial field (the heavy top).
row2() { sed -n 3p "$1" | cut -d, -f1; }
for i in default gbs taylor; do
    a=; [ $i = default ] || a="--integrator $i"
    echo "0 1 0.5 0.2" | "$C" simulate --model models/cart-pendulum.model --bits 512 --t 0.5 --estimate none $a > "$T/cp_$i.csv"
    echo "0 1 0.5 0.2" | "$C" simulate --model models/cart-pendulum.model --bits 256 --t 0.5 --estimate none $a > "$T/cp256_$i.csv"
    echo "$SB" | "$C" simulate --system chain --n 2 --bits 512 --t 0.02 --estimate none $a > "$T/ch_$i.csv" 2> /dev/null
    echo "1 0 0  0 1 0  0 0 1  0.3 -0.5 1.1" | "$C" simulate --model models/heavy-top.model --bits 256 --t 0.5 \
        --estimate none $a > "$T/top256_$i.csv"
done
[ -n "$(row2 "$T/cp_taylor.csv")" ] && [ "$(row2 "$T/cp_default.csv")" = "$(row2 "$T/cp_taylor.csv")" ] && [ "$(row2 "$T/cp_gbs.csv")" != "$(row2 "$T/cp_taylor.csv")" ]
t $? "no --integrator at 512 bits on a model: taylor's first step ($(row2 "$T/cp_default.csv" | cut -c1-12)), not gbs's"
[ -n "$(row2 "$T/cp256_taylor.csv")" ] && [ "$(row2 "$T/cp256_default.csv")" = "$(row2 "$T/cp256_taylor.csv")" ] &&
    [ "$(row2 "$T/cp256_gbs.csv")" != "$(row2 "$T/cp256_taylor.csv")" ]
t $? "... at 256 bits taylor's too on the cart pendulum (cos theta)"
[ -n "$(row2 "$T/top256_gbs.csv")" ] && [ "$(row2 "$T/top256_default.csv")" = "$(row2 "$T/top256_gbs.csv")" ] &&
    [ "$(row2 "$T/top256_gbs.csv")" != "$(row2 "$T/top256_taylor.csv")" ]
t $? "... and gbs's on the heavy top at 256 bits (a polynomial field)"
[ -n "$(row2 "$T/ch_gbs.csv")" ] && [ "$(row2 "$T/ch_default.csv")" = "$(row2 "$T/ch_gbs.csv")" ] && [ ! -s "$T/ch_taylor.csv" ]
t $? "... and gbs's on the chain system, whose field is no graph"
