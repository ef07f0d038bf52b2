#!/bin/sh
# make install into a staging directory, then build a user program against
# the installed headers and library through pkg-config, and run it.
B=${BUILD:-build}
T=$(mktemp -d)
# One make install at a time: each rewrites $B/chartless.pc for its PREFIX
# (python/tests/test_install.py installs too, under the same lock).
trap 'rm -rf "$T"' EXIT
echo "1..13"
flock "$B/.install.lock" make -s install B="$B" DESTDIR="$T" PREFIX=/usr > "$T/log" 2>&1
r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 1 - make install DESTDIR=... PREFIX=/usr"
cat > "$T/user.c" <<'EOC'
#include <chartless/chartless.h>
#include <stdio.h>
int main(void)
{
    mpfr_ptr q = cl_rvec_new_mp(3, 256), w = cl_rvec_new_mp(3, 256), v = cl_rvec_new_mp(3, 256);
    mpfr_set_si(q + 2, -1, MPFR_RNDN);   /* q = -e3 */
    mpfr_set_si(w, 2, MPFR_RNDN);        /* w = 2 e1 */
    cl_v3_cross_mp(v, w, q);             /* qdot = w x q = 2 e2 */
    int ok = mpfr_zero_p(v) && mpfr_cmp_si(v + 1, 2) == 0 && mpfr_zero_p(v + 2);
    double a[3] = {0, 0, -1};
    ok = ok && cl_v3_check_unit_d(a, 4) == CL_OK;
    cl_rvec_free_mp(q); cl_rvec_free_mp(w); cl_rvec_free_mp(v);
    puts(ok ? "right" : "wrong");
    return !ok;
}
EOC
export PKG_CONFIG_PATH="$T/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$T"
${CC:-cc} "$T/user.c" $(pkg-config --cflags --libs chartless) -o "$T/user" 2>> "$T/log"
r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 2 - a user program builds with pkg-config --cflags --libs chartless"
out=$(LD_LIBRARY_PATH="$T/usr/lib" "$T/user" 2>&1)
[ "$out" = right ]; r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 3 - it runs against the installed shared library (w x q at 256 bits)"
[ $r = 0 ] || sed 's/^/# /' "$T/log"
# Each public header stands alone in the installed tree; no internal one is installed.
bad=""
for h in chartless_base.h check.h system.h model.h field.h $(sed -n 's/^header[[:space:]]*//p' papers/*/paper.def); do
    printf '#include <chartless/%s>\nint main(void) { return 0; }\n' "$h" > "$T/alone.c"
    ${CC:-cc} -Wall -Wextra -Werror "$T/alone.c" -I"$T/usr/include" -c -o "$T/alone.o" 2>> "$T/log" || bad="$bad $h"
done
[ -z "$bad" ]; r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 4 - each paper's public header, the core's, check.h, system.h, model.h and field.h compile alone"
[ -z "$bad" ] || echo "#   not alone:$bad"
internal=$(ls "$T/usr/include/chartless" | grep -E '_impl\.h$|^tap')
[ -z "$internal" ] && [ -e "$T/usr/include/chartless/prototypes_mp.h" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 5 - make install installs the public headers only (no *_impl.h), with the per-kind prototypes"
# A real install under a prefix of its own, and the examples built against
# it through pkg-config as a user would: no LD_LIBRARY_PATH (the run path).
flock "$B/.install.lock" make -s install B="$B" PREFIX="$T/prefix" > "$T/log2" 2>&1 && cp -r examples "$T/examples" &&
    env -u PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig" make -s -C "$T/examples" CC="${CC:-cc}" > "$T/log3" 2>&1
r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 6 - make install PREFIX=DIR, then examples/ builds with pkg-config (one source, both kinds)"
[ $r = 0 ] || sed 's/^/# /' "$T/log2" "$T/log3"
d=$("$T/examples/double_pendulum_d" 2>&1); m=$("$T/examples/double_pendulum_mp" 256 2>&1)
# Energy change of Gauss-Legendre s = 4, h = 1/256, t = 2: rounding in double
# (2^-52 here), the method's error at 256 bits; both far below 2^-40.
e_d=$(echo "$d" | sed -n 's/.*status 0,.*(2^\(-[0-9.]*\))$/\1/p'); e_m=$(echo "$m" | sed -n 's/.*status 0,.*(2^\(-[0-9.]*\))$/\1/p')
[ -n "$e_d" ] && [ -n "$e_m" ] && awk -v a="$e_d" -v b="$e_m" 'BEGIN { exit !(a < -40 && b < -40) }'; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 7 - the examples run without LD_LIBRARY_PATH and keep the energy to 2^-40 in double and at 256 bits"
[ $r = 0 ] || printf '# %s\n# %s\n' "$d" "$m"
# The public verdict: the hand-derived spring field is rounding on the
# ladder, each rung within the tolerance 64·2^(1-p), and the flipped sign a mismatch.
out=$("$T/examples/ladder_compare" 2>&1); r=$?; echo "$out" > "$T/lc.out"
[ $r = 0 ] && [ "$(echo "$out" | grep -c 'verdict: rounding')" = 1 ] && [ "$(echo "$out" | grep -c 'verdict: mismatch')" = 1 ] &&
    [ "$(echo "$out" | sed -n '2,5p' | grep -c 'above')" = 0 ] && [ "$(echo "$out" | sed -n '8,11p' | grep -c 'above')" = 4 ] &&
    awk '/^\$ \.\/ladder_compare$/ { on = 1; next } on && /^```/ { exit } on' docs/own_derivation.md | cmp -s - "$T/lc.out"; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 8 - examples/ladder_compare: cl_ladder_compare() judges a hand derivation rounding, the flipped sign a mismatch, above tolerance at every rung, as docs/own_derivation.md shows"
[ $r = 0 ] || echo "$out" | sed 's/^/# /'
# The installed command from a folder of its own: the quick oracle's rows
# that read the shipped models (embedded in the library; the other rows read
# no file and run in build/tests/test_checks), and the models installed under
# share/chartless for a user to read and copy.
mkdir -p "$T/elsewhere"
rows='s2.model.*,emb.model.*,model.engine.*'
nrows=$(cd "$T/elsewhere" && "$T/prefix/bin/chartless" oracle --quick --check "$rows" --list | wc -l)
out=$(cd "$T/elsewhere" && "$T/prefix/bin/chartless" oracle --quick --check "$rows" -j 2 2>&1); r=$?
[ $r = 0 ] && [ "$nrows" -ge 20 ] && echo "$out" | grep -Eq "^$nrows passed, 0 failed$"
r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 9 - the installed chartless oracle --quick, run from a folder without models/, passes the $nrows rows of the shipped models ($(echo "$out" | tail -1))"
[ $r = 0 ] || echo "$out" | grep -E 'mismatch|error|failed' | sed 's/^/# /'
missing=""
for f in models/*.model; do cmp -s "$f" "$T/prefix/share/chartless/$f" || missing="$missing $f"; done
[ -z "$missing" ] && (cd "$T/elsewhere" && "$T/prefix/bin/chartless" oracle --model "$T/prefix/share/chartless/models/spring.model" --bits 53,113 > /dev/null)
r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 10 - make install puts models/ in PREFIX/share/chartless/models, and oracle --model runs one from there"
[ -z "$missing" ] || echo "#   not installed:$missing"
# No control character in any installed header (the generated chartless.h
# once began "/** <form feed>ile" from echo's \f): od's bytes 00-08, 0b-1f, 7f.
bad=""
for h in "$T"/usr/include/chartless/*.h; do
    od -An -tx1 -v "$h" | tr ' ' '\n' | grep -qE '^(0[0-8bcdef]|1[0-9a-f]|7f)$' && bad="$bad ${h##*/}"
