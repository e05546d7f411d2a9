// Fuzz target: run datasets as `merge` and `distance` read them: data::ReadDataset, then the
// engine's view of it (engine::FromDataset, what Merge receives) and the point sets `distance`
// compares (engine::PointsOf, every set and coordinate system).
#include "data/dataset.hpp"
#include "engine/run.hpp"
#include "engine/set_distance.hpp"
#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = impactset::engine;
  using impactset::fuzz::AllowDocumentedErrors;
  const impactset::fuzz::ScratchFile file(data, size, "dataset.h5");
  AllowDocumentedErrors([&] {
    const impactset::data::Dataset d = impactset::data::ReadDataset(file.path());
    AllowDocumentedErrors([&] { engine::FromDataset(d); });
    for (engine::SetKind set : {engine::SetKind::kPostImpact, engine::SetKind::kReachable}) {
      for (const char* c : {"contact", "generalized"}) {
        AllowDocumentedErrors([&] { engine::PointsOf(d, set, c, file.path()); });
      }
    }
  });
  return 0;
}
