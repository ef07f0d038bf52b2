#!/bin/sh
# The momentum form of an (S²)ⁿ model integrated: its flow leaves |q| ≠ 1
# inside a step (gbs' midpoint stages most), where μ must still be taken on
# the plane normal to q for the inverse Legendre map to have a solution.
# For the spherical pendulum with m = l = 1, μ = q̇ at the start, so the μ
# flow and the q̇ flow from the same six numbers are one motion: their q at
# t = 1 agree to the tolerance asked (a stated factor 10³ above it).
. tests/model_cli.sh
echo "1..4"
X0="0.6 0 -0.8  0 1 0"
last_q() { tail -1 "$1" | cut -d, -f2-4; }
for run in "53 1e-10" "113 1e-26"; do
    set -- $run
    for m in gbs rkf78; do
        printf '%s\n' "$X0" | "$C" simulate --model models/spherical.model --form mu --bits $1 --tol $2 \
            --integrator $m --t 1 --estimate none > "$T/mu" 2>"$T/err"
        st=$?
        printf '%s\n' "$X0" | "$C" simulate --model models/spherical.model --form qdot --bits $1 --tol $2 \
            --integrator rkf78 --t 1 --estimate none > "$T/qd" 2>/dev/null
        python3 - "$(last_q "$T/mu")" "$(last_q "$T/qd")" "$2" <<'PY'
import sys
from decimal import Decimal
a = [Decimal(x) for x in sys.argv[1].split(',')]
b = [Decimal(x) for x in sys.argv[2].split(',')]
sys.exit(0 if len(a) == 3 and max(abs(x - y) for x, y in zip(a, b)) < 1000 * Decimal(sys.argv[3]) else 1)
PY
        t $? "mu flow by $m at $1 bits ends where the qdot flow does (exit $st$( [ $st = 0 ] || head -c 120 "$T/err"))"
    done
done