done
[ -z "$bad" ] && [ -n "$(ls "$T"/usr/include/chartless/*.h)" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 11 - no installed header holds a control character (od -tx1: only tab and newline below 0x20)"
[ -z "$bad" ] || echo "#   control characters in:$bad"
# Only prefixed macros: every #define of an installed header, reached through
# chartless.h, starts with CL_, cl_ or CHARTLESS (as MPFR's with mpfr_/MPFR_).
leaked=""
for p in "" -DCL_PREC=CL_DOUBLE -DCL_PREC=CL_MPFR; do
    leaked="$leaked$(printf '#include <chartless/chartless.h>\n' | ${CC:-cc} $p -E -dD -I"$T/usr/include" -x c - 2>> "$T/log" |
        awk '/^# [0-9]+ "/ { f = $3 } /^#define / && f ~ /include\/chartless\// { split($2, a, "("); print a[1] }' |
        grep -Ev '^(CL_|cl_|CHARTLESS)' | sort -u | tr '\n' ' ')"
done
n=$(printf '#include <chartless/chartless.h>\n' | ${CC:-cc} -E -dD -I"$T/usr/include" -x c - 2>/dev/null | grep -c '^#define CL_')
[ -z "$leaked" ] && [ "$n" -gt 20 ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 12 - chartless.h defines only prefixed macros (CL_, cl_, CHARTLESS; $n CL_ seen), with CL_PREC unset, double or MPFR"
[ -z "$leaked" ] || echo "#   unprefixed: $leaked"
# A program with its own real_t, rptr, r_add and v3_dot, against the installed headers.
bad=""
for p in "" -DCL_PREC=CL_MPFR; do
    ${CC:-cc} -Wall -Wextra -Werror $p tests/test_public_header.c -I"$T/usr/include/chartless" -Icheck \
        $(pkg-config --cflags --libs chartless) -o "$T/public" 2>> "$T/log" &&
        LD_LIBRARY_PATH="$T/usr/lib" "$T/public" > "$T/public.out" 2>&1 && ! grep -q '^not ok' "$T/public.out" || bad="$bad ${p:-plain}"
done
[ -z "$bad" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 13 - tests/test_public_header.c (its own real_t, r_add, v3_dot) builds and passes against the installed headers"
[ -z "$bad" ] || { echo "#   failed:$bad"; tail -20 "$T/log" | sed 's/^/# /'; }
