// batch::ResolveBatchStates: the rules the command line and Python share for a batch's source
// and design, each refusal naming the field as the request's surface spells it, and the
// StateSource each kind of request gives.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_request.hpp>

namespace impactset::engine {
namespace {

batch::BatchRequest Request(batch::BatchSurface surface) {
  batch::BatchRequest r;
  r.surface = surface;
  return r;
}

batch::BatchRequest CommandLine() { return Request(batch::BatchSurface::kCommandLine); }
batch::BatchRequest Python() { return Request(batch::BatchSurface::kPython); }

// The refusal of ResolveBatchStates, or "" when it accepted the request.
std::string Refusal(const batch::BatchRequest& r) {
  try {
    batch::ResolveBatchStates(r);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const std::vector<batch::ParameterRange> kAngle = {{"angle", 2.6, 2.8, 2}};

TEST(ResolveBatchStates, ASystemWithFixedParametersAndAGrid) {
  batch::BatchRequest r = CommandLine();
  r.system = "compass-touchdown";
  r.params = {{"rate", "0.2"}};
  r.vary = kAngle;
  r.state_seed = 9;
  const batch::BatchStates b = batch::ResolveBatchStates(r);
  const auto* s = std::get_if<batch::SystemSource>(&b.source);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->system, "compass-touchdown");
  EXPECT_EQ(s->fixed, r.params);
  EXPECT_EQ(batch::KindName(b.source), std::string("system"));
  EXPECT_EQ(batch::Label(b.source), "compass-touchdown");
  EXPECT_EQ(b.design.kind, batch::StateDesignKind::kGrid);
  EXPECT_EQ(b.design.Names(), std::vector<std::string>{"angle"});
  EXPECT_EQ(b.design.state_seed, 9u);
  EXPECT_EQ(b.design.Count(), 2);
}

TEST(ResolveBatchStates, EachSourceKindFromItsField) {
  batch::BatchRequest mujoco = Python();
  mujoco.system = "cube-flat";  // a MuJoCo scene's name as the system: a MuJoCo source
  mujoco.mujoco_given = {"contact_margin"};
  mujoco.mujoco.contact_margin = 0.25;
  mujoco.vary = {{"qvel:2", -1, 0, 2}};
  const batch::BatchStates m = batch::ResolveBatchStates(mujoco);
  ASSERT_TRUE(std::holds_alternative<batch::MujocoSource>(m.source));
  EXPECT_EQ(std::get<batch::MujocoSource>(m.source).model, "cube-flat");
  EXPECT_EQ(std::get<batch::MujocoSource>(m.source).options.contact_margin, 0.25);
  EXPECT_EQ(batch::KindName(m.source), std::string("mujoco"));

  batch::BatchRequest inline_scene = Python();
  inline_scene.scene_text = R"({"q": [1]})";
  inline_scene.vary = {{"/q/0", 0, 1, 2}};
  const batch::BatchStates s = batch::ResolveBatchStates(inline_scene);
  ASSERT_TRUE(std::holds_alternative<batch::SceneSource>(s.source));
  EXPECT_EQ(std::get<batch::SceneSource>(s.source).text, *inline_scene.scene_text);
  EXPECT_EQ(batch::Label(s.source), "scene");

  const std::string path = (std::filesystem::temp_directory_path() /
                            ("impactset-request-" + std::to_string(::getpid()) + ".json"))
                               .string();
  std::ofstream(path) << R"({"q": [2]})";
  batch::BatchRequest file_scene = CommandLine();
  file_scene.scene_file = path;
  file_scene.vary = {{"/q/0", 0, 1, 2}};
  const batch::BatchStates f = batch::ResolveBatchStates(file_scene);
  EXPECT_EQ(std::get<batch::SceneSource>(f.source).text, R"({"q": [2]})");
  EXPECT_EQ(batch::Label(f.source), path);
  std::filesystem::remove(path);
  EXPECT_EQ(Refusal(file_scene), path + ": cannot open");
}

TEST(ResolveBatchStates, ExactlyOneSource) {
  batch::BatchRequest none = Python();
  none.vary = kAngle;
  EXPECT_EQ(Refusal(none), "batch: give exactly one source: system=, scene=, problems= or mujoco=");
  batch::BatchRequest two = Python();
  two.system = "compass-touchdown";
  two.scene_text = "{}";
  two.vary = kAngle;
  EXPECT_EQ(Refusal(two),
            "batch: give exactly one source: system=, scene=, problems= or mujoco= (got "
            "system=, scene=)");
  none.surface = batch::BatchSurface::kCommandLine;
  EXPECT_EQ(Refusal(none),
            "batch: give exactly one source: --system NAME, --scene FILE, --problems FILE or "
            "--mujoco FILE");
}

TEST(ResolveBatchStates, ParametersOnlyWithAParametrisedSystem) {
  batch::BatchRequest scene = CommandLine();
  scene.scene_text = "{}";
  scene.params = {{"angle", "2"}};
  scene.vary = kAngle;
  EXPECT_EQ(Refusal(scene), "--param = angle=2: only with --system, not with --scene");
  scene.surface = batch::BatchSurface::kPython;
  EXPECT_EQ(Refusal(scene), "params = angle=2: only with system=, not with scene=");
  batch::BatchRequest mujoco = CommandLine();
  mujoco.mujoco_file = "cube-flat";
  mujoco.params = {{"angle", "2"}};
  mujoco.vary = kAngle;
  EXPECT_EQ(Refusal(mujoco), "--param = angle=2: MuJoCo models take no parameters: vary qpos:I");
}

TEST(ResolveBatchStates, MujocoOptionsOnlyWithAMujocoModel) {
  batch::BatchRequest r = CommandLine();
  r.system = "compass-touchdown";
  r.mujoco_given = {"qpos", "contact_margin"};
  r.vary = kAngle;
  EXPECT_EQ(Refusal(r),
            "--qpos: given, but the source is not a MuJoCo model (--keyframe, --qpos, --qvel, "
            "--contact-margin, --friction-directions and --ignore-constraints apply only to "
            "--mujoco FILE or a MuJoCo scene's --system NAME)");
  r.surface = batch::BatchSurface::kPython;
  r.mujoco_given = {"friction_directions"};
  EXPECT_EQ(Refusal(r),
            "friction_directions: given, but the source is not a MuJoCo model (keyframe, qpos, "
            "qvel, contact_margin, friction_directions and ignore_constraints apply only to "
            "mujoco= or a MuJoCo scene's system=)");
}

TEST(ResolveBatchStates, TheStatesFromVaryOrATableNotBoth) {
  batch::BatchRequest r = Python();
  r.system = "compass-touchdown";
  batch::StateDesign table;
  table.kind = batch::StateDesignKind::kTable;
  table.table_names = {"rate"};
  table.table = MatrixXd::Constant(1, 1, 0.1);
  r.table = table;
  EXPECT_EQ(batch::ResolveBatchStates(r).design.Names(), std::vector<std::string>{"rate"});
  r.vary = {{"angle", 2.6, 2.8, 2}, {"rate", 0, 1, 1}};
  EXPECT_EQ(Refusal(r),
            "vary = angle=2.6:2.8:2, rate=0:1: not with table= (the states come from one of "
            "them)");
  r.surface = batch::BatchSurface::kCommandLine;
  EXPECT_EQ(Refusal(r),
            "--vary = angle=2.6:2.8:2, rate=0:1: not with --state-table (the states come from "
            "one of them)");
  r.table.reset();
  r.vary.reset();
  EXPECT_EQ(Refusal(r),
            "--vary: give the varied parameters (NAME=LOW:HIGH:POINTS for the grid, "
            "NAME=LOW:HIGH with --states for iid and sobol) or a --state-table");
  r.surface = batch::BatchSurface::kPython;
  EXPECT_EQ(Refusal(r),
            "vary: give the varied parameters ({name: (low, high, points)} for the grid, "
            "{name: (low, high)} with states= for iid and sobol) or a table=");
}

TEST(ResolveBatchStates, DesignKindAndStates) {
  batch::BatchRequest r = CommandLine();
  r.system = "compass-touchdown";
  r.vary = kAngle;
  r.states = 5;
  EXPECT_EQ(Refusal(r),
            "--states = 5: only for the iid and sobol designs (a grid's size is the product of "
            "its POINTS)");
  r.state_design = "sobol";
  const batch::BatchStates b = batch::ResolveBatchStates(r);
  EXPECT_EQ(b.design.kind, batch::StateDesignKind::kSobol);
  EXPECT_EQ(b.design.Count(), 5);
  r.state_design = "table";
  r.surface = batch::BatchSurface::kPython;
  EXPECT_EQ(Refusal(r), "state_design = table: give the states as table=");
  r.state_design = "latin";
  EXPECT_NE(Refusal(r).find("state_design = latin: must be "), std::string::npos) << Refusal(r);
}

}  // namespace
}  // namespace impactset::engine
