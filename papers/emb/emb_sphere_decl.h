/* Templated declarations of emb_sphere.c ([EMB §3.3]); included once per scalar kind. */

/**
 * Euler–Lagrange equation on S² [EMB (3.5)] for the spherical pendulum
 * (cl_emb_pendulum with d = 3),
 * \f$ (I - xx^T)\{ m\ell^2\ddot x + m g\ell e_3 \} = 0 \f$, with the normal
 * part \f$ xx^T\ddot x = -\|\dot x\|^2 x \f$:
 * \f[ \ddot x = -\frac{g}{\ell}(I - xx^T)e_3 - \|\dot x\|^2 x
 *            = \frac{g}{\ell}\, x\times(x\times e_3) - \|\dot x\|^2 x. \f]
 * Returns 0 or CL_EDIM when \p p is not on S².
 */
int CL_FN(cl_emb_sphere_el_accel)(const CL_FN(cl_emb_pendulum) *p, cl_rptr a, cl_rsrc x, cl_rsrc v);

/**
 * Hamilton's equations on S² [EMB (3.6)] for any Hamiltonian, given its
 * gradients H_x, H_μ at (x, μ):
 * \f[ \dot x = (I - xx^T) H_\mu, \qquad
 *     \dot\mu = -(I - xx^T) H_x + (x\times\mu)\times H_\mu, \f]
 * using (μxᵀ − xμᵀ)z = (x × μ) × z. Outputs may alias inputs.
 */
void CL_FN(cl_emb_sphere_hamilton)(cl_rptr xdot, cl_rptr mudot, cl_rsrc x, cl_rsrc mu, cl_rsrc hx, cl_rsrc hmu);
