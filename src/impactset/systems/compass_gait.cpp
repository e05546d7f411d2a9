#include <impactset/systems/compass_gait.hpp>

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include <impactset/common/error_policy.hpp>

namespace impactset::systems {

void CompassTouchdownParams::Validate() const {
  if (!(angle > 0 && angle < std::numbers::pi)) {
    InvalidArgument("angle", angle, "must lie in (0, pi): the feet are apart and below the hip");
  }
  if (!std::isfinite(rate) || rate == 0) {
    InvalidArgument("rate", rate, "must be finite and non-zero");
  }
  if (!(leg_length > 0) || !std::isfinite(leg_length)) {
    InvalidArgument("leg_length", leg_length, "must be finite and > 0");
  }
  if (!(mass > 0) || !std::isfinite(mass)) InvalidArgument("mass", mass, "must be finite and > 0");
  if (!(mu >= 0) || !std::isfinite(mu)) InvalidArgument("mu", mu, "must be finite and >= 0");
}

LoadedScene MakeCompassTouchdown(const CompassTouchdownParams& p) {
  using nlohmann::json;
  p.Validate();
  const double phi = p.angle / 2, l = p.leg_length, half_pi = std::numbers::pi / 2;
  json shapes = json::array();
  for (const char* leg : {"leading", "trailing"}) {
    const std::string frame = std::string(leg) + "_leg";
    shapes.push_back({{"name", std::string(leg) + "_rod"},
                      {"type", "rod"},
                      {"frame", frame},
                      {"pose", {0, -l / 2, half_pi}},
                      {"length", l}});
    shapes.push_back({{"name", std::string(leg) + "_mass"},
                      {"type", "point"},
                      {"frame", frame},
                      {"pose", {0, -l / 2, 0}},
                      {"mass", p.mass},
                      {"inertia", 0}});
  }
  shapes.push_back({{"name", "floor"}, {"type", "wall"}, {"normal", {0, 1}}, {"offset", 0}});
  std::ostringstream desc;
  desc << "Compass gait touchdown (parametrised): inter-leg angle " << p.angle
       << " rad, rotating at " << p.rate << " rad/s about the trailing foot, legs " << l
       << " m with " << p.mass << " kg at mid-leg, mu = " << p.mu;
  const json scene = {
      {"description", desc.str()},
      {"frames",
       json::array({{{"name", "pelvis_x"}, {"joint", "prismatic_x"}},
                    {{"name", "pelvis_y"}, {"parent", "pelvis_x"}, {"joint", "prismatic_y"}},
                    {{"name", "leading_leg"}, {"parent", "pelvis_y"}, {"joint", "revolute"}},
                    {{"name", "trailing_leg"}, {"parent", "pelvis_y"}, {"joint", "revolute"}}})},
      {"shapes", shapes},
      {"q", {-l * std::sin(phi), l * std::cos(phi), -phi, phi}},
      {"v_minus",
       {{"rigid_rotation",
         {{"rate", p.rate}, {"about", {{"contact", {"trailing_rod", "floor"}}}}}}}},
      {"friction", {{"mu", p.mu}}},
      {"sampler", {{"h", std::abs(p.rate)}, {"N", 5}, {"samples", 1048576}}}};
  return ParseSceneJson(scene.dump());
}

}  // namespace impactset::systems
