/* Templated prototypes of energy_casimir.c. */

/**
 * \brief Energy–Casimir test at an equilibrium (see energy_casimir.h).
 *
 * \param rep   the verdict and its numbers.
 * \param c     k outputs: the multipliers c_j (least squares).
 * \param Z     NULL, or n·(n−k) outputs: orthonormal basis of ker[DC_j]ᵀ,
 *              row-major n×(n−k).
 * \param Hr    NULL, or (n−k)² outputs: Zᵀℋ Z, row-major.
 * \param eig   NULL, or n−k outputs: eigenvalues of Zᵀℋ Z, ascending (cl_eig()).
 * \param DE    n entries: Dℰ(ζ₀).
 * \param DC    k·n entries, row j is DC_j(ζ₀).
 * \param HE    n·n entries: D²ℰ(ζ₀).
 * \param HC    k·n·n entries, block j is D²C_j(ζ₀).
 * \param zero_tol the factor f of cl_sym_inertia(): an eigenvalue counts as
 *              zero within f·(n−k)·2^(1−p)·max_ij |(Zᵀℋ Z)_ij|; f ≤ 0 asks
 *              for a pure sign decision (f = 10⁻³⁰⁰).
 * \return 0; CL_EDIM (n < 1, n > CL_EC_NMAX, k < 0 or k ≥ n); CL_ENAN (a
 *         non-finite input); CL_ESINGULAR when the DC_j are linearly
 *         dependent to working precision (min |R_jj| ≤ 64·n·2^(1−p)·max |R_jj|,
 *         or cl_nullspace() finds a null space of dimension ≠ n − k);
 *         CL_ENOMEM; CL_ENOCONV from cl_eig(). Balls: an inertia that
 *         cannot be proven is not an error (rep->undecided > 0, 0 returned);
 *         CL_EUNDECIDED only from cl_eig() when \p eig is asked for.
 */
int CL_FN(cl_energy_casimir)(cl_ec_report *rep, cl_rptr c, cl_rptr Z, cl_rptr Hr, cl_rptr eig,
                             cl_rsrc DE, cl_rsrc DC, cl_rsrc HE, cl_rsrc HC, int n, int k, double zero_tol);

