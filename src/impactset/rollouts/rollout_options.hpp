#pragma once
// Every option of a rollout, declared once: `impactset rollout`'s flags and help and the Python
// keywords of impactset.rollout iterate over RolloutOptionFields(); defaults are RolloutOptions{}'s
// member initialisers, read back through each row.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <impactset/rollouts/rollout.hpp>

namespace impactset::rollouts {

/// The kind of value an option takes.
enum class RolloutOptionType {
  kFlag,    ///< true or false: --NAME and --no-NAME
  kNumber,  ///< one number
  kList,    ///< numbers separated by commas (a Python sequence)
  kText     ///< text; repeatable options take it once per occurrence (a Python list)
};

struct RolloutOptionField {
  std::string_view name;  ///< Python keyword, JSON key
  std::string_view flag;  ///< command-line flag
  RolloutOptionType type;
  bool repeatable;  ///< given once per value (--metric)
  /// Stored in rollout files (/options). Not threads, which changes no result: the files are
  /// the same at any thread count.
  bool stored;
  /// Also an option of a batch of rollouts (`impactset batch --rollouts`). Not seed, threads and
  /// delta, which are the batch's own options there (state i's seed is batch::StateSeed), nor
  /// record_every: a batch stores rows of a fixed size.
  bool in_batch;
  std::string_view doc;  ///< one line
  /// The value in these options as text, as `set` reads it back and files store it; empty: none
  /// (ctrl and pd_posture unless those controls are chosen; no metric).
  std::string (*get)(const RolloutOptions&);
  /// Sets the option from one value's text (a kFlag: "true" or "false"; a repeated option once
  /// per value). @throws std::invalid_argument "FLAG = TEXT: rule".
  void (*set)(RolloutOptions*, const std::string&);
};

/// Every option, in the order help lists them.
const std::vector<RolloutOptionField>& RolloutOptionFields();
/// The default every surface shows: the row's value in RolloutOptions{}.
std::string RolloutDefault(const RolloutOptionField& field);

/// Options from RolloutOptions{} and the values given, by row name and as text, in the order
/// given (a repeatable option once per value). Not validated against a model (Validate).
/// @throws std::invalid_argument for an unknown name, a value its row refuses, or both ctrl and
///         pd_posture (spelled by `surface`: "flag" names the flags, else the keywords).
enum class RolloutSurface { kCommandLine, kPython };
RolloutOptions ParseRolloutOptions(const std::vector<std::pair<std::string, std::string>>& given,
                                   RolloutSurface surface = RolloutSurface::kCommandLine);

}  // namespace impactset::rollouts
