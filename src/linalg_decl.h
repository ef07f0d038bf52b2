/* Templated prototypes of linalg.c: small dense linear algebra.
 *
 * Matrices are row-major vectors of scalars with explicit dimensions (int,
 * at least 1 unless stated). Temporaries take the precision of the first
 * scalar output (of the matrix itself for in-place routines, of A for
 * cl_sym_inertia); inputs are read at whatever precision they carry. Working precision p means 2^(1−p) is the
 * spacing of the scalars just above 1 (2^-52 for double).
 *
 * Allocation: cl_lu_factor, cl_lu_solve, cl_lu_det, cl_qr, the cl_mat_*
 * routines, and cl_linsolve for n ≤ 16 at ≤ 4096 bits allocate nothing
 * (cl_linsolve keeps its copy of A on the stack). cl_linsolve otherwise,
 * cl_nullspace, cl_sym_inertia and cl_eig allocate one block with
 * cl_rvec_new per call and free it before returning; keep them out of
 * right-hand sides.
 */

/** C = A B, with A m×k, B k×n, C m×n. C must not overlap A or B. */
void CL_FN(cl_mat_mul)(cl_rptr C, cl_rsrc A, cl_rsrc B, int m, int k, int n);

/** y = A x, with A m×n, x of length n, y of length m. y must not overlap A or x. */
void CL_FN(cl_mat_vec)(cl_rptr y, cl_rsrc A, cl_rsrc x, int m, int n);

/**
 * B = Aᵀ, with A m×n and B n×m. B may be A itself only when m = n
 * (square in-place transpose); otherwise B must not overlap A.
 */
void CL_FN(cl_mat_transpose)(cl_rptr B, cl_rsrc A, int m, int n);

/** A = I (n×n). */
void CL_FN(cl_mat_identity)(cl_rptr A, int n);

/**
 * LU factorization with partial pivoting, in place: P A = L U, L unit lower
 * triangular (below the diagonal of A), U upper triangular (on and above).
 *
 * perm (n ints) records the row interchanges LAPACK-style: at step k, row k
 * was exchanged with row perm[k] ≥ k.
 *
 * Singularity rule: with τ = n·2^(1−p)·max_ij |A_ij| (A as given), the
 * factorization stops with CL_ESINGULAR at the first step whose pivot (the
 * largest |entry| of the remaining column) satisfies |pivot| ≤ τ; this
 * includes the zero pivot and the zero matrix. A is then partly
 * overwritten. At precisions so low that n·2^(1−p) ≥ 1 (2 bits for n ≥ 2)
 * τ reaches max|A| and every matrix is singular by this rule.
 *
 * Returns 0, CL_EDIM (n < 1), CL_ENAN (NaN or infinity in A) or
 * CL_ESINGULAR. Allocates nothing.
 */
int CL_FN(cl_lu_factor)(cl_rptr A, int *perm, int n);

/**
 * Solve A X = B from the factors of cl_lu_factor(): b is n×nrhs row-major
 * and is overwritten by X. Allocates nothing.
 *
 * Returns 0, CL_EDIM (n < 1, nrhs < 1, or a perm entry outside [k, n)) or
 * CL_ENAN (NaN or infinity in b).
 */
int CL_FN(cl_lu_solve)(cl_rsrc LU, const int *perm, cl_rptr b, int n, int nrhs);

/**
 * det = det A from the factors of cl_lu_factor(): the product of the
 * diagonal of U times (−1)^(number of k with perm[k] ≠ k).
 * Returns 0 or CL_EDIM.
 */
int CL_FN(cl_lu_det)(cl_rptr det, cl_rsrc LU, const int *perm, int n);

/**
 * Solve A x = b (A n×n, b and x of length n) by a copy of A factored with
 * cl_lu_factor() at the precision of x. A and b are unchanged; x may be b.
 * Returns the codes of cl_lu_factor() (CL_ESINGULAR by the same rule), or
 * CL_ENAN for NaN in b, CL_ENOMEM when a heap copy cannot be
 * allocated.
 */
