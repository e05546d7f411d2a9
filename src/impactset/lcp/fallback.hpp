#pragma once
// The fallback chain: native Lemke -> native Lemke on other paths -> Siconos Lemke -> proximal
// steps on regularised LCPs -> extended-precision Lemke on the equilibrated LCP -> enumeration
// (small n), with honest counts (docs/model.md §4.5).
#include <array>
#include <impactset/common/enum_names.hpp>
#include <memory>
#include <string_view>
#include <vector>

#include <impactset/lcp/enumerate.hpp>
#include <impactset/lcp/extended_lemke.hpp>
#include <impactset/lcp/lemke.hpp>
#include <impactset/lcp/proximal_lemke.hpp>
#include <impactset/lcp/siconos_lemke.hpp>

namespace impactset::lcp {

/// Options of FallbackSolver.
struct FallbackOptions {
  LemkeOptions native;  ///< link 1
  /// Links 2 ...: the native Lemke again with these covering-vector perturbations (each walks a
  /// different pivot path; see LemkeOptions::covering_perturbation). Empty disables them.
  std::vector<double> native_alt_perturbations = {1.0, 0.5, 3.0};
  bool use_siconos = true;  ///< next link, after the perturbed native ones: Siconos' Lemke
  SiconosLemkeOptions siconos;
  /// Next link: proximal-point steps, each the native Lemke on the LCP with its diagonal lifted
  /// (lcp/proximal_lemke.hpp), for step LCPs whose dependent contact rows tie exactly and whose
  /// scale defeats the pivot tests. Cheap next to the extended link; runs only where every
  /// earlier link failed.
  bool use_proximal = true;
  ProximalLemkeOptions proximal;
  /// Next link: Lemke in long double on the equilibrated LCP (lcp/extended_lemke.hpp), for the
  /// step LCPs double precision loses (dependent contact rows, condition numbers near 1e10, large
  /// mu). It runs only where every earlier link failed.
  bool use_extended = true;
  ExtendedLemkeOptions extended;
  bool use_enumeration = true;     ///< last link, only for n <= enumeration.max_size
  EnumerationOptions enumeration;  ///< max_size 20 by default (about 1e6 bases, ~1 s)
  void Validate() const;
};

/// How often each link produced the accepted answer; failures = no link did.
struct FallbackCounters {
  /// Indexed by SolverId (kNone unused): one count per name in SolverId's table.
  std::array<long long, EnumNamesOf(SolverId{}).names.size()> solved_by{};
  long long failures = 0;
  long long solves = 0;
  long long two_part = 0;  ///< answers in two parts (SolveInfo::low_part), all by the extended link
  long long SolvedBy(SolverId id) const { return solved_by[static_cast<int>(id)]; }
  void Add(const FallbackCounters& o);
};

/// Tries each link until one returns kSolved. The SolveInfo names the link that succeeded
/// (solver) and how many were tried (attempts). If all fail, solver = kNone, the status is the
/// first link's and z is the iterate with the smallest residual. Through Solver's two-part Solve,
/// the extended link may answer in two parts (SolveInfo::low_part). Not thread-safe: one per
/// thread.
class FallbackSolver final : public TwoPartSolver {
 public:
  explicit FallbackSolver(const FallbackOptions& options = {});
  SolverId id() const override { return SolverId::kChain; }
  const FallbackCounters& counters() const { return counters_; }

  void Reserve(Eigen::Index n) override;
  /// The native link's basis when the native link gave the last answer; false otherwise.
  bool FinalBasis(std::vector<int>* z_basic) const override;

 private:
  // With kCallerValidated the chain skips its entry check; the links after the native one (rare)
  // still check their own input.
  SolveInfo Run(const MatrixRef& M,
                const VectorRef& q,
                VectorXd* z,
                VectorXd* low_part,
                InputCheck check) override;
  FallbackOptions options_;
  LemkeSolver native_;
  std::vector<std::unique_ptr<LemkeSolver>> native_alt_;
  std::unique_ptr<SiconosLemkeSolver> siconos_;
  std::unique_ptr<ProximalLemkeSolver> proximal_;
  std::unique_ptr<ExtendedLemkeSolver> extended_;
  std::unique_ptr<EnumerationSolver> enumeration_;
  FallbackCounters counters_;
  VectorXd best_z_;
  std::vector<Solver*> links_;    // the links after native_, built by the constructor
  Eigen::Index reserved_n_ = -1;  // size the native links' workspaces were last reserved for
  bool native_answered_ = false;  // the last answer was native_'s
};

/// The solvers a run can be configured with.
enum class SolverKind {
  kChain,       ///< FallbackSolver with default options: native, perturbed native, Siconos, ...
  kNative,      ///< LemkeSolver alone
  kSiconos,     ///< SiconosLemkeSolver alone
  kEnumeration  ///< EnumerationSolver alone (small problems only)
};
IMPACTSET_ENUM_NAMES(SolverKind,
                     "lcp",
                     {E::kChain, "chain"},
                     {E::kNative, "native"},
                     {E::kSiconos, "siconos"},
                     {E::kEnumeration, "enumeration"})
inline const char* ToString(SolverKind kind) { return EnumName(kind).data(); }
inline SolverKind ParseSolverKind(std::string_view name) { return ParseEnum<SolverKind>(name); }

/// Creates a solver of that kind.
std::unique_ptr<Solver> MakeSolver(SolverKind kind);
/// MakeSolver with these options for the native Lemke (kNative, and the chain's native links).
std::unique_ptr<Solver> MakeSolver(SolverKind kind, const LemkeOptions& native);
/// MakeSolver(ParseSolverKind(name)).
std::unique_ptr<Solver> MakeSolver(std::string_view name);

}  // namespace impactset::lcp
