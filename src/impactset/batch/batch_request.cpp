// The rules of a batch request (BatchRequest): which of the fields a user gave go together. One
// place for the command line and Python; the messages spell each field as the request's surface
// does ("--state-table" or "table=").
#include <impactset/batch/batch_request.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include <impactset/batch/batch.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/engine/option_table.hpp>
#include <impactset/robots/mujoco_scenes.hpp>
#include <impactset/rollouts/rollout_options.hpp>

namespace impactset::batch {

namespace {

bool FromPython(const BatchRequest& r) { return r.surface == BatchSurface::kPython; }

// A field as "field = value: rule" names it: "--state-seed", "--param", "state_seed".
std::string Field(const BatchRequest& r, const std::string& name) {
  if (FromPython(r)) return name;
  if (name == "params") return "--param";
  if (name == "table") return "--state-table";
  std::string flag = "--" + name;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

// A field as something to give: "--state-table", "table=".
std::string Keyword(const BatchRequest& r, const std::string& name) {
  return FromPython(r) ? name + "=" : Field(r, name);
}

// The sources given, by their neutral names, in a fixed order.
std::vector<std::string> GivenSources(const BatchRequest& r) {
  std::vector<std::string> given;
  if (r.system) given.emplace_back("system");
  if (r.scene_file || r.scene_text) given.emplace_back("scene");
  if (r.problems_file) given.emplace_back("problems");
  if (r.mujoco_file) given.emplace_back("mujoco");
  return given;
}

// The one source given: "system", "scene", "problems" or "mujoco".
std::string OneSource(const BatchRequest& r) {
  const std::vector<std::string> given = GivenSources(r);
  if (given.size() == 1) return given.front();
  std::string got;
  for (const std::string& g : given) got += (got.empty() ? "" : ", ") + Keyword(r, g);
  throw std::invalid_argument(
      std::string("batch: give exactly one source: ") +
      (FromPython(r) ? "system=, scene=, problems= or mujoco="
                     : "--system NAME, --scene FILE, --problems FILE or --mujoco FILE") +
      (given.empty() ? "" : " (got " + got + ")"));
}

constexpr const char* kMujocoOptions[] = {
    "keyframe", "qpos", "qvel", "contact_margin", "friction_directions", "ignore_constraints"};

// MuJoCo options only with a MuJoCo model; fixed parameters only with a parametrised system.
void CheckSourceFields(const BatchRequest& r, const std::string& source, bool is_mujoco) {
  if (!is_mujoco && !r.mujoco_given.empty()) {
    std::string all;
    for (size_t i = 0; i < std::size(kMujocoOptions); ++i) {
      all += (i == 0                               ? ""
              : i + 1 == std::size(kMujocoOptions) ? " and "
                                                   : ", ") +
             Field(r, kMujocoOptions[i]);
    }
    throw std::invalid_argument(
        Field(r, r.mujoco_given.front()) + ": given, but the source is not a MuJoCo model (" + all +
        " apply only to " + Keyword(r, "mujoco") + (FromPython(r) ? "" : " FILE") +
        " or a MuJoCo scene's " + Keyword(r, "system") + (FromPython(r) ? "" : " NAME") + ")");
  }
  if (r.params.empty()) return;
  const auto& [key, value] = *r.params.begin();
  const std::string first = key + "=" + value;
  if (is_mujoco) {
    InvalidArgument(Field(r, "params"), first, "MuJoCo models take no parameters: vary qpos:I");
  }
  if (source != "system") {
    InvalidArgument(Field(r, "params"), first,
                    "only with " + Keyword(r, "system") + ", not with " + Keyword(r, source));
  }
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

StateSource MakeSource(const BatchRequest& r) {
  const std::string given = OneSource(r);
  const bool is_mujoco =
      given == "mujoco" || (given == "system" && robots::IsMujocoScene(*r.system));
  CheckSourceFields(r, given, is_mujoco);
  if (is_mujoco) return MujocoSource{r.mujoco_file ? *r.mujoco_file : *r.system, r.mujoco};
  if (given == "scene") {
    if (r.scene_text) return SceneSource{*r.scene_text, "scene"};
    return SceneSource{ReadText(*r.scene_file), *r.scene_file};
  }
  if (given == "problems") return ProblemStackSource{data::OpenProblemStack(*r.problems_file)};
  return SystemSource{*r.system, r.params};
}

// The ranges as the command line writes them: "a=0:1:3, b=2:4".
std::string VaryText(const std::vector<ParameterRange>& ranges) {
  std::ostringstream os;
  for (const ParameterRange& p : ranges) {
    os << (&p == &ranges.front() ? "" : ", ") << p.name << "=" << p.low << ":" << p.high;
    if (p.points != 1) os << ":" << p.points;
  }
  return os.str();
}

StateDesign MakeDesign(const BatchRequest& r, const StateSource& source) {
  if (r.table_file || r.table) {
    if (r.vary) {
      InvalidArgument(Field(r, "vary"), VaryText(*r.vary),
                      "not with " + Keyword(r, "table") + " (the states come from one of them)");
    }
    return r.table ? *r.table : ReadStateTableFile(*r.table_file);
  }
  const auto* stack = std::get_if<ProblemStackSource>(&source);
  if (stack && !r.vary) return EveryProblem(stack->problems);
  if (!r.vary) {
    throw std::invalid_argument(
        Field(r, "vary") + ": give the varied parameters (" +
        (FromPython(r) ? "{name: (low, high, points)} for the grid, {name: (low, high)} with "
                         "states= for iid and sobol"
                       : "NAME=LOW:HIGH:POINTS for the grid, NAME=LOW:HIGH with --states for "
                         "iid and sobol") +
        ") or a " + Keyword(r, "table"));
  }
  StateDesign d;
  d.kind = ParseEnum<StateDesignKind>(r.state_design, Field(r, "state_design"));
  if (d.kind == StateDesignKind::kTable) {
    InvalidArgument(Field(r, "state_design"), r.state_design,
                    "give the states as " + Keyword(r, "table"));
  }
  if (d.kind == StateDesignKind::kGrid && r.states) {
    InvalidArgument(Field(r, "states"), *r.states,
                    "only for the iid and sobol designs (a grid's size is the product of its "
                    "POINTS)");
  }
  d.ranges = *r.vary;
  d.states = r.states.value_or(0);
  d.state_seed = r.state_seed;
  return d;
}

}  // namespace

BatchStates ResolveBatchStates(const BatchRequest& request) {
  BatchStates b{MakeSource(request), {}};
  b.design = MakeDesign(request, b.source);
  return b;
}

bool IsRolloutBatch(const GivenBatchOptions& given, const engine::BatchOptions& options) {
  const bool python = given.surface == BatchSurface::kPython;
  const auto& rows = rollouts::RolloutOptionFields();
  auto rollout_name = [&](const std::string& name) {
    const auto f =
        std::find_if(rows.begin(), rows.end(),
                     [&](const rollouts::RolloutOptionField& x) { return x.name == name; });
    return python || f == rows.end() ? name : std::string(f->flag);
  };
  const bool rollouts = std::any_of(given.rollout.begin(), given.rollout.end(),
                                    [](const auto& option) { return option.first == "rollouts"; });
  if (!rollouts) {
    if (given.rollout.empty()) return false;
    throw std::invalid_argument("batch: " + rollout_name(given.rollout.front().first) +
                                " is an option of a batch of rollouts: " +
                                (python ? "give rollouts=N" : "give --rollouts N") + " for one");
  }
  auto engine_name = [&](std::string_view name) {
    return python ? std::string(name) : std::string(engine::FindOption(name).flag);
  };
  std::string allowed;
  for (size_t i = 0; i < kRolloutBatchOptions.size(); ++i) {
    allowed += (i == 0                                 ? ""
                : i + 1 == kRolloutBatchOptions.size() ? " and "
                                                       : ", ") +
               engine_name(kRolloutBatchOptions[i]);
  }
  for (const std::string& name : given.engine) {
    if (std::find(kRolloutBatchOptions.begin(), kRolloutBatchOptions.end(), name) !=
        kRolloutBatchOptions.end()) {
      continue;
    }
    throw std::invalid_argument("batch: " + engine_name(name) +
                                " belongs to Algorithm 2 at each state's impact; of those a "
                                "batch of rollouts takes " +
                                allowed);
  }
  if (!options.outputs.empty()) {
    throw std::invalid_argument(std::string("batch: ") + (python ? "outputs" : "--output") +
                                " belongs to Algorithm 2 at each state's impact; a batch of "
                                "rollouts stores its metrics");
  }
  return true;
}

BatchJob MakeJob(const BatchStates& states,
                 const engine::BatchOptions& options,
                 const GivenBatchOptions& given) {
  if (!IsRolloutBatch(given, options)) return MakeBatchJob(states.source, states.design, options);
  const auto surface = given.surface == BatchSurface::kPython
                           ? rollouts::RolloutSurface::kPython
                           : rollouts::RolloutSurface::kCommandLine;
  return MakeRolloutBatchJob(states.source, states.design, options,
                             rollouts::ParseRolloutOptions(given.rollout, surface));
}

}  // namespace impactset::batch
