/**
 * \file grade_report.h
 * \brief The report of `chartless grade` for a person (text) and for the
 *        course platforms: the tool's own JSON (docs/grade.schema.json),
 *        Gradescope's results.json and PrairieLearn's external-grader
 *        results (docs/grading.md says which field holds what).
 *
 * The grader writes its text report part by part (one part per parameter
 * set) into the FILE that grade_part_begin() returns, and records every
 * component's verdict; grade_report_emit() then prints the document of the
 * chosen format. In text format the parts go straight to stdout.
 */
#ifndef CL_GRADE_REPORT_H
#define CL_GRADE_REPORT_H
#include <stdio.h>

/** Output formats of --format. */
enum { GRADE_TEXT, GRADE_JSON, GRADE_GRADESCOPE, GRADE_PRAIRIELEARN };

/** The verdict of one component of dx/dt at one parameter set. */
typedef struct grade_component {
    char name[32];
    double error;       /**< largest relative error over the states (NaN: not compared) */
    int wrong;
    int state;          /**< 1-based state of the largest error */
    char where[64];     /**< that state's label */
} grade_component;

/** The report at one parameter set. */
typedef struct grade_part {
    char title[600];    /**< "given parameters", or the drawn ones as options */
    int failed;         /**< a component wrong, a state refused, or the code ended early */
    int incomplete;     /**< the code ended early, refused a state or evaluated none */
    char ended[64];     /**< how the student's code ended ("" when it ran to the end) */
    int ncomp;          /**< components compared (0 when no state was evaluated) */
    grade_component *comp;
    char *text;         /**< the text report of this part */
    size_t textlen;
    FILE *f;
} grade_part;

typedef struct grade_report {
    int format;
    char system[64], form[32], submission[256];
    int nparts;
    grade_part part[2];
    char load_error[800]; /**< the submission could not be loaded: why */
    char skipped[200];    /**< why the second parameter set was not graded ("" when it was) */
} grade_report;

/** --format NAME; -1 when unknown. */
int grade_format_parse(const char *name);
/** Start the part titled \p title; the FILE its text goes to (stdout in text format), NULL when out of memory. */
FILE *grade_part_begin(grade_report *r, const char *title);
/** Close the part under way. */
void grade_part_end(grade_report *r);
/** Print the document of r->format to stdout (nothing in text format) for exit status \p status. */
void grade_report_emit(const grade_report *r, int status);
void grade_report_free(grade_report *r);
#endif
