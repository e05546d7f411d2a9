// Set-valued rollouts (rollouts/rollout.hpp, robots/mujoco_simulation.hpp): MuJoCo's own stepping
// reproduced bit for bit between events, events resolved from (seed, rollout, event) alone (the
// same at any thread count, replayable), outcomes that differ where the impact is set-valued,
// controls, bounds, and every refusal.
#include <gtest/gtest.h>

#include <mujoco/mujoco.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <impactset/data/hdf5_tree.hpp>
#include <impactset/robots/mujoco_simulation.hpp>
#include <impactset/rollouts/falsify.hpp>
#include <impactset/rollouts/rollout.hpp>
#include <impactset/rollouts/rollout_file.hpp>
#include <impactset/rollouts/rollout_options.hpp>

namespace impactset::rollouts {
namespace {

// The box of tests/data/rollouts/box-drop.xml (its comment says why its landing is set-valued).
const std::string kBoxFile = IMPACTSET_TEST_DATA_DIR "/rollouts/box-drop.xml";

std::string BoxXml() {
  std::ifstream in(kBoxFile);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A hinged rod with a motor (gear 2) and a position servo (kp 5) on a second hinge.
constexpr const char* kArmXml = R"(<mujoco model="arm">
  <option timestep="0.002"/>
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/>
      <body name="lower" pos="0.5 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="m" joint="shoulder" gear="2"/>
    <position name="p" joint="elbow" kp="5"/>
  </actuator>
  <keyframe>
    <key name="start" qpos="0.3 -0.2" qvel="0 0" ctrl="0 -0.2"/>
  </keyframe>
</mujoco>)";

// A stiff hinge whose explicit passive force makes qacc explode at the first step.
constexpr const char* kStiffXml = R"(<mujoco model="stiff">
  <option timestep="0.01"/>
  <worldbody>
    <body><joint name="j" type="hinge" stiffness="1e12"/>
      <geom type="sphere" size="0.1" mass="0.001" pos="0.5 0 0"/></body>
  </worldbody>
  <keyframe><key qpos="0.5" qvel="0"/></keyframe>
</mujoco>)";

robots::SimulationModel Load(const std::string& xml, const std::string& label) {
  return robots::LoadSimulationModelXml(xml, label, robots::MujocoOptions{});
}

robots::SimulationModel LoadBox() { return Load(BoxXml(), "box"); }

RolloutOptions BoxOptions(long long count) {
  RolloutOptions o;
  o.horizon = 0.2;
  o.rollouts = count;
  o.seed = 7;
  o.threads = 1;
  o.metrics = {"spin=max(abs(qvel:root:wx))", "tipped=max(abs(root:qx)) > 0.01"};
  return o;
}

bool Same(const RolloutResult& a, const RolloutResult& b) {
  return a.status == b.status && a.events == b.events && a.qpos == b.qpos && a.qvel == b.qvel &&
         a.metrics == b.metrics && a.lcp_solves == b.lcp_solves &&
         a.first_event_contacts == b.first_event_contacts;
}

TEST(Rollout, WithoutEventsTheTrajectoryIsMujocosOwnBitForBit) {
  const robots::SimulationModel model = LoadBox();
  RolloutOptions o = BoxOptions(1);
  o.metrics.clear();
  const RolloutResult mine = RunRollout(model, o, 0, ImpactModel::kMujoco);

  char error[512] = "";
  mjModel* m = mj_loadXML(kBoxFile.c_str(), nullptr, error, sizeof error);
  ASSERT_NE(m, nullptr) << error;
  mjData* d = mj_makeData(m);
  mj_resetDataKeyframe(m, d, 0);
  for (int s = 0; s < 100; ++s) mj_step(m, d);  // 0.2 s at 2 ms
  const Eigen::Map<const Eigen::VectorXd> q(d->qpos, m->nq), v(d->qvel, m->nv);
  EXPECT_EQ(mine.qpos, Eigen::VectorXd(q));
  EXPECT_EQ(mine.qvel, Eigen::VectorXd(v));
  EXPECT_EQ(mine.events, 0);
  mj_deleteData(d);
  mj_deleteModel(m);
}

TEST(Rollout, EventsAreDrawnFromTheRolloutsOwnStream) {
  const robots::SimulationModel model = LoadBox();
  RolloutOptions o = BoxOptions(24);
  const RolloutReport one = RunRollouts(model, o);
  o.threads = 2;
  const RolloutReport two = RunRollouts(model, o);
  ASSERT_EQ(one.rollouts.size(), 24u);
  for (size_t i = 0; i < one.rollouts.size(); ++i) {
    EXPECT_TRUE(Same(one.rollouts[i], two.rollouts[i])) << "rollout " << i;
  }
  // Replay: rollout 5 alone is the batch's rollout 5.
  EXPECT_TRUE(Same(RunRollout(model, o, 5), one.rollouts[5]));
  // Another seed draws other outcomes.
  o.seed = 8;
  const RolloutReport other = RunRollouts(model, o);
  int differ = 0;
  for (size_t i = 0; i < one.rollouts.size(); ++i) {
    differ += one.rollouts[i].qvel != other.rollouts[i].qvel ? 1 : 0;
  }
  EXPECT_GT(differ, 0);
}

TEST(Rollout, TheTwoCornerLandingHasManyOutcomes) {
  const robots::SimulationModel model = LoadBox();
  const RolloutReport r = RunRollouts(model, BoxOptions(32));
  EXPECT_EQ(r.ok, 32);
  EXPECT_GT(r.events, 32);  // every rollout lands: at least its first event
  std::set<double> spins;
  for (const RolloutResult& x : r.rollouts) {
    EXPECT_GE(x.events, 1);
    EXPECT_TRUE(x.qpos.allFinite());
    spins.insert(x.metrics[0]);
  }
  // The order of the two corners' impulses decides the spin about x: no two rollouts alike.
  EXPECT_GT(spins.size(), 16u);
  ASSERT_TRUE(r.baseline.has_value());
  EXPECT_EQ(r.baseline->events, 0);  // MuJoCo's own contact throughout
  ASSERT_EQ(r.metrics.size(), 2u);
  const MetricSummary& tipped = r.metrics[1];
  EXPECT_TRUE(tipped.is_event);
  EXPECT_EQ(tipped.counted, 32);
  EXPECT_LE(tipped.lower, static_cast<double>(tipped.true_count) / 32);
  EXPECT_GE(tipped.upper, static_cast<double>(tipped.true_count) / 32);
  const MetricSummary& spin = r.metrics[0];
  EXPECT_FALSE(spin.is_event);
  EXPECT_LE(spin.min, spin.mean);
  EXPECT_LE(spin.mean, spin.max);
  EXPECT_EQ(r.rollouts[static_cast<size_t>(spin.argmax)].metrics[0], spin.max);
}

TEST(Rollout, EveryEventLeavesNoContactApproaching) {
  const robots::SimulationModel model = LoadBox();
  RolloutOptions o = BoxOptions(8);
  o.impact_speed = 1e6;  // above every approach: no event, MuJoCo alone
  EXPECT_EQ(RunRollouts(model, o).events, 0);
  // The landing is an event whose impact problem has approaching contacts.
  robots::MujocoSimulation sim(model);
  sim.Reset(model.qpos, model.qvel, model.ctrl);
  int step = 0;
  while (sim.Prepare() <= kDefaultImpactSpeed && step < 100) {
    ASSERT_TRUE(sim.Advance());
    ++step;
  }
  ASSERT_LT(step, 100);
  EXPECT_GE(sim.Impact().approaching, 2);  // both corners
  // Every recorded state (after its step's event, if any) has no contact approaching faster
  // than the threshold: each event's v+ stops or separates its contacts.
  o.impact_speed = kDefaultImpactSpeed;
  o.record_every = 1;
  const RolloutResult r = RunRollout(model, o, 3);
  ASSERT_GE(r.events, 1);
  robots::MujocoSimulation check(model);
  int approaching = 0;
  for (size_t i = 0; i < r.record_qpos.size(); ++i) {
    check.Reset(r.record_qpos[i], r.record_qvel[i], model.ctrl);
    approaching += check.Prepare() > kDefaultImpactSpeed ? 1 : 0;
  }
  EXPECT_EQ(approaching, 0);
}

TEST(Rollout, PostureControlDrivesMotorsThroughTheirGearAndServosByTarget) {
  const robots::SimulationModel model = Load(kArmXml, "arm");
  ASSERT_EQ(model.actuator_names, (std::vector<std::string>{"m", "p"}));
  EXPECT_EQ(model.posture_actuators, (std::vector<bool>{true, true}));
  Eigen::VectorXd target(2), q(2), v(2);
  target << 0.3, -0.2;
  q << 0.5, 0.1;
  v << 0.1, 0.4;
  const Eigen::VectorXd u = robots::PostureControl(model, target, q, v, 10, 1);
  EXPECT_DOUBLE_EQ(u(0), (10 * (0.3 - 0.5) - 1 * 0.1) / 2);  // motor: torque / (gear x gain)
  EXPECT_EQ(u(1), -0.2);                                     // servo: the target
  // Held by the PD law the shoulder stays near its start; with the keyframe's ctrl (motor off)
  // it falls.
  RolloutOptions o;
  o.horizon = 1;
  o.rollouts = 1;
  o.threads = 1;
  o.baseline = false;
  o.metrics = {"sag=max(abs(shoulder - 0.3))"};
  const double free_sag = RunRollouts(model, o).rollouts[0].metrics[0];
  o.controls = Controls::kPdPosture;
  o.pd_kp = 200;
  o.pd_kd = 20;
  const double held_sag = RunRollouts(model, o).rollouts[0].metrics[0];
  EXPECT_GT(free_sag, 0.5);
  EXPECT_LT(held_sag, 0.1);
  // A policy callback gets the state and drives the actuators the same way.
  o.controls = Controls::kPolicy;
  o.policy = [&](double, const Eigen::VectorXd& qpos, const Eigen::VectorXd& qvel) {
    return robots::PostureControl(model, model.qpos, qpos, qvel, 200, 20);
  };
  EXPECT_EQ(RunRollouts(model, o).rollouts[0].metrics[0], held_sag);
}

TEST(Rollout, ADivergingRolloutGetsItsStatus) {
  const robots::SimulationModel model = Load(kStiffXml, "stiff");
  RolloutOptions o;
  o.rollouts = 3;
  o.threads = 2;
  o.metrics = {"x=max(j)"};
  const RolloutReport r = RunRollouts(model, o);
  EXPECT_EQ(r.diverged, 3);
  EXPECT_EQ(r.ok, 0);
  for (const RolloutResult& x : r.rollouts) {
    EXPECT_EQ(x.status, RolloutStatus::kDiverged);
    EXPECT_NE(x.message.find("MuJoCo found a bad acceleration"), std::string::npos) << x.message;
    EXPECT_TRUE(std::isnan(x.metrics[0]));
    // The last valid state, not the one MuJoCo reset its data to: its time is in the message.
    EXPECT_NE(x.message.find("from t = " + std::to_string(x.time)), std::string::npos)
        << x.message << " at " << x.time;
    EXPECT_TRUE(x.qpos.allFinite() && x.qvel.allFinite());
    EXPECT_NE(x.qpos(0), 0.0);  // mj_resetData's qpos is qpos0 = 0; the model started at 0.5
  }
  EXPECT_EQ(r.metrics[0].counted, 0);
  // MuJoCo's own errors inside a step (here its stack overflows at the first contact) are a
  // diverged rollout too, never a crash of the others.
  std::string tiny = BoxXml();
  tiny.insert(tiny.find('>', tiny.find("<mujoco")) + 1, "<size nstack=\"100\"/>");
  o.metrics.clear();  // j is the stiff model's
  const RolloutReport overflow = RunRollouts(Load(tiny, "tiny stack"), o);
  EXPECT_EQ(overflow.diverged, 3);
  EXPECT_NE(overflow.rollouts[1].message.find("MuJoCo error before t = "), std::string::npos)
      << overflow.rollouts[1].message;
  EXPECT_NE(overflow.rollouts[1].message.find("Stack overflow"), std::string::npos);
  bool said = false;
  for (const std::string& w : r.warnings) said |= w.find("no rollout reached") != std::string::npos;
  EXPECT_TRUE(said);
}

std::string ErrorOf(const robots::SimulationModel& model, const RolloutOptions& o) {
  try {
    o.Validate(model);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(Rollout, BadOptionsAreRefusedNamingTheField) {
  const robots::SimulationModel box = LoadBox();
  const robots::SimulationModel arm = Load(kArmXml, "arm");
  RolloutOptions o;
  o.horizon = 0;
  EXPECT_EQ(ErrorOf(box, o), "horizon = 0: must be > 0 and finite (seconds)");
  o = {};
  o.controls = Controls::kConstant;
  o.ctrl = Eigen::VectorXd::Zero(3);
  EXPECT_EQ(ErrorOf(arm, o), "ctrl = 3 values: must be nu = 2 finite values (actuators of arm)");
  EXPECT_EQ(ErrorOf(box, o), "controls = constant: the model has no actuators (box: nu = 0)");
  o = {};
  o.metrics = {"fell=min(com:q) < 1"};
  EXPECT_NE(ErrorOf(box, o).find("at position 10: unknown name 'com:q'"), std::string::npos)
      << ErrorOf(box, o);
  o.metrics = {"a=t", "a=events"};
  EXPECT_NE(ErrorOf(box, o).find("the name 'a' is given twice"), std::string::npos);
  o = {};
  o.rollouts = 0;
  EXPECT_EQ(ErrorOf(box, o), "rollouts = 0: must be >= 1");
  o = {};
  o.controls = Controls::kPolicy;
  EXPECT_EQ(ErrorOf(arm, o), "policy = none: controls = policy needs a policy function");
  o.policy = [](double, const Eigen::VectorXd&, const Eigen::VectorXd&) {
    return Eigen::VectorXd::Zero(1);
  };
  o.rollouts = 1;
  EXPECT_THROW(RunRollouts(arm, o), std::invalid_argument);
}

const data::TreeArray* Find(const data::Tree& t, const std::string& path) {
  for (const data::TreeArray& a : t.arrays) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

TEST(Rollout, TheFileHoldsEveryRolloutLabelled) {
  const robots::SimulationModel model = LoadBox();
  RolloutOptions o = BoxOptions(6);
  o.record_every = 10;
  const RolloutReport r = RunRollouts(model, o);
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "impactset-rollouts-test.h5";
  WriteRollouts(file.string(), model, o, r);
  const data::Tree t = data::ReadTree(file.string());
  std::filesystem::remove(file);
  const data::Attribute* kind = data::FindAttribute(t.attributes, "/", "file_kind");
  ASSERT_NE(kind, nullptr);
  EXPECT_EQ(std::get<std::string>(kind->value), "rollouts");
  const data::Attribute* seed = data::FindAttribute(t.attributes, "/options", "seed");
  ASSERT_NE(seed, nullptr);
  EXPECT_EQ(std::get<std::string>(seed->value), "7");
  const data::TreeArray* qpos = Find(t, "/rollouts/qpos");
  ASSERT_NE(qpos, nullptr);
  EXPECT_EQ(qpos->shape, (std::vector<std::uint64_t>{6, 7}));
  EXPECT_EQ(qpos->dimensions,
            (std::vector<std::string>{"/rollouts/rollout", "/rollouts/qpos_coordinate"}));
  for (size_t i = 0; i < 6; ++i) {
    for (size_t j = 0; j < 7; ++j) {
      EXPECT_EQ(qpos->values[i * 7 + j], r.rollouts[i].qpos(static_cast<Eigen::Index>(j)));
    }
  }
  const data::TreeArray* names = Find(t, "/rollouts/qpos_coordinate");
  ASSERT_NE(names, nullptr);
  EXPECT_EQ(names->text, model.qpos_names);
  const data::TreeArray* keys = Find(t, "/rollouts/key");
  ASSERT_NE(keys, nullptr);
  EXPECT_EQ(keys->text[4], "7/4");
  const data::TreeArray* upper = Find(t, "/metrics/upper");
  ASSERT_NE(upper, nullptr);
  EXPECT_TRUE(std::isnan(upper->values[0]));  // spin: a number metric
  EXPECT_EQ(upper->values[1], r.metrics[1].upper);
  const data::TreeArray* trajectory = Find(t, "/trajectory/qpos");
  ASSERT_NE(trajectory, nullptr);
  EXPECT_EQ(trajectory->shape, (std::vector<std::uint64_t>{6, 11, 7}));  // 100 steps / 10 + end
  ASSERT_NE(Find(t, "/baseline/qvel"), nullptr);
  EXPECT_EQ(data::FindAttribute(t.attributes, "/options", "threads"), nullptr);
}

// Bit for bit, NaN included.
bool SameValues(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
           return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
         });
}

TEST(Rollout, TheFileIsTheSameAtAnyThreadCount) {
  const robots::SimulationModel model = LoadBox();
  RolloutOptions o = BoxOptions(8);
  o.record_every = 25;
  const data::Tree one = RolloutTree(model, o, RunRollouts(model, o));
  o.threads = 2;
  const data::Tree two = RolloutTree(model, o, RunRollouts(model, o));
  ASSERT_EQ(one.attributes.size(), two.attributes.size());
  for (size_t i = 0; i < one.attributes.size(); ++i) {
    EXPECT_EQ(one.attributes[i].name, two.attributes[i].name);
    EXPECT_TRUE(one.attributes[i].value == two.attributes[i].value) << one.attributes[i].name;
  }
  ASSERT_EQ(one.arrays.size(), two.arrays.size());
  for (size_t i = 0; i < one.arrays.size(); ++i) {
    SCOPED_TRACE(one.arrays[i].path);
    EXPECT_EQ(one.arrays[i].path, two.arrays[i].path);
    EXPECT_EQ(one.arrays[i].shape, two.arrays[i].shape);
    EXPECT_TRUE(SameValues(one.arrays[i].values, two.arrays[i].values));
    EXPECT_EQ(one.arrays[i].integers, two.arrays[i].integers);
    EXPECT_EQ(one.arrays[i].text, two.arrays[i].text);
  }
}

TEST(Rollout, ResultsCrossProcessesBitForBit) {
  const robots::SimulationModel model = LoadBox();
  RolloutOptions o = BoxOptions(3);
  o.record_every = 30;
  const RolloutReport r = RunRollouts(model, o);
  const std::vector<RolloutResult> back = DecodeResults(EncodeResults(r.rollouts));
  ASSERT_EQ(back.size(), 3u);
  for (size_t i = 0; i < back.size(); ++i) {
    EXPECT_TRUE(Same(back[i], r.rollouts[i]));
    EXPECT_EQ(back[i].index, r.rollouts[i].index);
    EXPECT_EQ(back[i].message, r.rollouts[i].message);
    EXPECT_EQ(back[i].record_time, r.rollouts[i].record_time);
    EXPECT_EQ(back[i].record_qpos, r.rollouts[i].record_qpos);
  }
  // The pieces of RunRollouts give its report: the indices in any order, then the summary.
  const std::vector<RolloutResult> parts = RunRolloutIndices(model, o, {2, 0, 1});
  EXPECT_TRUE(Same(parts[0], r.rollouts[2]));
  const std::string bytes = EncodeResults(r.rollouts);
  EXPECT_THROW(DecodeResults(bytes.substr(0, bytes.size() - 1)), std::invalid_argument);
  EXPECT_THROW(DecodeResults(bytes + "x"), std::invalid_argument);
  EXPECT_THROW(DecodeResults("junk"), std::invalid_argument);
}

TEST(Rollout, TheSearchFindsWorseFirstImpactsThanIidAtEqualCost) {
  const robots::SimulationModel model = LoadBox();
  RolloutOptions o = BoxOptions(1);
  o.threads = 2;
  FalsifyOptions f;
  f.metric = "spin";
  f.budget = 160;
  f.population = 16;
  const FalsifyResult r = FalsifyRollouts(model, o, f);
  EXPECT_EQ(r.rollouts, 160);
  ASSERT_EQ(r.directed_trace.size(), 10u);
  EXPECT_TRUE(std::is_sorted(r.directed_trace.begin(), r.directed_trace.end()));
  EXPECT_EQ(r.directed_trace.back(), r.worst_directed);
  EXPECT_EQ(r.worst.metrics[0], r.worst_directed);
  // The spin about x the two-corner landing can leave: the search ends above what 160 iid
  // rollouts saw, and the iid side's worst is its rollout's own value.
  EXPECT_GT(r.worst_directed, r.worst_iid);
  const RolloutResult iid = RunRollout(model, o, r.iid_worst_index);
  EXPECT_EQ(iid.metrics[0], r.worst_iid);
  // The search's worst rollout replays from its first event's entries.
  const std::vector<RolloutResult> again =
      RunRolloutsWithDraws(model, o, {r.worst.index}, {r.worst_draws});
  EXPECT_TRUE(Same(again[0], r.worst));
  // Deterministic in the seed.
  EXPECT_EQ(FalsifyRollouts(model, o, f).worst_directed, r.worst_directed);
  f.metric = "spun";
  EXPECT_THROW(FalsifyRollouts(model, o, f), std::invalid_argument);
}

TEST(Rollout, KeysAndTheOptionTable) {
  EXPECT_EQ(RolloutKey(7, 12), "7/12");
  EXPECT_EQ(ParseRolloutKey("7/12"), (std::pair<std::uint64_t, long long>{7, 12}));
  for (const char* bad : {"7", "7/", "/3", "-1/2", "7/-2", "7/2x", "a/b"}) {
    EXPECT_THROW(ParseRolloutKey(bad), std::invalid_argument) << bad;
  }
  // Every row sets what it names, from its text.
  RolloutOptions o;
  for (const RolloutOptionField& f : RolloutOptionFields()) {
    const std::string d = RolloutDefault(f);
    if (!d.empty()) f.set(&o, d);  // defaults read back unchanged
  }
  const RolloutOptions defaults;
  EXPECT_EQ(o.horizon, defaults.horizon);
  EXPECT_EQ(o.impact_speed, defaults.impact_speed);
  EXPECT_EQ(o.rollouts, defaults.rollouts);
  EXPECT_EQ(o.delta, defaults.delta);
  for (const RolloutOptionField& f : RolloutOptionFields()) {
    if (f.name == "pd_posture") f.set(&o, "100, 10");
  }
  EXPECT_EQ(o.controls, Controls::kPdPosture);
  EXPECT_EQ(o.pd_kp, 100);
  EXPECT_EQ(o.pd_kd, 10);
}

}  // namespace
}  // namespace impactset::rollouts
