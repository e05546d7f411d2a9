#include <impactset/impact/p_source.hpp>

#include <algorithm>
#include <string>

#include <impactset/common/error_policy.hpp>

namespace impactset::impact {

FixedSchedule::FixedSchedule(std::vector<VectorXd> schedule) : schedule_(std::move(schedule)) {
  if (schedule_.empty()) InvalidArgument("schedule.size()", 0, "needs at least one p-vector");
  for (size_t s = 0; s < schedule_.size(); ++s) {
    const std::string name = "schedule[" + std::to_string(s) + "]";
    if (schedule_[s].size() != schedule_[0].size()) {
      InvalidArgument(name + ".size()", schedule_[s].size(), "all p-vectors must have one size");
    }
    if (schedule_[s].size() == 0 ||
        !(schedule_[s].minCoeff() >= 0 && schedule_[s].maxCoeff() <= 1)) {
      InvalidArgument(name, schedule_[s].transpose(), "entries must lie in [0, 1]");
    }
  }
}

void FixedSchedule::Next(int step, Eigen::Ref<VectorXd> p) {
  const size_t i = std::min<size_t>(static_cast<size_t>(step), schedule_.size() - 1);
  IMPACTSET_ASSERT(p.size() == schedule_[i].size());
  p = schedule_[i];
}

}  // namespace impactset::impact
