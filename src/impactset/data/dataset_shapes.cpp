#include <impactset/data/internal/dataset_shapes.hpp>

#include <stdexcept>
#include <string>

namespace impactset::data::internal {

namespace {

std::string Shape(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

void Require(bool ok, const std::string& object, const std::string& rule) {
  if (!ok) throw std::invalid_argument(object + ": " + rule);
}

void RequireRows(const Eigen::MatrixXd& a,
                 Eigen::Index rows,
                 const std::string& object,
                 const std::string& what) {
  Require(a.rows() == rows || a.size() == 0, object,
          "stored " + Shape(a.cols(), a.rows()) + ", expected rows of " + std::to_string(rows) +
              " (" + what + ")");
}

void CheckProblem(const ProblemArrays& p) {
  const Eigen::Index n = p.M.rows(), m = p.Jn.rows();
  Require(n >= 1 && p.M.cols() == n, "/problem/M",
          Shape(p.M.rows(), p.M.cols()) + ", expected n x n, n >= 1");
  Require(p.Jn.cols() == n, "/problem/Jn",
          Shape(m, p.Jn.cols()) + ", expected m x n, n = " + std::to_string(n));
  Require(p.k >= 0 && (p.D.size() == 0 || (p.D.cols() == n && p.D.rows() == m * p.k)), "/problem/D",
          Shape(p.D.rows(), p.D.cols()) + ", expected m k x n with k = " + std::to_string(p.k));
  Require(p.mu.size() == m, "/problem/mu",
          std::to_string(p.mu.size()) + " values, expected m = " + std::to_string(m));
  Require(p.v_minus.size() == n, "/problem/v_minus",
          std::to_string(p.v_minus.size()) + " values, expected n = " + std::to_string(n));
  Require(p.contact_jacobian.cols() == n && p.contact_jacobian.rows() >= m,
          "/problem/contact_jacobian",
          Shape(p.contact_jacobian.rows(), p.contact_jacobian.cols()) + ", expected c x n, c >= m");
}

void CheckSamples(const Dataset& d, Eigen::Index n, Eigen::Index c) {
  const SampleArrays& s = *d.samples;
  const Eigen::Index count = s.v_plus.cols();
  Require(
      count == d.run.sample_count, "/samples/v_plus",
      std::to_string(count) + " rows, but sample_count = " + std::to_string(d.run.sample_count));
  RequireRows(s.v_plus, n, "/samples/v_plus", "n");
  Require(s.contact_velocity.cols() == count, "/samples/contact_velocity",
          "not one row per sample");
  RequireRows(s.contact_velocity, c, "/samples/contact_velocity", "contact coordinates");
  const auto size = static_cast<size_t>(count);
  Require(s.lcp_solves.size() == size, "/samples/lcp_solves", "not one value per sample");
  Require(s.status.size() == size, "/samples/status", "not one value per sample");
  Require(s.energy_ratio.size() == size, "/samples/energy_ratio", "not one value per sample");
  Require(s.non_unique.size() == size, "/samples/non_unique", "not one value per sample");
}

void CheckReachable(const ReachableArrays& r, Eigen::Index n, std::int64_t count) {
  RequireRows(r.velocities, n, "/reachable/velocities", "n");
  Require(r.offsets.size() == static_cast<size_t>(count) + 1 && r.offsets.front() == 0 &&
              r.offsets.back() == r.velocities.cols(),
          "/reachable/offsets", "expected sample_count + 1 offsets from 0 to the velocity rows");
  for (size_t i = 1; i < r.offsets.size(); ++i) {
    Require(r.offsets[i] >= r.offsets[i - 1], "/reachable/offsets", "must not decrease");
  }
}

void CheckOutput(const OutputArrays& o, Eigen::Index n) {
  const std::string object = "/outputs/" + o.name;
  Require(o.C.rows() >= 1 && o.C.cols() == n, object + "/C",
          Shape(o.C.rows(), o.C.cols()) + ", expected d x n, d >= 1, n = " + std::to_string(n));
  Require(o.coordinate_names.size() == static_cast<size_t>(o.C.rows()),
          object + "/coordinate_names", "expected one name per row of C");
}

// The dimension of the output a set is in: its /outputs entry, else the built-in of that name.
Eigen::Index OutputDimension(const Dataset& d, const std::string& name, Eigen::Index n) {
  for (const OutputArrays& o : d.outputs) {
    if (o.name == name) return o.C.rows();
  }
  Require(d.outputs.empty() && (name == "contact" || name == "generalized"), "/net/" + name,
          "names no output of /outputs");
  return name == "contact" ? d.problem.contact_jacobian.rows() : n;
}

void CheckSet(const PointSetArrays& s, Eigen::Index d) {
  const std::string tail = "/" + s.set + "/" + s.coords;
  RequireRows(s.net.points, d, "/net" + tail + "/points", s.coords + " coordinates");
  const HullArrays& h = s.hull;
  const Eigen::Index r = h.basis.cols();
  Require(h.center.size() == 0 || h.center.size() == d, "/hull" + tail + "/center",
          "expected " + std::to_string(d) + " values");
  RequireRows(h.basis, d, "/hull" + tail + "/basis", s.coords + " coordinates");
  Require(
      h.basis.size() == 0 || h.dimension == r, "/hull" + tail + "/basis",
      std::to_string(r) + " columns, but the hull's dimension is " + std::to_string(h.dimension));
  RequireRows(h.vertices, d, "/hull" + tail + "/vertices", s.coords + " coordinates");
  RequireRows(h.facet_normals, d, "/hull" + tail + "/facet_normals", s.coords + " coordinates");
  Require(h.facet_bounds.size() == h.facet_normals.cols(), "/hull" + tail + "/facet_bounds",
          "not one per facet");
}

}  // namespace

void CheckShapes(const Dataset& d) {
  CheckProblem(d.problem);
  const Eigen::Index n = d.problem.M.rows(), c = d.problem.contact_jacobian.rows();
  Require(d.run.sample_count >= 0 && d.run.first_sample >= 0, "/",
          "negative sample counts (first_sample, sample_count)");
  Require(d.problem.velocity_names.empty() ||
              static_cast<Eigen::Index>(d.problem.velocity_names.size()) == n,
          "/problem/M@columns", "expected one name per velocity coordinate");
  Require(d.problem.contact_names.empty() ||
              static_cast<Eigen::Index>(d.problem.contact_names.size()) == c,
          "/problem/contact_jacobian@rows", "expected one name per contact coordinate");
  Require(d.summary.contact_velocity_min.size() == c && d.summary.contact_velocity_max.size() == c,
          "/summary/contact_velocity_min", "expected one value per contact coordinate");
  if (d.samples) CheckSamples(d, n, c);
  if (d.reachable) CheckReachable(*d.reachable, n, d.run.sample_count);
  for (const OutputArrays& o : d.outputs) CheckOutput(o, n);
  for (const PointSetArrays& s : d.sets) CheckSet(s, OutputDimension(d, s.coords, n));
}

}  // namespace impactset::data::internal
