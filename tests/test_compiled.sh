#!/bin/sh
# Compiled fields through the command line (rhs and simulate --model on
# chain2 at 113 bits, compiled at the first evaluation with
# CHARTLESS_COMPILE_AFTER=0, the cache a fresh folder): the compiled field
# prints what --interpreted prints, digit for digit; the compiler runs once
# (a CC that counts its runs) and the next run loads the cached object; a
# truncated cached object is compiled again; without a compiler
# (CC=/nonexistent, or a PATH without cc) and with a cache folder that
# cannot be made, the field is the interpreter's and stderr says why in one
# line; a plain rhs (no CHARTLESS_COMPILE_AFTER) never runs the compiler.
. tests/model_cli.sh
echo "1..14"
case $C in /*) ;; *) C=$(pwd)/$C ;; esac
REAL_CC=${CC:-cc}
cat > "$T/cc" <<EOF
#!/bin/sh
echo run >> "$T/cc.count"
exec $REAL_CC "\$@"
EOF
chmod +x "$T/cc"
runs() { if [ -f "$T/cc.count" ]; then wc -l < "$T/cc.count" | tr -d ' '; else echo 0; fi; }
M=models/chain2.model
STATE="0.6 0 0.8 0 0.6 -0.8 0.4 0.3 -0.3 0.25 0.4 0.3"
unset CHARTLESS_COMPILE_AFTER
export CHARTLESS_CACHE="$T/cache"

# field ARGS...: rhs of chain2 at STATE at 113 bits into $T/got, stderr into $T/err.
field() { echo "$STATE" | "$C" rhs --model $M --bits 113 "$@" > "$T/got" 2> "$T/err"; }

field --interpreted && cp "$T/got" "$T/want"
t $? "rhs --interpreted"
CC="$T/cc" field
t $? "a plain rhs"
[ "$(runs)" = 0 ] && [ ! -d "$T/cache" ] && cmp -s "$T/got" "$T/want"
t $? "a plain rhs (one evaluation) does not compile: the compiler ran $(runs) times"

export CHARTLESS_COMPILE_AFTER=0
CC="$T/cc" field && cmp -s "$T/got" "$T/want" && [ ! -s "$T/err" ]
t $? "compiled at once: the same digits as --interpreted, nothing on stderr"
[ "$(runs)" = 1 ] && [ "$(ls "$T/cache" | grep -c '[.]so$')" = 1 ] && [ "$(ls "$T/cache" | wc -l)" = 1 ]
t $? "the compiler ran once ($(runs)), one object in the cache and no temporary file left"
CC="$T/cc" field && cmp -s "$T/got" "$T/want" && [ "$(runs)" = 1 ]
t $? "a second run loads the cached object: the compiler ran $(runs) times in all"

obj=$(ls "$T/cache"/*.so)
head -c 1000 "$obj" > "$T/part" && cp "$T/part" "$obj"
CC="$T/cc" field && cmp -s "$T/got" "$T/want" && [ "$(runs)" = 2 ] && [ ! -s "$T/err" ]
t $? "a truncated cached object is compiled again (the compiler ran $(runs) times in all)"

CHARTLESS_CACHE="$T/cache-none" CC=/nonexistent/cc field && cmp -s "$T/got" "$T/want" &&
    [ "$(wc -l < "$T/err")" = 1 ] && grep -q "interpreted, not compiled: no C compiler (/nonexistent/cc" "$T/err"
t $? "CC=/nonexistent/cc: the interpreter's digits and one line: $(cat "$T/err")"
(unset CC; CHARTLESS_CACHE="$T/cache-path" PATH=/nonexistent field) && cmp -s "$T/got" "$T/want" &&
    [ "$(wc -l < "$T/err")" = 1 ] && grep -q "no C compiler (cc: " "$T/err"
t $? "PATH without cc: $(cat "$T/err")"
: > "$T/plain"
CHARTLESS_CACHE="$T/plain/sub" field && cmp -s "$T/got" "$T/want" &&
    [ "$(wc -l < "$T/err")" = 1 ] && grep -q "cannot write the cache folder $T/plain/sub (Not a directory)" "$T/err"
t $? "a cache folder that cannot be made: $(cat "$T/err")"
CC="printf" CHARTLESS_CACHE="$T/cache-fail" field && cmp -s "$T/got" "$T/want" &&
    [ "$(wc -l < "$T/err")" = 1 ] && grep -q "cannot be loaded\|compiler failed" "$T/err"
t $? "a compiler that makes no object: $(cat "$T/err")"

# simulate: the compiled field's trajectory is the interpreter's, digit for digit.
sim() { echo "$STATE" | "$C" simulate --model $M --bits 113 --t 0.5 --integrator rk4 --h 0.01 "$@"; }
sim --interpreted > "$T/sim-want" 2> "$T/err"
t $? "simulate --interpreted"
CC="$T/cc" sim > "$T/sim-got" 2> "$T/err" && [ ! -s "$T/err" ] && [ "$(wc -l < "$T/sim-got")" -gt 40 ]
t $? "simulate with the compiled field"
cmp -s "$T/sim-got" "$T/sim-want"
t $? "simulate: the compiled field's rows are the interpreted ones, digit for digit ($(wc -l < "$T/sim-got") rows)"
