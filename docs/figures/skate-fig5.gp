# SKATE Fig. 5: the controlled pendulum skate (44) with its rotor and the
# control law (53) (m = 3 kg, J = (0.005, 0.0025, 0.0025) kg m^2,
# sigma = -1e-5), 0 <= t <= 10, from the same initial state (59). Input:
# the CSV of `chartless reproduce skate-fig5` (t, Omega, Y, Gamma, rotor
# rate, control torque); event: the lowest Gamma3 the command located.
#   gnuplot -e "data='skate-fig5.csv'; event='0.9919'; out='skate-fig5.png'" docs/figures/skate-fig5.gp
if (!exists("data")) data = 'build/figures/skate/skate-fig5.csv'
if (!exists("out")) out = 'build/figures/skate-fig5.png'
if (!exists("event")) event = ''
set terminal pngcairo size 1050,760 font ",11" enhanced
set output out
set datafile separator ","
set datafile columnheaders
set grid
set xlabel "t (s)"
set xrange [0:10]
set key top right box opaque horizontal spacing 1.4
set multiplot layout 2,2 title "Controlled pendulum skate (44), control (53), SKATE Fig. 5: it stays upright"
set title "body angular velocity"
set ylabel "{/Symbol W} (rad/s)"
set yrange [-1.5:1.9]
plot data using 1:2 with lines linewidth 1.3 linecolor rgb "#0072b2" title "{/Symbol W}_1", \
     data using 1:3 with lines linewidth 1.3 linecolor rgb "#009e73" title "{/Symbol W}_2", \
     data using 1:4 with lines linewidth 1.3 linecolor rgb "#d55e00" title "{/Symbol W}_3"
set title "velocity of the contact point, body frame"
set ylabel "Y (m/s)"
set yrange [-0.1:1.25]
plot data using 1:5 with lines linewidth 1.3 linecolor rgb "#0072b2" title "Y_1", \
     data using 1:6 with lines linewidth 1.3 linecolor rgb "#009e73" title "Y_2", \
     data using 1:7 with lines linewidth 1.3 linecolor rgb "#d55e00" dashtype 2 title "Y_3"
set title sprintf("vertical direction in the body frame (lowest {/Symbol G}_3 = %s)", event eq '' ? '?' : event)
set ylabel "{/Symbol G}"
set yrange [-0.2:1.25]
plot data using 1:8 with lines linewidth 1.3 linecolor rgb "#0072b2" title "{/Symbol G}_1", \
     data using 1:9 with lines linewidth 1.3 linecolor rgb "#009e73" title "{/Symbol G}_2", \
     data using 1:10 with lines linewidth 1.3 linecolor rgb "#d55e00" title "{/Symbol G}_3"
set title "rotor: rate and control torque"
set ylabel "rotor rate d{/Symbol q}/dt (rad/s)"
set y2label "control torque u (N m)"
set yrange [-800:1000]
set y2range [-40:50]
set ytics nomirror
set y2tics
plot data using 1:11 with lines linewidth 1.3 linecolor rgb "#cc79a7" title "d{/Symbol q}/dt", \
     data using 1:12 axes x1y2 with lines linewidth 1.3 linecolor rgb "#555555" title "u"
unset multiplot
