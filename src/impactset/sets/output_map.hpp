#pragma once
// Output maps: the coordinates the nets, hulls, coverage and support polytopes are built in
// (`impactset run --output`, docs/cpp-library.md). An output is a linear map of the
// generalized velocity,
//
//   y = C v,   C: d x n,
//
// with a name under which its sets are stored (/net/<set>/<name>, docs/dataset-format.md). The
// built-in outputs are `contact` (C = J_c, the contact Jacobian: m normal velocities, then the
// tangential ones) and `generalized` (C = I); a run builds both unless told otherwise. MuJoCo
// models add `com` (centre-of-mass velocity, 3-D), `base` (the floating base's twist, 6-D) and
// `joints:NAME,...` (the named joint velocities); any C can be given as `matrix:FILE`.
//
//   const robots::MujocoProblem q = robots::LoadMujocoScene("quadruped");
//   engine::RunOptions o = engine::ScaledRunOptions(q.loaded.problem, q.loaded.settings);
//   o.set_options.outputs = sets::ParseOutputs({"com", "base"}, q.loaded.problem, &q);
//   const engine::RunResult r = engine::Run(q.loaded.problem, o, "quadruped");
//   const sets::PointSet* com = r.Find(sets::SetKind::kPostImpact, "com");
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <impactset/common/eigen_types.hpp>
#include <impactset/impact/impact_problem.hpp>
#include <impactset/robots/mujoco_model.hpp>

namespace impactset::sets {

/// What an output's C is.
enum class Coordinates {
  kContact,      ///< C = J_c (ImpactProblem::ContactJacobian): y is the sampler's contact velocity
  kGeneralized,  ///< C = I: y = v itself (never multiplied, so the sets are v's bit for bit)
  kMap           ///< any other C (com, base, joints, matrix:FILE, or one built in code)
};
/// "contact", "generalized", "map".
const char* ToString(Coordinates c);
/// "contact" or "generalized" (the built-in outputs' names). @throws std::invalid_argument.
Coordinates ParseCoordinates(std::string_view name);

/// One output: y = C v, stored under `name`.
struct OutputMap {
  /// The stored name: /net/<set>/<name>, PointSet::output. Non-empty, at most kMaxOutputName
  /// characters, no '/', not starting with '.', no control characters; unique within a run.
  std::string name;
  Coordinates kind = Coordinates::kMap;
  /// How it was asked for ("com", "joints:hip,knee", "matrix:C.csv"); stored for the reader.
  std::string spec;
  MatrixXd C;                                 ///< d x n, finite, d >= 1
  std::vector<std::string> coordinate_names;  ///< d names, one per row of C

  Eigen::Index dimension() const { return C.rows(); }
  /// y = C v for every column v of `velocities` (n x K). kGeneralized returns the columns
  /// themselves; kContact the product J_c v, which is how the sampler computes contact velocities.
  MatrixXd Apply(const MatrixXd& velocities) const;
  /// @param[in] n  the problem's n, when known: C must have n columns.
  /// @throws std::invalid_argument naming the output, the field and the rule.
  void Validate(std::optional<Eigen::Index> n = std::nullopt) const;
};

inline constexpr std::size_t kMaxOutputName = 200;

/// The built-in outputs. Coordinate names: `names` when given (a MuJoCo model's
/// contact_coordinate_names or dof_names), else "c<i>:n" for the normals and "c<i>:t" (k = 2) or
/// "c<i>:t1", "c<i>:t2" (k >= 4) for the tangential rows; "v<j>" for generalized velocities.
OutputMap ContactOutput(const impact::ImpactProblem& problem, std::vector<std::string> names = {});
OutputMap GeneralizedOutput(const impact::ImpactProblem& problem,
                            std::vector<std::string> names = {});
/// {contact, generalized}: what a run builds when SetOptions::outputs is empty.
std::vector<OutputMap> DefaultOutputs(const impact::ImpactProblem& problem);

/// Every output valid (Validate(n)) and the names distinct.
/// @throws std::invalid_argument naming the first output at fault.
void ValidateOutputs(const std::vector<OutputMap>& outputs, std::optional<Eigen::Index> n);

/// An output from its spec, optionally prefixed by a name ("NAME=SPEC"; default name: the spec,
/// or "matrix:<file stem>" for a matrix file):
///   contact | generalized                the built-ins (any problem)
///   com | base | joints:NAME,...         a MuJoCo model's (robots/model_outputs.hpp): `model`
///                                        must be given
///   matrix:FILE                          C read from a CSV file (ReadOutputMatrix)
/// @throws std::invalid_argument "output = SPEC: rule" for an unknown spec, a MuJoCo output
///         without a model, a model without a free joint (base), unknown joints (listing the
///         model's), an unreadable or misshapen matrix file (naming it), an invalid name.
OutputMap ParseOutput(const std::string& spec,
                      const impact::ImpactProblem& problem,
                      const robots::MujocoProblem* model = nullptr);
/// ParseOutput of each, then ValidateOutputs. An empty list gives an empty list (the defaults).
std::vector<OutputMap> ParseOutputs(const std::vector<std::string>& specs,
                                    const impact::ImpactProblem& problem,
                                    const robots::MujocoProblem* model = nullptr);

/// C from a CSV file: one row of C per line, numbers separated by commas (spaces around them are
/// ignored); blank lines and lines starting with '#' are skipped. Every row must have n numbers.
/// @throws std::invalid_argument "PATH: line L: rule" for an unreadable file, a field that is not
///         a finite number, a row of other than n numbers, or a file without rows.
MatrixXd ReadOutputMatrix(const std::string& path, Eigen::Index n);

}  // namespace impactset::sets
