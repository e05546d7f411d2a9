#pragma once
// Aghili's linear-projection-operator impact law ("Nonsmooth Mechanics Based on Linear Projection
// Operator"; equation numbers are the paper's, docs/aghili.md explains the law). Frictionless:
// every constraint in the impact Jacobian A is an *equality* during the impact, the post-impact
// velocity is the closed form (27)/(49) through the oblique projector S (10), and nothing keeps
// the impulses compressive (adhesive impulses are reported, not fixed; docs/aghili.md case T4).
// Implements the corrected equations of docs/aghili.md "Corrections to the paper"; the
// paper-literal Omega sign (6) is an option of the smooth-phase acceleration only (the one place
// where the corrections change a result).
#include <impactset/common/enum_names.hpp>
#include <vector>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::laws {

/// Which sign of Omega (6) the smooth-phase acceleration uses (docs/aghili.md, corrections).
enum class OmegaSign {
  kCorrected,     ///< Omega = Lambda - Lambda^T: a_perp = -A^+ (Adot qd). Default; satisfies
                  ///< A qdd + Adot qd = 0.
  kPaperLiteral,  ///< Omega = Lambda^T - Lambda as printed: a_perp = +A^+ (Adot qd). Wrong (T5).
};

struct AghiliOptions {
  /// Rank decision of A (the paper gives no tolerance): singular value sigma_i counts iff
  /// sigma_i > rank_tolerance * max(1, sigma_1). One decision serves P, Z and A^+. In [0, 1).
  /// Raise it (e.g. 1e-6) to treat nearly dependent contacts as redundant (T7).
  double rank_tolerance = 1e-10;
  /// Virtual mass nu of M_c = PMP + nu (I - P) (8). 0 (default): the mean nonzero eigenvalue
  /// tr(Z^T M Z)/(n - r), always inside the optimal interval (9f), or tr(M)/n when r = n.
  /// Results do not depend on nu except through roundoff: M_c^-1 P = (PMP)^+ (9c). >= 0.
  double nu = 0;
  /// Adhesion flag: unilateral impulse i_lambda_i < -impulse_tolerance * max(1, ||i_lambda||_inf)
  /// is reported as adhesive. > 0.
  double impulse_tolerance = 1e-9;
  /// Energy-gain flag: K+ - K- > energy_tolerance * max(K-, 1e-300). Also the eigenvalue margin
  /// of the consistency tests, relative to max(1, ||Q||). > 0.
  double energy_tolerance = 1e-9;
  /// Smooth-phase acceleration only (AghiliAcceleration); the impact map has no Omega.
  OmegaSign omega_sign = OmegaSign::kCorrected;
  /// @throws std::invalid_argument naming the field and the rule broken.
  void Validate() const;
};

/// The projection operators of one (M, A) pair (eqs. 5-11).
struct AghiliProjection {
  int n = 0;
  int rank = 0;               ///< r = rank(A) under AghiliOptions::rank_tolerance
  MatrixXd P;                 ///< I - A^+ A, orthogonal projector onto N(A)
  MatrixXd Z;                 ///< orthonormal basis of N(A), n x (n - r)
  MatrixXd U1;                ///< orthonormal basis of R(A), m x r (first r left singular vectors)
  MatrixXd A_pinv;            ///< Moore-Penrose pseudo-inverse with the same rank decision, n x m
  MatrixXd Mc;                ///< PMP + nu (I - P) (8), SPD
  MatrixXd S;                 ///< oblique projector I - Mc^-1 P M (10)
  MatrixXd Mo_pinv;           ///< Mc^-1 P = (PMP)^+ (9c)
  double nu = 0;              ///< the virtual mass used
  double nu_min = 0;          ///< smallest nonzero eigenvalue of PMP (= of Z^T M Z); 0 if r = n
  double nu_max = 0;          ///< largest eigenvalue of PMP; 0 if r = n
  double cond_Mc = 1;         ///< (61): max(nu, nu_max) / min(nu, nu_min)
  double sigma_max = 0;       ///< largest singular value of A (0 for A = 0 or m = 0)
  double sigma_min_kept = 0;  ///< smallest singular value counted in the rank (0 if r = 0)
  double sigma_max_dropped = 0;  ///< largest singular value treated as 0 (0 if none)
};

