#!/bin/sh
# The pictures of --plot, through the one gnuplot driver (cli/plot.c): the
# scripts it runs are kept by a CHARTLESS_GNUPLOT wrapper and read here
# (panels, the columns they draw), the images checked with file(1), and
# the bodies of the 3-D picture compared with the chain's own sums
# l1 q1 + ... + lk qk from the CSV.
. tests/tap.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "1..0 # SKIP gnuplot is not installed (make check installs gnuplot-nox through tools/need as root)"
    exit 0
fi
echo "1..21"
# The wrapper: each script, and the data files it names, kept in $T/gp/N/.
mkdir -p "$T/gp"
cat > "$T/wrap" <<'EOF'
#!/bin/sh
[ -f "$1" ] || exec gnuplot "$@"
d="$KEEP/$(ls "$KEEP" | wc -l)"
mkdir -p "$d"
cp "$1" "$d/script.gp"
for f in $(grep -o "/tmp/chartless-[a-z]*-[A-Za-z0-9]*" "$1" | sort -u); do cp "$f" "$d/$(basename "$f" | cut -d- -f2)"; done
exec gnuplot "$1"
EOF
chmod +x "$T/wrap"
run() { rm -rf "$T/gp"; mkdir -p "$T/gp"; KEEP="$T/gp" CHARTLESS_GNUPLOT="$T/wrap" "$C" "$@"; }
# the panels of a script: the column ranges of its "plot for [c=A:B]" lines, as "A:B A:B ..."
ranges() { sed -n 's/^plot for \[c=\([0-9]*\):\([0-9]*\)\].*/\1:\2/p' "$1" | tr '\n' ' '; }
dims() { file "$1" | sed -n 's/.* \([0-9]*\) x \([0-9]*\).*/\1x\2/p'; }

# A chain of three links: 18 state components, six factors q1..q3, qdot1..qdot3.
S3="0.6 0 -0.8 0 0 -1 0 0.6 -0.8 0 1 0 0.5 0 0 1 0 0"
echo "$S3" | run simulate --system chain --n 3 --l 1,0.5,0.8 --t 1 --out "$T/c3.csv" --plot "$T/c3.png" 2> "$T/err"
t $? "simulate --plot on a 3-link chain runs"
[ -s "$T/c3.png" ] && [ "$(dims "$T/c3.png")" = 1120x930 ]
t $? "the PNG: two columns of three panels and the energy strip, 1120 x 930 ($(dims "$T/c3.png"))"
[ "$(ranges "$T/gp/0/script.gp")" = "2:4 5:7 8:10 11:13 14:16 17:19 24:24 " ]
t $? "every one of the 18 components drawn, a panel per factor, then the energy error (column 24): $(ranges "$T/gp/0/script.gp")"
grep -q "^set ylabel 'q2'" "$T/gp/0/script.gp" && grep -q "^set ylabel 'qdot3'" "$T/gp/0/script.gp" && grep -q "^set ylabel '|E-E0|/|E0|'" "$T/gp/0/script.gp"
t $? "the panels are labeled by factor (q2, qdot3) and the strip by the energy error"
[ "$(grep -c '^plot for \[j=0:2\]' "$T/gp/1/script.gp")" = 3 ] && [ "$(dims "$T/c3-phase.png")" = 1320x440 ]
t $? "the phase portrait: q_i against qdot_i, three panels ($(dims "$T/c3-phase.png"))"
[ -s "$T/c3-3d.png" ] && [ "$(dims "$T/c3-3d.png")" = 800x800 ] && grep -q '^splot for \[i=1:3\]' "$T/gp/2/script.gp"
t $? "the 3-D trajectory of the three masses as PNG"
# The masses: the last row of the bodies data is l1 q1 + l2 q2 + l3 q3 of the CSV's last row
# (the data carry 9 significant digits: 1e-8 of the chain's reach of 2.3).
python3 - "$T/c3.csv" "$T/gp/2/bodies" <<'EOF'
import sys
x = [float(v) for v in open(sys.argv[1]).read().split()[-1].split(",")[1:19]]
b = [float(v) for v in open(sys.argv[2]).read().split("\n")[-2].split()]
l = [1, 0.5, 0.8]
p, want = [0.0, 0.0, 0.0], [b[0]]
for k in range(3):
    p = [p[j] + l[k] * x[3 * k + j] for j in range(3)]
    want += p
sys.exit(not (len(b) == 10 and max(abs(u - v) for u, v in zip(b, want)) < 1e-8))
EOF
t $? "the bodies are the sums l1 q1 + ... + lk qk of the CSV's state, at the last row"
if gnuplot -e 'set terminal gif' >/dev/null 2>&1; then
    frames=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(b"\x21\xf9\x04"))' "$T/c3-3d.gif")
    # 100 frames evenly spaced in time; gnuplot's optimize merges the repeated ones of a short run
    file "$T/c3-3d.gif" | grep -q 'GIF image data' && grep -q '^do for \[f=1:100\]' "$T/gp/3/script.gp" &&
        [ "$frames" -gt 20 ] && grep -q 'c3-3d.gif' "$T/err"
    t $? "the animation: a GIF of 100 frames in time ($frames distinct), named on stderr"
