#include <impactset/systems/parametric.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <impactset/common/error_policy.hpp>
#include <impactset/common/parse_number.hpp>
#include <impactset/systems/builtin.hpp>
#include <impactset/systems/compass_gait.hpp>

namespace impactset::systems {

namespace {

using nlohmann::json;
constexpr double kPi = std::numbers::pi;

json Vec(const VectorXd& v) {
  json j = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) j.push_back(v(i));
  return j;
}

std::string ListText(const VectorXd& v) {
  std::ostringstream os;
  for (Eigen::Index i = 0; i < v.size(); ++i) os << (i ? "," : "") << v(i);
  return os.str();
}

void RequirePositive(const std::string& field, double x) {
  if (!(x > 0) || !std::isfinite(x)) InvalidArgument(field, x, "must be finite and > 0");
}
void RequireNonNegative(const std::string& field, double x) {
  if (!(x >= 0) || !std::isfinite(x)) InvalidArgument(field, x, "must be finite and >= 0");
}

}  // namespace

// ---- Newton's cradle -------------------------------------------------------------------------

void CradleParams::Validate() const {
  const Eigen::Index n = masses.size();
  if (n < 2) InvalidArgument("masses", ListText(masses), "needs N >= 2 entries (one per disc)");
  if (radii.size() != n) {
    InvalidArgument("radii", ListText(radii), "must have N = " + std::to_string(n) + " entries");
  }
  if (velocities.size() != n) {
    InvalidArgument("velocities", ListText(velocities),
                    "must have N = " + std::to_string(n) + " entries");
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    RequirePositive("masses[" + std::to_string(i) + "]", masses(i));
    RequirePositive("radii[" + std::to_string(i) + "]", radii(i));
    if (!std::isfinite(velocities(i))) {
      InvalidArgument("velocities[" + std::to_string(i) + "]", velocities(i), "must be finite");
    }
  }
  bool approaching = false;
  for (Eigen::Index i = 0; i + 1 < n; ++i) approaching |= velocities(i) > velocities(i + 1) + 1e-8;
  if (!approaching) {
    InvalidArgument("velocities", ListText(velocities),
                    "some disc must move toward its right neighbour (v_i > v_{i+1})");
  }
}

LoadedScene MakeCradle(const CradleParams& p) {
  p.Validate();
  const Eigen::Index n = p.masses.size();
  json frames = json::array(), shapes = json::array(), q = json::array();
  double x = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const std::string name = "disc_" + std::to_string(i + 1);
    if (i > 0) x += p.radii(i - 1) + p.radii(i);
    frames.push_back({{"name", name}, {"joint", "prismatic_x"}});
    shapes.push_back({{"name", name},
                      {"type", "disc"},
                      {"frame", name},
                      {"radius", p.radii(i)},
                      {"mass", p.masses(i)}});
    q.push_back(x);
  }
  const json scene = {
      {"description", "Newton's cradle (parametrised): " + std::to_string(n) +
                          " frictionless discs touching in a row on a line, masses " +
                          ListText(p.masses) + ", radii " + ListText(p.radii) + ", velocities " +
                          ListText(p.velocities)},
      {"frames", frames},
      {"shapes", shapes},
      {"q", q},
      {"v_minus", Vec(p.velocities)},
      {"friction", {{"mu", 0}, {"k", 0}}},
      {"sampler", {{"h", 0.5 * p.masses(0)}, {"N", 10}, {"samples", 16384}}}};
  return ParseSceneJson(scene.dump());
}

// ---- Billiard break --------------------------------------------------------------------------

double BilliardMinAngle(double ra, double rb, double rc) {
  const double da = ra + rc, db = rb + rc, dab = ra + rb;
  const double c = (da * da + db * db - dab * dab) / (2 * da * db);  // law of cosines at c
  return std::acos(std::clamp(c, -1.0, 1.0));
}

void BilliardParams::Validate() const {
  RequirePositive("ra", ra);
  RequirePositive("rb", rb);
  RequirePositive("rc", rc);
  RequirePositive("density", density);
  RequirePositive("speed", speed);
  RequireNonNegative("mu", mu);
  const double tmin = BilliardMinAngle(ra, rb, rc);
  if (!std::isfinite(theta) || theta < tmin - 1e-12) {
    InvalidArgument("theta", theta,
                    "must be >= " + std::to_string(tmin) +
                        " rad, where a and b touch (else they "
                        "overlap)");
  }
  if (!(theta < kPi)) {
    InvalidArgument("theta", theta, "must be < pi (at pi c only grazes a and b: no impact)");
  }
}

