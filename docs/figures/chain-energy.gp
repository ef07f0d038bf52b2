# Relative energy error |E(t) - E(0)| / |E(0)| of the double spherical
# pendulum (chartless simulate --system chain --n 2 --form omega, 53 bits,
# h = 0.01 for the fixed-step methods, tolerance 1e-10 for the adaptive
# ones) for every integrator, on a log scale: classical ODE methods on the
# left, the Lie group methods of NFOLD on the right. Input: DIR/chain-M.csv
# from tools/figures (energy is the column after the 12 state components).
#   gnuplot -e "dir='build/figures'; out='chain-energy.png'" docs/figures/chain-energy.gp
if (!exists("dir")) dir = 'build/figures'
if (!exists("out")) out = dir.'/chain-energy.png'
set terminal pngcairo size 1000,460 font ",11" noenhanced
set output out
set datafile separator ","
set datafile columnheaders
ecol = 14
left = "rk4 rkf78 gauss gbs"
right = "lie-euler rkmk4 cf4 rkmk45"
label(m) = m eq "rk4" ? "RK4, h = 0.01" : m eq "rkf78" ? "RKF 7(8), tol 1e-10" : \
           m eq "gauss" ? "Gauss-Legendre 2 stages, h = 0.01" : m eq "gbs" ? "GBS extrapolation, tol 1e-10" : \
           m eq "lie-euler" ? "Lie-Euler, h = 0.01" : m eq "rkmk4" ? "RKMK4, h = 0.01" : \
           m eq "cf4" ? "CF4 (commutator-free), h = 0.01" : "RKMK 4(5), tol 1e-10"
# colour and dash of each method, the same in every figure
colour(m) = m eq "rk4" ? "#9400d3" : m eq "rkf78" ? "#009e73" : m eq "gauss" ? "#56b4e9" : \
            m eq "gbs" ? "#e69f00" : m eq "lie-euler" ? "#d55e00" : m eq "rkmk4" ? "#0072b2" : \
            m eq "cf4" ? "#cc0000" : "#000000"
dash(m) = m eq "cf4" ? 2 : 1
file(m) = dir.'/chain-'.m.'.csv'
do for [m in left." ".right] {
    stats file(m) every ::0::0 using ecol name "E0_".(m eq "lie-euler" ? "lieeuler" : m) nooutput
}
e0(m) = value("E0_".(m eq "lie-euler" ? "lieeuler" : m)."_min")
set logscale y
set format y "1e%L"
set yrange [1e-17:1e3]
set xrange [0:50]
set xlabel "t (s)"
set ylabel "|E(t) - E(0)| / |E(0)|"
set grid
set key bottom right box opaque font ",10" spacing 1.1
set multiplot layout 1,2 title "Double spherical pendulum, m = l = 1, g = 9.81 m/s^2: energy error, 53 bits"
set title "ODE integrators on the (q, omega) form"
plot for [i=1:words(left)] file(word(left, i)) using 1:(abs(column(ecol) - e0(word(left, i))) / abs(e0(word(left, i)))) \
     with lines linewidth 1.3 linecolor rgb colour(word(left, i)) dashtype dash(word(left, i)) title label(word(left, i))
set title "Lie group integrators (NFOLD)"
plot for [i=1:words(right)] file(word(right, i)) using 1:(abs(column(ecol) - e0(word(right, i))) / abs(e0(word(right, i)))) \
     with lines linewidth 1.3 linecolor rgb colour(word(right, i)) dashtype dash(word(right, i)) title label(word(right, i))
unset multiplot
