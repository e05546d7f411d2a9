#include <impactset/engine/option_table.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include <impactset/common/enum_names.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>
#include <impactset/engine/step_scaling.hpp>

namespace impactset::engine {
namespace {

using V = std::optional<OptionValue>;
// A batch's options are the same on the command line and in Python.
constexpr unsigned kBatch = kBatchCommand | kPythonBatch;
constexpr unsigned kAll = kRunCommand | kBatch | kPythonSample | kPythonRun;
constexpr unsigned kSetSurfaces = kRunCommand | kBatch | kPythonRun | kPythonSets;

// Typed access to a value the table's own code built: SetOption has checked its type.
template <typename T>
T As(const V& v) {
  return std::get<T>(*v);
}

std::vector<std::string> SolverChoices() {
  // The enumeration solver is exponential in m: a test oracle, not a run's solver.
  return {std::string(EnumName(lcp::SolverKind::kChain)),
          std::string(EnumName(lcp::SolverKind::kNative)),
          std::string(EnumName(lcp::SolverKind::kSiconos))};
}

std::string ShardText(int index, int count) {
  return std::to_string(index) + "/" + std::to_string(count);
}

// "i/n" with integers (the ranges are SamplerOptions::Validate's).
bool ShardFromText(const std::string& s, int* index, int* count) {
  char slash = 0, extra = 0;
  return std::sscanf(s.c_str(), "%d%c%d%c", index, &slash, count, &extra) == 3 && slash == '/';
}

void ParseShard(const std::string& s, int* index, int* count) {
  int i = -1, n = -1;
  if (!ShardFromText(s, &i, &n)) InvalidArgument("shard", s, "must be i/n with integers, e.g. 0/4");
  *index = i;
  *count = n;
}

// The rows. Accessors are captureless lambdas (function pointers): the table is data.
std::vector<OptionField> MakeFields() {
  std::vector<OptionField> f;
  // ---- Algorithm 2's sampler and Algorithm 1 (sampling::SamplerOptions,
  // impact::Algorithm1Options)
  f.push_back({"samples", "--samples", "/samples", OptionType::kInteger, kAll, false, "", true,
               "number of samples K (all shards together)", true, "", nullptr,
               [](const RunOptions& o) -> V { return static_cast<long long>(o.sampler.samples); },
               [](RunOptions* o, const V& v) { o->sampler.samples = As<long long>(v); }});
  f.push_back({"seed", "--seed", "/seed", OptionType::kInteger, kAll, false, "", false,
               "seed of the per-sample random streams (a batch: state i runs with "
               "Mix64(Mix64(seed) + i))",
               true, "", nullptr,
               [](const RunOptions& o) -> V { return static_cast<long long>(o.sampler.seed); },
               [](RunOptions* o, const V& v) {
                 if (As<long long>(v) < 0)
                   InvalidArgument("seed", As<long long>(v), "must be >= 0");
                 o->sampler.seed = static_cast<std::uint64_t>(As<long long>(v));
               }});
  f.push_back({"threads", "--threads", "", OptionType::kInteger, kAll, false, "", false,
               "worker threads, 0 = every core, 1 = inline (results do not depend on it; files "
               "record the threads used)",
               false, "", nullptr,
               [](const RunOptions& o) -> V { return static_cast<long long>(o.sampler.threads); },
               [](RunOptions* o, const V& v) {
                 o->sampler.threads = NarrowToInt(As<long long>(v), "threads");
               }});
  f.push_back({"design", "--design", "/design", OptionType::kChoice, kAll, false, "", false,
               "p-vectors: mixed (even samples iid, odd ones ordered: one approaching contact at "
               "a time, which reaches the set's extremes), iid, sobol (digitally shifted), "
               "sobol-plain, directed (a mixed pilot, then p-sequences searched where the set "
               "still grows; whole runs only)",
               true, "", &EnumNameList<sampling::Design>,
               [](const RunOptions& o) -> V { return std::string(EnumName(o.sampler.design)); },
               [](RunOptions* o, const V& v) {
                 o->sampler.design = ParseEnum<sampling::Design>(As<std::string>(v));
               }});
  f.push_back({"step", "--step", "/h", OptionType::kReal, kAll, false, "", true,
               "step size h in impulse units", true, "", nullptr,
               [](const RunOptions& o) -> V { return o.sampler.algorithm.step; },
               [](RunOptions* o, const V& v) { o->sampler.algorithm.step = As<double>(v); },
               [](const BatchOptions& b) -> V { return b.step ? V(*b.step) : std::nullopt; },
               [](BatchOptions* b, const V& v) {
                 b->step = v ? std::optional<double>(As<double>(v)) : std::nullopt;
               }});
  f.push_back({"max_steps", "--max-steps", "/max_steps", OptionType::kInteger, kAll, false, "",
               true, "step cap N", true, "", nullptr,
               [](const RunOptions& o) -> V {
                 return static_cast<long long>(o.sampler.algorithm.max_steps);
               },
               [](RunOptions* o, const V& v) {
                 o->sampler.algorithm.max_steps = NarrowToInt(As<long long>(v), "max_steps");
               },
               [](const BatchOptions& b) -> V {
                 return b.max_steps ? V(static_cast<long long>(*b.max_steps)) : std::nullopt;
               },
               [](BatchOptions* b, const V& v) {
                 b->max_steps = v ? std::optional<int>(NarrowToInt(As<long long>(v), "max_steps"))
                                  : std::nullopt;
               }});
  f.push_back({"selection", "--selection", "/selection", OptionType::kChoice, kAll, false, "",
               false,
               "step LCPs with several solutions: random (drawn covering vector) or first (the "
               "solver's answer)",
               true, "", &EnumNameList<impact::Selection>,
               [](const RunOptions& o) -> V {
                 return std::string(EnumName(o.sampler.algorithm.selection));
               },
               [](RunOptions* o, const V& v) {
                 o->sampler.algorithm.selection = ParseEnum<impact::Selection>(As<std::string>(v));
               }});
  f.push_back({"lcp", "--lcp", "/lcp", OptionType::kChoice, kAll, false, "", false,
               "step LCP solver: chain (native, then fallbacks), native, siconos", true, "",
               &SolverChoices,
               [](const RunOptions& o) -> V { return std::string(EnumName(o.sampler.solver)); },
               [](RunOptions* o, const V& v) {
                 o->sampler.solver = ParseEnum<lcp::SolverKind>(As<std::string>(v));
               }});
  f.push_back(
      {"detect_non_unique", "--detect-non-unique", "/detect_non_unique", OptionType::kFlag, kAll,
       false, "", false,
       "random selection: also solve each step with covering vector 1 to flag non-unique "
       "steps (same samples, twice the solves)",
       true, "true", nullptr,
       [](const RunOptions& o) -> V { return o.sampler.algorithm.detect_non_unique; },
       [](RunOptions* o, const V& v) { o->sampler.algorithm.detect_non_unique = As<bool>(v); }});
  f.push_back({"warm_start", "--warm-start", "/warm_start", OptionType::kFlag, kAll, false, "",
               false,
               "try the sample's previous step basis before Lemke's path (off: every step walks "
               "the path; off with --detect-non-unique)",
               true, "false", nullptr,
               [](const RunOptions& o) -> V { return o.sampler.algorithm.warm_start; },
               [](RunOptions* o, const V& v) { o->sampler.algorithm.warm_start = As<bool>(v); }});
  f.push_back({"lemke_restore_above", "--lemke-restore-above", "/lemke_restore_above",
               OptionType::kReal, kAll, false, "", false,
               "re-solve a native Lemke answer from its final basis when its residual is above "
               "this (1e-13 for badly scaled models; docs/model.md 4.5)",
               true, "1e-09", nullptr,
               [](const RunOptions& o) -> V { return o.sampler.algorithm.lemke.restore_above; },
               [](RunOptions* o, const V& v) {
                 o->sampler.algorithm.lemke.restore_above = As<double>(v);
               }});
  f.push_back({"keep_samples", "--keep-samples", "", OptionType::kFlag, kRunCommand | kPythonRun,
               false, "", false, "keep every sample's arrays (files: /samples)", true, "", nullptr,
               [](const RunOptions& o) -> V { return o.sampler.keep_samples; },
               [](RunOptions* o, const V& v) { o->sampler.keep_samples = As<bool>(v); }});
  f.push_back({"keep_trajectories", "--keep-trajectories", "", OptionType::kFlag,
               kRunCommand | kPythonSample | kPythonRun, false, "", false,
               "keep every intermediate velocity (files: /reachable)", true, "", nullptr,
               [](const RunOptions& o) -> V { return o.sampler.keep_trajectories; },
               [](RunOptions* o, const V& v) { o->sampler.keep_trajectories = As<bool>(v); }});
  f.push_back({"shard", "--shard", "", OptionType::kShard, kRunCommand | kPythonSample | kPythonRun,
               true, "0/1, the whole run", false,
               "compute shard i of n (0-based; files: shard_index, shard_count); join with merge",
               false, "", nullptr,
               [](const RunOptions& o) -> V {
                 return ShardText(o.sampler.shard_index, o.sampler.shard_count);
               },
               [](RunOptions* o, const V& v) {
                 if (!v) {
                   o->sampler.shard_index = 0;
                   o->sampler.shard_count = 1;
                   return;
                 }
                 ParseShard(As<std::string>(v), &o->sampler.shard_index, &o->sampler.shard_count);
               }});
  return f;
}

void AddSetFields(std::vector<OptionField>* f) {
  // ---- nets, hulls and coverage (sets::SetOptions)
  f->push_back({"sets", "--sets", "", OptionType::kFlag, kRunCommand | kBatch | kPythonRun, false,
                "", false, "build nets, hulls and coverage (files: /net, /hull, /coverage)", true,
                "", nullptr, [](const RunOptions& o) -> V { return o.sets; },
                [](RunOptions* o, const V& v) { o->sets = As<bool>(v); }});
  f->push_back({"epsilon", "--epsilon", "/net/epsilon", OptionType::kReal, kSetSurfaces, true,
                "each output's own: 1% of its set's width in a pilot (docs/coverage.md)", false,
                "net radius in velocity units, every output alike (files: 0 when each output took "
                "its own)",
                true, "", nullptr,
                [](const RunOptions& o) -> V {
                  return o.set_options.epsilon ? V(*o.set_options.epsilon) : std::nullopt;
                },
                [](RunOptions* o, const V& v) {
                  o->set_options.epsilon = v ? std::optional(As<double>(v)) : std::nullopt;
                }});
  f->push_back({"delta", "--delta", "/net/delta", OptionType::kReal, kSetSurfaces, false, "", false,
                "the hold-out statement holds with probability 1 - delta, per output (Lemma 1 "
                "states its own probability)",
                true, "", nullptr, [](const RunOptions& o) -> V { return o.set_options.delta; },
                [](RunOptions* o, const V& v) { o->set_options.delta = As<double>(v); }});
  f->push_back({"lipschitz", "--lipschitz", "/net/lipschitz", OptionType::kReal, kSetSurfaces, true,
                "no Lemma-1 statement", false,
                "Lipschitz constant of the map from p-sequences to contact velocities: adds the "
                "Lemma-1 bound to the contact output of an iid or mixed run (files: 0 = none)",
                true, "", nullptr,
                [](const RunOptions& o) -> V {
                  return o.set_options.lipschitz ? V(*o.set_options.lipschitz) : std::nullopt;
                },
                [](RunOptions* o, const V& v) {
                  o->set_options.lipschitz = v ? std::optional(As<double>(v)) : std::nullopt;
                }});
  // A batch's default follows its samples per state (BatchHoldout): unset in BatchOptions{}.
  f->push_back(
      {"holdout", "--holdout", "/net/holdout", OptionType::kInteger, kSetSurfaces, false,
       "K/4 of a state's K samples, within [64, 4096], at most K", false,
       "fresh samples K' of the hold-out bound (0 = none)", true, "", nullptr,
       [](const RunOptions& o) -> V { return static_cast<long long>(o.set_options.holdout); },
       [](RunOptions* o, const V& v) { o->set_options.holdout = As<long long>(v); },
       [](const BatchOptions& b) -> V {
         const long long k = b.run.set_options.holdout;
         return k == kHoldoutFromSamples ? std::nullopt : V(k);
       },
       [](BatchOptions* b, const V& v) {
         if (v && As<long long>(v) < 0)
           InvalidArgument("holdout", As<long long>(v), "must be >= 0");
         b->run.set_options.holdout = v ? As<long long>(v) : kHoldoutFromSamples;
       }});
  // A batch's default follows its samples per state (BatchPolish): unset in BatchOptions{}.
  f->push_back(
      {"polish", "--polish", "/net/polish", OptionType::kInteger, kSetSurfaces, false,
       "K/4 of a state's K samples, within [64, 4096], at most K", false,
       "samples of a local search from each set's ends after the run (iid, sobol, mixed; 0 = "
       "none): reaches farther, decides the extent statement",
       true, "0", nullptr, [](const RunOptions& o) -> V { return o.set_options.polish; },
       [](RunOptions* o, const V& v) { o->set_options.polish = As<long long>(v); },
       [](const BatchOptions& b) -> V {
         const long long k = b.run.set_options.polish;
         return k == kPolishFromSamples ? std::nullopt : V(k);
       },
       [](BatchOptions* b, const V& v) {
         if (v && As<long long>(v) < 0) InvalidArgument("polish", As<long long>(v), "must be >= 0");
         b->run.set_options.polish = v ? As<long long>(v) : kPolishFromSamples;
       }});
  f->push_back({"hull_max_dimension", "--hull-max-dim", "/net/hull_max_dimension",
                OptionType::kInteger, kSetSurfaces, false, "", false,
                "skip the hulls of sets of higher dimension", true, "", nullptr,
                [](const RunOptions& o) -> V {
                  return static_cast<long long>(o.set_options.hull_max_dimension);
                },
                [](RunOptions* o, const V& v) {
                  o->set_options.hull_max_dimension =
                      NarrowToInt(As<long long>(v), "hull_max_dimension");
                }});
  f->push_back(
      {"hull_max_points", "--hull-max-points", "/net/hull_max_points", OptionType::kInteger,
       kSetSurfaces, false, "", false, "thin a net with more points before its hull (0 = never)",
       true, "20000", nullptr,
       [](const RunOptions& o) -> V {
         return static_cast<long long>(o.set_options.hull_max_points);
       },
       [](RunOptions* o, const V& v) { o->set_options.hull_max_points = As<long long>(v); }});
  f->push_back(
      {"flatness_tolerance", "--flatness-tolerance", "/net/flatness_tolerance", OptionType::kReal,
       kSetSurfaces, false, "", false, "relative SVD tolerance of a hull's affine dimension", true,
       "", nullptr, [](const RunOptions& o) -> V { return o.set_options.flatness_tolerance; },
       [](RunOptions* o, const V& v) { o->set_options.flatness_tolerance = As<double>(v); }});
  f->push_back({"reachable", "--reachable", "/net/reachable", OptionType::kFlag, kSetSurfaces,
                false, "", false, "also the reachable sets' nets and hulls", true, "", nullptr,
                [](const RunOptions& o) -> V { return o.set_options.reachable; },
                [](RunOptions* o, const V& v) { o->set_options.reachable = As<bool>(v); }});
  f->push_back(
      {"max_net_points", "--max-net-points", "/net/max_net_points", OptionType::kInteger,
       kSetSurfaces, false, "", false, "cap per net; beyond it the net's radius doubles", true, "",
       nullptr,
       [](const RunOptions& o) -> V {
         return static_cast<long long>(o.set_options.max_net_points);
       },
       [](RunOptions* o, const V& v) { o->set_options.max_net_points = As<long long>(v); }});
}

void AddBatchFields(std::vector<OptionField>* f) {
  // ---- a batch's own (engine::BatchOptions)
  auto none = [](const RunOptions&) -> V { return std::nullopt; };
  auto ignore = [](RunOptions*, const V&) {};
  f->push_back({"keep", "--keep", "", OptionType::kInteger, kBatch, false, "", false,
                "post-impact values kept per state (features)", true, "", nullptr, none, ignore,
                [](const BatchOptions& b) -> V { return static_cast<long long>(b.keep); },
                [](BatchOptions* b, const V& v) { b->keep = As<long long>(v); }});
  f->push_back(
      {"extra_directions", "--directions", "", OptionType::kInteger, kBatch, false, "", false,
       "support directions beyond the 2 d axes (features)", true, "", nullptr, none, ignore,
       [](const BatchOptions& b) -> V { return static_cast<long long>(b.extra_directions); },
       [](BatchOptions* b, const V& v) {
         b->extra_directions = NarrowToInt(As<long long>(v), "extra_directions");
       }});
  f->push_back({"part_states", "--part-states", "", OptionType::kInteger, kBatch, false, "", false,
                "states per part file (the unit of --resume)", false, "", nullptr, none, ignore,
                [](const BatchOptions& b) -> V { return static_cast<long long>(b.part_states); },
                [](BatchOptions* b, const V& v) { b->part_states = As<long long>(v); }});
}

bool HasType(const OptionField& f, const OptionValue& v) {
  switch (f.type) {
    case OptionType::kFlag:
      return std::holds_alternative<bool>(v);
    case OptionType::kInteger:
      return std::holds_alternative<long long>(v);
    case OptionType::kReal:
      return std::holds_alternative<double>(v);
    case OptionType::kChoice:
    case OptionType::kShard:
      return std::holds_alternative<std::string>(v);
  }
  return false;
}

const char* TypeWords(OptionType t) {
  switch (t) {
    case OptionType::kFlag:
      return "must be true or false";
    case OptionType::kInteger:
      return "must be an integer";
    case OptionType::kReal:
      return "must be a number";
    case OptionType::kChoice:
      return "must be a name";
    case OptionType::kShard:
      return "must be i/n";
  }
  return "";
}

// Checks a value against the row's type (and, for choices, its names) before any accessor runs.
void CheckValue(const OptionField& f, const V& v) {
  if (!v) {
    if (!f.may_be_unset && !f.from_problem) {
      InvalidArgument(std::string(f.name), "None", "must be set (it has no problem default)");
    }
    return;
  }
  if (!HasType(f, *v))
    InvalidArgument(std::string(f.name), FormatOptionValue(v), TypeWords(f.type));
  if (f.type == OptionType::kChoice) {
    const std::vector<std::string> names = f.choices();
    const std::string& s = std::get<std::string>(*v);
    if (std::find(names.begin(), names.end(), s) == names.end()) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      InvalidArgument(std::string(f.name), s, "must be one of " + list);
    }
  }
}

}  // namespace