LoadedScene MakeBilliard(const BilliardParams& p) {
  p.Validate();
  const double da = p.ra + p.rc, db = p.rb + p.rc, h = p.theta / 2;
  auto mass = [&](double r) { return p.density * 4.0 / 3.0 * kPi * r * r * r; };
  json frames = json::array();
  for (const char* b : {"a", "b", "c"}) {
    frames.push_back({{"name", std::string(b) + "_x"}, {"joint", "prismatic_x"}});
    frames.push_back({{"name", std::string(b) + "_y"},
                      {"parent", std::string(b) + "_x"},
                      {"joint", "prismatic_y"}});
  }
  // Shapes c, a, b: contacts (c, a), (c, b), then (a, b) when it touches.
  const json shapes = json::array(
      {{{"name", "c"}, {"type", "disc"}, {"frame", "c_y"}, {"radius", p.rc}, {"mass", mass(p.rc)}},
       {{"name", "a"}, {"type", "disc"}, {"frame", "a_y"}, {"radius", p.ra}, {"mass", mass(p.ra)}},
       {{"name", "b"},
        {"type", "disc"},
        {"frame", "b_y"},
        {"radius", p.rb},
        {"mass", mass(p.rb)}}});
  std::ostringstream desc;
  desc << "Billiard break (parametrised): cue ball c (r = " << p.rc << ") moving at " << p.speed
       << " m/s along the bisector into a (r = " << p.ra << ") and b (r = " << p.rb
       << ") at rest, touching it at +-theta/2, theta = " << p.theta
       << " rad; masses density 4/3 pi r^3; mu = " << p.mu;
  const json scene = {
      {"description", desc.str()},
      {"frames", frames},
      {"shapes", shapes},
      {"q", {da * std::cos(h), da * std::sin(h), db * std::cos(h), -db * std::sin(h), 0.0, 0.0}},
      {"v_minus", {0.0, 0.0, 0.0, 0.0, p.speed, 0.0}},
      {"friction", {{"mu", p.mu}}},
      {"contacts", {{"gap_tolerance", 1e-9}}},
      {"sampler", {{"h", 0.5 * mass(p.rc) * p.speed}, {"N", 10}, {"samples", 16384}}}};
  return ParseSceneJson(scene.dump());
}

// ---- Two-legged RHex ---------------------------------------------------------------------------

namespace {
// l1 cos(phi) + l2 cos(phi + gamma) = R cos(phi + delta): the hip height above its foot.
double RhexDelta(const RhexParams& p) {
  return std::atan2(p.shank_length * std::sin(p.gamma),
                    p.thigh_length + p.shank_length * std::cos(p.gamma));
}
double HipHeight(const RhexParams& p, double phi) {
  return p.thigh_length * std::cos(phi) + p.shank_length * std::cos(phi + p.gamma);
}
}  // namespace

void RhexParams::Validate() const {
  if (!std::isfinite(phi_r)) InvalidArgument("phi_r", phi_r, "must be finite");
  if (!std::isfinite(gamma)) InvalidArgument("gamma", gamma, "must be finite");
  if (branch != 0 && branch != 1) InvalidArgument("branch", branch, "must be 0 or 1");
  RequirePositive("hip_offset", hip_offset);
  RequirePositive("thigh_length", thigh_length);
  RequirePositive("shank_length", shank_length);
  RequirePositive("body_mass", body_mass);
  RequirePositive("body_height", body_height);
  RequirePositive("thigh_mass", thigh_mass);
  RequirePositive("shank_mass", shank_mass);
  RequirePositive("speed", speed);
  RequireNonNegative("mu", mu);
  const double y = HipHeight(*this, phi_r);
  if (!(y > 1e-9)) {
    InvalidArgument("phi_r/gamma", std::to_string(phi_r) + "/" + std::to_string(gamma),
                    "the feet must be below the hips (hip height " + std::to_string(y) + ")");
  }
}

VectorXd RhexConfiguration(const RhexParams& p) {
  p.Validate();
  double phi_l = p.phi_r;
  if (p.branch == 0) {
    phi_l = std::remainder(-p.phi_r - 2 * RhexDelta(p), 2 * kPi);  // wrapped to [-pi, pi]
  }
  VectorXd q(7);
  q << 0, HipHeight(p, p.phi_r), 0, phi_l, p.phi_r, p.gamma, p.gamma;
  return q;
}

