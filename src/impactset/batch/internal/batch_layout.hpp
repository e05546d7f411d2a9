#pragma once
// Pieces of a batch file's layout that impact batches (batch.cpp) and batches of rollouts
// (rollout_batch.cpp) share: a state's record filled by column path, the header's attributes
// with the canonical `job` text resume compares, and the design's constants.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <impactset/batch/batch.hpp>

namespace impactset::batch::internal {

/// A record with every cell empty or NaN (a state that did not run), filled in by column path.
class RecordBuilder {
 public:
  RecordBuilder(const BatchJob& job, long long index);
  data::Cell& operator[](const std::string& path) { return record_.cells[at_.at(path)]; }
  void Set(const std::string& path, double x) { (*this)[path].values = {x}; }
  void SetInt(const std::string& path, std::int64_t x) { (*this)[path].integers = {x}; }
  void Set(const std::string& path, const MatrixXd& m) {  // columns as rows (row-major)
    (*this)[path].values.assign(m.data(), m.data() + m.size());
  }
  data::StateRecord Take() { return std::move(record_); }

 private:
  data::StateRecord record_;
  std::map<std::string, size_t> at_;
};

/// The header's attributes: the batch's own ("/": format, source, states, ...; "/design"), then
/// `specific` (the options and what the states run), then the `job` text over all of them, the
/// design's names and points and the source's checksum, then the version.
void AddJobAttributes(BatchJob* job, std::vector<data::Attribute> specific);

/// /design/parameters, /design/low, /design/high and /design/points (grid), the parameter scale
/// /states/parameter and the status names /states/status_names.
void AddDesignConstants(BatchJob* job);

/// RunState of a batch of rollouts (rollout_batch.cpp).
data::StateRecord RunRolloutState(const BatchJob& job, long long index);

}  // namespace impactset::batch::internal
