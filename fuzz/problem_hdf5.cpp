// Fuzz target: matrix input in HDF5 (engine::LoadProblemFile on a .h5 path, `--problem FILE.h5`,
// which also reads the /problem group of a previous run's dataset).
#include "engine/problem_file.hpp"
#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const impactset::fuzz::ScratchFile file(data, size, "problem.h5");
  impactset::fuzz::AllowDocumentedErrors([&] { impactset::engine::LoadProblemFile(file.path()); });
  return 0;
}
