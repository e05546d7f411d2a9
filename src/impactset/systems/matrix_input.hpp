#pragma once
// Matrix input: an impact state exported from another simulator (Drake, Pinocchio, MuJoCo ...)
// as JSON, {"M", "Jn", "D" or "Jf", "mu", "v_minus"} plus optional sampler settings.
#include <optional>
#include <string>

#include <impactset/impact/impact_problem.hpp>

namespace impactset::systems {

/// Sampler settings a problem file may carry (the paper's per-example h, N and sample count).
struct ProblemSettings {
  std::optional<double> step{};        ///< "h"
  std::optional<int> max_steps{};      ///< "N"
  std::optional<long long> samples{};  ///< "samples"
  /// The source documents no h and N of its own (matrix input, MuJoCo models): the ones it leaves
  /// out are scaled to the problem (engine::ProblemRunOptions), not set to fixed defaults.
  bool scale_missing_steps = false;
};

struct LoadedProblem {
  impact::ImpactProblem problem;
  ProblemSettings settings;
  std::string provenance;  ///< "provenance" key, if any
};

/// Parses the matrix-input JSON document. Keys: "M" (n rows of n), "Jn" (m rows of n),
/// "D" (m*k rows of n, rows grouped per contact and closed under negation) or, for planar
/// problems, "Jf" (m rows: D is built as (+Jf_i, -Jf_i)); both may be given if consistent;
/// neither when every mu is 0. "mu" (m numbers), "v_minus" (n numbers); optional "k"
/// (directions per contact, default D rows / m), "h", "N", "samples", "provenance".
/// Matrices are lists of rows.
/// @throws std::invalid_argument whose message starts with the JSON path ("/M/2/1: ...") for
///         malformed JSON, unknown keys, missing fields, wrong types, ragged rows, non-finite
///         numbers; and the ImpactProblem's own messages for inconsistent sizes, non-SPD M etc.
LoadedProblem ParseProblemJson(const std::string& text);

/// Reads a file and parses it with ParseProblemJson; the message is prefixed with the path.
LoadedProblem LoadProblemJson(const std::string& path);

}  // namespace impactset::systems
