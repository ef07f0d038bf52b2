#!/bin/sh
# The catalogue of bad input, over every subcommand. Each case asserts: exit
# status 2, the first line of stderr is "error: <what> (<argument>)", stdout
# is empty, and the working directory is as it was (no file left behind, the
# existing keep.csv neither changed nor replaced, /dev/null still a device).
B=${BUILD:-build}
C="$(cd "$B" && pwd)/chartless"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
W="$T/work"
mkdir -p "$W/dir"
printf 't,x\n0,1\n' > "$W/keep.csv"
ln -s /dev/null "$W/devlink"
# a correct student, so that grade's refusals are of the input, not of the object
SCC=$(echo "${CC:-cc}" | sed 's/ -f[a-z-]*sanitize[^ ]*//g')
$SCC -shared -fPIC -O1 -Isrc -o "$W/student.so" docs/examples/pendulum_qdot_correct.c -lm || echo "# cannot compile the student"
listing() { ls -Ali "$W" "$W/dir" | sed 's/  */ /g'; }
before=$(listing)
n=0
# says TEXT: the next case's first line of stderr must contain TEXT
want=""
says() { want=$1; }
# bad DESCRIPTION STDIN ARGUMENT... (STDIN is read by printf %b: \0 is a NUL byte)
bad() {
    desc=$1; printf '%b' "$2" > "$T/in"; shift 2
    n=$((n + 1))
    (cd "$W" && "$C" "$@" < "$T/in" > "$T/out" 2> "$T/err")
    st=$?
    first=$(head -n 1 "$T/err")
    why=""
    [ "$st" = 2 ] || why="$why exit status $st;"
    printf '%s\n' "$first" | grep -Eq '^error: .+ \(.+\)$' || why="$why first line of stderr: '$first';"
    [ -s "$T/out" ] && why="$why stdout not empty;"
    [ "$(listing)" = "$before" ] || why="$why the directory changed;"
    [ -c /dev/null ] || why="$why /dev/null is no longer a device;"
    [ -z "$want" ] || printf '%s\n' "$first" | grep -qF -- "$want" || why="$why first line of stderr: '$first', not saying '$want';"
    want=""
    if [ -z "$why" ]; then echo "ok $n - $desc"; else echo "not ok $n - $desc:$why"; fi
}
S1='0 0 -1 1 0 0'
CH="--system chain --n 1"

