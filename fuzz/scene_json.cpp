// Fuzz target: scene JSON documents (systems::ParseSceneJson, `--scene FILE`).
#include <impactset/systems/scene.hpp>
#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  impactset::fuzz::AllowDocumentedErrors(
      [&] { impactset::systems::ParseSceneJson(impactset::fuzz::Text(data, size)); });
  return 0;
}