const std::vector<OptionField>& RunOptionFields() {
  static const std::vector<OptionField> fields = [] {
    std::vector<OptionField> f = MakeFields();
    AddSetFields(&f);
    AddBatchFields(&f);
    return f;
  }();
  return fields;
}

const OptionField& FindOption(std::string_view name) {
  for (const OptionField& f : RunOptionFields()) {
    if (f.name == name) return f;
  }
  std::string known;
  for (const OptionField& f : RunOptionFields())
    known += (known.empty() ? "" : ", ") + std::string(f.name);
  InvalidArgument("option", name, "unknown; the options are " + known);
}

OptionValue ParseOptionText(const OptionField& f, const std::string& text) {
  const std::string flag(f.flag.empty() ? f.name : f.flag);
  size_t used = 0;
  try {
    switch (f.type) {
      case OptionType::kFlag:
        if (text == "true" || text == "1") return true;
        if (text == "false" || text == "0") return false;
        break;
      case OptionType::kInteger: {
        const long long v = std::stoll(text, &used);
        if (used == text.size()) return v;
        break;
      }
      case OptionType::kReal: {
        const double v = std::stod(text, &used);
        if (used == text.size()) return v;
        break;
      }
      case OptionType::kChoice: {
        OptionValue v = text;
        CheckValue(f, v);
        return v;
      }
      case OptionType::kShard: {
        int index = 0, count = 0;
        if (ShardFromText(text, &index, &count)) return text;
        break;
      }
    }
  } catch (const std::out_of_range&) {
    InvalidArgument(flag, text, "out of range");
  } catch (const std::invalid_argument&) {
    if (f.type == OptionType::kChoice) throw;  // names the option and lists the choices
  }
  InvalidArgument(flag, text, TypeWords(f.type));
}

