/*
 * The plot of a whole stability map (`chartless sweep --plot`, also after
 * `--merge`): gnuplot draws the verdict of every cell from the CSV rows,
 * with the system's closed-form boundary over it when it has one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "chartless.h"
#include "cli.h"
#include "plot.h"
#include "sweep.h"

#define BOUNDARY_SAMPLES 400

/* The gnuplot data of the map, "x y code" (1-D: "x code"), from the CSV rows read from \p rows. */
static int map_data(FILE *g, const sweep *s, FILE *rows)
{
    int ncol = s->hook ? s->naxes + 3 : s->naxes + 1 + sweep_generic_width(s) * s->neq, vcol = sweep_verdict_column(s), bad = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while (!bad && (len = getline(&line, &cap, rows)) > 0) {
        const char *f[ncol + 1];
        int k = 0;
        f[k++] = line;
        for (const char *q = line; q < line + len && k <= ncol; q++)
            if (*q == ',') f[k++] = q + 1;
        if (k != ncol || line[len - 1] != '\n') { bad = 1; break; }
        const char *vw = f[vcol];
        if (!strncmp(vw, "proven ", 7)) vw += 7; /* --certify: proven stable, proven unstable, undecided */
        int code = !strncmp(vw, "stable,", 7) ? 1 : !strncmp(vw, "unstable,", 9) ? -1 : 0;
        for (int i = 1; i <= s->naxes; i++) fprintf(g, "%.*s ", (int)(f[i + 1] - f[i] - 1), f[i]);
        fprintf(g, "%d\n", code);
    }
    free(line);
    return bad || ferror(rows) ? -1 : 0;
}

/* The boundary: for 2-D, y solved at BOUNDARY_SAMPLES values of x, each branch a curve. */
static int boundary_data(FILE *g, sweep *s, mpfr_ptr w, const char **label)
{
    int any = 0;
    cl_prec_t prec = (cl_prec_t)s->bits;
    mpfr_ptr a = w, b = w + 1, at = w + 2, x = s->p.v[s->ax[0].slot].x;
    cl_real_from_str_mp(a, s->ax[0].a);
    cl_real_from_str_mp(b, s->ax[0].b);
    axis fine = s->ax[0];
    fine.n = BOUNDARY_SAMPLES;
    for (int branch = 0; branch < 2; branch++) {
        for (long j = 0; j < BOUNDARY_SAMPLES; j++) {
            sweep_axis_value(x, &fine, a, b, j);
            int n = s->hook->boundary(&s->p, prec, s->ax[1].param->name, at, label);
            any |= n > 0;
            if (n > branch) mpfr_fprintf(g, "%.17Rg %.17Rg\n", x, at + branch);
            else fputc('\n', g);
        }
        fputc('\n', g);
    }
    return any;
}

/* Draw the map of \p rows into the file \p png (the user's name \p png_name). */
int sweep_plot(sweep *s, FILE *rows, const char *png, const char *png_name)
{
    cl_cli_plot script;
    if (cl_cli_plot_open(&script, png, 900, 700, 0)) return cl_cli_error("cannot create a temporary file", png_name);
    FILE *g = script.f;
    mpfr_ptr w = cl_rvec_new_mp(4, (cl_prec_t)s->bits);
    if (!w) { cl_cli_plot_abort(&script); return cl_cli_error("out of memory", NULL); }
    const axis *x = s->ax, *y = s->ax + 1;
    fprintf(g, "set title 'chartless sweep: %s%s%s%s, %ld bits'\nset xlabel '%s'\n", s->sys->name, s->hook ? "" : " (",
            s->hook ? "" : s->eq[0].prefix, s->hook ? "" : ")", s->bits, x->param->name);
    fprintf(g, "set palette defined (-1 '#d7301f', 0 '#bdbdbd', 1 '#2b8cbe')\nset cbrange [-1:1]\n"
               "set palette maxcolors 3\nset cbtics ('unstable' -1, 'undecided' 0, 'stable' 1)\nset rmargin 16\n"
               "set key outside top center horizontal\nset xtics rotate by 30 right\n");
    fprintf(g, "$map << EOD\n");
    int bad = map_data(g, s, rows);
    fprintf(g, "EOD\n");
    int have_boundary = s->hook && s->hook->boundary;
    const char *label = "boundary";
    if (s->naxes == 2 && have_boundary) {
        fprintf(g, "$boundary << EOD\n");
        have_boundary = boundary_data(g, s, w, &label);
        fprintf(g, "EOD\n");
    }
    /* the ranges of the cells: each value the centre of its cell */
    for (int i = 0; i < s->naxes; i++) {
        const axis *v = s->ax + i;
        cl_real_from_str_mp(w, v->a);
        cl_real_from_str_mp(w + 1, v->b);
        mpfr_sub(w + 2, w + 1, w, MPFR_RNDN);
        mpfr_div_si(w + 2, w + 2, v->n > 1 ? 2 * (v->n - 1) : 1, MPFR_RNDN);
        if (v->n == 1) mpfr_set_d(w + 2, 0.5, MPFR_RNDN);
        mpfr_sub(w, w, w + 2, MPFR_RNDN);
        mpfr_add(w + 1, w + 1, w + 2, MPFR_RNDN);
        mpfr_fprintf(g, "set %srange [%.17Rg:%.17Rg]\n", i ? "y" : "x", w, w + 1);
    }
    if (s->naxes == 2) {
        fprintf(g, "set ylabel '%s'\nplot $map using 1:2:3 with image notitle", y->param->name);
        if (have_boundary) fprintf(g, ", $boundary using 1:2 with lines lw 2 lc rgb 'black' title '%s'", label);
        fputc('\n', g);
    } else {
        int n = have_boundary ? s->hook->boundary(&s->p, (cl_prec_t)s->bits, x->param->name, w, &label) : 0;
        for (int i = 0; i < n; i++)
            mpfr_fprintf(g, "set arrow from %.17Rg, graph 0 to %.17Rg, graph 1 nohead front lw 2 lc rgb 'black'\n", w + i, w + i);
        fprintf(g, "set yrange [0:1]\nunset ytics\nset style fill solid\nset boxwidth 1 relative\n"
                   "plot $map using 1:(1):2 with boxes lc palette notitle");
        if (n) fprintf(g, ", NaN with lines lw 2 lc rgb 'black' title '%s'", label);
        fputc('\n', g);
    }
    cl_rvec_free_mp(w);
    if (bad) {
        cl_cli_plot_abort(&script);
        return cl_cli_error("cannot read the map back for the plot", png_name);
    }
    char err[600];
    if (cl_cli_plot_run(&script, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return cl_cli_error("gnuplot failed to draw", png_name);
    }
    return CL_EXIT_OK;
}
