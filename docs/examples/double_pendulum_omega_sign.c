/*
 * A wrong solution: the gravity term of [S2 (40)] with the wrong sign, as
 * happens when −∂U/∂q is taken as +∂U/∂q. `chartless grade` reports the ω̇
 * components wrong at every random state while q̇ agrees to rounding; at the
 * hanging equilibrium (where gravity exerts no torque) everything agrees,
 * which is itself a hint that the error is in a term that vanishes there.
 * It is the correct solution with that one sign flipped (GRAVITY_SIGN of
 * assignments/first_assignment/solution/chain_pi.c, which it includes).
 */
#define GRAVITY_SIGN (-1)
#include "double_pendulum_omega_correct.c"