std::string FormatOptionValue(const std::optional<OptionValue>& v) {
  if (!v) return "none";
  if (const auto* b = std::get_if<bool>(&*v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<long long>(&*v)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&*v)) return *s;
  char text[32];  // the shortest text that reads back as the same double ("1e-09", "0.05")
  const auto end = std::to_chars(text, text + sizeof text, std::get<double>(*v)).ptr;
  return std::string(text, end);
}

std::optional<OptionValue> GetOption(const OptionField& f, const RunOptions& o) { return f.get(o); }

std::optional<OptionValue> GetOption(const OptionField& f, const BatchOptions& o) {
  return f.get_batch ? f.get_batch(o) : f.get(o.run);
}

void SetOption(const OptionField& f, const std::optional<OptionValue>& v, RunOptions* o) {
  CheckValue(f, v);
  if (!v && f.from_problem) return;  // unset: the problem's value stays
  f.set(o, v);
}

void SetOption(const OptionField& f, const std::optional<OptionValue>& v, BatchOptions* o) {
  CheckValue(f, v);
  if (f.set_batch) {
    f.set_batch(o, v);
  } else if (v || !f.from_problem) {
    f.set(&o->run, v);
  }
}

std::optional<OptionValue> RunDefault(const OptionField& f) {
  if (f.from_problem) return std::nullopt;
  return f.get(RunOptions{});
}

