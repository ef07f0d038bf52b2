# SKATE Fig. 4: the uncontrolled pendulum skate (38) from the initial state
# (59) (phi0 = 0.1; m = 2 kg, l = 0.8 m, g = 9.8 m/s^2, I = (0.35, 0.35,
# 0.004) kg m^2) until it falls, Gamma3 = 0. Input: the CSV of
# `chartless reproduce skate-fig4` (t, Omega, Y, Gamma, ...); event: the
# fall time the command located, marked by a vertical line.
#   gnuplot -e "data='skate-fig4.csv'; event='1.025'; out='skate-fig4.png'" docs/figures/skate-fig4.gp
if (!exists("data")) data = 'build/figures/skate/skate-fig4.csv'
if (!exists("out")) out = 'build/figures/skate-fig4.png'
if (!exists("event")) event = ''
set terminal pngcairo size 1050,400 font ",11" enhanced
set output out
set datafile separator ","
set datafile columnheaders
set grid
set xlabel "t (s)"
set key top left box opaque spacing 1.4
set xrange [0:1.1]
if (event ne '') {
    set arrow 1 from first event+0, graph 0 to first event+0, graph 1 nohead dashtype 2 linecolor rgb "gray30"
}
set multiplot layout 1,3 title sprintf("Uncontrolled pendulum skate (38), SKATE Fig. 4: it falls, {/Symbol G}_3 = 0 at t = %s s", event eq '' ? '?' : event)
set title "body angular velocity"
set ylabel "{/Symbol W} (rad/s)"
plot data using 1:2 with lines linewidth 1.5 linecolor rgb "#0072b2" title "{/Symbol W}_1", \
     data using 1:3 with lines linewidth 1.5 linecolor rgb "#009e73" title "{/Symbol W}_2", \
     data using 1:4 with lines linewidth 1.5 linecolor rgb "#d55e00" dashtype 2 title "{/Symbol W}_3"
set title "velocity of the contact point, body frame"
set ylabel "Y (m/s)"
set yrange [-0.1:1.2]
plot data using 1:5 with lines linewidth 1.5 linecolor rgb "#0072b2" title "Y_1", \
     data using 1:6 with lines linewidth 1.5 linecolor rgb "#009e73" title "Y_2", \
     data using 1:7 with lines linewidth 1.5 linecolor rgb "#d55e00" dashtype 2 title "Y_3"
set title "vertical direction in the body frame"
set ylabel "{/Symbol G}"
set yrange [-0.05:1.05]
set key center left spacing 1.4
plot data using 1:8 with lines linewidth 1.5 linecolor rgb "#0072b2" title "{/Symbol G}_1", \
     data using 1:9 with lines linewidth 1.5 linecolor rgb "#009e73" title "{/Symbol G}_2", \
     data using 1:10 with lines linewidth 1.5 linecolor rgb "#d55e00" title "{/Symbol G}_3"
unset multiplot
