#!/bin/sh
# Command line of the EMB systems: vector fields at states with closed-form
# answers, and bad input (exit status 2 with a message naming the rule).
# near LIST: the numbers on stdin equal LIST to 1e-12
. tests/tap.sh
near() { awk -v want="$1" 'BEGIN { k = split(want, w, " ") } { for (i = 1; i <= NF; i++) got[++m] = $i }
    END { if (m != k) exit 1; for (i = 1; i <= k; i++) { d = got[i] - w[i]; if (d < 0) d = -d; if (d > 1e-12) exit 1 } }'; }
echo "1..10"
echo "0 0.8" | "$C" rhs --system circle --form angle | near "0.8 0"
t $? "circle, angle form at the bottom: (thetadot, thetaddot) = (0.8, 0)"
echo "1 0 0 0" | "$C" rhs --system circle --g 4 | near "0 0 0 -4"
t $? "circle (3.3): bob at the horizontal at rest falls with -g/l"
echo "0 -1 2 0" | "$C" rhs --system circle --form xmu --m 2 --l 0.5 --g 4 | near "4 0 0 8"
t $? "circle (3.4): xdot = mu/(m l^2), mudot = centripetal |mu|^2/(m l^2) at the bottom"
echo "1 0 0 0 3 0" | "$C" rhs --system sphere --bits 200 | near "0 3 0 -9 0 -9.81"
t $? "sphere (3.5) at 200 bits: xddot = -|v|^2 x - (g/l) e3 at the horizontal"
echo "1 0 0 0 1 0 0 0 1 0 0 1.5" | "$C" rhs --system rigid-body | near "0 -1.5 0 1.5 0 0 0 0 0 0 0 0"
t $? "rigid-body: steady rotation about a principal axis, Rdot = R W^, W' = 0"
echo "1 0 0 0 1 0 0 0 1 0 0 0" | "$C" rhs --system heavy-top --axis 1,0,0 --l 0.5 --m 2 --g 10 | near "0 0 0 0 0 0 0 0 0 0 5 0"
t $? "heavy-top: torque rho x (-m g e3) = (0, 10, 0) on J2 = 2 gives W' = (0, 5, 0)"
echo "1 -1 0 1 1 -2" | "$C" rhs --system subspace --form xv >/dev/null
t $? "subspace: a state in ker A is accepted"
msg=$(echo "0.6 -0.7 0 0" | "$C" rhs --system circle 2>&1 >/dev/null); st=$?
[ $st = 2 ] && echo "$msg" | grep -q "unit vector"; t $? "circle: a non-unit x exits 2 and says why"
echo "1 0 0 0 1 0 0 0 1" | "$C" rhs --system rigid-body --form ROmega >/dev/null 2>&1; [ $? = 2 ]
t $? "rigid-body: too few numbers exits 2"
"$C" rhs --system heavy-top --lenght 1 </dev/null >/dev/null 2>&1; [ $? = 2 ]
t $? "heavy-top: an unknown parameter exits 2"
