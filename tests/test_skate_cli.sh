#!/bin/sh
# The skate's commands: results, exit statuses and error messages
# (chartless equilibria / stability / reproduce, and the skate system for rhs).
. tests/tap.sh
T="${TMPDIR:-/tmp}/cl-skate-$$"
echo "1..27"
out=$("$C" equilibria --system skate 2>&1); t $? "equilibria --system skate exits 0"
echo "$out" | grep -q "linearization: unstable (a positive real eigenvalue)"; t $? "sliding equilibrium is linearly unstable (Prop. 12)"
echo "$out" | grep -q "inconclusive"; t $? "spinning at Omega0 = 5 is linearly inconclusive (Prop. 11)"
"$C" equilibria --system skate --I2 0.001 >/dev/null 2>&1; [ $? = 2 ]; t $? "I2 <= I3 exits 2"
msg=$("$C" equilibria --system skate --m -1 2>&1 >/dev/null); [ "$msg" = "error: mass must be positive (--m)" ]; t $? "a non-positive mass is named"
"$C" stability --system skate --equilibrium spinning --omega0 5 | grep -q "verdict: stable"; t $? "spinning at Omega0 = 5 > 4.097 is stable (42)"
"$C" stability --system skate --equilibrium spinning --omega0 4 | grep -q "inconclusive"; t $? "spinning at Omega0 = 4 < 4.097 is not shown stable"
"$C" stability --system skate --equilibrium sliding --sigma -0.00001 | grep -q "negative definite"; t $? "controlled sliding at sigma = -1e-5 is stable (Prop. 16)"
"$C" stability --system skate --equilibrium sliding --sigma -0.00002 | grep -q "inconclusive"; t $? "controlled sliding at sigma = -2e-5 < -1.10e-5 is not shown stable (58)"
"$C" stability --system skate --equilibrium spinning >/dev/null 2>&1; [ $? = 2 ]; t $? "spinning without --omega0 exits 2"
"$C" stability --system skate --equilibrium spinning --threshold | grep -q "relative difference: 2^-4[5-9]"; t $? "the bisection threshold agrees with (42) in double"
"$C" reproduce skate-fig4 --out "$T" | grep -q "fall time (Gamma3 = 0, event on (38)): 1.0250478086639"; t $? "Fig. 4 fall time 1.0250478086639..."
[ -s "$T/skate-fig4.csv" ]; t $? "Fig. 4 CSV written"
"$C" reproduce skate-fig4 --out "$T/bad" --state 0.1,0.1,0.1,1,0,0,0,0.0998334166468281523,0.995004165278025766 >/dev/null 2>&1; [ $? = 2 ] && [ ! -e "$T/bad/skate-fig4.csv" ]; t $? "an inconsistent initial state exits 2 and writes nothing"
"$C" reproduce skate-fig5 --out "$T" --sigma 0 >/dev/null 2>&1; [ $? = 2 ]; t $? "sigma = 0 exits 2"
echo "0.1 0.100501670841679659 1 0.0998334166468281523 0.995004165278025766" | "$C" rhs --system skate >/dev/null 2>&1; t $? "rhs --system skate reads a zeta state"
"$C" stability --system skate --equilibrium sliding --threshold | grep -q "relative difference: 2^-4[5-9]"; t $? "the sliding threshold needs no --sigma and agrees with (58) in double"
for c in equilibria stability; do
    "$C" $c --system skate --help | grep -q "^exit status: 0 done"; t $? "$c --system skate --help ends with the exit statuses"
done
# --certify: Arb balls at --bits
"$C" stability --system skate --equilibrium spinning --omega0 5 --bits 128 --certify | grep -q "^verdict: proven stable"; t $? "certify: spinning at Omega0 = 5 proven stable"
"$C" stability --system skate --equilibrium spinning --omega0 3 --bits 128 --certify | grep -q "^verdict: proven unstable"; t $? "certify: spinning at Omega0 = 3 proven unstable (a certified positive eigenvalue)"
"$C" stability --system skate --equilibrium spinning --omega0 4.09731724001333493343965980498083249 --bits 64 --certify | grep -q "^verdict: undecided"; t $? "certify: Omega0 within 2^-64 of (42) is undecided, not guessed"
out=$("$C" stability --system skate --equilibrium spinning --threshold --bits 256 --certify); t $? "certify: the (42) threshold exits 0"
echo "$out" | grep -q "^closed form inside the interval: yes" && echo "$out" | grep -q "^relative width: 2^-[1-9][0-9][0-9]\."; t $? "certify: (42) inside a certified interval of relative width below 2^-100"
"$C" stability --system skate --equilibrium sliding --threshold --bits 256 --certify | grep -q "^closed form inside the interval: yes"; t $? "certify: (58) inside its certified interval"
out=$("$C" equilibria --system skate --bits 128 --certify)
echo "$out" | grep -q "Proposition 11 values .* enclosures: yes" && echo "$out" | grep -q "Proposition 12 values .* enclosures: yes"; t $? "certify: Propositions 11-12 located in the eigenvalue enclosures"
"$C" stability --system skate --equilibrium sliding --sigma -0.000005 --bits 128 --certify | grep -q "^verdict: proven stable"; t $? "certify: controlled sliding at sigma = -5e-6 proven stable (Prop. 16)"
rm -rf "$T"
