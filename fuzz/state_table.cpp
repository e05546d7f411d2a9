// Fuzz target: the batch designs' text inputs: a --state-table CSV (batch::ParseStateTable,
// then the design's points) and, line by line, --vary NAME=LOW:HIGH[:POINTS]
// (batch::ParseParameterRange, then a grid design over the ranges).
#include <sstream>

#include <impactset/batch/batch.hpp>
#include "fuzz/fuzz_util.hpp"

// Designs are enumerated (Points) up to this many states: Validate checks the bound itself
// (batch::kMaxStates), and enumerating 10^7 states, which the bound allows, takes about a
// second by design (a "timeout" of the first campaign that was no bug).
constexpr long long kMaxEnumerated = 1 << 16;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace engine = impactset::engine;
  namespace sets = impactset::sets;
  namespace batch = impactset::batch;
  using impactset::fuzz::AllowDocumentedErrors;
  const std::string text = impactset::fuzz::Text(data, size);
  AllowDocumentedErrors([&] {
    const batch::StateDesign table = batch::ParseStateTable(text, "table.csv");
    if (table.Count() <= kMaxEnumerated) table.Points();
  });
  AllowDocumentedErrors([&] {
    batch::StateDesign grid;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      grid.ranges.push_back(batch::ParseParameterRange(line));
    }
    grid.Validate();
    if (grid.Count() <= kMaxEnumerated) grid.Points();
  });
  return 0;
}
