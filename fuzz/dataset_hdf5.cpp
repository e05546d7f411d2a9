// Fuzz target: run datasets as `merge` and `distance` read them: data::ReadDataset, then the
// engine's view of it (engine::FromDataset, what Merge receives) and the point sets `distance`
// compares (engine::PointsOf, every set and coordinate system).
#include <impactset/data/dataset.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/run.hpp>
#include <impactset/engine/set_distance.hpp>
#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = impactset::engine;
  namespace sets = impactset::sets;
  using impactset::fuzz::AllowDocumentedErrors;
  const impactset::fuzz::ScratchFile file(data, size, "dataset.h5");
  AllowDocumentedErrors([&] {
    const impactset::data::Dataset d = impactset::data::ReadDataset(file.path());
    AllowDocumentedErrors([&] { engine::FromDataset(d); });
    for (sets::SetKind set : {sets::SetKind::kPostImpact, sets::SetKind::kReachable}) {
      for (const char* c : {"contact", "generalized"}) {
        AllowDocumentedErrors([&] { engine::PointsOf(d, set, c, file.path()); });
      }
    }
  });
  return 0;
}