/// Builds the operators for M (n x n SPD) and A (m x n, any rank, m may be 0).
/// @throws std::invalid_argument naming M, A or an option when sizes, finiteness or the options
///         are wrong, or when M is not positive definite.
AghiliProjection BuildAghiliProjection(const MatrixRef& M,
                                       const MatrixRef& A,
                                       const AghiliOptions& options = {});

/// Restitution of the impact. `e` is used when `per_contact` and `matrix` are empty.
struct AghiliRestitution {
  /// Global Newton coefficient e in [0, 1] (21)-(27).
  double e = 0;
  /// Per-contact coefficients (42)-(43): size m, each in [0, 1]; E = diag(per_contact). Entries
  /// of bilateral rows must be 0.
  VectorXd per_contact;
  /// Full m x m matrix E (42) (any finite entries; bilateral rows and columns must be 0).
  /// Overrides per_contact when non-empty.
  MatrixXd matrix;
};

enum class AghiliStatus {
  kSolved,          ///< the requested restitution law holds: A v+ = -E A v- (to roundoff)
  kProjectedLaw,    ///< E A v- is not in R(A) (rank-deficient A with non-scalar E): the paper's
                    ///< least-squares law (46) A v+ = -(A A^+) E A v- was applied (case T3b)
  kIllConditioned,  ///< even the projected law (46) fails by more than 1e-8 relative: the rank
                    ///< decision or M is too ill-conditioned to trust v_plus
};
IMPACTSET_ENUM_NAMES(AghiliStatus,
                     "aghili status",
                     {E::kSolved, "solved"},
                     {E::kProjectedLaw, "projected_law"},
                     {E::kIllConditioned, "ill_conditioned"})

inline const char* ToString(AghiliStatus status) { return EnumName(status).data(); }

/// Outcome of one impact (eqs. 15-53). Closed form: no iterations.
struct AghiliResult {
  AghiliStatus status = AghiliStatus::kSolved;
  VectorXd v_plus;               ///< qd+ (27) or (49)
  VectorXd contact_velocity;     ///< A v+ (phidot+ of every row)
  VectorXd generalized_impulse;  ///< i_f = A^T i_lambda (30)/(50), n
  VectorXd impulse;              ///< i_lambda = A^{+T} i_f (minimum-norm split), m
  MatrixXd projected_inertia;    ///< K = S^T M S (32), symmetric PSD
  double energy_before = 0;      ///< K- = v-^T M v- / 2
  double energy_after = 0;       ///< K+
  double energy_change = 0;      ///< K+ - K- (W_loss when i_u = 0)
  double energy_ratio = 1;       ///< gamma = K+/K- (35); 1 when K- = 0
  bool energy_gain = false;      ///< K+ - K- above AghiliOptions::energy_tolerance (T4)
  std::vector<int> adhesive;     ///< unilateral rows with i_lambda_i < 0 beyond tolerance (T4)
  double residual = 0;           ///< ||A v+ + A A^+ E A v-||_inf / max(1, ||A v-||_inf) (46)
  double target_residual = 0;    ///< same with E in place of A A^+ E (0 unless kProjectedLaw)
  int iterations = 0;            ///< always 0: closed form
  int rank = 0;                  ///< diagnostics of the projection (see AghiliProjection)
  double sigma_min_kept = 0;
  double sigma_max_dropped = 0;
  double nu = 0;
  double cond_Mc = 1;
};

/// The impact map (27)/(30) for global e, (49)/(50) for E, with optional external impulse i_u.
/// Rows 0 .. bilateral_rows-1 of A are bilateral (never adhesive; restitution 0 by (43)).
/// Zero rows of A are inactive constraints (Gamma_ii = 0, eq. 2) and change nothing.
/// @param external_impulse  i_u (size n) or empty for 0.
/// @throws std::invalid_argument naming the field on bad sizes or values.
AghiliResult AghiliImpact(const MatrixRef& M,
                          const MatrixRef& A,
                          const VectorRef& v_minus,
                          const AghiliRestitution& restitution,
                          const VectorRef& external_impulse,
                          int bilateral_rows = 0,
                          const AghiliOptions& options = {});

