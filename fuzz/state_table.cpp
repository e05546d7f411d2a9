// Fuzz target: the batch designs' text inputs: a --state-table CSV (engine::ParseStateTable,
// then the design's points) and, line by line, --vary NAME=LOW:HIGH[:POINTS]
// (engine::ParseParameterRange, then a grid design over the ranges).
#include <sstream>

#include "engine/batch.hpp"
#include "fuzz/fuzz_util.hpp"

// Designs are enumerated (Points) up to this many states: Validate checks the bound itself
// (engine::kMaxStates), and enumerating 10^7 states, which the bound allows, takes about a
// second by design (a "timeout" of the first campaign that was no bug).
constexpr long long kMaxEnumerated = 1 << 16;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = impactset::engine;
  using impactset::fuzz::AllowDocumentedErrors;
  const std::string text = impactset::fuzz::Text(data, size);
  AllowDocumentedErrors([&] {
    const engine::StateDesign table = engine::ParseStateTable(text, "table.csv");
    if (table.Count() <= kMaxEnumerated) table.Points();
  });
  AllowDocumentedErrors([&] {
    engine::StateDesign grid;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      grid.ranges.push_back(engine::ParseParameterRange(line));
    }
    grid.Validate();
    if (grid.Count() <= kMaxEnumerated) grid.Points();
  });
  return 0;
}