int CL_FN(cl_linsolve)(cl_rptr x, cl_rsrc A, cl_rsrc b, int n);

/**
 * x = T⁻¹ b for a symmetric positive definite tridiagonal T with diagonal
 * \p d (n numbers) and off-diagonal \p e (n − 1 numbers, \f$e_i = T_{i,i+1}\f$),
 * by the Thomas algorithm: Gaussian elimination without pivoting, stable
 * for SPD matrices, O(n). \p c is scratch of n − 1 numbers. x may alias b;
 * nothing else may overlap. Allocates nothing.
 * \return 0, or CL_ESINGULAR when a pivot is not positive (T is not SPD
 *         to working precision) or not a number.
 */
int CL_FN(cl_tridiag_spd_solve)(cl_rptr x, cl_rptr c, cl_rsrc d, cl_rsrc e, cl_rsrc b, size_t n);

/**
 * Householder QR of a general m×n matrix: A = Q R with Q m×m orthogonal
 * and R m×n upper triangular (entries below the diagonal exactly zero).
 * Reflections are applied for k < min(m − 1, n); the diagonal of R may have
 * either sign. R may be A itself (in place); Q must not overlap A or R.
 * Returns 0, CL_EDIM or CL_ENAN. Allocates nothing.
 */
int CL_FN(cl_qr)(cl_rptr Q, cl_rptr R, cl_rsrc A, int m, int n);

/**
 * Orthonormal basis of the null space {x : A x = 0} of A (m×n).
 *
 * Method: Householder QR with column pivoting of Aᵀ (n×m): Aᵀ P = Q R. The
 * rank r is the number of pivoting steps taken before the largest remaining
 * column norm falls to τ = f·max(m, n)·2^(1−p)·c₀, where c₀ is the largest
 * row norm of A (≤ ‖A‖₂) and f = \p rank_tol_factor (16 when ≤ 0). The
 * basis is the last n − r columns of Q.
 *
 * On return *k = n − r and N holds the n×k basis row-major (row stride k),
 * so that N has orthonormal columns and A N ≈ 0. N must have room for n·n
 * scalars. m = 0 is allowed (N = I, k = n).
 *
 * Returns 0, CL_EDIM (m < 0 or n < 1), CL_ENAN or CL_ENOMEM.
 */
int CL_FN(cl_nullspace)(cl_rptr N, int *k, cl_rsrc A, int m, int n, double rank_tol_factor);

/**
 * Inertia of a symmetric matrix: the numbers of positive, negative and zero
 * eigenvalues, by the symmetric indefinite factorization P A Pᵀ = L D Lᵀ
 * with Bunch–Kaufman pivoting (1×1 and 2×2 blocks in D) and Sylvester's law
 * of inertia (A and D have the same inertia).
 *
 * Only the lower triangle of A (i ≥ j) is read. With
 * \f$τ = f\,n\,2^{1-p}\max_{i\ge j}|A_{ij}|\f$ and f = \p zero_tol_factor (16 when
 * ≤ 0), a step whose candidate pivots (|a_kk| and the largest |entry| below
 * it) are all ≤ τ counts one zero eigenvalue and drops that row and column;
 * an eigenvalue of a 1×1 or 2×2 block of D with |λ| ≤ τ also counts as zero.
 * "Zero" thus means zero to within rounding of a matrix of norm ‖A‖; an
 * eigenvalue much larger than τ times the growth of the factorization
 * (bounded by Bunch–Kaufman) keeps its sign. When f·n·2^(1−p) ≥ 1 (a few
 * bits) τ ≥ max|A| and every eigenvalue counts as zero.
 *
 * Balls (the `_arb` kind): pivoting picks the entry of largest lower bound
 * (r_cmpabs()), and a sign is counted only when proven: a pivot (or an
 * eigenvalue of a 2×2 block) whose ball contains zero without lying inside
 * [−τ, τ] stops the factorization with CL_EUNDECIDED, and a pivot of proven
 * sign counts as that sign even inside [−τ, τ] (its column is then
 * eliminated, not dropped). The counts are then
 * the signs proven so far (*npos, *nneg are lower bounds: by Sylvester's law
 * the exact matrix has at least that many positive and negative eigenvalues)
 * and *nzero = n − *npos − *nneg counts the undecided ones. Every proven
 * pivot is non-zero, so the exact factorization with the same pivot order
 * exists and its D has the counted signs. In double and MPFR a sign is
 * always decided and CL_EUNDECIDED never returned.
 *
 * Returns 0, CL_EDIM, CL_ENAN, CL_ENOMEM or CL_EUNDECIDED (balls only).
 */
