// EncodeResults / DecodeResults (rollout.hpp): rollout results as bytes between the processes of
// one run (same build, same byte order), every double bit for bit.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <impactset/rollouts/rollout.hpp>

namespace impactset::rollouts {

namespace {

constexpr char kMagic[4] = {'I', 'S', 'R', '1'};

class Writer {
 public:
  template <class T>
  void Put(T x) {
    out_.append(reinterpret_cast<const char*>(&x), sizeof x);
  }
  void Put(const std::string& s) {
    Put<std::uint64_t>(s.size());
    out_ += s;
  }
  void Put(const std::vector<double>& v) {
    Put<std::uint64_t>(v.size());
    if (!v.empty()) out_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
  }
  void Put(const VectorXd& v) { Put(std::vector<double>(v.data(), v.data() + v.size())); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  template <class T>
  T Get() {
    Need(sizeof(T));
    T x;
    std::memcpy(&x, bytes_.data() + at_, sizeof x);
    at_ += sizeof x;
    return x;
  }
  std::string Text() {
    const auto n = Get<std::uint64_t>();
    Need(n);
    std::string s = bytes_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::vector<double> Numbers() {
    const auto n = Get<std::uint64_t>();
    Need(n * sizeof(double));
    std::vector<double> v(n);
    if (n > 0) std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(double));
    at_ += n * sizeof(double);
    return v;
  }
  VectorXd Vector() {
    const std::vector<double> v = Numbers();
    return Eigen::Map<const VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
  }
  bool AtEnd() const { return at_ == bytes_.size(); }

 private:
  void Need(std::uint64_t n) const {
    if (n > bytes_.size() - at_) {
      throw std::invalid_argument("rollout results: the encoding ends early (" +
                                  std::to_string(bytes_.size()) + " bytes)");
    }
  }
  const std::string& bytes_;
  size_t at_ = 0;
};

}  // namespace

std::string EncodeResults(const std::vector<RolloutResult>& results) {
  Writer w;
  for (char c : kMagic) w.Put(c);
  w.Put<std::uint64_t>(results.size());
  for (const RolloutResult& r : results) {
    w.Put<std::int64_t>(r.index);
    w.Put<std::int32_t>(static_cast<std::int32_t>(r.status));
    w.Put(r.message);
    w.Put(r.time);
    w.Put<std::int32_t>(r.events);
    w.Put<std::int32_t>(r.constrained_events);
    w.Put<std::int32_t>(r.first_event_contacts);
    w.Put<std::int64_t>(r.lcp_solves);
    w.Put(r.fastest_approach);
    w.Put(r.qpos);
    w.Put(r.qvel);
    w.Put(r.metrics);
    w.Put(r.record_time);
    w.Put<std::uint64_t>(r.record_qpos.size());
    for (size_t i = 0; i < r.record_qpos.size(); ++i) {
      w.Put(r.record_qpos[i]);
      w.Put(r.record_qvel[i]);
    }
  }
  return w.Take();
}

std::vector<RolloutResult> DecodeResults(const std::string& bytes) {
  Reader in(bytes);
  for (char c : kMagic) {
    if (in.Get<char>() != c) throw std::invalid_argument("rollout results: not an encoding");
  }
  std::vector<RolloutResult> out(in.Get<std::uint64_t>());
  for (RolloutResult& r : out) {
    r.index = in.Get<std::int64_t>();
    const auto status = in.Get<std::int32_t>();
    if (status < 0 || status > static_cast<int>(RolloutStatus::kImpactFailed)) {
      throw std::invalid_argument("rollout results: status " + std::to_string(status));
    }
    r.status = static_cast<RolloutStatus>(status);
    r.message = in.Text();
    r.time = in.Get<double>();
    r.events = in.Get<std::int32_t>();
    r.constrained_events = in.Get<std::int32_t>();
    r.first_event_contacts = in.Get<std::int32_t>();
    r.lcp_solves = in.Get<std::int64_t>();
    r.fastest_approach = in.Get<double>();
    r.qpos = in.Vector();
    r.qvel = in.Vector();
    r.metrics = in.Numbers();
    r.record_time = in.Numbers();
    const auto records = in.Get<std::uint64_t>();
    for (std::uint64_t i = 0; i < records; ++i) {
      r.record_qpos.push_back(in.Vector());
      r.record_qvel.push_back(in.Vector());
    }
  }
  if (!in.AtEnd()) throw std::invalid_argument("rollout results: bytes after the encoding");
  return out;
}

}  // namespace impactset::rollouts
