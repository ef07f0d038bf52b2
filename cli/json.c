/* `--format json`: the option, the pieces of every document, a CSV as JSON
   (simulate, sweep) and the descriptions of the systems (json.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "chartless.h"
#include "cli.h"
#include "json.h"

int cl_json_take_format(int *argc, char **argv, int *json)
{
    const char *v = NULL;
    int k = 0, st = CL_EXIT_OK;
    *json = 0;
    for (int i = 0; i < *argc; i++) {
        const char *val = NULL;
        int take = 0;
        if (i > 0 && !strcmp(argv[i], "--format")) {
            take = 1;
            if (i + 1 < *argc) val = argv[++i];
            else if (!st) st = cl_cli_error("option needs a value", "--format");
        } else if (i > 0 && !strncmp(argv[i], "--format=", 9)) {
            take = 1;
            val = argv[i] + 9;
        }
        if (!take) { argv[k++] = argv[i]; continue; }
        if (v && !st) st = cl_cli_error("option given twice", "--format");
        v = val ? val : "";
        if (!st && val && strcmp(val, "json") && strcmp(val, "text")) st = cl_cli_error("--format must be text or json", val);
    }
    *argc = k;
    argv[k] = NULL;
    *json = !st && v && !strcmp(v, "json");
    return st;
}

void cl_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

void cl_json_member(FILE *f, const char *lead, const char *s)
{
    fputs(lead, f);
    cl_json_string(f, s);
}

void cl_json_member_or_null(FILE *f, const char *lead, const char *s)
{
    if (s && s[0]) cl_json_member(f, lead, s);
    else fprintf(f, "%snull", lead);
}

void cl_json_real(FILE *f, mpfr_srcptr x)
{
    if (!mpfr_number_p(x)) fputs("null", f);
    else if (mpfr_zero_p(x)) fputc('0', f);
    else cl_sys_print_real(f, x);
}

void cl_json_reals(FILE *f, mpfr_srcptr x, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        cl_json_real(f, x + i);
    }
    fputc(']', f);
}

void cl_json_double(FILE *f, double x)
{
    if (x == x && x - x == 0) fprintf(f, "%.6g", x);
    else fputs("null", f);
}

void cl_json_system_head(FILE *f, const cl_cmd_system *cs, long bits)
{
    cl_json_member(f, "\"system\": ", cs->sys->name);
    cl_json_member(f, ", \"form\": ", cs->sys->forms[cs->form]);
    fprintf(f, ", \"bits\": %ld", bits);
}

void cl_json_component_names(FILE *f, const cl_cmd_system *cs)
{
    fputc('[', f);
    for (size_t i = 0; i < cs->dim; i++) {
        char name[64];
        cl_cli_component_name(cs->sys, cs->inst, cs->form, i, name, sizeof name);
        if (i) fputs(", ", f);
        cl_json_string(f, name);
    }
    fputc(']', f);
}

void cl_json_rhs(FILE *f, const cl_cmd_system *cs, long bits, mpfr_srcptr dx)
{
    fputs("{\"schema\": \"chartless-rhs/1\", ", f);
    cl_json_system_head(f, cs, bits);
    fputs(",\n \"components\": ", f);
    cl_json_component_names(f, cs);
    fputs(",\n \"rhs\": ", f);
    cl_json_reals(f, dx, cs->dim);
    fputs("}\n", f);
}

/* ------------------------------------------------------------ CSV */

/* Whether s[0..n) is a number by JSON's grammar: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)? */
static int json_number_p(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    if (i >= n || !isdigit((unsigned char)s[i])) return 0;
    if (s[i] == '0') i++;
    else while (i < n && isdigit((unsigned char)s[i])) i++;
    if (i < n && s[i] == '.') {
        if (++i >= n || !isdigit((unsigned char)s[i])) return 0;
        while (i < n && isdigit((unsigned char)s[i])) i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (i >= n || !isdigit((unsigned char)s[i])) return 0;
        while (i < n && isdigit((unsigned char)s[i])) i++;
    }
    return i == n;
}

