#!/bin/sh
# Certified verdicts are only as good as the enclosure of their inputs.
# The skate with m = 2, l = 0.8, g = 9.81, I2 = 0.35, I3 = 0.051 has the
# spinning threshold (42) sqrt(mgl/(I3 + ml^2 - I2)) = sqrt(15.696/0.981) = 4
# exactly, while none of 0.8, 9.81, 0.35, 0.051 is a binary number: at
# Omega0 = 4 the rounding of the inputs decides which side the MPFR test
# lands on. The balls of --certify contain the decimals as given, so
#  - the ball of (42) contains 4 at every precision (with g = 9.81 as 981/100),
#  - the certified verdict at Omega0 = 4 is undecided at every precision,
#    while the MPFR condition (42) says "holds" at some and "fails" at others,
#  - a step of 1e-9 either side is decided: proven stable above.
B=${BUILD:-build}
C="$B/chartless"
P="--system skate --equilibrium spinning --g 9.81 --I3 0.051"
BITS="53 64 96 113 128 160 200 256 400 512 1024"
echo "1..4"
# the ball printed as [mid +/- rad] (or an exact number) contains 4: exact rational arithmetic
contains4() {
    python3 -c '
import re, sys
from fractions import Fraction as F
s = sys.argv[1].strip()
m = re.fullmatch(r"\[(\S+) \+/- (\S+)\]", s)
ok = (F(m.group(1)) - F(m.group(2)) <= 4 <= F(m.group(1)) + F(m.group(2))) if m else F(s) == 4
sys.exit(0 if ok else 1)' "$1"
}
bad=""; undec=""; seen=""
for p in $BITS; do
    ball=$("$C" stability $P --threshold --certify --bits "$p" 2>&1 | sed -n 's/^(42) sqrt(mgl\/(I3 + ml^2 - I2)): \(\[.*\]\)$/\1/p')
    { [ -n "$ball" ] && contains4 "$ball"; } || bad="$bad $p:$ball"
    out=$("$C" stability $P --omega0 4 --certify --bits "$p" 2>&1)
    echo "$out" | grep -q '^verdict: undecided' && ! echo "$out" | grep -q '^verdict: proven' || undec="$undec $p"
    seen="$seen $(echo "$out" | sed -n 's/^condition (42): .* -- \(holds\|fails\)$/\1/p')"
done
[ -z "$bad" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 1 - the ball of (42) from --g 9.81 --I3 0.051 (m, l, I2 defaults) contains exactly 4 at $BITS bits"
[ -z "$bad" ] || echo "#   not containing 4:$bad"
[ -z "$undec" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 2 - at Omega0 = 4, on the threshold, the certified verdict is undecided at every precision"
[ -z "$undec" ] || echo "#   decided at:$undec"
echo "$seen" | grep -qw holds && echo "$seen" | grep -qw fails; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 3 - there the rounded inputs decide the MPFR condition (42): it holds at some precisions, fails at others ($(echo $seen))"
above=$("$C" stability $P --omega0 4.000000001 --certify --bits 113 2>&1 | grep '^verdict: ' | tail -1)
below=$("$C" stability $P --omega0 3.999999999 --certify --bits 113 2>&1 | grep '^verdict: ' | tail -1)
case "$above" in "verdict: proven stable"*) case "$below" in "verdict: proven stable"*) r=1 ;; *) r=0 ;; esac ;; *) r=1 ;; esac
echo "$([ $r = 0 ] || echo 'not ')ok 4 - 1e-9 above the threshold the certified verdict is proven stable, 1e-9 below it is not"
[ $r = 0 ] || printf '#   above: %s\n#   below: %s\n' "$above" "$below"
