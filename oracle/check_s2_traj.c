/*
 * S2 III–V along trajectories: the four forms (q, q̇), (q, ω), (q, μ),
 * (q, π) of the double spherical pendulum integrated from one state with
 * the adaptive Gragg–Bulirsch–Stoer method (order growing with the
 * precision) end in the same state. The span is t = 5 up to 256 bits and
 * 5/16 above (about 13 s at 1024 bits), so that the row stays affordable;
 * the verdict needs only that the agreement follows the working precision.
 */
#include <math.h>
#include <stdio.h>
#include "oracle.h"
#include "s2_forms_common.h"

int CL_FN(check_s2_traj_forms)(cl_check_result *res, cl_prec_t prec)
{
    long den = prec <= 256 ? 1 : 16;
    res->log2_err = s2t_traj_forms(prec, 5, den);
    snprintf(res->note, sizeof res->note, "integrated to t = 5/%ld", den);
    return isnan(res->log2_err) ? CL_ENOCONV : CL_OK;
}

#if CL_PREC == CL_MPFR
int check_s2_traj_forms_d(cl_check_result *, cl_prec_t);
static const cl_check s2_traj_checks[] = {
    {.name = "s2.traj.forms", .chapter = "S2 III-IV", .tags = "[S2 (13),(19),(27),(36)]",
     .what = "final states of the four forms integrated by GBS (tol 2^(12-p)) from one state, carried to (q, qdot)",
     .cond = 0x1p20, .why = "each run's global error is about 2^12 units (its tolerance) times the growth of errors over the span, observed 2^10 to 2^12",
     .fn_d = check_s2_traj_forms_d, .fn_mp = check_s2_traj_forms_mp, .slow = 1},
};
CL_ORACLE_REGISTER(s2_traj_checks)
#endif