std::optional<OptionValue> BatchDefault(const OptionField& f) {
  return GetOption(f, BatchOptions{});
}

RunOptions ResolveRunOptions(const systems::LoadedProblem& problem, const OptionValues& given) {
  systems::ProblemSettings caller;
  for (const auto& [name, value] : given) {
    const OptionField& f = FindOption(name);
    if (!(f.surfaces & (kRunCommand | kPythonRun | kPythonSample))) {
      InvalidArgument(name, FormatOptionValue(value), "is an option of batches only");
    }
    CheckValue(f, value);
    if (name == "samples") caller.samples = std::get<long long>(value);
    if (name == "step") caller.step = std::get<double>(value);
    if (name == "max_steps")
      caller.max_steps = NarrowToInt(std::get<long long>(value), "max_steps");
  }
  RunOptions o = ProblemRunOptions(problem, caller);
  for (const auto& [name, value] : given) {
    const OptionField& f = FindOption(name);
    if (!f.from_problem) SetOption(f, value, &o);
  }
  o.Validate();
  return o;
}

void ResolveOutputs(const std::vector<std::string>& specs,
                    const impact::ImpactProblem& problem,
                    const robots::MujocoProblem* model,
                    RunOptions* o) {
  o->set_options.outputs = sets::ParseOutputs(specs, problem, model);
  if (model) {
    o->velocity_names = model->dof_names;
    o->contact_names = model->contact_coordinate_names;
  }
}

