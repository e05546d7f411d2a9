// Fuzz target: matrix-input JSON (systems::ParseProblemJson, `--problem FILE.json`).
#include <impactset/systems/matrix_input.hpp>
#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impactset::fuzz::AllowDocumentedErrors(
      [&] { impactset::systems::ParseProblemJson(impactset::fuzz::Text(data, size)); });
  return 0;
}
