/**
 * \file grade_field.c
 * \brief `chartless grade --field`: a hand-derived field evaluated at the
 *        reference's precision, and the sign hint for a wrong one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "grade_ctx.h"

/* The field file's values at the states, at the reference's precision and
   rounded to doubles as a student's would be; at a state where the field
   is not defined, rc[k] = 1 and (*why)[k] says which subexpression. 0, or
   CL_ENOMEM. */
int grade_field_values(const grade_ctx *gc, cl_prec_t bits, double *stu, int *rc, char ***why)
{
    size_t dim = gc->dim;
    cl_field_eval *fe;
    cl_field_eval_new(&fe, gc->field, bits);
    mpfr_ptr xm = cl_rvec_new_mp(2 * dim, bits);
    *why = calloc((size_t)gc->nstates, sizeof **why);
    if (!fe || !xm || !*why) {
        cl_field_eval_free(fe);
        cl_rvec_free_mp(xm);
        free(*why);
        *why = NULL;
        return CL_ENOMEM;
    }
    for (int k = 0; k < gc->nstates; k++) {
        char err[400];
        for (size_t i = 0; i < dim; i++) mpfr_set_d(xm + i, gc->x[(size_t)k * dim + i], MPFR_RNDN);
        rc[k] = cl_field_eval_run(fe, xm + dim, xm, gc->fpar, err, sizeof err) ? 1 : 0;
        if (rc[k]) (*why)[k] = strdup(err);
        for (size_t i = 0; i < dim; i++) stu[(size_t)k * dim + i] = rc[k] ? NAN : mpfr_get_d(xm + dim + i, MPFR_RNDN);
    }
    cl_field_eval_free(fe);
    cl_rvec_free_mp(xm);
    return CL_OK;
}

/* Largest error at state k relative to max(1, max|reference|), as the report measures it. */
double grade_state_error(const double *s, const double *r, size_t dim)
{
    double scale = 1, e = 0;
    for (size_t i = 0; i < dim; i++) scale = fmax(scale, fabs(r[i]));
    for (size_t i = 0; i < dim; i++) e = fmax(e, fabs(s[i] - r[i]) / scale);
    return e;
}

/* For a wrong field file: the one sign ('+' for '-' or '-' for '+', outside
   comments) whose change makes every state agree, printed as a hint. */
void grade_field_sign_hint(const grade_ctx *gc, const double *stu, const double *ref, cl_prec_t bits)
{
    const cl_field *f = gc->field;
    size_t len = strlen(f->text), dim = gc->dim;
    char *text = malloc(len + 1);
    double *val = malloc((size_t)gc->nstates * dim * sizeof *val);
    int *rc = malloc((size_t)gc->nstates * sizeof *rc);
    if (!text || !val || !rc) { free(text); free(val); free(rc); return; }
    memcpy(text, f->text, len + 1);
    /* a change is tried first at one state where the field is wrong, then at all */
    int k0 = 0;
    while (k0 + 1 < gc->nstates && grade_state_error(stu + (size_t)k0 * dim, ref + (size_t)k0 * dim, dim) <= exp2(GRADE_LOG2_TOL)) k0++;
    int comment = 0;
    for (size_t at = 0; at < len; at++) {
        char c = text[at];
        if (c == '#') comment = 1;
        if (c == '\n') comment = 0;
        if (comment || (c != '+' && c != '-')) continue;
        text[at] = c == '+' ? '-' : '+';
        cl_field *mf = NULL;
        cl_sys_error e = {"", ""};
        int agree = !cl_field_parse(&mf, gc->model, f->source, text, len, &e);
        text[at] = c;
        if (!agree) continue;
        for (int pass = 0; pass < 2 && agree; pass++) {
            grade_ctx mc = *gc;
            mc.field = mf;
            if (pass == 0) {
                mc.nstates = 1;
                mc.x = gc->x + (size_t)k0 * dim;
            }
            char **why = NULL;
            agree = !grade_field_values(&mc, bits, val, rc, &why);
            const double *r = pass ? ref : ref + (size_t)k0 * dim;
            for (int k = 0; k < mc.nstates && agree; k++)
                agree = !rc[k] && grade_state_error(val + (size_t)k * dim, r + (size_t)k * dim, dim) <= exp2(GRADE_LOG2_TOL);
            for (int k = 0; why && k < mc.nstates; k++) free(why[k]);
            free(why);
        }
        cl_field_free(mf);
        if (!agree) continue;
        char where[240];
        cl_field_where(f, (long)at, where, sizeof where);
        int line0 = (int)at, line1 = (int)at;
        while (line0 > 0 && f->text[line0 - 1] != '\n') line0--;
        while (f->text[line1] && f->text[line1] != '\n') line1++;
        fprintf(gc->out, "hint: a sign error at %s: with '%c' for '%c' there every component agrees at every state\n"
               "      %.*s\n      %*s^\n", where, c == '+' ? '-' : '+', c, line1 - line0, f->text + line0, (int)at - line0, "");
        break;
    }
    free(text); free(val); free(rc);
}