BatchOptions ResolveBatchOptions(const OptionValues& given) {
  BatchOptions o;
  for (const auto& [name, value] : given) {
    const OptionField& f = FindOption(name);
    if (!(f.surfaces & kBatchCommand)) {
      InvalidArgument(name, FormatOptionValue(value), "is not an option of batches");
    }
    SetOption(f, value, &o);
  }
  o.Validate();
  return o;
}

namespace {

data::AttributeValue ToAttribute(const OptionField& f, const OptionValue& v) {
  switch (f.type) {
    case OptionType::kFlag:
      return static_cast<std::int64_t>(std::get<bool>(v) ? 1 : 0);
    case OptionType::kInteger:
      return static_cast<std::int64_t>(std::get<long long>(v));
    case OptionType::kReal:
      return std::get<double>(v);
    case OptionType::kChoice:
    case OptionType::kShard:
      return std::get<std::string>(v);
  }
  return std::string();
}

// A stored value as the row's type; a may-be-unset real stored as 0 reads as unset.
V FromAttribute(const OptionField& f, const data::AttributeValue& a, const std::string& where) {
  const auto* i = std::get_if<std::int64_t>(&a);
  const auto* u = std::get_if<std::uint64_t>(&a);
  const auto* d = std::get_if<double>(&a);
  const auto* s = std::get_if<std::string>(&a);
  switch (f.type) {
    case OptionType::kFlag:
      if (i && (*i == 0 || *i == 1)) return *i == 1;
      break;
    case OptionType::kInteger:
      if (i) return static_cast<long long>(*i);
      if (u && *u <= static_cast<std::uint64_t>(std::numeric_limits<long long>::max())) {
        return static_cast<long long>(*u);
      }
      break;
    case OptionType::kReal:
      if (d && f.may_be_unset && *d == 0) return std::nullopt;
      if (d) return *d;
      if (i) return static_cast<double>(*i);
      break;
    case OptionType::kChoice:
    case OptionType::kShard:
      if (s) return *s;
      break;
  }
  std::ostringstream os;
  std::visit([&](const auto& x) { os << x; }, a);
  InvalidArgument(where, os.str(),
                  std::string(TypeWords(f.type)) + " (option " + std::string(f.name) + ")");
}

std::pair<std::string, std::string> SplitAttribute(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string group = slash == 0 ? "/" : std::string(path.substr(0, slash));
  return {group, std::string(path.substr(slash + 1))};
}

bool InSets(const OptionField& f) { return f.attribute.rfind("/net/", 0) == 0; }

}  // namespace

