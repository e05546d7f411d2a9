#pragma once
// Seghete & Murphey's single-impact maps and multi-contact plastic law in the kinetic-energy
// cometric <a, b>_g = a M^-1 b^T ([S-J] eqs. 4-11, 16-17; [S-C] eqs. 5-9). Frictionless: only M and
// Jn of an ImpactProblem are used; D and mu are ignored.
//
// Velocity form throughout: a momentum covector p = (M v)^T is handled as the velocity v, and
// every map Gamma below acts on velocities on the left, v+ = Gamma v- (M^-1 Gamma^T M = Gamma, so
// the same matrix maps row momenta on the right; docs/seghete-murphey.md). The contact normals
// Dphi_i are the rows of Jn, so <p, Dphi_i>_g = (Jn v)_i and
// Dphi_i M^-1 Dphi_j^T = (Jn M^-1 Jn^T)_ij.
#include <impactset/common/enum_names.hpp>
#include <string_view>

#include <impactset/impact/impact_problem.hpp>
#include <impactset/lcp/solver.hpp>

namespace impactset::laws {

/// The cometric quantities of a problem's contact normals ([S-J] eq. 5, §IV).
struct Cometric {
  /// @throws std::invalid_argument if a row of Jn is zero (no normal to normalise).
  explicit Cometric(const impact::ImpactProblem& problem);

  MatrixXd gram;      ///< G_ij = Dphi_i M^-1 Dphi_j^T (unnormalised), m x m
  VectorXd norms;     ///< ||Dphi_i||_g = sqrt(G_ii), m
  MatrixXd cosines;   ///< s_ij = <u_i, u_j>_g for the g-unit normals u_i = Dphi_i/||Dphi_i||_g
  MatrixXd minv_jnt;  ///< M^-1 Jn^T, n x m: column i is the velocity change of a unit impulse

