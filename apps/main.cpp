// impactset: set-valued post-impact velocities (Halm & Posa) from the command line.
// Exit codes: 0 success, 2 usage or bad input (and I/O errors: unreadable or unwritable files,
// a full disk), 3 numerical failure beyond the fallback chain.
#include <exception>
#include <iostream>

#include <impactset/distributed/distributed.hpp>
#include "apps/command_line.hpp"

int main(int argc, char** argv) {
  using namespace impactset;
  const distributed::Session mpi(&argc, &argv);  // MPI only when started by mpirun or srun
  app::CommandLine command_line;
  if (const auto code = command_line.Parse(argc, argv, std::cout, std::cerr)) return *code;
  try {
    return command_line.Execute();
  } catch (const std::invalid_argument& e) {
    if (mpi.rank() == 0) std::cerr << "impactset: " << e.what() << "\n";
    return 2;
  } catch (const std::runtime_error& e) {  // I/O: the dataset could not be written or read
    if (mpi.rank() == 0) std::cerr << "impactset: " << e.what() << "\n";
    return 2;
  }
}
