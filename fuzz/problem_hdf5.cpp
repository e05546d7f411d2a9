// Fuzz target: matrix input in HDF5 (catalog::LoadProblemFile on a .h5 path, `--problem FILE.h5`,
// which also reads the /problem group of a previous run's dataset).
#include <impactset/catalog/problem_file.hpp>
#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const impactset::fuzz::ScratchFile file(data, size, "problem.h5");
  impactset::fuzz::AllowDocumentedErrors([&] { impactset::catalog::LoadProblemFile(file.path()); });
  return 0;
}
