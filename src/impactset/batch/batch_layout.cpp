#include <impactset/batch/internal/batch_layout.hpp>

#include <cstring>
#include <limits>
#include <sstream>
#include <variant>

#include <impactset/common/enum_names.hpp>
#include <impactset/common/version.hpp>
#include <impactset/sampling/streams.hpp>

namespace impactset::batch::internal {

RecordBuilder::RecordBuilder(const BatchJob& job, long long index) {
  record_.index = index;
  record_.cells.resize(job.columns.size());
  for (size_t k = 0; k < job.columns.size(); ++k) {
    const data::ColumnSpec& c = job.columns[k];
    at_[c.path] = k;
    if (c.ragged || c.type == data::ColumnType::kString) continue;
    if (c.type == data::ColumnType::kFloat64)
      record_.cells[k].values.assign(c.width, std::numeric_limits<double>::quiet_NaN());
    else
      record_.cells[k].integers.assign(c.width, 0);
  }
}

void AddJobAttributes(BatchJob* job, std::vector<data::Attribute> specific) {
  auto& a = job->header.attributes;
  using V = data::AttributeValue;
  auto add = [&](const std::string& group, const std::string& name, V v) {
    a.push_back({group, name, std::move(v)});
  };
  std::string fixed;
  if (const auto* system = std::get_if<SystemSource>(&job->source)) {
    for (const auto& [k, v] : system->fixed) fixed += (fixed.empty() ? "" : ",") + k + "=" + v;
  }
  add("/", "format", V{std::string("impactset batch 1")});
  add("/", "schema_version", V{data::kBatchSchemaVersion});
  add("/", "file_kind", V{std::string("batch")});
  add("/", "source", V{std::string(KindName(job->source))});
  add("/", "system", V{Label(job->source)});
  add("/", "fixed_parameters", V{fixed});
  add("/", "states", V{static_cast<std::int64_t>(job->Count())});
  add("/", "velocity_dimension", V{static_cast<std::int64_t>(job->velocity_dimension)});
  add("/", "contact_dimension", V{static_cast<std::int64_t>(job->contact_dimension)});
  add("/design", "kind", V{std::string(ToString(job->design.kind))});
  add("/design", "state_seed", V{static_cast<std::int64_t>(job->design.state_seed)});
  for (data::Attribute& x : specific) a.push_back(std::move(x));
  // The canonical text resume compares: every attribute so far, plus the design's values.
  std::ostringstream job_text;
  job_text.precision(17);
  for (const data::Attribute& x : a) {
    job_text << x.group << ":" << x.name << "=";
    std::visit([&](const auto& v) { job_text << v; }, x.value);
    job_text << "\n";
  }
  for (const auto& n : job->design.Names()) job_text << "parameter=" << n << "\n";
  // The points by a checksum of their bits: the text stays small for any number of states.
  std::uint64_t sum = static_cast<std::uint64_t>(job->points.size());
  for (Eigen::Index i = 0; i < job->points.size(); ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, job->points.data() + i, sizeof bits);
    sum = sampling::Mix64(sum ^ bits);
  }
  job_text << "points_checksum=" << sum << "\n";
  job_text << "source_checksum=" << StateSourceChecksum(job->source) << "\n";
  add("/", "job", V{job_text.str()});
  add("/", "impactset_version", V{std::string(kVersion)});
  add("/", "git_revision", V{GitRevision()});
}

void AddDesignConstants(BatchJob* job) {
  auto& h = job->header;
  h.names.push_back({"/design/parameters", job->design.Names()});
  if (job->design.kind != StateDesignKind::kTable) {
    VectorXd low(job->design.ranges.size()), high(low.size()), points(low.size());
    for (size_t j = 0; j < job->design.ranges.size(); ++j) {
      low(j) = job->design.ranges[j].low;
      high(j) = job->design.ranges[j].high;
      points(j) = static_cast<double>(job->design.ranges[j].points);
    }
    h.vectors.push_back({"/design/low", low});
    h.vectors.push_back({"/design/high", high});
    if (job->design.kind == StateDesignKind::kGrid) h.vectors.push_back({"/design/points", points});
  }
  h.scales.push_back({"/states/parameter", job->design.Names()});
  // The codes' names (a dimension of their own, so that xarray opens the groups).
  h.scales.push_back({"/states/status_names", EnumNameList<StateStatus>()});
}

}  // namespace impactset::batch::internal