/* One field of a row: a number, null or a string. */
static void csv_field(FILE *out, const char *s, size_t n)
{
    if (json_number_p(s, n)) { fwrite(s, 1, n, out); return; }
    static const char *const not_finite[] = {"", "nan", "inf", "-inf", "+inf", "@NaN@", "@Inf@", "-@Inf@"};
    for (size_t k = 0; k < sizeof not_finite / sizeof *not_finite; k++)
        if (strlen(not_finite[k]) == n && !strncmp(s, not_finite[k], n)) { fputs("null", out); return; }
    char *t = strndup(s, n);
    cl_json_string(out, t ? t : "");
    free(t);
}

/* The fields of a line (without its newline) as a JSON array, or as strings (\p names); the count. */
static size_t csv_line(FILE *out, const char *line, size_t len, int names)
{
    size_t count = 0, start = 0;
    fputc('[', out);
    for (size_t i = 0; i <= len; i++) {
        if (i < len && line[i] != ',') continue;
        if (count++) fputs(", ", out);
        if (names) {
            char *t = strndup(line + start, i - start);
            cl_json_string(out, t ? t : "");
            free(t);
        } else
            csv_field(out, line + start, i - start);
        start = i + 1;
    }
    fputc(']', out);
    return count;
}

int cl_json_from_csv(FILE *in, FILE *out, const char *schema)
{
    char *line = NULL;
    size_t cap = 0, ncol = 0, nrow = 0;
    ssize_t n;
    int bad = 0, ncom = 0;
    cl_json_member(out, "{\"schema\": ", schema);
    fputs(",\n \"comments\": [", out);
    while ((n = getline(&line, &cap, in)) > 0) {
        if (line[n - 1] == '\n') line[--n] = 0;
        if (line[0] == '#') {
            fputs(ncom++ ? ", " : "", out);
            cl_json_string(out, line + (line[1] == ' ' ? 2 : 1));
            continue;
        }
        if (!ncol) {
            fputs("],\n \"columns\": ", out);
            ncol = csv_line(out, line, (size_t)n, 1);
            fputs(",\n \"rows\": [", out);
            continue;
        }
        fputs(nrow++ ? ",\n  " : "\n  ", out);
        if (csv_line(out, line, (size_t)n, 0) != ncol) bad = 1;
    }
    if (!ncol) { bad = 1; fputs("], \"columns\": [], \"rows\": [", out); }
    fputs("]}\n", out);
    free(line);
    return bad || ferror(in) ? -1 : 0;
}

/* Take `--out FILE` (or --out=FILE) out of argv; the file, or NULL. */
static const char *take_out(int *argc, char **argv)
{
    const char *out = NULL;
    int k = 0;
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && !strcmp(argv[i], "--out") && i + 1 < *argc) out = argv[++i];
        else if (i > 0 && !strncmp(argv[i], "--out=", 6)) out = argv[i] + 6;
        else argv[k++] = argv[i];
    }
    *argc = k;
    argv[k] = NULL;
    return out;
}

/* Run \p run with stdout in the temporary file \p tmp; its status. */
static int run_caught(int (*run)(int, char **), int argc, char **argv, FILE *tmp)
{
    fflush(stdout);
    int saved = dup(1);
    if (saved < 0 || dup2(fileno(tmp), 1) < 0) {
        if (saved >= 0) close(saved);
        return cl_cli_error("cannot catch the output", "--format json");
    }
    int st = run(argc, argv);
    int bad = fflush(stdout) != 0;
    dup2(saved, 1);
    close(saved);
    clearerr(stdout);
    return !st && bad ? cl_cli_error("cannot write", "a temporary file") : st;
}