  /// c_i = <p, u_i>_g = (Jn v)_i / ||Dphi_i||_g for p = (M v)^T; c_i < 0 is colliding ([S-J] 6).
  VectorXd UnitComponents(const impact::ImpactProblem& problem, const VectorRef& v) const;
};

/// ||p||_g = sqrt(v^T M v) for p = (M v)^T; the kinetic energy is ||p||_g^2 / 2.
double CometricNorm(const impact::ImpactProblem& problem, const VectorRef& v);

/// The restitution reflection matrix of [S-C] eq. (9) for a covector u (1 x n) and SPD M:
///   Gamma_e(u) = I - (1 + sqrt(e)) M^-1 u^T u / (u M^-1 u^T),   e in [0, 1].
/// e = 1 is the elastic Gamma of [S-J] eq. (7b) (an involution and a g-isometry), e = 0 the
/// single plastic projection. sqrt(e) is the Newtonian normal coefficient: <p+, u> = -sqrt(e)
/// <p-, u> ([S-C] §II). Acts on velocities on the left and on row momenta on the right.
/// @throws std::invalid_argument on size mismatch, u M^-1 u^T <= 0 or e outside [0, 1].
MatrixXd ReflectionMatrix(const MatrixRef& M, const VectorRef& u, double e = 1.0);

/// One single-contact impact over contact i in velocity form:
///   v+ = v - (1 + sqrt(e)) (Jn v)_i / G_ii M^-1 Dphi_i^T,
/// applied whatever the sign of (Jn v)_i. Returns v+; *lambda (optional) receives the multiplier
/// in [S-J] sign with the unnormalised normal, p+ = p- + lambda Dphi_i:
/// lambda = -(1 + sqrt(e)) (Jn v)_i / G_ii (> 0 when contact i was colliding; [S-J] eq. 5).
VectorXd ReflectOverContact(const impact::ImpactProblem& problem,
                            const Cometric& cometric,
                            const VectorRef& v,
                            int i,
                            double e = 1.0,
                            double* lambda = nullptr);

/// The multi-contact plastic law ([S-J] eqs. 10-11; docs/seghete-murphey.md, corrections).
enum class PlasticMode {
  /// Default. The g-projection of p- onto the feasible cone: p+ = p- + sum lambda_i Dphi_i,
  /// lambda >= 0, <p+, Dphi_i>_g >= 0, complementary (the frictionless impact LCP
  /// 0 <= lambda ⊥ G lambda + Jn v- >= 0; unique v+).
  kCone,
  /// [S-J] eqs. (10)-(11) as printed: the equality projection onto the common tangent space,
  /// lambda = -G^+ Jn v-. May return adhesive multipliers (lambda_i < 0), which the paper's
  /// claim lambda >= 0 overlooks (equal masses from (1, 0, 1)).
  kEquality
};
IMPACTSET_ENUM_NAMES(PlasticMode, "plastic mode", {E::kCone, "cone"}, {E::kEquality, "equality"})

inline std::string_view ToString(PlasticMode mode) { return EnumName(mode); }

enum class PlasticStatus {
  kSolved,     ///< v_plus is the law's outcome
  kLcpFailure  ///< kCone only: the LCP chain found no accepted solution (info says why)
};
IMPACTSET_ENUM_NAMES(PlasticStatus,
                     "plastic status",
                     {E::kSolved, "solved"},
                     {E::kLcpFailure, "lcp_failure"})

inline std::string_view ToString(PlasticStatus s) { return EnumName(s); }

struct PlasticResult {
  PlasticMode mode = PlasticMode::kCone;
  PlasticStatus status = PlasticStatus::kSolved;
  VectorXd v_plus;            ///< post-impact velocity (n)
  VectorXd lambda;            ///< multipliers, [S-J] sign, unnormalised normals (m)
  VectorXd contact_velocity;  ///< problem.ContactJacobian() * v_plus
  bool adhesive = false;      ///< some lambda_i < 0 (possible in kEquality only)
  int iterations = 0;         ///< LCP pivots (kCone); 0 for the closed form (kEquality)
  /// kCone: the LCP residual (Residual::Worst()); kEquality: max_i |(Jn v+)_i| for the contacts
  /// the projection constrains, relative to max(1, ||Jn v-||_inf).
  double residual = 0;
  double energy_ratio = 1;  ///< KE(v+) / KE(v-) (1 when KE(v-) = 0)
};

/// Resolves the plastic simultaneous impact of every contact of `problem` at velocity v.
/// @param solver  LCP solver for kCone; nullptr: an lcp::FallbackSolver.
/// @throws std::invalid_argument on a size mismatch.
PlasticResult ResolvePlastic(const impact::ImpactProblem& problem,
                             const VectorRef& v,
                             PlasticMode mode = PlasticMode::kCone,
                             lcp::Solver* solver = nullptr);

/// The blend coefficient of [S-J] eq. (17), p+ = alpha p_e + (1 - alpha) p_p.
enum class AlphaRule {
  kR,          ///< Default, corrected: alpha = R (R = 0 plastic, R = 1 elastic; from eq. 16)
  kPaperSqrt,  ///< paper-literal alpha = sqrt(1 - R^2) (makes R = 0 elastic; regression only)
};
IMPACTSET_ENUM_NAMES(AlphaRule, "alpha rule", {E::kR, "R"}, {E::kPaperSqrt, "sqrt(1-R^2)"})

inline std::string_view ToString(AlphaRule rule) { return EnumName(rule); }

/// alpha for energetic restitution R in [0, 1] ([S-J] eq. 16).
/// @throws std::invalid_argument if R is outside [0, 1].
double BlendAlpha(double R, AlphaRule rule = AlphaRule::kR);

/// The I-blend outcome alpha v_elastic + (1 - alpha) v_plastic ([S-J] eq. 17), alpha =
/// BlendAlpha(R, rule). Applied per elastic outcome when the elastic outcome is set-valued.
VectorXd BlendOutcome(const VectorRef& v_elastic,
                      const VectorRef& v_plastic,
                      double R,
                      AlphaRule rule = AlphaRule::kR);

}  // namespace impactset::laws
