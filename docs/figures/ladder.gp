# The precision ladder of the oracle (`make figures`): for each check, the
# largest discrepancy at working precision p measured in units of 2^(1-p),
# i.e. log2(discrepancy) + p - 1, coloured by the first part of the check's
# name. Rounding keeps a check on a flat line below log2 of its condition
# factor; a wrong equation has a discrepancy of fixed size and climbs with
# slope 1 (off the top of the plot). Input from tools/ladder-csv.
#   gnuplot -e "data='ladder.csv'; out='ladder.png'" docs/figures/ladder.gp
if (!exists("data")) data = 'build/figures/ladder.csv'
if (!exists("out")) out = 'build/figures/ladder.png'
set terminal pngcairo size 900,560 font ",11" noenhanced
set output out
set datafile separator ","
stats data using 1 nooutput
nblocks = STATS_blocks
set key outside right top box
set xlabel "working precision p (bits)"
set ylabel "log2 of the largest discrepancy, in units of 2^(1-p)"
set logscale x 2
set xrange [45:1200]
set xtics (53, 113, 256, 1024)
set yrange [-16:16]
set grid
groups = system("sed -n 's/^# groups: //p' '".data."'")
plot for [i=0:nblocks-1] data index i using 1:($2 + $1 - 1):4 with linespoints \
         pointtype 7 pointsize 0.7 linecolor variable notitle, \
     for [g=1:words(groups)] NaN with linespoints pointtype 7 linecolor g title word(groups, g), \
     0 with lines dashtype 2 linecolor rgb "black" title "2^(1-p)"