# the command itself
bad "unknown command" "" frobnicate
bad "an option for a command" "" --frob
# rhs: options
bad "rhs without --system" "$S1" rhs
bad "rhs, unknown system" "$S1" rhs --system nosuch
bad "rhs, unknown form" "$S1" rhs $CH --form velocity
bad "rhs, --system without a value" "$S1" rhs --system
bad "rhs, --bits 1" "$S1" rhs $CH --bits 1
bad "rhs, --bits 70000" "$S1" rhs $CH --bits 70000
bad "rhs, --bits abc" "$S1" rhs $CH --bits abc
bad "rhs, --bits with a leading blank" "$S1" rhs $CH --bits " 60"
bad "rhs, --bits 60x" "$S1" rhs $CH --bits 60x
bad "rhs, --bits empty" "$S1" rhs $CH --bits=
bad "rhs, --bits of 30 digits" "$S1" rhs $CH --bits 100000000000000000000000000053
bad "rhs, --system twice" "$S1" rhs --system chain $CH
bad "rhs, --bits twice" "$S1" rhs $CH --bits 60 --bits=80
bad "rhs, --form twice" "$S1" rhs $CH --form qdot --form qdot
bad "rhs, a short option" "$S1" rhs $CH -x
bad "rhs, a positional argument" "$S1" rhs $CH extra
bad "rhs, unknown parameter" "$S1" rhs $CH --nosuch 1
bad "rhs, parameter twice" "$S1" rhs $CH --g 1 --g 2
M="$(pwd)/models/chain2.model"
printf 'manifold q1 : S2\nlagrangian 1/2*dot(q1'"'"', q1'"'"') +\n' > "$T/broken.model"
bad "rhs, --model twice" "$S1" rhs --model "$M" --model "$M"
bad "rhs, --model with --system" "$S1" rhs --model "$M" --system chain
bad "rhs, --model of a missing file" "$S1" rhs --model "$T/none.model"
bad "rhs, --model with a syntax error" "$S1" rhs --model "$T/broken.model"
bad "rhs, --param without =" "$S1" rhs --model "$M" --param g
bad "rhs, --param of an unknown parameter" "$S1" rhs --model "$M" --param mass=2
HT="$(pwd)/models/heavy-top.model"
RT="0.6 0 0.8  0.64 0.6 -0.48  -0.48 0.8 0.36"
bad "rhs, SO3 model, R beyond 2^-40 of orthogonal" "0.600000001 0 0.8  0.64 0.6 -0.48  -0.48 0.8 0.36  0.3 -0.7 1.1" rhs --model "$HT"
bad "rhs, SO3 model, det R = -1" "-0.6 0 -0.8  -0.64 -0.6 0.48  0.48 -0.8 -0.36  0.3 -0.7 1.1" rhs --model "$HT"
bad "rhs, SO3 model, R^T Rdot not skew" "$RT  1 0 0  0 1 0  0 0 1" rhs --model "$HT" --form RRdot
bad "rhs, SO3 model, unknown form" "$RT  0.3 -0.7 1.1" rhs --model "$HT" --form qdot
bad "simulate, SO3 model, R not orthogonal" "1 0 0  0 1 0  0 0 2  0 0 1" simulate --model "$HT" --t 1
bad "rhs, --n 0" "$S1" rhs --system chain --n 0
bad "rhs, --n -1" "$S1" rhs --system chain --n -1
bad "rhs, --n 1.5" "$S1" rhs --system chain --n 1.5
bad "rhs, --n 100001" "$S1" rhs --system chain --n 100001
bad "rhs, --n +1" "$S1" rhs --system chain --n +1
bad "rhs, --m -1" "$S1" rhs $CH --m -1
bad "rhs, --m 0" "$S1" rhs $CH --m 0
bad "rhs, --m abc" "$S1" rhs $CH --m abc
bad "rhs, two masses for one link" "$S1" rhs $CH --m 1,2
bad "rhs, an empty list of masses sets no n" "$S1" rhs --system chain --m ,
bad "rhs, an empty --m" "$S1" rhs --system chain --m=
bad "rhs, --m nan" "$S1" rhs $CH --m nan
bad "rhs, --l inf" "$S1" rhs $CH --l inf
bad "rhs, --l 0" "$S1" rhs $CH --l 0
bad "rhs, --g 1e" "$S1" rhs $CH --g 1e
bad "rhs, --g 1x" "$S1" rhs $CH --g 1x
bad "rhs, --g needs a value" "$S1" rhs $CH --g
# rhs: the state on stdin
bad "rhs, empty state" "" rhs $CH
bad "rhs, too few numbers" "0 0 -1 1 0" rhs $CH
bad "rhs, too many numbers" "0 0 -1 1 0 0 7" rhs $CH
bad "rhs, a word among the numbers" "0 0 -1 one 0 0" rhs $CH
bad "rhs, a NUL byte inside a number" "0 0 -1\\0garbage 1 0 0" rhs $CH
bad "rhs, a NUL byte after the numbers" "0 0 -1 1 0 0\\0" rhs $CH
bad "rhs, a control byte inside a number" "0 0 -1\\001 1 0 0" rhs $CH
bad "rhs, nan in the state" "0 0 -1 nan 0 0" rhs $CH
bad "rhs, inf in the state" "0 0 -1 inf 0 0" rhs $CH
bad "rhs, half a number" "0 0 -1 1e 0 0" rhs $CH
bad "rhs, q not a unit vector" "0 0 -2 1 0 0" rhs $CH
bad "rhs, q zero" "0 0 0 1 0 0" rhs $CH
bad "rhs, velocity not tangent" "0 0 -1 0 0 1" rhs $CH
bad "rhs, a hexadecimal number" "0 0 -1 0x1 0 0" rhs $CH
bad "rhs, only commas" ",,,,,," rhs $CH
bad "rhs, sphere state of the wrong size" "0 0 -1 1 0 0 0" rhs --system sphere
# simulate
says "unknown integrator (euler); no integrator is near that name (the integrators: rkf78, gbs, gauss, rk4, taylor, lie-euler, rkmk4, cf4, rkmk45)"
bad "simulate, unknown integrator: the list" "$S1" simulate $CH --integrator euler
says "unknown integrator (rk45); did you mean rk4? (the integrators: rkf78,"
bad "simulate, a misspelled integrator: the nearest" "$S1" simulate $CH --integrator rk45
bad "simulate, --t -1" "$S1" simulate $CH --t -1
bad "simulate, --t -1" "$S1" simulate $CH --t -1
bad "simulate, --t abc" "$S1" simulate $CH --t abc
bad "simulate, --t nan" "$S1" simulate $CH --t nan
bad "simulate, --t twice" "$S1" simulate $CH --t 1 --t=2
bad "simulate, --t without a value" "$S1" simulate $CH --t
bad "simulate, --h 0" "$S1" simulate $CH --integrator rk4 --h 0
bad "simulate, --h -0.1" "$S1" simulate $CH --integrator rk4 --h -0.1
bad "simulate, --h 1e-300: too many steps" "$S1" simulate $CH --integrator rk4 --t 0.1 --h 1e-300
bad "simulate, --h 1e-7 over t = 1: more than the default steps" "$S1" simulate $CH --integrator gauss --t 1 --h 1e-7
bad "simulate, more steps than --max-steps" "$S1" simulate $CH --integrator rk4 --t 1 --h 0.01 --max-steps 50
bad "simulate, --max-steps 0" "$S1" simulate $CH --max-steps 0
bad "simulate, --max-steps abc" "$S1" simulate $CH --max-steps abc
bad "simulate, rkmk45 --max-steps 0" "$S1" simulate $CH --form omega --integrator rkmk45 --max-steps 0
bad "simulate, rkmk45 --max-steps 10^13" "$S1" simulate $CH --form omega --integrator rkmk45 --max-steps 10000000000000
bad "simulate, lie-euler more steps than --max-steps" "$S1" simulate $CH --form omega --integrator lie-euler --t 1 --h 0.01 --max-steps 50
bad "simulate, rkf78 cannot reach --tol 1e-300 at 1024 bits (refused before the run)" "$S1" simulate $CH --bits 1024 --integrator rkf78 --tol 1e-300
says "would need about 1600000 steps to reach --t 10 at this --tol, more than the 1000000 of --max-steps; use --integrator gbs (its order grows with --bits), --tol 1e-38 or larger, or --max-steps 1600000 (1e-40)"
bad "simulate, rkf78 --tol 1e-40 over --t 10: more steps than allowed, and what would do" "$S1" simulate $CH --bits 256 --integrator rkf78 --tol 1e-40
bad "simulate, rkmk45 cannot reach --tol 1e-60" "$S1" simulate $CH --form omega --bits 256 --integrator rkmk45 --tol 1e-60
bad "simulate, --tol 0" "$S1" simulate $CH --tol 0
bad "simulate, --tol -1e-9" "$S1" simulate $CH --tol -1e-9
bad "simulate, --stages 0" "$S1" simulate $CH --integrator gauss --stages 0
bad "simulate, --stages 17" "$S1" simulate $CH --integrator gauss --stages 17
bad "simulate, --columns 1" "$S1" simulate $CH --integrator gbs --columns 1
bad "simulate, --every 0" "$S1" simulate $CH --every 0
bad "simulate, --every -3" "$S1" simulate $CH --every -3
bad "simulate, --every twice" "$S1" simulate $CH --every 2 --every 3
bad "simulate, rkmk4 in the qdot form (nothing on stdout first)" "$S1" simulate $CH --integrator rkmk4
bad "simulate, rkmk4 on a system without Lie methods" "$S1" simulate --system sphere --integrator rkmk4
bad "simulate, --out /dev/null is a device" "$S1" simulate $CH --t 0.1 --out /dev/null
bad "simulate, --out a symlink to a device" "$S1" simulate $CH --t 0.1 --out devlink
bad "simulate, --out a directory" "$S1" simulate $CH --t 0.1 --out dir
says "cannot write: No such file or directory (nosuch/o.csv)"
bad "simulate, --out in a missing directory: the system's reason" "$S1" simulate $CH --t 0.1 --out nosuch/o.csv
bad "simulate, --out an existing file, bad state" "0 0 -2 1 0 0" simulate $CH --t 0.1 --out keep.csv
bad "simulate, --out an existing file, bad --t" "$S1" simulate $CH --t -1 --out keep.csv
bad "simulate, --out twice" "$S1" simulate $CH --t 0.1 --out a.csv --out keep.csv
bad "simulate, --out without a value" "$S1" simulate $CH --out
bad "simulate, --plot name with a quote" "$S1" simulate $CH --t 0.1 --plot "a'b.png"
bad "simulate, bad state" "0 0 -1 1 0" simulate $CH
bad "simulate, NUL byte in the state" "0 0 -1 1\\0 0 0" simulate $CH --out o.csv
# systems
bad "systems, unknown system" "" systems nosuch
bad "systems, two names" "" systems chain sphere
bad "systems, unknown option" "" systems --frob
# reproduce
bad "reproduce, no figure" "" reproduce
bad "reproduce, unknown figure" "" reproduce fig99
bad "reproduce, two figures" "" reproduce skate-fig4 skate-fig5
bad "reproduce, --system" "" reproduce skate-fig4 --system chain
bad "reproduce, --phi0 abc" "" reproduce skate-fig4 --phi0 abc
bad "reproduce, --t-end 0" "" reproduce skate-fig4 --t-end 0
bad "reproduce, --m -1" "" reproduce skate-fig4 --m -1
bad "reproduce, --bits 1" "" reproduce skate-fig4 --bits 1
bad "reproduce, unknown parameter" "" reproduce skate-fig4 --nosuch 1
bad "reproduce, --out a device" "" reproduce skate-fig4 --t-end 0.01 --out /dev/null
bad "reproduce, --bits twice" "" reproduce skate-fig4 --bits 53 --bits 53
bad "reproduce, --law unknown" "" reproduce skate-fig5 --law typed
bad "reproduce, --law for Fig. 4" "" reproduce skate-fig4 --law printed
bad "reproduce, --out a regular file" "" reproduce skate-fig4 --t-end 0.01 --out keep.csv
bad "reproduce, --out a link to a device" "" reproduce skate-fig4 --t-end 0.01 --out devlink
bad "reproduce, --out a directory without it" "" reproduce skate-fig4 --t-end 0.01 --out dir/none/deeper
# equilibria and stability
bad "equilibria without --system" "" equilibria
bad "equilibria, unknown system" "" equilibria --system nosuch
bad "equilibria, system without it" "" equilibria --system subspace
bad "equilibria, --form" "" equilibria --system skate --form x
bad "equilibria, --bits 0" "" equilibria --system skate --bits 0
bad "stability without --system" "" stability
bad "stability, unknown system" "" stability --system nosuch
bad "stability, unknown parameter" "" stability --system skate --nosuch 2
bad "stability, --system twice" "" stability --system skate --system skate
bad "stability, --certify with a value" "" stability --system skate --equilibrium spinning --omega0 5 --certify=1
bad "stability --certify, --omega0 not a number" "" stability --system skate --equilibrium spinning --omega0 abc --certify
bad "equilibria --certify, --bits 1" "" equilibria --system skate --certify --bits 1
# grade
bad "grade without --system" "" grade --form qdot student.so
bad "grade without --form" "" grade $CH student.so
bad "grade without a shared object" "" grade $CH --form qdot
bad "grade, a missing shared object" "" grade $CH --form qdot missing.so
bad "grade, two shared objects" "" grade $CH --form qdot a.so b.so
bad "grade, unknown form" "" grade $CH --form velocity student.so
bad "grade, --states 0" "" grade $CH --form qdot --states 0 student.so
bad "grade, --states abc" "" grade $CH --form qdot --states abc student.so
bad "grade, --seed -1" "" grade $CH --form qdot --seed -1 student.so
bad "grade, --timeout 0" "" grade $CH --form qdot --timeout 0 student.so
bad "grade, --timeout 1e9" "" grade $CH --form qdot --timeout 1e9 student.so
bad "grade, --timeout nan" "" grade $CH --form qdot --timeout nan student.so
bad "grade, --bits 1" "" grade $CH --form qdot --bits 1 student.so
bad "grade, --states twice" "" grade $CH --form qdot --states 3 --states 4 student.so
bad "grade, --g 1e400 is no double" "" grade $CH --form qdot --g 1e400 student.so
bad "grade, --m 1e-400 is no double" "" grade $CH --form qdot --m 1e-400 student.so
bad "grade, --bits below the reference's need" "" grade $CH --form qdot --bits 24 student.so
# oracle
bad "oracle, --bits 1" "" oracle --bits 1
bad "oracle, --bits decreasing" "" oracle --bits 113,53
bad "oracle, --format xml" "" oracle --format xml
bad "oracle, --jobs 0" "" oracle -j 0
bad "oracle, unknown option" "" oracle --frob
bad "oracle, --check matching nothing" "" oracle --check nosuch.row
bad "oracle, an argument" "" oracle s2.forms
# issue 24: one message for an unknown name, with the nearest valid one and where the list is
says "unknown option (--mass); did you mean --m? (chartless rhs --system chain --help lists them)"
bad "rhs, --mass: the nearest parameter and where they are listed" "$S1" rhs $CH --mass 2
says "unknown option (--mass); did you mean --m? (chartless simulate --system chain --help lists them)"
bad "simulate, --mass: the same message as rhs" "$S1" simulate $CH --mass 2
says "unknown option (--intgrator); did you mean --integrator?"
bad "simulate, a misspelled option of the command" "$S1" simulate $CH --intgrator rk4
says "unknown option (-x); no option is near that name (chartless rhs --system chain --help lists them)"
bad "rhs, a short option: the same message" "$S1" rhs $CH -x
says "unknown option (--chek); did you mean --check? (chartless oracle --help lists them)"
bad "oracle, a misspelled option: the same message" "" oracle --chek x
says "unknown form (Omega); did you mean omega? (the forms of chain: qdot, omega, mu, pi)"
bad "rhs, --form Omega: the valid forms" "$S1" rhs $CH --form Omega
says "unknown system (chian); did you mean chain? (chartless systems lists them)"
bad "rhs, a misspelled system" "$S1" rhs --system chian
says "unknown command (simulat); did you mean simulate? (chartless --help lists them)"
bad "a misspelled command" "" simulat
says "unknown system (chian); did you mean chain?"
bad "systems, a misspelled system" "" systems chian
# issue 24: a model's messages point at the cause
S2='0 0 -1 0 0 -1 1 0 0 1 0 0'
sed "s/dot(l1\*q1', l1\*q1')/dot(l1*q1', l1*q1'/" "$M" > "$T/paren.model"
says "this '(' is never closed: a ')' is missing ($T/paren.model:7:22)"
bad "rhs, a model missing a ')': the parenthesis, not the vector-scalar confusion after it" "$S2" rhs --model "$T/paren.model"
sed 's/- g\*/\xe2\x88\x92 g*/' "$M" > "$T/minus.model"
says "found U+2212 '$(printf '\342\210\222')': use ASCII '-' instead of U+2212"
bad "rhs, a model with a Unicode minus: the ASCII sign to use" "$S2" rhs --model "$T/minus.model"
says "unknown system (chian); did you mean chain? (chartless systems lists them)"
bad "equilibria, a misspelled system: the same message" "" equilibria --system chian
says "unknown system (skat); did you mean skate? (chartless systems lists them)"
bad "sweep, a misspelled system: the same message" "" sweep --system skat --x Omega0=0:1:2
# issue 24: equilibria name what they refuse
printf 'manifold q : S2\nparameters g = 9.81\nlagrangian 1/2*dot(q'"'"', q'"'"') - g*q.z\nequilibrium down = q: [0, 0, -1]\nequilibrium side = q: [1, 0, 0]\n' > "$T/side.model"
says "equilibrium 1, side, is not a zero of the field at these parameters ($T/side.model)"
bad "equilibria, a declared equilibrium that is none: its name" "" equilibria --model "$T/side.model"
says "the linearization takes states of at most 1000 numbers (this one has 600000) (chain)"
bad "equilibria --n 100000: the size limit, not out of memory" "" equilibria --system chain --n 100000
echo "1..$n"
