// Fuzz target: the command line. The input is split at newlines into an argument vector (at
// most kMaxArguments), parsed by app::CommandLine::Parse and checked by CommandLine::Check, which
// turns the arguments into the library's options (built-in systems load; no file is read and no
// job runs).
#include <sstream>
#include <vector>

#include "apps/command_line.hpp"
#include "fuzz/fuzz_util.hpp"

namespace {
constexpr int kMaxArguments = 64;  // the parser is linear in it; longer vectors add nothing
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"impactset"};
  std::istringstream lines(impactset::fuzz::Text(data, size));
  for (std::string a; std::getline(lines, a) && args.size() < kMaxArguments;) args.push_back(a);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  impactset::app::CommandLine command_line;
  std::ostringstream out, err;
  if (command_line.Parse(static_cast<int>(argv.size()), argv.data(), out, err)) return 0;
  impactset::fuzz::AllowDocumentedErrors([&] { command_line.Check(); });
  return 0;
}
