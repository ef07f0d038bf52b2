# Convergence of the Lie group integrators of NFOLD on the double spherical
# pendulum of chain-energy.gp: the error of the state (q1, q2, omega1,
# omega2; largest component) at t = 1 against the step h, both axes
# logarithmic, with the reference slopes h^1 (Lie-Euler) and h^4 (RKMK4,
# CF4) drawn through the second-smallest step. Runs at 256 bits against a
# 512-bit GBS reference; the differences were taken in exact decimal
# arithmetic by tools/figures, which writes one block per method.
#   gnuplot -e "data='lie-order.csv'; out='lie-order.png'" docs/figures/lie-order.gp
if (!exists("data")) data = 'build/figures/lie-order.csv'
if (!exists("out")) out = 'build/figures/lie-order.png'
set terminal pngcairo size 760,560 font ",11" noenhanced
set output out
set datafile separator ","
methods = system("sed -n 's/^# one block per method: //p' '".data."'")
title(m) = m eq "lie-euler" ? "Lie-Euler" : m eq "rkmk4" ? "RKMK4" : m eq "cf4" ? "CF4 (commutator-free)" : m
colour(m) = m eq "lie-euler" ? "#d55e00" : m eq "rkmk4" ? "#0072b2" : "#cc0000"
order(m) = m eq "lie-euler" ? 1 : 4
# anchor of each reference slope: the block's (h, error) at h = 2^-9
do for [i=1:words(methods)] {
    stats data index i-1 every ::7::7 using 1:2 name "A".i nooutput
}
ref(i, h) = value("A".i."_max_y") * (h / value("A".i."_max_x")) ** order(word(methods, i))
set logscale xy 2
set format x "2^{%L}"
set format x "2^%L"
set format y "1e%T"
set logscale y 10
set xrange [2**-10.5:2**-1.5]
set xlabel "step h (s)"
set ylabel "max |x(1) - x_ref(1)| over the state components"
set grid
set key bottom right box opaque
set title "Lie group integrators at 256 bits: error at t = 1 against h"
plot for [i=1:words(methods)] data index i-1 using 1:2 with linespoints pointtype 7 pointsize 1 \
         linewidth 1.5 linecolor rgb colour(word(methods, i)) title title(word(methods, i)), \
     for [i=1:words(methods)] ref(i, x) with lines dashtype 2 linecolor rgb colour(word(methods, i)) \
         title sprintf("slope %d", order(word(methods, i)))
