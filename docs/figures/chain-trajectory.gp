# Paths of the double spherical pendulum of chain-energy.gp (same runs).
# Left: the two masses seen from above, x1 = q1 and x2 = q1 + q2 (l = 1),
# 0 <= t <= 10, and their heights over 0 <= t <= 20, from the
# Gauss-Legendre run (the other integrators draw the same curves to the eye).
#   gnuplot -e "dir='build/figures'; out='chain-trajectory.png'" docs/figures/chain-trajectory.gp
if (!exists("dir")) dir = 'build/figures'
if (!exists("out")) out = dir.'/chain-trajectory.png'
set terminal pngcairo size 1000,460 font ",11" noenhanced
set output out
set datafile separator ","
set datafile columnheaders
file(m) = dir.'/chain-'.m.'.csv'
upto(t, v, tmax) = t <= tmax ? v : NaN
set grid
set multiplot layout 1,2 title "Double spherical pendulum, m = l = 1, g = 9.81 m/s^2, q1 = (0.6, 0, -0.8), q2 = (0, 0.6, -0.8), w1 = (0, 1, 0), w2 = (2, 0, 0)"
set title "Seen from above, 0 <= t <= 10 s (Gauss-Legendre)"
set size ratio -1
set xlabel "x (m)"
set ylabel "y (m)"
set xrange [-1.2:1.2]
set yrange [-1.2:1.2]
set key outside below horizontal font ",10"
plot file("gauss") using (upto($1, $2, 10)):3 with lines linecolor rgb "#0072b2" title "mass 1 (q1)", \
     file("gauss") using (upto($1, $2 + $5, 10)):($3 + $6) with lines linecolor rgb "#d55e00" title "mass 2 (q1 + q2)", \
     "+" using (0):(0) every ::0::0 with points pointtype 7 pointsize 1 linecolor rgb "black" title "pivot"
set title "Heights of the masses (Gauss-Legendre)"
set rmargin 4
set size noratio
set xlabel "t (s)"
set ylabel "z (m)"
set xrange [0:20]
set yrange [-2:0]
set key default
set key inside top right vertical box opaque font ",10"
plot file("gauss") using 1:4 with lines linewidth 1.2 linecolor rgb "#0072b2" title "mass 1 (q1.z)", \
     file("gauss") using 1:($4 + $7) with lines linewidth 1.2 linecolor rgb "#d55e00" title "mass 2 (q1.z + q2.z)"
unset multiplot
