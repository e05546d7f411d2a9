// Fuzz target: our side of loading a MuJoCo model (robots/mujoco_model.hpp): the MJCF or URDF
// text handed to MuJoCo (through its virtual file system, or as a file for robots::LoadMujoco),
// the keyframe, the qpos / qvel text (robots::ParseStateVector), the contact margin and friction
// directions, the refusal of active constraints, and the model -> ImpactProblem conversion.
//
// Input: optional header lines "key=value" ended by a line "---", then the model text; without
// a "---" line the whole input is the model, loaded at its first keyframe. Keys: keyframe, qpos,
// qvel (a comma list), qpos_json, qvel_json (a JSON file's text, written to a scratch file),
// margin, k, ignore (1: ignore_constraints), file (1: LoadMujoco on a scratch file).
//
// MuJoCo itself is not instrumented (Debian's libmujoco): coverage counts our code only.
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>

#include <impactset/robots/mujoco_model.hpp>
#include <impactset/robots/state_vector.hpp>
#include "fuzz/fuzz_util.hpp"

namespace {

namespace robots = impactset::robots;

struct Input {
  robots::MujocoOptions options;
  std::string model;
  bool from_file = false;
  std::string qpos_json, qvel_json;
};

double Number(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

// A comma list as the command line passes it; an absolute path is not followed (the fuzzer is
// not to read the machine's files: the JSON route has its own keys).
void StateVector(const std::string& text,
                 const char* field,
                 std::optional<impactset::VectorXd>* out) {
  if (!text.empty() && text[0] == '/') return;
  *out = robots::ParseStateVector(text, field);
}

Input Parse(const std::string& text) {
  Input in;
  const std::size_t sep = text.find("\n---\n");
  if (sep == std::string::npos) {
    in.model = text;
    return in;
  }
  in.model = text.substr(sep + 5);
  std::istringstream header(text.substr(0, sep));
  for (std::string line; std::getline(header, line);) {
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    auto& o = in.options;
    if (key == "keyframe") o.state.keyframe = value;
    if (key == "qpos") StateVector(value, "qpos", &o.state.qpos);
    if (key == "qvel") StateVector(value, "qvel", &o.state.qvel);
    if (key == "qpos_json") in.qpos_json = value;
    if (key == "qvel_json") in.qvel_json = value;
    if (key == "margin") o.contact_margin = Number(value);
    if (key == "k") o.friction_directions = static_cast<int>(Number(value));
    if (key == "ignore") o.ignore_constraints = value == "1";
    if (key == "file") in.from_file = value == "1";
  }
  return in;
}

void FromJson(const std::string& text, const char* field, std::optional<impactset::VectorXd>* out) {
  if (text.empty()) return;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  const impactset::fuzz::ScratchFile json(bytes, text.size(), std::string(field) + ".json");
  *out = robots::ParseStateVector(json.path(), field);
}

// What a loaded problem promises (mujoco_model.hpp): one report per contact, names for every
// coordinate. A broken promise aborts: a finding.
void Check(const robots::MujocoProblem& p) {
  const auto& problem = p.loaded.problem;
  if (p.contacts.size() != static_cast<std::size_t>(problem.m()) ||
      p.dof_names.size() != static_cast<std::size_t>(problem.n()) ||
      p.contact_coordinate_names.size() !=
          static_cast<std::size_t>(problem.ContactJacobian().rows()) ||
      p.com_jacobian.rows() != 3 || p.com_jacobian.cols() != problem.n() ||
      p.base_map.cols() != problem.n()) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using impactset::fuzz::AllowDocumentedErrors;
  AllowDocumentedErrors([&] {
    Input in = Parse(impactset::fuzz::Text(data, size));
    FromJson(in.qpos_json, "qpos", &in.options.state.qpos);
    FromJson(in.qvel_json, "qvel", &in.options.state.qvel);
    if (in.from_file) {
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(in.model.data());
      const impactset::fuzz::ScratchFile file(bytes, in.model.size(), "model.xml");
      Check(robots::LoadMujoco(file.path(), in.options));
    } else {
      Check(robots::LoadMujocoXml(in.model, "fuzz", in.options));
    }
  });
  return 0;
}
