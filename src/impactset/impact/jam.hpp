#pragma once
// Jammed contact sets: when the contact normals positively span the velocity space, the only
// velocity with no contact approaching is v = 0 (docs/model.md "Jammed problems"). Every inelastic
// law then ends at v+ = 0, while Algorithm 1 would need impulses that grow without bound relative
// to the momentum (and the step pilot would raise h until the step LCPs lose their precision).
#include <impactset/impact/impact_problem.hpp>

namespace impactset::impact {

/// A jam is accepted when the normals' least positive combination y >= 1 leaves
/// ||Jn^T y||_{M^-1} below this fraction of ||y|| sqrt(||A_nn||): exact dependence (a box between
/// two walls) lands near 1e-16; a contact set that is only nearly jammed stays orders above.
inline constexpr double kJamTolerance = 1e-9;

/// What DetectJam found.
struct JamReport {
  /// {v : Jn v >= 0} = {0}: Jn has full column rank n and some y > 0 has Jn^T y = 0.
  bool jammed = false;
  int rank = 0;  ///< column rank of Jn (jammed needs n)
  /// ||Jn^T y||_{M^-1} / (||y|| sqrt(||A_nn||_2)) for the y >= 1 that minimises it: 0 when the
  /// normals balance exactly, near 0 when the set is nearly jammed, +inf when not computed
  /// (rank below n, or the LCP unsolved).
  double balance = 0;
};

/// Whether the problem's contacts jam it. Solves one m x m LCP (the QP min ||Jn^T y||^2_{M^-1}
/// over y >= 1) when Jn has full column rank; cheap otherwise.
JamReport DetectJam(const ImpactProblem& problem);

}  // namespace impactset::impact
