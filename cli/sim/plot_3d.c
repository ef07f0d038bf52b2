/* The 3-D trajectory of a simulation's bodies (plot.h): the CSV read back,
   the system's bodies hook giving their places row by row, drawn as a PNG
   and, where gnuplot has the gif terminal, as an animated GIF. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "chartless.h"
#include "cli.h"
#include "plot.h"

/* Rows of the CSV the pictures use at most (every k-th row beyond), and frames of the animation. */
enum { MAX_ROWS = 4000, FRAMES = 100 };

typedef struct bodies_data {
    char path[40];     /* "t x1 y1 z1 x2 ...", a row per sampled step */
    char links[40];    /* the links origin - p1 - ... - pk at the frames, a block each */
    int k;             /* bodies */
    long rows;         /* rows written */
    double lo[3], hi[3]; /* the range of each coordinate */
    double t_first, t_last;
    int made;          /* 1: path made, 2: links made */
    int frames;        /* blocks of the links file */
    long frame_row[FRAMES];
    double frame_t[FRAMES];
} bodies_data;

static long count_rows(FILE *csv)
{
    long n = 0;
    int ch;
    while ((ch = getc(csv)) != EOF) n += ch == '\n';
    rewind(csv);
    return n - 1; /* the header */
}

/* Parse the state columns of one CSV row into x; 0 or −1. */
static int parse_row(const char *line, mpfr_ptr x, size_t dim, mpfr_ptr t)
{
    const char *s = line;
    for (size_t i = 0; i <= dim; i++) {
        char *end;
        mpfr_strtofr(i ? x + i - 1 : t, s, &end, 10, MPFR_RNDN);
        if (end == s || (*end != ',' && *end != '\n' && *end)) return -1;
        s = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* One sampled row: its bodies into the data file, and the ranges. */
static void write_bodies(FILE *f, bodies_data *d, mpfr_srcptr t, mpfr_srcptr p)
{
    d->t_last = mpfr_get_d(t, MPFR_RNDN);
    if (!d->rows) d->t_first = d->t_last;
    fprintf(f, "%.9g", d->t_last);
    for (int i = 0; i < 3 * d->k; i++) {
        double v = mpfr_get_d(p + i, MPFR_RNDN);
        fprintf(f, " %.9g", v);
        if (v < d->lo[i % 3]) d->lo[i % 3] = v;
        if (v > d->hi[i % 3]) d->hi[i % 3] = v;
    }
    fputc('\n', f);
}

/* Every sampled row of \p csv through the bodies hook into d->path. 0 or −1. */
static int sample_bodies(const cl_cmd_system *cs, FILE *csv, bodies_data *d, mpfr_ptr x, mpfr_ptr p, mpfr_ptr t)
{
    long n = count_rows(csv), stride = n > MAX_ROWS ? (n + MAX_ROWS - 1) / MAX_ROWS : 1;
    int fd = mkstemp(d->path);
    d->made |= fd >= 0;
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    char *line = NULL;
    size_t cap = 0;
    int bad = !f;
    for (long r = -1; !bad && getline(&line, &cap, csv) > 0; r++) {
        if (r < 0 || (r % stride && r != n - 1)) continue; /* the header; rows between samples */
        bad = parse_row(line, x, cs->dim, t) || cs->sys->bodies(cs->inst, cs->form, p, x) != d->k;
        if (!bad) write_bodies(f, d, t, p);
        d->rows += !bad;
    }
    free(line);
    if (f && fclose(f)) bad = 1;
    if (!f && fd >= 0) close(fd);
    return bad || d->rows == 0 ? -1 : 0;
}

/* The links origin - p1 - ... - pk of one row (\p s after its t), a block of the links file. */
static void write_block(FILE *out, const bodies_data *d, int n, const char *s)
{
    fprintf(out, "%s0 0 0\n", n ? "\n\n" : "");
    for (int i = 0; i < d->k; i++) {
        char *e;
        double a = strtod(s, &e), b = strtod(e, &e), c = strtod(e, &e);
        s = e;
        fprintf(out, "%.9g %.9g %.9g\n", a, b, c);
    }
}

/* The links at d->frames times evenly spread from the first row's to the last's (each frame the first
   row at or after its time), a block each (gnuplot's index). 0 or −1. */
static int write_links(bodies_data *d)
{
    FILE *in = fopen(d->path, "r");
    int fd = mkstemp(d->links);
    d->made |= fd >= 0 ? 2 : 0;
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    char *line = NULL;
    size_t cap = 0;
    int n = 0, nf = d->frames;
    double span = d->t_last - d->t_first;
    for (long r = 0; in && out && n < nf && getline(&line, &cap, in) > 0; r++) {
        char *s;
        double t = strtod(line, &s);
        while (n < nf && (r == d->rows - 1 || t >= d->t_first + span * n / (nf > 1 ? nf - 1 : 1))) {
            d->frame_row[n] = r;
            d->frame_t[n] = t;
            write_block(out, d, n++, s);
        }
    }
    free(line);
    int bad = !in || !out || ferror(in) || n != nf;
    if (in) fclose(in);
    if (out && fclose(out)) bad = 1;
    if (!out && fd >= 0) close(fd);
    return bad ? -1 : 0;
}

/* The axes: the bodies and the origin (the pivot), the same scale on each, seen from the side and above;
   the floor, where the paths cast their shadows, is the z range's bottom (returned). */
static double scene(FILE *g, const bodies_data *d, const char *title)
{
    double lo[3], hi[3], half = 0;
    for (int a = 0; a < 3; a++) {
        lo[a] = d->lo[a] < 0 ? d->lo[a] : 0;
        hi[a] = d->hi[a] > 0 ? d->hi[a] : 0;
        if (hi[a] - lo[a] > 2 * half) half = (hi[a] - lo[a]) / 2;
    }
    half = 1.05 * half + 1e-9;
    double floor = (lo[2] + hi[2]) / 2 - half;
    fprintf(g, "set title '%s'\nset view equal xyz\nset view 65,30,1.1\nset xyplane at %.9g\n", title, floor);
    for (int a = 0; a < 3; a++) {
        double c = (lo[a] + hi[a]) / 2;
        fprintf(g, "set %crange [%.9g:%.9g]\nset %clabel '%c'\n", "xyz"[a], c - half, c + half, "xyz"[a], "xyz"[a]);
    }
    fprintf(g, "set key top left\nset grid\n");
    return floor;
}

/* The trails up to data row \p upto (a gnuplot expression) and the links of block \p block. */
static void splot_bodies(FILE *g, const bodies_data *d, double floor, const char *upto, const char *block, const char *label)
{
    fprintf(g, "splot for [i=1:%d] '%s' every ::0::%s using (column(3*i-1)):(column(3*i)):(%.9g) "
               "with lines lw 1 lc rgb '#d0d0d0' notitle, \\\n", d->k, d->path, upto, floor);
    fprintf(g, "  for [i=1:%d] '%s' every ::0::%s using (column(3*i-1)):(column(3*i)):(column(3*i+1)) "
               "with lines lw 1.5 lc i title (%d > 1 ? sprintf('body %%d', i) : 'body'), \\\n"
               "  '%s' index %s using 1:2:3 with linespoints lw 2.5 pt 7 ps 1.2 lc rgb 'black' title %s\n",
            d->k, d->path, upto, d->k, d->links, block, label);
}

/* The trajectory as a PNG, the links at the end. */
static int draw_png(const bodies_data *d, const char *png, const char *title, char *err, size_t len)
{
    cl_cli_plot p;
    if (cl_cli_plot_open(&p, png, 800, 800, 0)) return snprintf(err, len, "cannot create a temporary file"), -1;
    double floor = scene(p.f, d, title);
    char upto[32], block[32], label[64];
    snprintf(upto, sizeof upto, "%ld", d->rows - 1);
    snprintf(block, sizeof block, "%d", d->frames - 1);
    snprintf(label, sizeof label, "'at t = %.4g'", d->frame_t[d->frames - 1]);
    splot_bodies(p.f, d, floor, upto, block, label);
    return cl_cli_plot_run(&p, err, len);
}

/* The animation: a frame per block of the links file, the trails growing. */
static int draw_gif(const bodies_data *d, const char *gif, const char *title, char *err, size_t len)
{
    cl_cli_plot p;
    if (cl_cli_plot_open(&p, gif, 480, 480, 4)) return snprintf(err, len, "cannot create a temporary file"), -1;
    double floor = scene(p.f, d, title);
    fprintf(p.f, "array R[%d]\narray T[%d]\n", d->frames, d->frames);
    for (int f = 0; f < d->frames; f++) fprintf(p.f, "R[%d] = %ld; T[%d] = %.9g\n", f + 1, d->frame_row[f], f + 1, d->frame_t[f]);
    fprintf(p.f, "do for [f=1:%d] {\n", d->frames);
    splot_bodies(p.f, d, floor, "R[f]", "(f-1)", "sprintf('t = %.3f', T[f])");
    fprintf(p.f, "}\n");
    return cl_cli_plot_run(&p, err, len);
}

/* The data files of the bodies of \p cs along \p csv. 0 or −1 (message in err). */
static int bodies_files(const cl_cmd_system *cs, const char *csv, bodies_data *d, char *err, size_t len)
{
    FILE *f = fopen(csv, "r");
    mpfr_ptr x = cl_rvec_new_mp(cs->dim + 1 + 3 * (size_t)d->k, 128);
    int st = !f || !x ? -1 : sample_bodies(cs, f, d, x + 1, x + 1 + cs->dim, x);
    if (f) fclose(f);
    cl_rvec_free_mp(x);
    if (!st) {
        d->frames = d->rows > 1 ? FRAMES : 1;
        st = write_links(d);
    }
    if (st) snprintf(err, len, "cannot read the CSV back for the bodies");
    return st;
}

int cl_cli_plot_bodies(const cl_cmd_system *cs, const char *csv, const char *png, const char *gif, const char *title,
                       char *err, size_t len)
{
    bodies_data d = {.path = "/tmp/chartless-bodies-XXXXXX", .links = "/tmp/chartless-links-XXXXXX",
                     .lo = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, .hi = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}};
    d.k = cs->sys->bodies(cs->inst, cs->form, NULL, NULL);
    int st = bodies_files(cs, csv, &d, err, len);
    if (!st) st = draw_png(&d, png, title, err, len);
    if (!st && gif) st = draw_gif(&d, gif, title, err, len);
    if (d.made & 1) unlink(d.path);
    if (d.made & 2) unlink(d.links);
    return st;
}
