/*
 * MODEL.ec.NAME of a model that is a system: the Energy–Casimir test
 * (cl_system_energy_casimir(), as `chartless stability --model`) at the
 * declared equilibrium NAME in every form, with the constraints of the
 * state and, at a relative equilibrium, the declared invariants as Casimirs
 * (those whose gradient annihilates its symmetry directions), in the
 * forms that carry velocities (qdot, omega; ROmega, RRdot; the first form
 * of a Hamiltonian model): the energy of a momentum form goes through the
 * Newton-inverted Legendre map, whose Richardson derivatives do not settle.
 *
 *   - the equilibrium is a critical point of the energy plus a combination
 *     of the constraints and Casimirs: |DE + Σ c_j DC_j| vanishes to the
 *     working precision, relative to max(1, |DE|), in every form;
 *   - the inertia of the Hessian restricted to the level set (which
 *     decides the verdict) is the same in every form: it does not depend on
 *     the coordinates (Sylvester's law), so a form whose energy, constraint
 *     or invariant is wrong shows as a different inertia.
 *
 * A model with a force or with L depending on t has no conserved energy
 * and no such row. The table is model_rows.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "energy_casimir.h"
#include "model_ext.h"
#include "model_rows.h"
#include "model_rows_kit.h"

#if CL_T == CL_MPFR

/* A form that carries velocities (its energy needs no Legendre inversion) of a Lagrangian model. */
static int velocity_form(const char *name)
{
    static const char *const vel[] = {"qdot", "omega", "ROmega", "RRdot"};
    if (cl_model_oracle_model()->ham) return 0;
    for (size_t i = 0; i < sizeof vel / sizeof *vel; i++)
        if (!strcmp(name, vel[i])) return 1;
    return 0;
}

static int ec_row(cl_check_result *res, cl_prec_t prec, int k)
{
    const cl_system *s = cl_model_oracle_system();
    cl_check_begin(res);
    if (!s) return CL_EPARAM;
    cl_params p;
    cl_sys_error e;
    int st = cl_params_parse(&p, s->params, 0, NULL, NULL, prec, &e);
    if (st) return st;
    size_t N = CL_EC_NMAX;
    mpfr_ptr w = cl_rvec_new_mp(N + N * N + N, prec);
    int *which = calloc(64, sizeof *which), in0[3] = {0, 0, 0};
    if (!w || !which) st = CL_ENOMEM;
    for (int f = 0; s->forms[f] && !st; f++) {
        if (f && !velocity_form(s->forms[f])) continue;
        cl_ec_report rep;
        int ncas = 0;
        st = cl_system_energy_casimir(s, &p, prec, f, k, &rep, w, w + N, w + N + N * N, &ncas, which, &e);
        if (st) {
            snprintf(res->note, sizeof res->note, "form %s: %.150s", s->forms[f], e.what);
            break;
        }
        cl_check_worst(res, rep.log2_residual, "form %s: |DE + sum c_j DC_j| with %d Casimir%s", s->forms[f], ncas, ncas == 1 ? "" : "s");
        int in[3] = {rep.npos, rep.nneg, rep.nzero};
        if (!f) for (int a = 0; a < 3; a++) in0[a] = in[a];
        else if (in[0] != in0[0] || in[1] != in0[1] || in[2] != in0[2])
            cl_check_worst(res, INFINITY, "form %s: inertia (%d, %d, %d) of the restricted Hessian against (%d, %d, %d) in form %s",
                           s->forms[f], in[0], in[1], in[2], in0[0], in0[1], in0[2], s->forms[0]);
    }
    free(which);
    cl_rvec_free_mp(w);
    cl_params_free(&p);
    return st;
}

#define EC_ROW(K) int cl_model_ext_row_ec##K(cl_check_result *res, cl_prec_t prec) { return ec_row(res, prec, K); }
EC_ROW(0) EC_ROW(1) EC_ROW(2) EC_ROW(3) EC_ROW(4) EC_ROW(5) EC_ROW(6) EC_ROW(7)
#endif
