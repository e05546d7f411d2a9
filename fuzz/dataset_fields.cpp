// Fuzz target, structure-aware: a valid dataset (a small rocking-block run with samples,
// trajectories and sets) whose fields the input rewrites (shapes, values, names), written with
// data::WriteDataset and read back as `merge` and `distance` read files. Raw-byte mutation of
// HDF5 files (dataset_hdf5) rarely gets past the format's checksums to a well-formed file with
// the wrong shapes; this target makes exactly those.
#include <cmath>
#include <limits>

#include <impactset/data/dataset.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/merge.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/set_distance.hpp>
#include <impactset/systems/builtin.hpp>
#include "fuzz/fuzz_util.hpp"

namespace {

namespace engine = impactset::engine;
namespace sets = impactset::sets;
namespace data = impactset::data;

class Bytes {
 public:
  Bytes(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  bool empty() const { return at_ >= n_; }
  int Next() { return at_ < n_ ? d_[at_++] : 0; }
  int Small(int max) { return Next() % (max + 1); }
  double Value() {
    static const double special[] = {0.0,
                                     1.0,
                                     -1.0,
                                     0.5,
                                     1e300,
                                     -1e-300,
                                     std::numeric_limits<double>::quiet_NaN(),
                                     std::numeric_limits<double>::infinity()};
    const int k = Next();
    if (k < 8) return special[k];
    return (k - 128) / 16.0;
  }
  Eigen::MatrixXd Matrix() {
    Eigen::MatrixXd a(Small(5), Small(5));
    for (Eigen::Index i = 0; i < a.size(); ++i) a(i) = Value();
    return a;
  }
  Eigen::VectorXd Vector() { return Matrix().reshaped(); }
  std::int64_t Integer() {
    static const std::int64_t special[] = {0, 1, -1, 2, 3, 1LL << 31, -(1LL << 62), 1LL << 40};
    const int k = Next();
    return k < 8 ? special[k] : k - 128;
  }
  std::string Name() {
    static const char* names[] = {"post_impact",
                                  "reachable",
                                  "contact",
                                  "generalized",
                                  "",
                                  "computed",
                                  "failed: x",
                                  "skipped: the net is empty",
                                  "iid",
                                  "sobol",
                                  "chain",
                                  "random",
                                  "greedy in sample order",
                                  "bogus"};
    return names[Small(13)];
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_, at_ = 0;
};

const data::Dataset& Base() {
  static const data::Dataset base = [] {
    const auto lp = impactset::systems::LoadBuiltin("rocking-block");
    engine::RunOptions o = engine::DefaultRunOptions(lp.settings);
    o.sampler.samples = 8;
    o.sampler.threads = 1;
    o.sampler.keep_samples = true;
    o.sampler.keep_trajectories = true;
    o.set_options.holdout = 4;
    return engine::ToDataset(engine::Run(lp.problem, o, "rocking-block"));
  }();
  return base;
}

void Mutate(Bytes& in, data::Dataset& d) {
  auto& sets = d.sets;
  data::PointSetArrays* s = sets.empty() ? nullptr : &sets[in.Small(255) % sets.size()];
  switch (in.Small(23)) {
    case 0:
      d.problem.M = in.Matrix();
      break;
    case 1:
      d.problem.Jn = in.Matrix();
      break;
    case 2:
      d.problem.D = in.Matrix();
      break;
    case 3:
      d.problem.contact_jacobian = in.Matrix();
      break;
    case 4:
      d.problem.mu = in.Vector();
      break;
    case 5:
      d.problem.v_minus = in.Vector();
      break;
    case 6:
      d.problem.k = in.Integer();
      break;
    case 7:
      if (d.samples) d.samples->v_plus = in.Matrix();
      break;
    case 8:
      if (d.samples) d.samples->contact_velocity = in.Matrix();
      break;
    case 9:
      if (d.samples) {
        // Size, then value: as two arguments of one call their order would be the compiler's.
        const int size = in.Small(12);
        d.samples->status.resize(size, static_cast<int>(in.Integer()));
      }
      break;
    case 10:
      if (d.samples) d.samples->lcp_solves.resize(in.Small(12));
      break;
    case 11:
      if (d.reachable) d.reachable->velocities = in.Matrix();
      break;
    case 12:
      if (d.reachable) {
        const int size = in.Small(10);
        d.reachable->offsets.assign(size, in.Integer());
      }
      break;
    case 13:
      d.summary.contact_velocity_min = in.Vector();
      break;
    case 14:
      d.run.shard_count = in.Integer();
      d.run.shard_index = in.Integer();
      break;
    case 15:
      d.run.options.push_back({"/", "samples", std::int64_t{in.Integer()}});
      d.run.sample_count = in.Integer();
      d.run.first_sample = in.Integer();
      break;
    case 16:
      d.run.options.push_back({"/", "design", in.Name()});
      d.run.options.push_back({"/", "lcp", in.Name()});
      d.run.options.push_back({"/", "selection", in.Name()});
      break;
    case 17:
      d.run.options.push_back({"/", "max_steps", std::int64_t{in.Integer()}});
      d.run.options.push_back({"/", "h", in.Value()});
      break;
    case 18:
      if (s) {
        s->set = in.Name();
        s->coords = in.Name();
      }
      break;
    case 19:
      if (s) s->net.points = in.Matrix();
      break;
    case 20:
      if (s) {
        s->hull.status = in.Name();
        s->hull.dimension = in.Integer();
      }
      break;
    case 21:
      if (s) {
        s->hull.vertices = in.Matrix();
        s->hull.basis = in.Matrix();
        s->hull.center = in.Vector();
      }
      break;
    case 22:
      if (s) {
        s->hull.facet_normals = in.Matrix();
        s->hull.facet_bounds = in.Vector();
      }
      break;
    default:
      d.run.options.push_back({"/net", "epsilon", in.Value()});
      d.run.options.push_back({"/net", "max_net_points", std::int64_t{in.Integer()}});
      break;
  }
}

}  // namespace

// The base run, before libFuzzer starts timing inputs (-timeout).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Base();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  using impactset::fuzz::AllowDocumentedErrors;
  data::Dataset d = Base();
  Bytes in(bytes, size);
  while (!in.empty()) Mutate(in, d);
  const impactset::fuzz::ScratchFile file(nullptr, 0, "fields.h5");
  AllowDocumentedErrors([&] {
    data::WriteDataset(file.path(), d);
    const data::Dataset back = data::ReadDataset(file.path());
    AllowDocumentedErrors([&] {  // what `merge` does with a single-shard file
      std::vector<engine::RunResult> shards;
      shards.push_back(engine::FromDataset(back));
      engine::Merge(std::move(shards));
    });
    for (sets::SetKind set : {sets::SetKind::kPostImpact, sets::SetKind::kReachable}) {
      for (const char* c : {"contact", "generalized"}) {
        AllowDocumentedErrors([&] { engine::PointsOf(back, set, c, file.path()); });
      }
    }
  });
  return 0;
}
