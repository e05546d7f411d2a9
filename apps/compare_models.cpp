#include "apps/compare_models.hpp"

namespace impactset::app {

CompareModel CompliantCompareModel();  // apps/compare_compliant.cpp
CompareModel AghiliCompareModel();     // apps/compare_aghili.cpp
CompareModel SegheteMurpheyCompareModel();  // apps/compare_seghete_murphey.cpp
CompareModel JiaMasonErdmannCompareModel();  // apps/compare_jia_mason_erdmann.cpp

// One line per model; each factory is defined in its apps/compare_<model>.cpp.

const std::vector<CompareModel>& CompareModels() {
  static const std::vector<CompareModel> models = [] {
    std::vector<CompareModel> m;
    m.push_back(CompliantCompareModel());
    m.push_back(AghiliCompareModel());
    m.push_back(SegheteMurpheyCompareModel());
    m.push_back(JiaMasonErdmannCompareModel());
    return m;
  }();
  return models;
}

}  // namespace impactset::app