/// The law on an ImpactProblem, ignoring friction (D, mu): A = the rows of Jn selected by the
/// activation rule (15)/(17) at v-: approaching contacts (Jn v- < -tol) and touching ones at rest
/// (|Jn v-| <= tol, already active, kept as equalities); separating rows are zeroed. tol =
/// 1e-12 * max(1, ||Jn v-||_inf). `restitution.per_contact` has size m. i_u = 0.
AghiliResult AghiliImpact(const impact::ImpactProblem& problem,
                          const AghiliRestitution& restitution,
                          const AghiliOptions& options = {});

/// Impact detection (15): Gamma*_i = phi_i <= tol and phidot_i < -tol (grazing does not count).
std::vector<bool> ImpactActivation(const VectorRef& phi, const VectorRef& phidot, double tol);

/// Smooth-phase dynamics (12)-(14): constrained acceleration, constraint force, multipliers.
struct AghiliAccelerationResult {
  AghiliStatus status = AghiliStatus::kSolved;
  VectorXd qdd;         ///< (12) = (13)
  VectorXd force;       ///< f = S^T (h - u) + S^T M a_perp (14)
  VectorXd lambda;      ///< A^{+T} f, minimum norm
  double residual = 0;  ///< max(||A qdd + Adot qd||_inf, ||M qdd + h - u - f||_inf), relative
  int rank = 0;
};

/// @param h  Coriolis/centrifugal/gravity on the left of (1a); @param u actuation (right side).
/// @param Adot_qd  (dA/dt) qd, size m, supplied by the model.
AghiliAccelerationResult AghiliAcceleration(const MatrixRef& M,
                                            const VectorRef& h,
                                            const VectorRef& u,
                                            const MatrixRef& A,
                                            const VectorRef& Adot_qd,
                                            const AghiliOptions& options = {});

/// Active-set rule (3) for unilateral rows: starting from `active`, repeatedly deactivate the
/// active unilateral row with the most negative lambda (< -impulse_tolerance scale) and recompute.
/// The paper gives no iteration for simultaneous deactivations (rule (3) is circular); this
/// one-at-a-time rule is ours. Rows 0 .. bilateral_rows-1 of A are bilateral and always active.
struct AghiliActiveSetResult {
  AghiliAccelerationResult acceleration;
  std::vector<bool> active;  ///< final Gamma (bilateral rows true)
  int iterations = 0;        ///< deactivations performed
};
AghiliActiveSetResult AghiliActiveSetAcceleration(const MatrixRef& M,
                                                  const VectorRef& h,
                                                  const VectorRef& u,
                                                  const MatrixRef& A,
                                                  const VectorRef& Adot_qd,
                                                  std::vector<bool> active,
                                                  int bilateral_rows = 0,
                                                  const AghiliOptions& options = {});

/// Energetic consistency of a restitution matrix E (53)-(56): no SDP, eigenvalue tests
/// (docs/aghili.md "Gaps and our choices" says why they suffice).
struct RestitutionConsistency {
  MatrixXd Q;                     ///< G^T M G, G = S A^+ (54); equals W^+ = (A M^-1 A^T)^+
  VectorXd full_eigenvalues;      ///< eig(Q - E^T Q E), ascending: QMI (55) <=> LMI (56)
  VectorXd range_eigenvalues;     ///< eig(U1^T (Q - EQE) U1): exact over phidot in R(A)
  VectorXd lmi_eigenvalues;       ///< eig([[Q, E G^T], [G E, M^-1]]) (56), ascending
  bool full_consistent = false;   ///< min full_eigenvalues >= -tol: W_loss <= 0 for all phidot
  bool range_consistent = false;  ///< min range_eigenvalues >= -tol (weaker, exact on R(A))
  bool lmi_consistent = false;    ///< min lmi_eigenvalues >= -tol (agrees with full_consistent)
};
/// @throws std::invalid_argument on size mismatch or non-finite E.
RestitutionConsistency CheckRestitutionConsistency(const MatrixRef& M,
                                                   const MatrixRef& A,
                                                   const MatrixRef& E,
                                                   const AghiliOptions& options = {});

/// Two contacts, E = diag(e1, e2), e_i in [0, 1] (derived from (55); docs/aghili.md): the QMI
/// holds iff (1 - e1^2)(1 - e2^2) >= rho^2 (1 - e1 e2)^2, rho = W_12 / sqrt(W_11 W_22).
bool TwoContactConsistent(double e1, double e2, double rho);

}  // namespace impactset::laws
