#pragma once
// Impact states nobody planned for, on every system runnable by name: the loaded state, its
// velocity scaled (zero: resting; negative: separating; tiny or huge), replaced, a MuJoCo model
// lifted or pushed into the floor, touched down on 1-4 contacts. Each state goes through what
// `run` and `compare` run (engine::Run with the run's step rule, compare::Compare); the answer
// must be a result or a documented error (std::invalid_argument), never a signal, another
// exception or a failed assert. Shared by the libFuzzer target fuzz/impact_state.cpp and the
// property test tests/engine/state_fuzz_test.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <impactset/catalog/system_catalog.hpp>
#include <impactset/compare/compare.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/step_scaling.hpp>
#include <impactset/robots/mujoco_scenes.hpp>

namespace impactset::fuzz {

/// What a state case does to the loaded state.
enum class StateKind {
  kAsLoaded,   ///< the system's own state
  kScaled,     ///< v- times values[0] (0: resting; < 0: separating)
  kReplaced,   ///< v- = values (padded with 0)
  kMoved,      ///< MuJoCo: qpos + 0.05 values, qvel = values (lifted, penetrating, at limits)
  kTouchdown,  ///< MuJoCo: touchdown on 1 + values[0] mod 4 contacts, qvel = values
  kCount
};

struct StateCase {
  int system = 0;  ///< index into catalog::Systems()
  StateKind kind = StateKind::kAsLoaded;
  std::vector<double> values;
};

/// A case from fuzzer bytes: byte 0 the system, byte 1 the kind, then values from signed bytes
/// (v = b / 16, so -8 .. 8) or, when a byte is 0x80, the next 8 bytes as a double (any value,
/// NaN and infinities included).
inline StateCase DecodeState(const std::uint8_t* data, std::size_t size) {
  StateCase c;
  const auto& systems = catalog::Systems();
  if (size > 0) c.system = data[0] % static_cast<int>(systems.size());
  if (size > 1) c.kind = static_cast<StateKind>(data[1] % static_cast<int>(StateKind::kCount));
  for (std::size_t i = 2; i < size && c.values.size() < 64; ++i) {
    if (data[i] == 0x80 && i + 8 < size) {
      double d;
      std::memcpy(&d, data + i + 1, sizeof d);
      c.values.push_back(d);
      i += 8;
      continue;
    }
    c.values.push_back(static_cast<std::int8_t>(data[i]) / 16.0);
  }
  return c;
}

/// values[i], else 0.
inline double ValueAt(const StateCase& c, std::size_t i) {
  return i < c.values.size() ? c.values[i] : 0.0;
}

/// The loaded problem of the case, or a documented error.
inline systems::LoadedProblem LoadCase(const StateCase& c) {
  const std::string name = catalog::Systems()[static_cast<std::size_t>(c.system)].name;
  if (robots::IsMujocoScene(name) &&
      (c.kind == StateKind::kMoved || c.kind == StateKind::kTouchdown)) {
    const std::string& xml = robots::MujocoSceneXml(name);
    robots::MujocoOptions o;
    o.state = robots::ResolveMujocoStateXml(xml, name, {});
    const Eigen::Index nq = o.state.qpos->size(), nv = o.state.qvel->size();
    for (Eigen::Index i = 0; i < nv; ++i) (*o.state.qvel)(i) = ValueAt(c, static_cast<size_t>(i));
    if (c.kind == StateKind::kTouchdown) {
      o.touchdown = 1 + static_cast<int>(std::fmod(std::abs(ValueAt(c, 0)) * 16, 4.0));
    } else {
      for (Eigen::Index i = 0; i < nq; ++i) {
        (*o.state.qpos)(i) += 0.05 * ValueAt(c, static_cast<size_t>(nv + i));
      }
    }
    return robots::LoadMujocoScene(name, o).loaded;
  }
  systems::LoadedProblem lp = catalog::LoadSystem(name);
  const impact::ImpactProblem& p = lp.problem;
  VectorXd v = p.v_minus();
  if (c.kind == StateKind::kScaled) v *= ValueAt(c, 0);
  if (c.kind != StateKind::kAsLoaded && c.kind != StateKind::kScaled) {
    for (Eigen::Index i = 0; i < v.size(); ++i) v(i) = ValueAt(c, static_cast<size_t>(i));
  }
  lp.problem = impact::ImpactProblem(p.M(), p.Jn(), p.D(), p.mu(), v, p.k());
  return lp;
}

/// Runs the case through run's and compare's library calls at a small size.
inline void RunCase(const StateCase& c, long long samples = 16) {
  const systems::LoadedProblem lp = LoadCase(c);
  engine::RunOptions o = engine::ProblemRunOptions(lp);
  o.sampler.samples = samples;
  o.sampler.threads = 1;
  o.set_options.holdout = samples;
  o.set_options.polish = samples;  // exercised at the run's small size
  const engine::RunResult r = engine::Run(lp.problem, o, "fuzz");
  static_cast<void>(engine::StepCapAdvice(r));
  static_cast<void>(engine::PhysicsWarning(r));
  static_cast<void>(engine::JamNote(r.problem));
  if (r.summary.samples != samples) throw std::logic_error("fuzz: a run lost samples");
  compare::CompareOptions co;
  co.laws = {compare::Law::kAnitescuPotra, compare::Law::kSequential, compare::Law::kRouth};
  co.samples = samples;
  co.threads = 1;
  const compare::CompareResult cr = compare::Compare(lp, co);
  // compare's Routh set is run's: the same h, N, seed and design give the same summary.
  if (cr.routh && o.sampler.seed == co.seed &&
      (cr.routh->summary.terminated != r.summary.terminated ||
       cr.routh->step != o.sampler.algorithm.step ||
       cr.routh->summary.contact_velocity_max != r.summary.contact_velocity_max)) {
    throw std::logic_error("fuzz: compare's Routh set differs from run's");
  }
}

}  // namespace impactset::fuzz
