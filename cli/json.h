/**
 * \file json.h
 * \brief `--format json` of the commands that print results: the option,
 *        the pieces every document is written with, and the documents
 *        shared by several commands. Each document is one JSON object whose
 *        member "schema" names its schema in docs/ (chartless-rhs/1 is
 *        docs/rhs.schema.json, and so on).
 *
 * Numbers of the working precision are written as JSON numbers with every
 * digit the precision carries (as the text output prints them), so a
 * reader that keeps decimals (Python's json.loads(s, parse_float=Decimal))
 * loses nothing; a value that is not a finite number is null.
 */
#ifndef CL_JSON_H
#define CL_JSON_H
#include <stdio.h>
#include "cl_types.h"
#include "cmd_system.h"

/**
 * Take `--format text|json` (or `--format=...`) out of argv; *json is 1 for
 * json. 0, or exit status 2 (message printed) for another value, a missing
 * one or the option given twice.
 */
int cl_json_take_format(int *argc, char **argv, int *json);

/** \p s as a JSON string (quotes, backslashes and control characters escaped). */
void cl_json_string(FILE *f, const char *s);
/** \p lead as it is (the separator and the key, e.g. `, "form": `), then \p s as cl_json_string(). */
void cl_json_member(FILE *f, const char *lead, const char *s);
/** As cl_json_member(), the value null when \p s is NULL or empty. */
void cl_json_member_or_null(FILE *f, const char *lead, const char *s);
/** \p x with the digits of its precision, or null when it is not a finite number. */
void cl_json_real(FILE *f, mpfr_srcptr x);
/** [x_0, ..., x_{n-1}] as cl_json_real(). */
void cl_json_reals(FILE *f, mpfr_srcptr x, size_t n);
/** A double to 6 significant digits, or null when not finite. */
void cl_json_double(FILE *f, double x);
/** `"system": ..., "form": ..., "bits": ...` for the open system \p cs (no braces). */
void cl_json_system_head(FILE *f, const cl_cmd_system *cs, long bits);
/** ["name", ...]: the names of the \p cs state components. */
void cl_json_component_names(FILE *f, const cl_cmd_system *cs);

/** {"schema": "chartless-rhs/1", the system head, "components": [names], "rhs": [dx]} of `chartless rhs`. */
void cl_json_rhs(FILE *f, const cl_cmd_system *cs, long bits, mpfr_srcptr dx);

/**
 * A CSV whose first lines may start with '#' (comments), then the column
 * names, then the rows, as the object {"schema": S, "comments": [the
 * comment lines without "# "], "columns": [...], "rows": [[...], ...]}: a
 * field that is a JSON number stays one, an empty field or a number that
 * is not finite ("nan", "inf", "-inf") is null, anything else a string.
 * 0, or -1 when \p in is not such a CSV (a row of another length).
 */
int cl_json_from_csv(FILE *in, FILE *out, const char *schema);

/**
 * Run a command that writes CSV on stdout (or into `--out FILE`) with
 * `--format json`: \p run is called with argv without `--out FILE`, its
 * stdout caught in a temporary file, and when it succeeds the CSV is
 * written as cl_json_from_csv() into --out (atomically) or on stdout.
 * Nothing is written when it fails. Its exit status.
 */
int cl_json_csv_command(int (*run)(int argc, char **argv), int argc, char **argv, const char *schema);

/** {"schema": "chartless-systems/1", "systems": [...]}: \p one, or every registered system when NULL. */
void cl_json_systems(FILE *f, const cl_system *one);
#endif
