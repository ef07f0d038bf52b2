#!/bin/sh
# make install into a staging directory, then build a user program against
# the installed headers and library through pkg-config, and run it.
B=${BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "1..5"
make -s install B="$B" DESTDIR="$T" PREFIX=/usr > "$T/log" 2>&1
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
for h in chartless_base.h check.h system.h $(sed -n 's/^header[[:space:]]*//p' papers/*/paper.def); do
    printf '#include <chartless/%s>\nint main(void) { return 0; }\n' "$h" > "$T/alone.c"
    ${CC:-cc} -Wall -Wextra -Werror "$T/alone.c" -I"$T/usr/include" -c -o "$T/alone.o" 2>> "$T/log" || bad="$bad $h"
done
[ -z "$bad" ]; r=$?; echo "$([ $r = 0 ] || echo 'not ')ok 4 - each paper's public header, the core's, check.h and system.h compile alone"
[ -z "$bad" ] || echo "#   not alone:$bad"
internal=$(ls "$T/usr/include/chartless" | grep -E '_impl\.h$|^tap')
[ -z "$internal" ] && [ -e "$T/usr/include/chartless/prototypes_mp.h" ]; r=$?
echo "$([ $r = 0 ] || echo 'not ')ok 5 - make install installs the public headers only (no *_impl.h), with the per-kind prototypes"