LoadedScene MakeRhex(const RhexParams& p) {
  const VectorXd q = RhexConfiguration(p);
  const double l1 = p.thigh_length, l2 = p.shank_length, half_pi = kPi / 2;
  const json frames = json::array(
      {{{"name", "body"}, {"joint", "floating"}},
       {{"name", "hip_l"},
        {"parent", "body"},
        {"joint", "revolute"},
        {"transform", {-p.hip_offset, 0, 0}}},
       {{"name", "hip_r"},
        {"parent", "body"},
        {"joint", "revolute"},
        {"transform", {p.hip_offset, 0, 0}}},
       {{"name", "knee_l"}, {"parent", "hip_l"}, {"joint", "revolute"}, {"transform", {0, -l1, 0}}},
       {{"name", "knee_r"},
        {"parent", "hip_r"},
        {"joint", "revolute"},
        {"transform", {0, -l1, 0}}}});
  auto rod = [&](const std::string& name, const std::string& frame, double l, double m) {
    return json{
        {"name", name}, {"type", "rod"}, {"frame", frame},    {"pose", {0, -l / 2, half_pi}},
        {"length", l},  {"mass", m},     {"collision", false}};
  };
  const json shapes = json::array(
      {{{"name", "floor"}, {"type", "wall"}, {"normal", {0, 1}}, {"offset", 0}},
       {{"name", "foot_r"}, {"type", "point"}, {"frame", "knee_r"}, {"pose", {0, -l2, 0}}},
       {{"name", "foot_l"}, {"type", "point"}, {"frame", "knee_l"}, {"pose", {0, -l2, 0}}},
       {{"name", "body"},
        {"type", "box"},
        {"frame", "body"},
        {"width", 2 * p.hip_offset},
        {"height", p.body_height},
        {"mass", p.body_mass},
        {"collision", false}},
       rod("thigh_l", "hip_l", l1, p.thigh_mass),
       rod("thigh_r", "hip_r", l1, p.thigh_mass),
       rod("shank_l", "knee_l", l2, p.shank_mass),
       rod("shank_r", "knee_r", l2, p.shank_mass)});
  std::ostringstream desc;
  desc << "Two-legged RHex at double contact (parametrised, Seghete & Murphey ICRA 2012; our "
          "parameters): phi_r = "
       << p.phi_r << ", gamma = " << p.gamma << ", phi_l = " << q(3) << " (branch " << p.branch
       << "), body falling at " << p.speed << " m/s";
  const json scene = {
      {"description", desc.str()},
      {"frames", frames},
      {"shapes", shapes},
      {"q", Vec(q)},
      {"v_minus", {0.0, -p.speed, 0.0, 0.0, 0.0, 0.0, 0.0}},
      {"friction", {{"mu", p.mu}}},
      {"sampler", {{"h", 0.1 * p.body_mass * p.speed}, {"N", 10}, {"samples", 16384}}}};
  return ParseSceneJson(scene.dump());
}

// ---- Registry and parameter parsing ----------------------------------------------------------

namespace {

// "1,2,3" (blanks around an item allowed); an item is named by its index: masses[1].
VectorXd ParseList(const std::string& key, const std::string& text) {
  std::vector<double> xs;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    xs.push_back(ParseReal(StripBlanks(item), key + "[" + std::to_string(xs.size()) + "]"));
  }
  if (xs.empty()) InvalidArgument(key, "'" + text + "'", "expected comma-separated numbers");
  return Eigen::Map<VectorXd>(xs.data(), static_cast<Eigen::Index>(xs.size()));
}

struct Entry {
  ParametricInfo info;
  std::function<LoadedScene(const ParameterValues&)> build;
};