std::vector<data::Attribute> OptionAttributes(const RunOptions& o) {
  std::vector<data::Attribute> out;
  for (const OptionField& f : RunOptionFields()) {
    if (f.attribute.empty() || (InSets(f) && !o.sets)) continue;
    const auto [group, name] = SplitAttribute(f.attribute);
    const V v = f.get(o);
    if (v) {
      out.push_back({group, name, ToAttribute(f, *v)});
    } else if (f.type == OptionType::kReal) {
      out.push_back({group, name, 0.0});  // unset (FromAttribute reads 0 back as unset)
    }
  }
  if (!o.step_rule.empty()) out.push_back({"/", "step_rule", o.step_rule});
  if (o.step_growth != 1) out.push_back({"/", "step_growth", o.step_growth});
  return out;
}

void ReadOptionAttributes(const std::vector<data::Attribute>& attributes, RunOptions* o) {
  for (const OptionField& f : RunOptionFields()) {
    if (f.attribute.empty() || (InSets(f) && !o->sets)) continue;
    const auto [group, name] = SplitAttribute(f.attribute);
    const data::Attribute* a = data::FindAttribute(attributes, group, name);
    const std::string where(f.attribute);
    if (!a && f.absent_in_old_files.empty()) InvalidArgument(where, "(absent)", "missing");
    const V v = a ? FromAttribute(f, a->value, where)
                  : V(ParseOptionText(f, std::string(f.absent_in_old_files)));
    try {
      SetOption(f, v, o);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
  }
  const data::Attribute* rule = data::FindAttribute(attributes, "/", "step_rule");
  const auto* text = rule ? std::get_if<std::string>(&rule->value) : nullptr;
  o->step_rule = text ? *text : std::string();
  const data::Attribute* growth = data::FindAttribute(attributes, "/", "step_growth");
  const auto* g = growth ? std::get_if<double>(&growth->value) : nullptr;
  o->step_growth = g ? *g : 1.0;
}

std::vector<data::Attribute> BatchOptionAttributes(const BatchOptions& o) {
  std::vector<data::Attribute> out;
  for (const OptionField& f : RunOptionFields()) {
    if (!(f.surfaces & kBatchCommand) || !f.identity) continue;
    const V v = GetOption(f, o);
    if (v) out.push_back({"/options", std::string(f.name), ToAttribute(f, *v)});
  }
  return out;
}

const OptionField* FirstDifference(const RunOptions& a, const RunOptions& b) {
  for (const OptionField& f : RunOptionFields()) {
    if (!f.identity || !(f.surfaces & kRunCommand)) continue;
    if (InSets(f) && !(a.sets && b.sets)) continue;
    if (f.get(a) != f.get(b)) return &f;
  }
  return nullptr;
}

}  // namespace impactset::engine

