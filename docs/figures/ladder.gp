# The precision ladder of the oracle (`make figures`): for each check, the
# largest discrepancy at working precision p measured in units of 2^(1-p),
# i.e. log2(discrepancy) + p - 1. Rounding keeps a check on a flat line
# below log2 of its condition factor; a wrong equation has a discrepancy of
# fixed size and climbs with slope 1. Input from tools/ladder-csv.
#   gnuplot -e "data='ladder.csv'; out='ladder.png'" docs/figures/ladder.gp
if (!exists("data")) data = 'build/figures/ladder.csv'
if (!exists("out")) out = 'build/figures/ladder.png'
set terminal pngcairo size 900,560 font ",11" noenhanced
set output out
set datafile separator ","
stats data using 1 nooutput
nblocks = STATS_blocks
set key outside right top font ",9"
set xlabel "working precision p (bits)"
set ylabel "log2 of the discrepancy in units of 2^(1-p)"
set xrange [0:1100]
set xtics (53, 113, 256, 1024)
set yrange [-16:16]
set grid
plot for [i=0:nblocks-1] data index i using 1:($2 + $1 - 1) with linespoints pointtype 7 pointsize 0.8 title columnheader(1), \
     0 with lines dashtype 2 linecolor rgb "black" title "one unit 2^(1-p)"
