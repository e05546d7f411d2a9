// The extension module impactset._impactset; the package impactset re-exports it.
#include <impactset/common/version.hpp>
#include "python/src/bindings.hpp"
#include "python/src/options.hpp"

PYBIND11_MODULE(_impactset, m) {
  namespace ip = impactset::python;
  m.doc() =
      "impactset: the set of post-impact velocities of rigid systems with simultaneous "
      "frictional inelastic impacts (Halm & Posa), in-process.\n\n"
      "Problems come from numpy arrays, built-in systems, scene and problem files "
      "(impactset.Problem); sample() and run() return numpy arrays, the summary and the sets; "
      "the other impact laws, the set tools and the HDF5 dataset are here too. Bad input raises "
      "ValueError naming the field. See docs/python.md.";
  m.attr("__version__") = impactset::kVersion;
  ip::BindOptions(m);
  ip::BindProblem(m);
  ip::BindSampling(m);
  ip::BindSets(m);
  ip::BindLaws(m);
  ip::BindCompare(m);
  ip::BindDatasets(m);
  ip::BindBatch(m);
  ip::BindRollouts(m);
}