namespace impactset::engine {
namespace {

std::string Text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

bool Flag(const std::string& text, const std::string& name) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  InvalidArgument(name, text, "must be true or false");
}

int Int(const std::string& text, const std::string& name) {
  return NarrowToInt(ParseInteger(text, name), name);
}

}  // namespace

const std::vector<MujocoOptionField>& MujocoOptionFields() {
  using O = robots::MujocoOptions;
  static const std::vector<MujocoOptionField> fields = {
      {"keyframe", "--keyframe", OptionType::kChoice,
       "MuJoCo: the keyframe (by name) holding qpos and qvel", [] { return std::string(); },
       [](O* o, const std::string& t) { o->state.keyframe = t; }},
      {"qpos", "--qpos", OptionType::kChoice,
       "MuJoCo: qpos as a comma list, a JSON file or an HDF5 file's /qpos (replaces the "
       "keyframe's)",
       [] { return std::string(); }, nullptr},
      {"qvel", "--qvel", OptionType::kChoice,
       "MuJoCo: qvel (the velocity before impact), comma list, JSON file or an HDF5 file's /qvel "
       "(replaces the keyframe's)",
       [] { return std::string(); }, nullptr},
      {"contact_margin", "--contact-margin", OptionType::kReal,
       "MuJoCo: contacts are geom pairs closer than this (m)",
       [] { return Text(O{}.contact_margin); },
       [](O* o, const std::string& t) { o->contact_margin = ParseReal(t, "contact_margin"); }},
      {"friction_directions", "--friction-directions", OptionType::kInteger,
       "MuJoCo: friction directions k per contact (4, 8 or 16)",
       [] { return std::to_string(O{}.friction_directions); },
       [](O* o, const std::string& t) { o->friction_directions = Int(t, "friction_directions"); }},
      {"ignore_constraints", "--ignore-constraints", OptionType::kFlag,
       "MuJoCo: contacts only: leave hinge/slide joint limits out of the impact, and active "
       "equality constraints, ball-joint and tendon limits out instead of refusing the state",
       [] { return std::string(O{}.ignore_constraints ? "true" : "false"); },
       [](O* o, const std::string& t) { o->ignore_constraints = Flag(t, "ignore_constraints"); }},
      {"touchdown", "--touchdown", OptionType::kInteger,
       "MuJoCo: first translate the floating base (a free joint, or slides of a top-level "
       "body) along gravity until this many geom pairs touch (1: the nearest pair; 0: off)",
       [] { return std::to_string(O{}.touchdown); },
       [](O* o, const std::string& t) { o->touchdown = Int(t, "touchdown"); }},
      {"add_floor", "--add-floor", OptionType::kFlag,
       "MuJoCo: add a floor, the plane z = 0 (condim 3, friction 1), named floor",
       [] { return std::string(O{}.add_floor ? "true" : "false"); },
       [](O* o, const std::string& t) { o->add_floor = Flag(t, "add_floor"); }},
      {"floating_base", "--floating-base", OptionType::kFlag,
       "MuJoCo: give a URDF's root link a free joint (MuJoCo fixes a URDF's base to the world)",
       [] { return std::string(O{}.floating_base ? "true" : "false"); },
       [](O* o, const std::string& t) { o->floating_base = Flag(t, "floating_base"); }},
  };
  return fields;
}

}  // namespace impactset::engine
