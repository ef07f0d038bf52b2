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
 *
 * and the rows MODEL.graph (model_rows_graph.c: the graph that eom, taylor
 * and compiled fields run against the interpreting engine's field and
 * multipliers) and MODEL.constraints where the graph's paths part:
 *
 *   Hamilton's equations          henon-heiles.graph (R1 x R1), ham-sphere.graph (S2 x R1, below)
 *   the Schur complement (H constant), holonomic constraints moving with t
 *                                 hoop-bead.graph, hoop-bead.constraints
 *   nonholonomic constraints      rolling-disk.graph
 *   the bordered solve (H not constant), a nonholonomic constraint moving with t
 *                                 bordered.graph (below)
 */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "model_ext.h"
#include "model_rows.h"

/* R1 x S2 written with lets (a vector, a 3x3 matrix literal), a force on the cart and a drive in t. */
static const char let_model[] = "manifold    x : R1\n"
                                "manifold    q : S2\n"
                                "parameters  M = 2, m = 1, l = 1.5, g = 9.81, b = 0.3, a = 0.2, nu = 3\n"
                                "let         D = [[1, 0, 0], [0, 1, 0], [0, 0, 2]]\n"
                                "let         v = [x', 0, 0] + l*q'\n"
                                "lagrangian  1/2*M*x'^2 + 1/2*m*dot(v, D*v) - m*g*l*q.z + a*cos(nu*t)*x\n"
                                "force       x = -b*x'\n";

/* A Hamiltonian on S2 x R1: the sphere's terms of Hamilton's equations, mu' = -P dH/dq + dH/dmu x (mu x q), coupled to a line. */
static const char ham_sphere_model[] = "manifold    q : S2\n"
                                       "manifold    x : R1\n"
                                       "parameters  m = 1.2, l = 0.9, g = 9.81, k = 2\n"
                                       "hamiltonian 1/(2*m*l^2)*dot(mu_q, mu_q) + p_x^2/2 + m*g*l*q.z + k*x*q.x + x^2/2\n";

/* A velocity Hessian that depends on the state (the bordered solve) with a constraint moving with t that reaches both coordinates. */
static const char bordered_model[] = "manifold    r, th : R1\n"
                                     "parameters  m = 1.5, k = 3, a = 0.7, w = 2\n"
                                     "lagrangian  m/2*(r'^2 + r^2*th'^2) - k/2*r^2\n"
                                     "constraint  roll = r' + a*r*th' - 0.3*sin(w*t)\n";

/* Row \p suffix of the shipped model \p name, or of the model \p text (named \p name) when given; a failure to load said in the note. */
static int run_model(const char *name, const char *text, size_t len, const char *suffix, cl_check_result *res, cl_prec_t prec)
{
    cl_sys_error e;
    cl_model *m;
    int st = text ? cl_model_parse(&m, name, text, len, &e) : cl_model_load_shipped(&m, name, &e);
    if (st) {
        cl_check_begin(res);
        snprintf(res->note, sizeof res->note, "%.120s (%.70s)", e.what, e.arg);
        return st;
    }
    return cl_model_oracle_run_short(m, suffix, CL_T == CL_DOUBLE, res, prec);
}

/* Row \p suffix of the shipped model \p name (or of let_model when NULL). */
static int run_short(const char *name, const char *suffix, cl_check_result *res, cl_prec_t prec)
{
    return name ? run_model(name, NULL, 0, suffix, res, prec) : run_model("let", let_model, sizeof let_model - 1, suffix, res, prec);
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
ENGINE_CHECK(henon_heiles_graph, "henon-heiles", "graph", "models/henon-heiles.model", 4096) { return run_short("henon-heiles", "graph", res, prec); }
ENGINE_CHECK(spring_simplify, "spring", "simplify", "models/spring.model", 4096) { return run_short("spring", "simplify", res, prec); }
ENGINE_CHECK(hoop_bead_simplify, "hoop-bead", "simplify", "models/hoop-bead.model", 4096) { return run_short("hoop-bead", "simplify", res, prec); }
ENGINE_CHECK(ham_sphere_graph, "ham-sphere", "graph", "a Hamiltonian model on S2 x R1", 4096) { return run_model("ham-sphere", ham_sphere_model, sizeof ham_sphere_model - 1, "graph", res, prec); }
ENGINE_CHECK(hoop_bead_graph, "hoop-bead", "graph", "models/hoop-bead.model", 4096) { return run_short("hoop-bead", "graph", res, prec); }
ENGINE_CHECK(hoop_bead_constraints, "hoop-bead", "constraints", "models/hoop-bead.model", 4096) { return run_short("hoop-bead", "constraints", res, prec); }
ENGINE_CHECK(rolling_disk_graph, "rolling-disk", "graph", "models/rolling-disk.model", 4096) { return run_short("rolling-disk", "graph", res, prec); }
ENGINE_CHECK(bordered_graph, "bordered", "graph", "a model on R1 x R1 whose velocity Hessian depends on r, with a constraint moving with t", 4096) { return run_model("bordered", bordered_model, sizeof bordered_model - 1, "graph", res, prec); }
