/* Options shared by the commands that work on a named system. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "sysopt.h"

int cl_sysopt_parse(cl_sysopt *so, int argc, char **argv, int *help, ...)
{
    memset(so, 0, sizeof *so);
    so->bits = 53;
    *help = 0;
    const char *sysname = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { *help = 1; continue; }
        if (strncmp(a, "--", 2) || !a[2]) return cl_cli_error("unexpected argument", a);
        const char *k = a + 2, *v;
        char *eq = strchr(k, '=');
        char keybuf[64];
        if (eq) {
            size_t len = (size_t)(eq - k);
            if (len >= sizeof keybuf) return cl_cli_error("option name too long", a);
            memcpy(keybuf, k, len);
            keybuf[len] = 0;
            k = keybuf;
            v = eq + 1;
        } else {
            if (i + 1 >= argc) return cl_cli_error("option needs a value", a);
            v = argv[++i];
        }
        if (!strcmp(k, "system")) { sysname = v; continue; }
        if (!strcmp(k, "form")) { so->form_name = v; continue; }
        if (!strcmp(k, "bits")) {
            if (cl_cli_parse_bits(v, &so->bits)) return CL_EXIT_USAGE;
            continue;
        }
        /* The command's own options. */
        int taken = 0;
        va_list ap;
        va_start(ap, help);
        for (const char *name; (name = va_arg(ap, const char *));) {
            const char **dst = va_arg(ap, const char **);
            if (!strcmp(k, name)) { *dst = v; taken = 1; }
        }
        va_end(ap);
        if (taken) continue;
        if (so->nparam >= CL_SYSOPT_MAX) return cl_cli_error("too many parameters", a);
        so->keys[so->nparam] = strdup(k);
        so->vals[so->nparam++] = (char *)v;
    }
    if (sysname) {
        so->sys = cl_system_find(sysname);
        if (!so->sys) { cl_sysopt_free(so); return cl_cli_error("unknown system; chartless systems lists them", sysname); }
    }
    if (!*help && !so->sys) { cl_sysopt_free(so); return cl_cli_error("--system is required", NULL); }
    return 0;
}

int cl_sysopt_create(cl_sysopt *so)
{
    so->form = 0;
    if (so->form_name) {
        so->form = cl_system_form_index(so->sys, so->form_name);
        if (so->form < 0) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown form for system %s (forms:", so->sys->name);
            for (int i = 0; so->sys->forms[i]; i++) {
                strncat(msg, " ", sizeof msg - strlen(msg) - 1);
                strncat(msg, so->sys->forms[i], sizeof msg - strlen(msg) - 1);
            }
            strncat(msg, ")", sizeof msg - strlen(msg) - 1);
            cl_sysopt_free(so);
            return cl_cli_error(msg, so->form_name);
        }
    }
    char err[256] = "";
    int st = so->sys->create(&so->inst, so->nparam, so->keys, so->vals, (cl_prec_t)so->bits, err, sizeof err);
    if (st) {
        so->inst = NULL;
        cl_sysopt_free(so);
        fprintf(stderr, "error: %s\n", err[0] ? err : cl_strerror(st));
        return CL_EXIT_USAGE;
    }
    return 0;
}

int cl_sysopt_read_state(cl_sysopt *so, FILE *f, mpfr_ptr x)
{
    size_t n = so->sys->dim(so->inst, so->form), got = 0;
    int st = cl_cli_read_state(f, x, n, &got);
    char msg[160];
    if (st == CL_EDIM) {
        snprintf(msg, sizeof msg, "the %s state of %s needs %zu numbers, %s %zu", so->sys->forms[so->form],
                 so->sys->name, n, got > n ? "got more than" : "got", got > n ? n : got);
        return cl_cli_error(msg, "stdin");
    }
    if (st == CL_EPARSE) {
        snprintf(msg, sizeof msg, "number %zu of the state is not a number", got + 1);
        return cl_cli_error(msg, "stdin");
    }
    if (st == CL_ENAN) {
        snprintf(msg, sizeof msg, "number %zu of the state is NaN or infinite", got + 1);
        return cl_cli_error(msg, "stdin");
    }
    if (so->sys->check_state) {
        char err[256] = "";
        st = so->sys->check_state(so->inst, so->form, x, err, sizeof err);
        if (st) {
            fprintf(stderr, "error: %s\n", err[0] ? err : cl_strerror(st));
            return CL_EXIT_USAGE;
        }
    }
    return 0;
}

void cl_sysopt_print_system_help(FILE *f, const cl_system *s)
{
    fprintf(f, "\nsystem %s: %s\n", s->name, s->summary);
    fprintf(f, "forms:");
    for (int i = 0; s->forms[i]; i++) fprintf(f, " %s%s", s->forms[i], i == 0 ? " (default)" : "");
    fprintf(f, "\nparameters:\n%s\nstate:\n%s\n", s->params_help ? s->params_help : "  (none)",
            s->state_help ? s->state_help : "  (see the chapter)");
    if (s->invariant_names) {
        fprintf(f, "invariants:");
        for (int i = 0; s->invariant_names[i]; i++) fprintf(f, " %s", s->invariant_names[i]);
        fprintf(f, "\n");
    }
}

void cl_sysopt_free(cl_sysopt *so)
{
    if (so->inst && so->sys) so->sys->destroy(so->inst);
    so->inst = NULL;
    for (int i = 0; i < so->nparam; i++) free(so->keys[i]);
    so->nparam = 0;
}
