# What the precision ladder sees, on one cross-check run by hand: the
# spherical pendulum's vector field computed by two chapters, EMB (3.5)
# (chartless rhs --system sphere) and S2 V (--system chain --n 1), at the
# same state, relative discrepancy in units of 2^(1-p) against the working
# precision p. Correct: both read g = 9.81 at working precision; they
# differ by rounding only and stay flat. Broken: one side is given the
# double nearest 9.81, the mistake of an inexact double literal in MPFR
# code; the error has a fixed size (about 2^-54) and, in these units,
# climbs with slope 1. Input from tools/figures: bits,correct,broken.
#   gnuplot -e "data='ladder-demo.csv'; out='ladder-demo.png'" docs/figures/ladder-demo.gp
if (!exists("data")) data = 'build/figures/ladder-demo.csv'
if (!exists("out")) out = 'build/figures/ladder-demo.png'
set terminal pngcairo size 820,520 font ",11" noenhanced
set output out
set datafile separator ","
set datafile columnheaders
set xtics 128
set xrange [0:1050]
set yrange [-40:1000]
set xlabel "working precision p (bits)"
set ylabel "log2 of the relative discrepancy, in units of 2^(1-p)"
set grid
set key top left box opaque
set title "One cross-check by hand: the spherical pendulum by EMB (3.5) and by S2 V\n(16 rungs from 53 to 1024 bits; a missing point: exact agreement)"
plot data using 1:2 with linespoints pointtype 7 linewidth 1.5 linecolor rgb "#009e73" \
         title "correct: g = 9.81 read at working precision on both sides", \
     data using 1:3 with linespoints pointtype 5 linewidth 1.5 linecolor rgb "#cc0000" \
         title "broken: g as a double literal on one side", \
     0 with lines dashtype 2 linecolor rgb "black" title "2^(1-p)"
