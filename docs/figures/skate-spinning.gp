# Stability of the spinning equilibrium (41) of the pendulum skate by the
# Energy-Casimir method (SKATE App. A.1): the verdict of `chartless
# stability --equilibrium spinning` on a grid of the spin rate Omega0 and
# the inertia ratio rho = I2 / (I3 + m l^2) (m = 2 kg, l = 0.8 m,
# g = 9.8 m/s^2, I3 = 0.004 kg m^2; the verdict is even in Omega0), with the
# curve of (42), |Omega0| = sqrt(m g l / (I3 + m l^2 - I2)), and the
# thresholds found by the command's bisection (--threshold) on top.
# Inputs from tools/figures: data (rho, Omega0, verdict: 1 positive
# definite, 0 indefinite, -1 singular), thr (rho, Omega0), and the numbers
# mgl = m g l and J = I3 + m l^2.
#   gnuplot -e "data='skate-spinning.csv'; thr='skate-spinning-threshold.csv'; mgl='15.68'; J='1.284'; out='s.png'" docs/figures/skate-spinning.gp
if (!exists("data")) data = 'build/figures/skate-spinning.csv'
if (!exists("thr")) thr = 'build/figures/skate-spinning-threshold.csv'
if (!exists("out")) out = 'build/figures/skate-spinning.png'
if (!exists("mgl")) mgl = '15.68'
if (!exists("J")) J = '1.284'
mgl_ = real(mgl)
J_ = real(J)
set terminal pngcairo size 820,600 font ",11" enhanced
set output out
set datafile separator ","
set xlabel "inertia ratio {/Symbol r} = I_2 / (I_3 + m l^2)"
set ylabel "spin rate {/Symbol W}_0 (rad/s)"
set xrange [0.0125:1.2625]
set yrange [-0.1:12.1]
set cbrange [-1.5:1.5]
set palette defined (-1.5 "#bbbbbb", -0.5 "#bbbbbb", -0.5 "#f4c7b8", 0.5 "#f4c7b8", 0.5 "#b9e3c6", 1.5 "#b9e3c6")
unset colorbox
set key bottom right box opaque font ",10"
set samples 1000
set title "Spinning skate (41), m = 2 kg, l = 0.8 m, I_3 = 0.004 kg m^2:\nEnergy-Casimir Hessian restricted to the level set"
curve(r) = r < 1 ? sqrt(mgl_ / (J_ * (1 - r))) : NaN
plot data using 1:2:3 with image notitle, \
     NaN with boxes fillstyle solid linecolor rgb "#b9e3c6" title "positive definite: stable", \
     NaN with boxes fillstyle solid linecolor rgb "#f4c7b8" title "indefinite: test inconclusive", \
     curve(x) with lines linewidth 2 linecolor rgb "black" title "(42): |{/Symbol W}_0| = (m g l / (I_3 + m l^2 - I_2))^{1/2}", \
     thr using 1:2 with points pointtype 6 pointsize 1.3 linecolor rgb "#0072b2" title "threshold by bisection (chartless stability --threshold)", \
     "+" using (0.35 / J_):(curve(0.35 / J_)) every ::0::0 with points pointtype 9 pointsize 1.8 linecolor rgb "#cc0000" title "the paper's skate, I_2 = 0.35 kg m^2"
