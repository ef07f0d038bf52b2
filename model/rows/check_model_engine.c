/*
 * The model rows in the quick oracle: the short version (--quick) of one
 * row of a shipped model per part of the model engine, so that a mistake
 * anywhere in it fails `chartless oracle --quick` (and `make oracle`), not
 * only a shell test. Each check runs model.engine.MODEL.ROW as `oracle
 * --quick --model models/MODEL.model --check '*.ROW'` would (model_rows.c):
 *
 *   S1 x R1 (flat factors)        cart-pendulum.forms
 *   R1, L not quadratic           relativistic.legendre
 *   R1 x S2 (product engine)      cart-spherical.invariants, cart-spherical.eq.inverted
 *   SO(3) x SO(3)                 two-bodies.invariants
 *   SE(3)                         free-body.forms
 *   SE(3) x S2 with forces        quadrotor-load.forms, quadrotor-load.eq.hover, quadrotor-load.el
 *   Energy-Casimir                cart-spherical.ec.inverted
 *   constraints (R1, S1)          rolling-disk.constraints, rolling-disk.multipliers
 *   S2 with sums                  chain3.el
 *   S2 with L depending on t      pivot.el
 *   S2 with a force               damped.el
 *   S2 equilibria (eigenvalues)   spherical.eq.inverted
 *   let, matrix literals, t and a force on a product   let.forms, let.legendre (the model below)
 */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "model.h"

/* R1 x S2 written with lets (a vector, a 3x3 matrix literal), a force on the cart and a drive in t. */
static const char let_model[] = "manifold    x : R1\n"
                                "manifold    q : S2\n"
                                "parameters  M = 2, m = 1, l = 1.5, g = 9.81, b = 0.3, a = 0.2, nu = 3\n"
                                "let         D = [[1, 0, 0], [0, 1, 0], [0, 0, 2]]\n"
                                "let         v = [x', 0, 0] + l*q'\n"
                                "lagrangian  1/2*M*x'^2 + 1/2*m*dot(v, D*v) - m*g*l*q.z + a*cos(nu*t)*x\n"
                                "force       x = -b*x'\n";

/* Row \p suffix of the shipped model \p name (or of let_model when NULL); a failure to load said in the note. */
static int run_short(const char *name, const char *suffix, cl_check_result *res, cl_prec_t prec)
{
    cl_sys_error e;
    cl_model *m;
    int st = name ? cl_model_load_shipped(&m, name, &e) : cl_model_parse(&m, "let", let_model, sizeof let_model - 1, &e);
    if (st) {
        cl_check_begin(res);
        snprintf(res->note, sizeof res->note, "%.120s (%.70s)", e.what, e.arg);
        return st;
    }
    return cl_model_oracle_run_short(m, suffix, CL_T == CL_DOUBLE, res, prec);
}

#define WHY "as the row of `oracle --quick --model` (docs/models.md)"
#define ENGINE_CHECK(id, model, row, file, cnd)                                                                                  \
    CL_CHECK(model_engine_##id, "model.engine." model "." row, .chapter = "model", .tags = "",                                  \
             .what = "the short version of the row model." model "." row " of " file " (oracle --quick --model)", .cond = cnd, \
             .why = WHY)

ENGINE_CHECK(cart_pendulum_forms, "cart-pendulum", "forms", "models/cart-pendulum.model", 4096) { return run_short("cart-pendulum", "forms", res, prec); }
ENGINE_CHECK(relativistic_legendre, "relativistic", "legendre", "models/relativistic.model", 4096) { return run_short("relativistic", "legendre", res, prec); }
ENGINE_CHECK(cart_spherical_invariants, "cart-spherical", "invariants", "models/cart-spherical.model", 4096) { return run_short("cart-spherical", "invariants", res, prec); }
ENGINE_CHECK(cart_spherical_eq, "cart-spherical", "eq.inverted", "models/cart-spherical.model", 4096) { return run_short("cart-spherical", "eq.inverted", res, prec); }
ENGINE_CHECK(two_bodies_invariants, "two-bodies", "invariants", "models/two-bodies.model", 4096) { return run_short("two-bodies", "invariants", res, prec); }
ENGINE_CHECK(free_body_forms, "free-body", "forms", "models/free-body.model", 4096) { return run_short("free-body", "forms", res, prec); }
ENGINE_CHECK(quadrotor_forms, "quadrotor-load", "forms", "models/quadrotor-load.model", 4096) { return run_short("quadrotor-load", "forms", res, prec); }
ENGINE_CHECK(quadrotor_eq, "quadrotor-load", "eq.hover", "models/quadrotor-load.model", 4096) { return run_short("quadrotor-load", "eq.hover", res, prec); }
ENGINE_CHECK(quadrotor_el, "quadrotor-load", "el", "models/quadrotor-load.model", 4096) { return run_short("quadrotor-load", "el", res, prec); }
ENGINE_CHECK(cart_spherical_ec, "cart-spherical", "ec.inverted", "models/cart-spherical.model", 4096) { return run_short("cart-spherical", "ec.inverted", res, prec); }
ENGINE_CHECK(rolling_disk_constraints, "rolling-disk", "constraints", "models/rolling-disk.model", 4096) { return run_short("rolling-disk", "constraints", res, prec); }
ENGINE_CHECK(rolling_disk_multipliers, "rolling-disk", "multipliers", "models/rolling-disk.model", 4096) { return run_short("rolling-disk", "multipliers", res, prec); }
ENGINE_CHECK(chain3_el, "chain3", "el", "models/chain3.model", 4096) { return run_short("chain3", "el", res, prec); }
ENGINE_CHECK(pivot_el, "pivot", "el", "models/pivot.model", 4096) { return run_short("pivot", "el", res, prec); }
ENGINE_CHECK(damped_el, "damped", "el", "models/damped.model", 4096) { return run_short("damped", "el", res, prec); }
ENGINE_CHECK(spherical_eq, "spherical", "eq.inverted", "models/spherical.model", 4096) { return run_short("spherical", "eq.inverted", res, prec); }
ENGINE_CHECK(let_forms, "let", "forms", "a model of R1 x S2 with lets, a matrix literal, a force and L depending on t", 4096) { return run_short(NULL, "forms", res, prec); }
ENGINE_CHECK(let_legendre, "let", "legendre", "a model of R1 x S2 with lets, a matrix literal, a force and L depending on t", 4096) { return run_short(NULL, "legendre", res, prec); }
