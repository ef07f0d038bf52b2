# TAP for the shell tests, sourced by them from the top of the tree:
# t STATUS DESCRIPTION reports one test (STATUS 0 is ok), skip REASON a
# skipped one; B is the build folder, C the command (unless the test set it).
B=${BUILD:-build}
: "${C:=$B/chartless}"
n=0
t() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
