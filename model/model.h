/**
 * \file model.h
 * \brief Model files: a mechanical system written the way a paper writes it
 *        (configuration manifold, parameters, Lagrangian, invariants), read
 *        into an expression graph, and the model as a system of the command
 *        line (system.h) whose vector fields come from L through the exact
 *        derivatives of the expression engine (lagr_s2.h; lagr_so3.h and
 *        lagr_flat.h for SO(3), S¹ and Rᵏ factors).
 *
 * The grammar is documented at the top of model.c and on docs/models.md.
 */
#ifndef CL_MODEL_H
#define CL_MODEL_H
/* The rooms of model/, bottom up (docs/house.md); a room's sources include
   their room's and lower rooms' headers, never this one. */
#include "model_lang.h"   /* lang/: the parsed model */
#include "model_eom.h"    /* derive/: the equations of motion as a graph */
#include "field.h"        /* field/: field files, how a model's field is evaluated */
#include "model_system.h" /* load/: parse, load, the model as a system */
#include "model_rows.h"   /* rows/: the oracle's rows of a model */
#endif
