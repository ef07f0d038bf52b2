/*
 * The names of a field file (field.h), for a model of any kind and each of
 * its forms: the state's names in scope (the configuration of every factor,
 * then its velocity-like part by the form) and the blocks of dx/dt the file
 * gives, each as a textbook writes its left-hand side.
 *
 *   S¹, R¹, R³ factor x      x, and x' (qdot, omega) or p_x (p, pi); blocks x' and x'' or p_x'
 *   S² factor q              q, and q' (qdot), w_q, mu_q, pi_q; blocks q' and q'' or w_q' ...
 *                            (on (S²)ⁿ alone: w1, mu1, pi1, numbered in the order declared)
 *   SO(3) factor R (W)       R (a matrix), W (p_W in p, pi); blocks R' and W' (p_W');
 *                            on SO(3) alone also RRdot (R', block R'') and Rmu (mu, block mu')
 *   SE(3) factor R, x (W, V) R, x, W, V (p_W, p_V); blocks R', x', W', V'
 *   Hamiltonian models       the momenta as H names them (p_x, mu_q, Pi, P), the group velocities
 *                            Omega and V (Omega_R, V_x with more than one group factor)
 *   form dist (constraints)  the configuration, and the quasivelocities by the velocity each is (x');
 *                            blocks x' of every configuration and x'' of each quasivelocity (S¹ and R¹
 *                            factors: a quasivelocity that is a component of a vector is not named yet)
 *
 * In the forms whose velocity of x is x' (qdot), the block x' = x' is implied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "field.h"
#include "ham_prod.h"
#include "lagr_so3.h"
#include "model_ext.h"

/* What a form puts in the velocity part of a factor. */
enum velocity_kind { V_VEL, V_OMEGA, V_MOM, V_PI, V_RDOT, V_RMU, V_DIST, V_NONE };

/* The velocity kind of form \p form of a model of kind \p kind, by the form's name (every kind names its
   forms from this list; a form not in it has no field files yet). */
static int velocity_kind(const cl_model *m, const cl_model_kind *kind, int form)
{
    static const struct { const char *name; int vk; } known[] = {
        {"qdot", V_VEL}, {"omega", V_OMEGA}, {"mu", V_MOM}, {"p", V_MOM}, {"pi", V_PI},
        {"ROmega", V_VEL}, {"RRdot", V_RDOT}, {"Rmu", V_RMU}, {"dist", V_DIST}};
    int nforms = 0;
    while (kind->forms[nforms]) nforms++;
    if (form < 0 || form >= nforms || !kind->dim(m, form)) return V_NONE;
    for (size_t k = 0; k < sizeof known / sizeof *known; k++)
        if (!strcmp(kind->forms[form], known[k].name)) return known[k].vk;
    return V_NONE;
}

static size_t config_size(const cl_model_factor *f) { return f->kind == CL_LAGR_RK ? (size_t)f->k : f->kind == CL_LAGR_S1 ? 1 : 3; }

static void add_name(cl_field_layout *L, const char *name, int prime, int shape, size_t at)
{
    cl_field_name *n = L->name + L->nname++;
    *n = (cl_field_name){.prime = prime, .shape = shape, .at = at};
    snprintf(n->name, sizeof n->name, "%s", name);
}

static void add_block(cl_field_layout *L, const char *name, int primes, int shape, size_t at, long implied)
{
    cl_field_block *b = L->block + L->nblock++;
    *b = (cl_field_block){.primes = primes, .shape = shape, .at = at, .implied = implied};
    snprintf(b->name, sizeof b->name, "%s", name);
}

/* The velocity-like name of part \p j (SE(3): 0 rotation, 1 translation) of factor \p i in \p buf; 1 when it is
   written as the prime of the configuration's name (x'), else 0. */
static int velocity_name(const cl_model *m, const cl_model_kind *kind, int vk, size_t i, int j, char *buf, size_t len)
{
    const cl_model_factor *f = m->fac + i;
    int group = f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3, mom = vk == V_MOM || vk == V_PI;
    if (vk == V_RDOT) { snprintf(buf, len, "%s", f->name[0]); return 1; }
    if (vk == V_RMU) { snprintf(buf, len, "mu"); return 0; }
    if (group && m->ham && !mom) {
        size_t ngroups = 0;
        for (size_t k = 0; k < m->nfac; k++) ngroups += m->fac[k].kind == CL_LAGR_SO3 || m->fac[k].kind == CL_LAGR_SE3;
        if (ngroups > 1) snprintf(buf, len, "%s_%s", j ? "V" : "Omega", f->name[j]);
        else snprintf(buf, len, "%s", j ? "V" : "Omega");
        return 0;
    }
    if (group) { snprintf(buf, len, "%s%s", mom && !m->ham ? "p_" : "", f->vname[j]); return 0; }
    if (f->kind == CL_LAGR_S2 && vk != V_VEL) {
        static const char *const pre[] = {[V_OMEGA] = "w", [V_MOM] = "mu", [V_PI] = "pi"};
        if (kind == &cl_model_kind_s2) snprintf(buf, len, "%s%zu", pre[vk], i + 1);
        else snprintf(buf, len, "%s_%s", pre[vk], f->name[0]);
        return 0;
    }
    if (mom) { snprintf(buf, len, "p_%s", f->name[0]); return 0; }
    snprintf(buf, len, "%s", f->name[0]);
    return 1;
}

