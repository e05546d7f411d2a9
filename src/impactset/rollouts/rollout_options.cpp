#include <impactset/rollouts/rollout_options.hpp>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>

namespace impactset::rollouts {

namespace {

// The shortest text that reads back as x (std::to_chars): exact, and "0.1" rather than
// "0.10000000000000001" in help.
std::string Exact(double x) {
  char buf[32];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

// "1.5,-2,3" as numbers (blanks around each allowed).
std::vector<double> Numbers(const std::string& text, const std::string& what) {
  std::vector<double> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string_view item = std::string_view(text).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    out.push_back(ParseReal(StripBlanks(item), what + "[" + std::to_string(out.size()) + "]"));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string List(const VectorXd& v) {
  std::string out;
  for (Eigen::Index i = 0; i < v.size(); ++i) out.append(i ? "," : "").append(Exact(v(i)));
  return out;
}

bool Flag(const std::string& t, const char* what) {
  if (t == "true") return true;
  if (t == "false") return false;
  InvalidArgument(what, t, "must be true or false");
}

}  // namespace

const std::vector<RolloutOptionField>& RolloutOptionFields() {
  using O = RolloutOptions;
  using T = RolloutOptionType;
  static const std::vector<RolloutOptionField> fields = {
      {"horizon", "--horizon", T::kNumber, false, true, true,
       "seconds simulated (T), at the model's timestep",
       [](const O& o) { return Exact(o.horizon); },
       [](O* o, const std::string& t) { o->horizon = ParseReal(t, "horizon"); }},
      {"impact_speed", "--impact-speed", T::kNumber, false, true, true,
       "a contact approaching faster than this (m/s) is an impact event, resolved by one "
       "Algorithm-1 sample",
       [](const O& o) { return Exact(o.impact_speed); },
       [](O* o, const std::string& t) { o->impact_speed = ParseReal(t, "impact_speed"); }},
      {"rollouts", "--rollouts", T::kNumber, false, true, true, "how many rollouts",
       [](const O& o) { return std::to_string(o.rollouts); },
       [](O* o, const std::string& t) { o->rollouts = ParseInteger(t, "rollouts"); }},
      {"seed", "--seed", T::kNumber, false, true, false,
       "seed: rollout i's event draws are a function of (seed, i, event)",
       [](const O& o) { return std::to_string(o.seed); },
       [](O* o, const std::string& t) {
         const long long s = ParseInteger(t, "seed");
         if (s < 0) InvalidArgument("seed", t, "must be >= 0");
         o->seed = static_cast<std::uint64_t>(s);
       }},
      {"threads", "--threads", T::kNumber, false, false, false, "worker threads, 0 = every core",
       [](const O& o) { return std::to_string(o.threads); },
       [](O* o, const std::string& t) {
         o->threads = NarrowToInt(ParseInteger(t, "threads"), "threads");
       }},
      {"ctrl", "--ctrl", T::kList, false, true, true,
       "constant controls, one per actuator (default: the keyframe's ctrl held)",
       [](const O& o) { return o.controls == Controls::kConstant ? List(o.ctrl) : std::string(); },
       [](O* o, const std::string& t) {
         const std::vector<double> v = Numbers(t, "ctrl");
         o->ctrl = Eigen::Map<const VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
         o->controls = Controls::kConstant;
       }},
      {"pd_posture", "--pd-posture", T::kList, false, true, true,
       "KP,KD: a joint-space PD controller holding the start's joint angles through the "
       "actuators (motors by torque through their gear, position servos by their target)",
       [](const O& o) {
         if (o.controls != Controls::kPdPosture) return std::string();
         std::string text = Exact(o.pd_kp);  // appended: GCC 12's -Wrestrict misreads a + b + c
         return text.append(",").append(Exact(o.pd_kd));
       },
       [](O* o, const std::string& t) {
         const std::vector<double> v = Numbers(t, "pd_posture");
         if (v.size() != 2) InvalidArgument("pd_posture", t, "must be two numbers KP,KD");
         o->pd_kp = v[0];
         o->pd_kd = v[1];
         o->controls = Controls::kPdPosture;
       }},
      {"metrics", "--metric", T::kText, true, true, true,
       "NAME=EXPR over coordinates and time, e.g. fell=min(com:z) < 0.6 (repeatable; "
       "docs/rollouts.md)",
       [](const O&) { return std::string(); },
       [](O* o, const std::string& t) { o->metrics.push_back(t); }},
      {"baseline", "--baseline", T::kFlag, false, true, true,
       "also simulate the start with MuJoCo's own impacts, for comparison",
       [](const O& o) { return std::string(o.baseline ? "true" : "false"); },
       [](O* o, const std::string& t) { o->baseline = Flag(t, "baseline"); }},
      {"record_every", "--record-every", T::kNumber, false, true, false,
       "keep every k-th step's qpos and qvel of each rollout (0: none)",
       [](const O& o) { return std::to_string(o.record_every); },
       [](O* o, const std::string& t) {
         o->record_every = NarrowToInt(ParseInteger(t, "record_every"), "record_every");
       }},
      {"delta", "--delta", T::kNumber, false, true, false,
       "event metrics' bounds hold with probability 1 - delta",
       [](const O& o) { return Exact(o.delta); },
       [](O* o, const std::string& t) { o->delta = ParseReal(t, "delta"); }},
  };
  return fields;
}

std::string RolloutDefault(const RolloutOptionField& field) { return field.get(RolloutOptions{}); }

RolloutOptions ParseRolloutOptions(const std::vector<std::pair<std::string, std::string>>& given,
                                   RolloutSurface surface) {
  RolloutOptions o;
  bool ctrl = false, pd = false;
  for (const auto& entry : given) {  // not a structured binding: clang 14 cannot capture one
    const std::string& name = entry.first;
    const std::string& text = entry.second;
    const auto& fields = RolloutOptionFields();
    const auto f = std::find_if(fields.begin(), fields.end(),
                                [&](const RolloutOptionField& x) { return x.name == name; });
    if (f == fields.end()) InvalidArgument("rollout option", name, "is not a rollout option");
    f->set(&o, text);
    ctrl = ctrl || name == "ctrl";
    pd = pd || name == "pd_posture";
  }
  if (ctrl && pd) {
    throw std::invalid_argument(surface == RolloutSurface::kCommandLine
                                    ? "--ctrl and --pd-posture: give one of them"
                                    : "ctrl and pd_posture: give one of them");
  }
  return o;
}

}  // namespace impactset::rollouts