std::string Num(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

const std::vector<Entry>& Registry() {
  static const std::vector<Entry> entries = [] {
    std::vector<Entry> v;
    {
      const CradleParams d;
      v.push_back(
          {{"cradle",
            "Newton's cradle with N frictionless discs touching on a line (Seghete & Murphey "
            "T-ASE 2014, Fig. 2); one prismatic-x joint per disc, contact i between discs i and "
            "i+1.",
            {{"n", "3", "number of discs N >= 2 (lists default to N entries)"},
             {"masses", ListText(d.masses), "N masses > 0"},
             {"radii", ListText(d.radii), "N radii > 0"},
             {"velocities", ListText(d.velocities), "N pre-impact velocities"}}},
           [](const ParameterValues& vals) {
             CradleParams p;
             Eigen::Index n = -1;
             if (auto it = vals.find("n"); it != vals.end()) {
               const double x = ParseReal(it->second, "n");
               if (!(x >= 2 && x == std::floor(x) && x <= 10000)) {
                 InvalidArgument("n", x, "must be an integer in [2, 10000]");
               }
               n = static_cast<Eigen::Index>(x);
             }
             if (auto it = vals.find("masses"); it != vals.end())
               p.masses = ParseList("masses", it->second);
             if (auto it = vals.find("radii"); it != vals.end())
               p.radii = ParseList("radii", it->second);
             if (auto it = vals.find("velocities"); it != vals.end()) {
               p.velocities = ParseList("velocities", it->second);
             }
             if (n < 0) n = vals.count("masses") ? p.masses.size() : 3;
             if (!vals.count("masses")) p.masses = VectorXd::Ones(n);
             if (!vals.count("radii")) p.radii = VectorXd::Constant(n, 0.5);
             if (!vals.count("velocities")) {
               p.velocities = VectorXd::Zero(n);
               p.velocities(0) = 1;
             }
             if (p.masses.size() != n) {
               InvalidArgument("masses", ListText(p.masses),
                               "must have n = " + std::to_string(n) + " entries");
             }
             return MakeCradle(p);
           }});
    }
    {
      const BilliardParams d;
      v.push_back(
          {{"billiard",
            "Three-ball billiard break (Seghete & Murphey T-ASE 2014, Sec. VII-A): cue ball c "
            "hits a and b at rest, touching it at +-theta/2 about its velocity; "
            "q = (xa, ya, xb, yb, xc, yc), masses density 4/3 pi r^3.",
            {{"theta", Num(d.theta), "angle at c between a and b [rad], in [theta_min, pi)"},
             {"ra", Num(d.ra), "radius of a"},
             {"rb", Num(d.rb), "radius of b"},
             {"rc", Num(d.rc), "radius of the cue ball c"},
             {"density", Num(d.density), "mass per volume (default: unit ball, unit mass)"},
             {"speed", Num(d.speed), "speed of c [m/s]"},
             {"mu", Num(d.mu), "friction coefficient at every contact"}}},
           [](const ParameterValues& vals) {
             BilliardParams p;
             const std::map<std::string, double*> fields = {
                 {"theta", &p.theta},     {"ra", &p.ra},       {"rb", &p.rb}, {"rc", &p.rc},
                 {"density", &p.density}, {"speed", &p.speed}, {"mu", &p.mu}};
             for (const auto& [k, val] : vals) *fields.at(k) = ParseReal(val, k);
             return MakeBilliard(p);
           }});
    }
    {
      const RhexParams d;
      v.push_back(
          {{"rhex",
            "Two-legged sagittal RHex at double contact (Seghete & Murphey ICRA 2012, Sec. V), "
            "reduced to (phi_r, gamma): x = theta = 0, equal knees, feet level on the floor, body "
            "falling. q = (x, y, theta, phi_l, phi_r, gamma_l, gamma_r); all dimensions are ours "
            "(the paper states none).",
            {{"phi_r", Num(d.phi_r), "right (front) hip angle from the body's -y axis [rad]"},
             {"gamma", Num(d.gamma), "common knee angle [rad]"},
             {"branch", std::to_string(d.branch), "phi_l root: 0 = -phi_r - 2 delta, 1 = phi_r"},
             {"hip_offset", Num(d.hip_offset), "half the hip separation [m]"},
             {"thigh_length", Num(d.thigh_length), "[m]"},
             {"shank_length", Num(d.shank_length), "[m]"},
             {"body_mass", Num(d.body_mass), "[kg]"},
             {"body_height", Num(d.body_height), "body box height [m]"},
             {"thigh_mass", Num(d.thigh_mass), "[kg]"},
             {"shank_mass", Num(d.shank_mass), "[kg]"},
             {"speed", Num(d.speed), "falling speed of the body [m/s]"},
             {"mu", Num(d.mu), "friction coefficient"}}},
           [](const ParameterValues& vals) {
             RhexParams p;
             const std::map<std::string, double*> fields = {{"phi_r", &p.phi_r},
                                                            {"gamma", &p.gamma},
                                                            {"hip_offset", &p.hip_offset},
                                                            {"thigh_length", &p.thigh_length},
                                                            {"shank_length", &p.shank_length},
                                                            {"body_mass", &p.body_mass},
                                                            {"body_height", &p.body_height},
                                                            {"thigh_mass", &p.thigh_mass},
                                                            {"shank_mass", &p.shank_mass},
                                                            {"speed", &p.speed},
                                                            {"mu", &p.mu}};
             for (const auto& [k, val] : vals) {
               const double x = ParseReal(val, k);
               if (k == "branch") {
                 if (x != 0 && x != 1) InvalidArgument("branch", x, "must be 0 or 1");
                 p.branch = static_cast<int>(x);
               } else {
                 *fields.at(k) = x;
               }
             }
             return MakeRhex(p);
           }});
    }
    {
      const CompassTouchdownParams d;
      v.push_back(
          {{"compass-touchdown",
            "Compass gait at touchdown (docs/examples.md §3.3): the compass-gait scene with the "
            "inter-leg angle, the angular velocity about the trailing foot and the dimensions "
            "as parameters; the defaults are the compass-gait scene.",
            {{"angle", Num(d.angle), "inter-leg angle [rad], in (0, pi)"},
             {"rate", Num(d.rate), "angular velocity about the trailing foot [rad/s], != 0"},
             {"leg_length", Num(d.leg_length), "[m]"},
             {"mass", Num(d.mass), "point mass at mid-leg [kg]"},
             {"mu", Num(d.mu), "friction coefficient at both feet"}}},
           [](const ParameterValues& vals) {
             CompassTouchdownParams p;
             const std::map<std::string, double*> fields = {{"angle", &p.angle},
                                                            {"rate", &p.rate},
                                                            {"leg_length", &p.leg_length},
                                                            {"mass", &p.mass},
                                                            {"mu", &p.mu}};
             for (const auto& [k, val] : vals) *fields.at(k) = ParseReal(val, k);
             return MakeCompassTouchdown(p);
           }});
    }
    return v;
  }();
  return entries;
}

}  // namespace

