// The compiled-model cache (robots/internal/model_cache.hpp): an entry gives back the model MuJoCo
// compiled, bit for bit; every file the text names is in the digest; a corrupt entry, a missing
// file or text that is not XML cost a compile, never a wrong model; LoadMujoco reads the entry.
#include <gtest/gtest.h>

#include <mujoco/mujoco.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <impactset/robots/internal/model_cache.hpp>
#include <impactset/robots/mujoco_model.hpp>

namespace impactset::robots::internal {
namespace {

namespace fs = std::filesystem;

const fs::path kMugFolder = "/usr/share/mujoco/model/mug";  // Debian's libmujoco-samples

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void Write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A scratch folder of this test's own, removed at the end.
class ModelCache : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("impactset-model-cache-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "mug");
    for (const char* f : {"mug.xml", "mug.obj", "mug.png"}) {
      fs::copy_file(kMugFolder / f, root_ / "mug" / f);
    }
    options_.folder = root_ / "cache";
    options_.store_above = 0;
    options_.keep_last = false;  // the folder's behaviour; KeptInMemory tests the other layer
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path Mug() const { return root_ / "mug" / "mug.xml"; }

  // The mug through the cache, counting MuJoCo's compiles.
  ModelPtr Load(CacheOutcome* outcome) {
    const std::string text = Read(Mug());
    ModelPtr m;
    WithMujocoLock("mug", [&] {
      m = CachedCompile(
          text, Mug(), options_,
          [&] {
            ++compiles_;
            char error[1024] = "";
            return ModelPtr(mj_loadXML(Mug().c_str(), nullptr, error, sizeof error));
          },
          outcome);
    });
    return m;
  }

  int Entries() const {
    int n = 0;
    if (!fs::exists(options_.folder)) return 0;
    for (const auto& e : fs::recursive_directory_iterator(options_.folder))
      n += e.is_regular_file();
    return n;
  }

  fs::path root_;
  ModelCacheOptions options_;
  int compiles_ = 0;
};

// MuJoCo's binary form of a model: equal bytes, equal model.
std::vector<char> Bytes(const mjModel* m) {
  std::vector<char> b(static_cast<std::size_t>(mj_sizeModel(m)), 0);
  mj_saveModel(m, nullptr, b.data(), static_cast<int>(b.size()));
  return b;
}

TEST_F(ModelCache, AnEntryGivesBackTheCompiledModelBitForBit) {
  CacheOutcome first, second;
  const ModelPtr compiled = Load(&first);
  const ModelPtr read = Load(&second);
  EXPECT_EQ(first, CacheOutcome::kStored);
  EXPECT_EQ(second, CacheOutcome::kHit);
  EXPECT_EQ(compiles_, 1);
  EXPECT_EQ(Entries(), 1);
  ASSERT_TRUE(compiled && read);
  EXPECT_TRUE(Bytes(compiled.get()) == Bytes(read.get()));
}

// Loaded again in the same process: a copy of the model in memory, even with no entry stored.
TEST_F(ModelCache, KeptInMemory) {
  options_.keep_last = true;
  options_.store_above = 1e9;
  CacheOutcome first, second;
  const ModelPtr compiled = Load(&first);
  const ModelPtr kept = Load(&second);
  EXPECT_EQ(first, CacheOutcome::kCompiled);
  EXPECT_EQ(second, CacheOutcome::kKept);
  EXPECT_EQ(compiles_, 1);
  EXPECT_EQ(Entries(), 0);
  ASSERT_TRUE(compiled && kept);
  EXPECT_NE(compiled.get(), kept.get());
  EXPECT_TRUE(Bytes(compiled.get()) == Bytes(kept.get()));
  std::ofstream(root_ / "mug" / "mug.obj", std::ios::app) << "# edited\n";
  EXPECT_TRUE(Load(&second));
  EXPECT_EQ(second, CacheOutcome::kCompiled);  // another digest: compiled again
  EXPECT_EQ(compiles_, 2);
}

TEST_F(ModelCache, EveryFileTheTextNamesIsInTheDigest) {
  const std::string text = Read(Mug());
  const std::optional<std::string> base = ModelDigest(text, Mug());
  ASSERT_TRUE(base);
  EXPECT_EQ(ModelDigest(text, Mug()), base);  // a function of the inputs only
  std::ofstream(root_ / "mug" / "mug.obj", std::ios::app) << "# one more line\n";
  const std::optional<std::string> mesh = ModelDigest(text, Mug());
  std::string png = Read(root_ / "mug" / "mug.png");
  png[png.size() / 2] ^= 1;
  Write(root_ / "mug" / "mug.png", png);
  const std::optional<std::string> texture = ModelDigest(text, Mug());
  const std::optional<std::string> edited = ModelDigest(text + "<!-- -->", Mug());
  for (const auto& d : {mesh, texture, edited}) {
    ASSERT_TRUE(d);
    EXPECT_NE(*d, *base);
  }
  EXPECT_NE(*mesh, *texture);
  // The same text at another path resolves its files elsewhere.
  fs::copy(root_ / "mug", root_ / "other");
  EXPECT_NE(ModelDigest(text, root_ / "other" / "mug.xml"), texture);
}

// Files found through <compiler meshdir>, and by their last component (URDF's strippath).
TEST_F(ModelCache, CompilerFoldersAndStrippedNamesAreFollowed) {
  fs::create_directories(root_ / "mug" / "meshes");
  fs::rename(root_ / "mug" / "mug.obj", root_ / "mug" / "meshes" / "mug.obj");
  std::string text = Read(Mug());
  text.replace(text.find("<asset>"), 7, "<compiler meshdir=\"meshes\"/><asset>");
  text.replace(text.find("file=\"mug.obj\""), 14, "file=\"package://mug/mug.obj\"");
  const std::optional<std::string> before = ModelDigest(text, Mug());
  ASSERT_TRUE(before);
  std::ofstream(root_ / "mug" / "meshes" / "mug.obj", std::ios::app) << "# edited\n";
  const std::optional<std::string> after = ModelDigest(text, Mug());
  ASSERT_TRUE(after);
  EXPECT_NE(*after, *before);
}

TEST_F(ModelCache, NoDigestForAMissingFileOrTextThatIsNotXml) {
  fs::remove(root_ / "mug" / "mug.png");
  EXPECT_FALSE(ModelDigest(Read(Mug()), Mug()));
  EXPECT_FALSE(ModelDigest("<mujoco><worldbody>", Mug()));
  CacheOutcome outcome;
  const ModelPtr m = Load(&outcome);  // MuJoCo's own answer: it refuses the missing texture
  EXPECT_EQ(outcome, CacheOutcome::kOff);
  EXPECT_FALSE(m);
  EXPECT_EQ(Entries(), 0);
}

TEST_F(ModelCache, ACorruptEntryIsCompiledAnew) {
  CacheOutcome outcome;
  const ModelPtr compiled = Load(&outcome);
  ASSERT_EQ(Entries(), 1);
  for (const auto& e : fs::recursive_directory_iterator(options_.folder)) {
    if (e.is_regular_file()) fs::resize_file(e.path(), fs::file_size(e.path()) / 2);
  }
  const ModelPtr again = Load(&outcome);
  EXPECT_EQ(outcome, CacheOutcome::kStored);
  EXPECT_EQ(compiles_, 2);
  ASSERT_TRUE(again);
  EXPECT_TRUE(Bytes(compiled.get()) == Bytes(again.get()));
  EXPECT_EQ(Load(&outcome) != nullptr, true);
  EXPECT_EQ(outcome, CacheOutcome::kHit);
}

TEST_F(ModelCache, QuickCompilesAreNotStored) {
  options_.store_above = 1e9;
  CacheOutcome outcome;
  EXPECT_TRUE(Load(&outcome));
  EXPECT_EQ(outcome, CacheOutcome::kCompiled);
  EXPECT_EQ(Entries(), 0);
}

// Sets the cache's environment variable while alive; restores what it was.
class CacheVariable {
 public:
  explicit CacheVariable(const std::string& value) {
    if (const char* v = std::getenv(kModelCacheVariable)) outer_ = v;
    ::setenv(kModelCacheVariable, value.c_str(), 1);
  }
  ~CacheVariable() {
    if (outer_) {
      ::setenv(kModelCacheVariable, outer_->c_str(), 1);
    } else {
      ::unsetenv(kModelCacheVariable);
    }
  }
  CacheVariable(const CacheVariable&) = delete;
  CacheVariable& operator=(const CacheVariable&) = delete;