else
    grep -q 'no animation' "$T/err"; t $? "no gif terminal: no animation, and stderr says so"
fi
[ "$(head -1 "$T/c3.csv" | cut -d, -f1-2)" = "t,q1.x" ] && [ "$(wc -l < "$T/c3.csv")" -gt 10 ]
t $? "the CSV is written to --out beside the pictures"

# The heavy top: R (9) and Omega (3) are two factors, one column; the body is its centre of mass l R axis.
R="1 0 0 0 0.8775825618903728 -0.479425538604203 0 0.479425538604203 0.8775825618903728 0 0 6"
echo "$R" | run simulate --system heavy-top --t 0.5 --plot "$T/top.png" > "$T/top.csv" 2> "$T/err"
t $? "simulate --plot on the heavy top runs"
[ "$(ranges "$T/gp/0/script.gp")" = "2:10 11:13 21:21 " ] && [ "$(dims "$T/top.png")" = 900x700 ]
t $? "heavy top: R and Omega in one column, the energy error below ($(ranges "$T/gp/0/script.gp"))"
python3 - "$T/top.csv" "$T/gp/1/bodies" <<'EOF'
import sys
x = [float(v) for v in open(sys.argv[1]).read().split()[-1].split(",")[1:10]]
b = [float(v) for v in open(sys.argv[2]).read().split("\n")[-2].split()]
want = [0.25 * x[3 * i + 2] for i in range(3)]   # l R e3 with l = 0.25, axis e3
sys.exit(not (len(b) == 4 and max(abs(u - v) for u, v in zip(b[1:], want)) < 1e-9))
EOF
t $? "the top's body is l R axis at the last row"
grep -q 'no phase portrait' "$T/err" && [ ! -e "$T/top-phase.png" ]
t $? "no phase portrait for (R, Omega), and stderr says why"

# A system without bodies: the spherical pendulum in angles, a phase portrait of theta and phi.
echo "1 0 0 1" | run simulate --system spherical --t 1 --plot "$T/sph.png" > /dev/null 2> "$T/err"
t $? "simulate --plot on the spherical pendulum in angles runs"
[ "$(ranges "$T/gp/0/script.gp")" = "2:2 3:3 4:4 5:5 8:8 " ] && [ "$(grep -c '^plot for \[j=0:0\]' "$T/gp/1/script.gp")" = 2 ]
t $? "four one-line panels, the phase portrait of theta and phi ($(ranges "$T/gp/0/script.gp"))"
grep -q 'no 3-D picture (spherical in form angles' "$T/err" && [ ! -e "$T/sph-3d.png" ]
t $? "no 3-D picture where the system does not say where its bodies are, and stderr says so"

# gnuplot failing: its message, exit 2, nothing written under the final names.
printf '#!/bin/sh\necho "line 1: this gnuplot always fails" >&2\nexit 1\n' > "$T/bad"
chmod +x "$T/bad"
echo "$S3" | CHARTLESS_GNUPLOT="$T/bad" "$C" simulate --system chain --n 3 --t 0.1 --out "$T/f.csv" --plot "$T/f.png" 2> "$T/err"
[ $? = 2 ] && grep -q 'this gnuplot always fails' "$T/err" && grep -q 'error: gnuplot failed to draw' "$T/err" &&
    [ -z "$(ls "$T" | grep '^f')" ]
t $? "gnuplot failing: its message, exit 2, no CSV, PNG or partial file left"

# sweep and reproduce draw through the same driver.
run sweep --system skate --x Omega0=0:10:6 --y asym=1:400:4 --plot "$T/map.png" > /dev/null
r=$?
[ $r = 0 ] && grep -q 'with image' "$T/gp/0/script.gp" && [ "$(sed -n '/^\$map << EOD/,/^EOD/p' "$T/gp/0/script.gp" | wc -l)" = 26 ]
t $? "sweep --plot: the map's 24 cells in the script, drawn as an image"
run reproduce skate-fig4 --out "$T/fig" > /dev/null
[ $? = 0 ] && [ "$(ranges "$T/gp/0/script.gp")" = "2:4 5:7 8:10 " ] && [ -s "$T/fig/skate-fig4.png" ]
t $? "reproduce skate-fig4: Omega, Y and Gamma, a panel each, through the driver"
# a file name gnuplot cannot quote, refused before any work
echo "$S3" | "$C" simulate --system chain --n 3 --t 0.1 --plot "$T/it's.png" > /dev/null 2>&1
[ $? = 2 ] && [ ! -e "$T/it's.png" ]
t $? "a --plot name with a quote: exit 2, nothing drawn"
# a picture beside it that could not be written (a directory in its place), refused before the run
mkdir "$T/d-3d.png"
echo "$S3" | "$C" simulate --system chain --n 3 --t 0.1 --out "$T/d.csv" --plot "$T/d.png" 2> "$T/err"
[ $? = 2 ] && grep -q "d-3d.png" "$T/err" && [ ! -e "$T/d.png" ] && [ ! -e "$T/d.csv" ]
t $? "FILE-3d.png a directory: exit 2 before the run, nothing written"