int CL_FN(cl_sym_inertia)(int *npos, int *nneg, int *nzero, cl_rsrc A, int n, double zero_tol_factor);

/**
 * Eigenvalues of the symmetric 2×2 matrix H (row-major, H[1] and H[2]
 * averaged), smaller first:
 * \f[ λ_{1,2} = m \mp \sqrt{\big(\tfrac{a - d}{2}\big)^2 + b^2},\quad
 *     m = \tfrac{a + d}{2},\ b = \tfrac{H_{12} + H_{21}}{2}. \f]
 * eig may not overlap H. Allocates nothing.
 */
void CL_FN(cl_sym2_eig)(cl_rptr eig, cl_rsrc H);

/**
 * Eigenvalues wr[i] + i·wi[i] of a real n×n matrix A (not symmetric in
 * general), at the precision of wr.
 *
 * Method: balancing by exact powers of 2 (Parlett–Reinsch, as EISPACK
 * balanc), Householder reduction to upper Hessenberg form, then the Francis
 * double-shift QR iteration of EISPACK hqr. A subdiagonal entry h(l,l−1) is
 * set to zero when |h(l,l−1)| ≤ 2^(1−p)·(|h(l−1,l−1)| + |h(l,l)|), and two
 * consecutive small subdiagonals start a sweep by the same relative rule
 * with 2^(1−p). Exceptional shifts are taken after E and 2E iterations on
 * one eigenvalue, E = 10 + 2·⌈log2(p/53)⌉ (E = 10 in double), and 3E
 * iterations without deflation give CL_ENOCONV.
 *
 * Order: by increasing real part, ties by increasing imaginary part, so a
 * complex pair a ± bi (b > 0) appears as a − bi then a + bi. The two
 * members of a pair are exact conjugates.
 *
 * Accuracy: backward stable, so an eigenvalue of condition κ is accurate to
 * about κ·n·2^(1−p)·‖A‖.
 *
 * Balls (the `_arb` kind): certified enclosures instead, by Rump's method
 * around a QR approximation (Arb's acb_mat_approx_eig_qr() and
 * acb_mat_eig_multiple(), as acb_mat_eig_simple_rump() for simple
 * eigenvalues): every exact eigenvalue λ of every matrix in the input balls
 * has Re λ ∈ wr[i] and Im λ ∈ wi[i] for its i, eigenvalues of a cluster that
 * cannot be separated (a multiple eigenvalue, approximations within
 * 2^(−p/2)·max(1, |λ|)) share one enclosure, verified on the cluster's
 * invariant subspace (acb_mat_eig_enclosure_rump()) and disjoint from the
 * other clusters' enclosures, and the order is by real part where r_cmp()
 * proves it. CL_EUNDECIDED when the
 * enclosure cannot be verified at the working precision.
 *
 * Returns 0, CL_EDIM, CL_ENAN, CL_ENOMEM or CL_ENOCONV (wr, wi then hold
 * no meaningful values); CL_EUNDECIDED for balls.
 */
int CL_FN(cl_eig)(cl_rptr wr, cl_rptr wi, cl_rsrc A, int n);