 private:
  std::optional<std::string> outer_;
};

// LoadMujoco finds the entry through the environment: one planted under the mug's digest holding
// another model (the mug with a 9 kg body) is what it loads; with the cache off, the mug.
TEST_F(ModelCache, LoadMujocoReadsTheEntryItsDigestNames) {
  const std::string text = Read(Mug());
  std::string heavier = text;
  heavier.replace(heavier.find("<freejoint/>"), 12,
                  "<freejoint/><inertial pos=\"0 0 0\" mass=\"9\" diaginertia=\"1 1 1\"/>");
  const fs::path other = root_ / "mug" / "heavier.xml";
  Write(other, heavier);
  WithMujocoLock("mug", [&] {
    CachedCompile(text, Mug(), options_, [&] {
      char error[1024] = "";
      return ModelPtr(mj_loadXML(other.c_str(), nullptr, error, sizeof error));
    });
  });
  MujocoOptions o;
  o.touchdown = 1;
  o.state.qvel = Eigen::VectorXd::Unit(6, 2) * -1.0;
  const CacheVariable off("off");
  const MujocoProblem expected = LoadMujoco(other.string(), o);
  const MujocoProblem compiled = LoadMujoco(Mug().string(), o);
  fs::remove(other);  // not named by mug.xml: the mug's digest is unchanged
  const CacheVariable on(options_.folder.string());
  const MujocoProblem cached = LoadMujoco(Mug().string(), o);
  EXPECT_TRUE(cached.loaded.problem.M() == expected.loaded.problem.M());
  EXPECT_FALSE(compiled.loaded.problem.M() == expected.loaded.problem.M());
}

}  // namespace
}  // namespace impactset::robots::internal
