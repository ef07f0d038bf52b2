# Shared by the command-line tests of model files (sourced, not run, from
# the top of the tree): the TAP line t and the command C (tests/tap.sh), a
# scratch folder T removed on exit, the refusal check bad, the conservation
# check conserved and the digit count digits, the model-against-system
# check agree.
. tests/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/cl-model-XXXXXX")
trap 'rm -rf "$T"' EXIT

# bad WANT STATE ARGUMENT...: rhs refuses STATE with exit 2, nothing on stdout, WANT in the first line of stderr.
bad() {
    want=$1; state=$2; shift 2
    out=$(printf '%s\n' "$state" | "$C" rhs "$@" 2>"$T/err")
    st=$?
    err=$(head -1 "$T/err")
    [ $st = 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -qF -- "$want"
    t $? "refused with '$want': $(printf '%s' "$err" | cut -c1-150)"
}

# conserved CSV NAME...: simulate's columns NAME... at the last row within 1e-20 of the first.
conserved() {
    python3 - "$@" <<'PY'
import sys
rows = [l.strip().split(',') for l in open(sys.argv[1])]
h = rows[0]
ok = len(rows) > 3
for name in sys.argv[2:]:
    k = h.index(name)
    ok = ok and abs(float(rows[-1][k]) - float(rows[1][k])) < 1e-20
sys.exit(0 if ok else 1)
PY
}

# digits A B: the largest |a - b| relative to max |b| as -log10 (digits agreed), from two files of numbers.
digits() {
    python3 - "$1" "$2" <<'PY'
import sys
from decimal import Decimal, getcontext
getcontext().prec = 400
a = open(sys.argv[1]).read().split(); b = open(sys.argv[2]).read().split()
if len(a) != len(b) or not a: print(0); sys.exit()
d = max(abs(Decimal(x) - Decimal(y)) for x, y in zip(a, b)); s = max(abs(Decimal(y)) for y in b)
print(400 if d == 0 else int(-(d / s).log10()))
PY
}

# agree STATE FORM MODEL [ARGUMENT...]: the same state through the model and through the
# named system $REF, in one form: at least 70 digits at 256 bits.
agree() {
    state=$1; form=$2; shift 2
    printf '%s\n' "$state" | "$C" rhs --bits 256 --form "$form" --model "$@" > "$T/m" 2>"$T/e1"
    s1=$?
    printf '%s\n' "$state" | "$C" rhs --bits 256 --form "$form" $REF > "$T/c" 2>"$T/e2"
    s2=$?
    d=$(digits "$T/m" "$T/c")
    [ $s1 = 0 ] && [ $s2 = 0 ] && [ "$d" -ge 70 ]
    t $? "rhs --model $* --form $form agrees with $REF to 70 digits at 256 bits (got $d)"
}
