# The precision ladder of the oracle (`make figures`): for each check, the
# largest discrepancy at working precision p measured in units of 2^(1-p),
# i.e. log2(discrepancy) + p - 1, drawn by the first part of the check's
# name with its own colour and marker (readable in grey too). Rounding keeps a check on a flat line below log2 of its condition
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
# Dark colours (no yellow) and a marker of their own for each group.
set linetype 1 lc rgb "#1b9e77"
set linetype 2 lc rgb "#d95f02"
set linetype 3 lc rgb "#7570b3"
set linetype 4 lc rgb "#e7298a"
set linetype 5 lc rgb "#66a61e"
set linetype 6 lc rgb "#a6761d"
set linetype 7 lc rgb "#555555"
set linetype 8 lc rgb "#1f78b4"
set linetype cycle 8
markers = "7 5 9 11 13 2 3 6"
marker(g) = word(markers, (int(g) - 1) % 8 + 1) + 0
groups = system("sed -n 's/^# groups: //p' '".data."'")
plot for [i=0:nblocks-1] data index i using 1:($2 + $1 - 1):(marker($4)):4 with linespoints \
         linewidth 0.6 pointtype variable pointsize 0.8 linecolor variable notitle, \
     for [g=1:words(groups)] NaN with linespoints linewidth 0.6 pointtype marker(g) pointsize 0.8 linecolor g title word(groups, g), \
     0 with lines dashtype 2 linecolor rgb "black" title "2^(1-p)"