int cl_json_csv_command(int (*run)(int argc, char **argv), int argc, char **argv, const char *schema)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return run(argc, argv);
    const char *out = take_out(&argc, argv);
    int st = out ? cl_cli_check_target(out) : CL_EXIT_OK;
    FILE *tmp = st ? NULL : tmpfile();
    if (!st && !tmp) st = cl_cli_error("cannot create a temporary file", "--format json");
    if (!st) st = run_caught(run, argc, argv, tmp);
    if (!st && fseek(tmp, 0, SEEK_SET)) st = cl_cli_error("cannot read back the CSV", "a temporary file");
    cl_cli_out o = {.slot = -1};
    FILE *f = stdout;
    if (!st && out && !(st = cl_cli_out_open(&o, out))) f = o.f;
    if (!st && cl_json_from_csv(tmp, f, schema)) st = cl_cli_error("the output is not a CSV", "--format json");
    if (!st && out) st = cl_cli_out_commit(&o);
    cl_cli_out_abort(&o);
    if (tmp) fclose(tmp);
    return st;
}

/* ------------------------------------------------------------ systems */

static const char *shape_word(cl_param_shape s)
{
    static const char *const w[] = {"number", "list", "nlist", "anylist", "size", "word", "flag"};
    return (unsigned)s < sizeof w / sizeof *w ? w[s] : "number";
}

static const char *constraint_word(cl_param_constraint c)
{
    return c == CL_PARAM_POSITIVE ? "positive" : c == CL_PARAM_NONNEGATIVE ? "nonnegative" : c == CL_PARAM_NONZERO ? "nonzero" : "any";
}

static void json_params(FILE *f, const cl_param *t)
{
    fputc('[', f);
    for (int i = 0; t && t[i].name; i++) {
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        cl_json_string(f, t[i].name);
        fprintf(f, ", \"shape\": \"%s\", \"constraint\": \"%s\", \"default\": ", shape_word(t[i].shape),
                constraint_word(t[i].constraint));
        if (t[i].def) cl_json_string(f, t[i].def);
        else fputs("null", f);
        cl_json_member(f, ", \"help\": ", t[i].help);
        fputc('}', f);
    }
    fputc(']', f);
}

static void json_words(FILE *f, const char *const *w)
{
    fputc('[', f);
    for (int i = 0; w && w[i]; i++) {
        if (i) fputs(", ", f);
        cl_json_string(f, w[i]);
    }
    fputc(']', f);
}

static void json_system(FILE *f, const cl_system *s)
{
    cl_json_member(f, "{\"name\": ", s->name);
    cl_json_member(f, ", \"summary\": ", s->summary);
    fputs(",\n   \"forms\": ", f);
    json_words(f, s->forms);
    cl_json_member(f, ", \"state\": ", s->state_help ? s->state_help : "");
    fputs(",\n   \"invariants\": ", f);
    json_words(f, s->invariant_names);
    const char *cmds[5];
    int n = 0;
    if (cl_system_offers_equilibria(s)) cmds[n++] = "equilibria";
    if (cl_system_offers_stability(s)) cmds[n++] = "stability";
    if (cl_system_offers_sweep(s)) cmds[n++] = "sweep";
    cmds[n] = NULL;
    fputs(", \"commands\": ", f);
    json_words(f, cmds);
    fprintf(f, ", \"lie_integrators\": %s,\n   \"parameters\": ", s->lie_simulate ? "true" : "false");
    json_params(f, s->params);
    fputc('}', f);
}

void cl_json_systems(FILE *f, const cl_system *one)
{
    fputs("{\"schema\": \"chartless-systems/1\", \"systems\": [", f);
    if (one) { /* registered or read from a model file */
        fputs("\n  ", f);
        json_system(f, one);
    }
    for (size_t i = 0, k = 0; !one && i < cl_system_count(); i++) {
        const cl_system *s = cl_system_get(i);
        fputs(k++ ? ",\n  " : "\n  ", f);
        json_system(f, s);
    }
    fputs("]}\n", f);
}