/* The names and the configuration's blocks of factor \p i. */
static void factor_config(const cl_model *m, size_t i, int vk, cl_field_layout *L)
{
    const cl_model_factor *f = m->fac + i;
    int group = f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3;
    char vname[CL_MODEL_MAX_NAME + 8];
    int primed = velocity_name(m, cl_model_kind_of(m), vk, i, 0, vname, sizeof vname);
    long implied = primed ? (long)(m->nq + f->v) : -1;
    add_name(L, f->name[0], 0, group ? 9 : (int)config_size(f), f->q);
    add_block(L, f->name[0], 1, group ? 9 : (int)config_size(f), f->q, implied);
    if (f->kind == CL_LAGR_SE3) {
        add_name(L, f->name[1], 0, 3, f->q + 9);
        add_block(L, f->name[1], 1, 3, f->q + 9, -1);
    }
}

/* The names and the blocks of the velocity part of factor \p i. */
static void factor_velocity(const cl_model *m, size_t i, int vk, cl_field_layout *L)
{
    const cl_model_factor *f = m->fac + i;
    int group = f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3;
    int parts = f->kind == CL_LAGR_SE3 ? 2 : 1, shape = vk == V_RDOT || vk == V_RMU ? 9 : group ? 3 : (int)config_size(f);
    for (int j = 0; j < parts; j++) {
        char vname[CL_MODEL_MAX_NAME + 8];
        int primed = velocity_name(m, cl_model_kind_of(m), vk, i, j, vname, sizeof vname);
        size_t at = m->nq + f->v + 3 * (size_t)j;
        add_name(L, vname, primed, shape, at);
        add_block(L, vname, primed ? 2 : 1, shape, at, -1);
    }
}

/* The quasivelocity that is velocity component \p v of the product, or −1. */
static long quasivelocity(const cl_model *m, size_t v)
{
    for (size_t a = 0; a < m->ndist; a++)
        if ((size_t)m->dist[a] == v) return (long)a;
    return -1;
}

/* Form dist: every configuration (its x' implied when x' is a quasivelocity), then the quasivelocities
   by name, each with its block x''. CL_EDOMAIN when one is a component of a vector (no name for it yet). */
static int dist_layout(const cl_model *m, cl_field_layout *L)
{
    for (size_t i = 0; i < m->nfac; i++) {
        const cl_model_factor *f = m->fac + i;
        int scalar = f->kind == CL_LAGR_S1 || (f->kind == CL_LAGR_RK && f->k == 1);
        long a = scalar ? quasivelocity(m, f->v) : -1;
        add_name(L, f->name[0], 0, f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3 ? 9 : (int)config_size(f), f->q);
        add_block(L, f->name[0], 1, f->kind == CL_LAGR_SO3 || f->kind == CL_LAGR_SE3 ? 9 : (int)config_size(f), f->q,
                  a >= 0 ? (long)(m->nq + (size_t)a) : -1);
        if (f->kind == CL_LAGR_SE3) {
            add_name(L, f->name[1], 0, 3, f->q + 9);
            add_block(L, f->name[1], 1, 3, f->q + 9, -1);
        }
    }
    for (size_t a = 0; a < m->ndist; a++) {
        size_t k = 0, v = (size_t)m->dist[a];
        while (k + 1 < m->nfac && v >= m->fac[k + 1].v) k++;
        const cl_model_factor *f = m->fac + k;
        if (!(f->kind == CL_LAGR_S1 || (f->kind == CL_LAGR_RK && f->k == 1))) return CL_EDOMAIN;
        add_name(L, f->name[0], 1, 1, m->nq + a);
        add_block(L, f->name[0], 2, 1, m->nq + a, -1);
    }
    return m->ndist ? CL_OK : CL_EDOMAIN;
}

int cl_field_layout_new(cl_field_layout *L, const cl_model *m, int form)
{
    const cl_model_kind *kind = cl_model_kind_of(m);
    *L = (cl_field_layout){0};
    int vk = velocity_kind(m, kind, form);
    if (vk == V_NONE) return CL_EDOMAIN;
    L->dim = kind->dim(m, form);
    L->name = calloc(4 * m->nfac + 1, sizeof *L->name);
    L->block = calloc(4 * m->nfac + 1, sizeof *L->block);
    if (!L->name || !L->block) {
        cl_field_layout_free(L);
        return CL_ENOMEM;
    }
    if (vk == V_DIST) {
        int st = dist_layout(m, L);
        if (st) cl_field_layout_free(L);
        return st;
    }
    for (size_t i = 0; i < m->nfac; i++) factor_config(m, i, vk, L);
    for (size_t i = 0; i < m->nfac; i++) factor_velocity(m, i, vk, L);
    return CL_OK;
}

void cl_field_layout_free(cl_field_layout *L)
{
    free(L->name);
    free(L->block);
    *L = (cl_field_layout){0};
}

void cl_field_block_name(const cl_field_block *b, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", b->name, b->primes == 2 ? "''" : "'");
}

long cl_field_layout_find(const cl_field_layout *L, const char *s, size_t n, int prime)
{
    for (size_t k = 0; k < L->nname; k++)
        if (L->name[k].prime == prime && cl_text_name_is(L->name[k].name, s, n)) return (long)k;
    return -1;
}