const std::vector<ParametricInfo>& ParametricSystems() {
  static const std::vector<ParametricInfo> infos = [] {
    std::vector<ParametricInfo> v;
    for (const Entry& e : Registry()) v.push_back(e.info);
    return v;
  }();
  return infos;
}

bool IsParametric(const std::string& name) {
  for (const Entry& e : Registry()) {
    if (e.info.name == name) return true;
  }
  return false;
}

bool HasParameter(const ParametricInfo& info, const std::string& name) {
  for (const ParameterInfo& p : info.parameters) {
    if (p.name == name) return true;
  }
  return false;
}

std::string ParameterNames(const ParametricInfo& info) {
  std::string names;
  for (const ParameterInfo& p : info.parameters) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

ParameterValues ParseParameterAssignments(const std::vector<std::string>& assignments) {
  ParameterValues out;
  for (const std::string& a : assignments) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw std::invalid_argument("--param '" + a + "': expected KEY=VALUE");
    }
    const std::string key = a.substr(0, eq);
    if (!out.emplace(key, a.substr(eq + 1)).second) {
      throw std::invalid_argument("--param '" + a + "': parameter '" + key + "' given twice");
    }
  }
  return out;
}

LoadedScene LoadParametric(const std::string& name, const ParameterValues& values) {
  for (const Entry& e : Registry()) {
    if (e.info.name != name) continue;
    for (const auto& kv : values) {
      if (!HasParameter(e.info, kv.first)) {
        throw std::invalid_argument("system " + name + ": unknown parameter '" + kv.first +
                                    "' (known: " + ParameterNames(e.info) + ")");
      }
    }
    try {
      return e.build(values);
    } catch (const std::invalid_argument& ex) {
      throw std::invalid_argument("system " + name + ": " + ex.what());
    }
  }
  throw std::invalid_argument("system = " + name + ": not a parametrised system");
}

LoadedProblem LoadSystem(const std::string& name, const ParameterValues& values) {
  if (IsParametric(name)) return LoadParametric(name, values);
  if (!values.empty()) {
    LoadBuiltin(name);  // unknown names fail here with the list of known systems
    throw std::invalid_argument("system " + name + ": --param " + values.begin()->first +
                                ": this system takes no parameters (parametrised systems: "
                                "cradle, billiard, rhex, compass-touchdown)");
  }
  return LoadBuiltin(name);
}

}  // namespace impactset::systems
