#!/bin/sh
# Every shipped model through the command line with its field from the
# graph (model/field/field_compiled.c): S¹, Rᵏ and S² products, SO(3) and SE(3)
# (heavy-top, quadrotor-load, two-bodies), Hamiltonians (heavy-top-hamiltonian,
# henon-heiles, spring-hamiltonian) and constrained models (sleigh,
# rolling-disk, rod-pendulum, skate). From the state test_simulate_taylor.sh
# gives each model, simulate to t = 1/8 (the default integrator, no
# estimate) with CHARTLESS_COMPILE_AFTER=0 compiles the field at once: one
# new object in a fresh cache, no warning on stderr; its CSV is the one of
# simulate --interpreted byte for byte at 53 and at 256 bits; the run at
# 256 bits loads the object compiled at 53 (one object per model, both back
# ends in it). Each model has a cache of its own: two models with the same
# equations (henon-heiles and its Lagrangian twin) share one object.
. tests/model_cli.sh
case $C in /*) ;; *) C=$(pwd)/$C ;; esac
R="0.36 0.48 -0.8  -0.8 0.6 0  0.48 0.64 0.6" I="1 0 0  0 1 0  0 0 1"
# The states of test_simulate_taylor.sh, one per shipped model (NAME|STATE).
sed -n '/^done <<EOF_STATES$/,/^EOF_STATES$/p' tests/test_simulate_taylor.sh | sed '1d;$d' > "$T/states"
count=$(wc -l < "$T/states")
echo "1..$((count + 1))"
unset CHARTLESS_COMPILE_AFTER
objects() { ls "$CHARTLESS_CACHE" 2>/dev/null | grep -c '[.]so$'; }

# sim NAME STATE BITS [ARG...]: simulate the model into $T/out, stderr into $T/err.
sim() {
    name=$1 state=$2 bits=$3
    shift 3
    eval "printf '%s\n' \"$state\"" | "$C" simulate --model "models/$name.model" --bits "$bits" --t 0.125 --estimate none "$@" \
        > "$T/out" 2> "$T/err"
}

while IFS='|' read -r name state; do
    good=0 why=""
    export CHARTLESS_CACHE="$T/cache/$name"
    for bits in 53 256; do
        before=$(objects)
        sim "$name" "$state" $bits --interpreted && mv "$T/out" "$T/want" || { good=1 why="$why, --interpreted failed at $bits"; }
        CHARTLESS_COMPILE_AFTER=0 sim "$name" "$state" $bits || { good=1 why="$why, the compiled run failed at $bits"; }
        # (the progress lines of a run past 2 s on a loaded machine are no failure)
        ! grep -v '^simulate: ' "$T/err" > "$T/said" || { good=1 why="$why, stderr at $bits: $(head -1 "$T/said")"; }
        [ "$(wc -l < "$T/out")" -gt 2 ] && cmp -s "$T/out" "$T/want" || { good=1 why="$why, the CSVs differ at $bits"; }
        want=$((before + 1)); [ $bits = 256 ] && want=$before
        [ "$(objects)" = $want ] || { good=1 why="$why, $(objects) objects in the cache after the run at $bits (want $want)"; }
        rows=$(wc -l < "$T/want")
    done
    t $good "$name: compiled at once, the CSV of --interpreted byte for byte at 53 and 256 bits ($rows rows at 256)$why"
done < "$T/states"

all=$(ls "$T"/cache/*/*.so 2>/dev/null | wc -l)
[ "$count" = "$(ls models/*.model | wc -l)" ] && [ "$all" = "$count" ]
t $? "every shipped model ($count states, $(ls models/*.model | wc -l) models) compiled: $all objects"
