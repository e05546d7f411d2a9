// Fuzz target: impact states of every system runnable by name (fuzz/impact_state.hpp) through
// run's and compare's library calls: a result or std::invalid_argument, nothing else.
#include "fuzz/impact_state.hpp"
#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const impactset::fuzz::StateCase c = impactset::fuzz::DecodeState(data, size);
  impactset::fuzz::AllowDocumentedErrors([&] { impactset::fuzz::RunCase(c); });
  return 0;
}
