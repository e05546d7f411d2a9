// Resumable output of a batch: part files while it runs, one file when it is done.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_writer.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/sampling/parallel.hpp>

namespace impactset::batch {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPartPrefix = "part-";
constexpr const char* kPartSuffix = ".h5";

// The finished parts (not the .tmp-<pid> files a killed writer left), by number.
std::vector<std::pair<int, fs::path>> Parts(const fs::path& dir) {
  std::vector<std::pair<int, fs::path>> parts;
  if (!fs::is_directory(dir)) return parts;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(kPartPrefix, 0) != 0 || name.size() < 9 ||
        name.substr(name.size() - 3) != kPartSuffix) {
      continue;
    }
    parts.emplace_back(std::stoi(name.substr(5, name.size() - 8)), e.path());
  }
  std::sort(parts.begin(), parts.end());
  return parts;
}

std::string JobText(const BatchJob& job) {
  for (const data::Attribute& a : job.header.attributes) {
    if (a.group == "/" && a.name == "job") return std::get<std::string>(a.value);
  }
  throw std::logic_error("batch header without a job attribute");
}

}  // namespace

BatchWriter::BatchWriter(const BatchJob& job, std::string out, bool resume)
    : job_(job), out_(std::move(out)), done_(static_cast<size_t>(job.Count()), 0) {
  const fs::path dir = PartsDirectory();
  if (fs::exists(dir) && !resume) {
    throw std::invalid_argument(dir.string() +
                                ": a batch was interrupted here; add --resume to "
                                "finish it, or remove the directory to start over");
  }
  fs::create_directories(dir);
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp-") != std::string::npos) fs::remove(e.path());
  }
  const std::string text = JobText(job);
  for (const auto& [number, path] : Parts(dir)) {
    if (data::ReadRootStringAttribute(path.string(), "job") != text) {
      throw std::invalid_argument(path.string() +
                                  ": written by a batch with other states or "
                                  "options; resume only with the same command line");
    }
    for (const data::StateRecord& r : data::ReadBatchStates(path.string(), job.columns)) {
      if (r.index < 0 || r.index >= job.Count() || done_[r.index]) {
        throw std::invalid_argument(path.string() + ": state " + std::to_string(r.index) +
                                    " out of range or stored twice");
      }
      done_[r.index] = 1;
      ++done_count_;
    }
    next_part_ = number + 1;
  }
}

std::vector<long long> BatchWriter::Pending() const {
  std::vector<long long> p;
  for (size_t i = 0; i < done_.size(); ++i) {
    if (!done_[i]) p.push_back(static_cast<long long>(i));
  }
  return p;
}

void BatchWriter::Add(data::StateRecord record) {
  if (record.index < 0 || record.index >= job_.Count() || done_[record.index]) {
    throw std::logic_error("batch state " + std::to_string(record.index) + " added twice");
  }
  done_[record.index] = 1;
  ++done_count_;
  buffer_.push_back(std::move(record));
  if (static_cast<long long>(buffer_.size()) >= job_.options.part_states) Flush();
}

void BatchWriter::Flush() {
  if (buffer_.empty()) return;
  data::BatchFile part = job_.header;
  part.states = std::move(buffer_);
  buffer_.clear();
  char name[32];
  std::snprintf(name, sizeof name, "%s%06d%s", kPartPrefix, next_part_++, kPartSuffix);
  data::WriteBatchFile((fs::path(PartsDirectory()) / name).string(), part);
}

void BatchWriter::Finish() {
  Flush();
  if (done_count_ != job_.Count()) {
    throw std::logic_error("batch: " + std::to_string(job_.Count() - done_count_) +
                           " states not done");
  }
  std::vector<data::StateRecord> records;
  records.reserve(static_cast<size_t>(job_.Count()));
  for (const auto& [number, path] : Parts(PartsDirectory())) {
    for (data::StateRecord& r : data::ReadBatchStates(path.string(), job_.columns)) {
      records.push_back(std::move(r));
    }
  }
  WriteBatch(job_, std::move(records), out_);
  fs::remove_all(PartsDirectory());
}

void WriteBatch(const BatchJob& job,
                std::vector<data::StateRecord> records,
                const std::string& out) {
  data::BatchFile file = job.header;
  file.attributes.push_back({"/", "created", engine::UtcNow()});
  file.states.resize(static_cast<size_t>(job.Count()));
  std::vector<char> seen(static_cast<size_t>(job.Count()), 0);
  for (data::StateRecord& r : records) {
    if (r.index < 0 || r.index >= job.Count()) {
      InvalidArgument("state", r.index,
                      "not a state of this batch (0 ... " + std::to_string(job.Count() - 1) + ")");
    }
    const auto i = static_cast<size_t>(r.index);
    if (seen[i]) InvalidArgument("state", r.index, "given twice");
    seen[i] = 1;
    file.states[i] = std::move(r);
  }
  const auto missing = std::find(seen.begin(), seen.end(), 0);
  if (missing != seen.end()) {
    const long long count = std::count(seen.begin(), seen.end(), 0);
    InvalidArgument("state", static_cast<long long>(missing - seen.begin()),
                    "missing (" + std::to_string(count) + " of " + std::to_string(job.Count()) +
                        " states have no record)");
  }
  data::WriteBatchFile(out, file);  // which validates every state against the columns
}

BatchRecorder::BatchRecorder(const BatchJob& job,
                             BatchWriter* writer,
                             BatchProgressCallback progress)
    : job_(job),
      writer_(writer),
      callback_(std::move(progress)),
      p_{.states_done = writer->DoneCount(),
         .states_total = job.Count(),
         .resumed = writer->DoneCount()} {}

void BatchRecorder::Store(data::StateRecord record) {
  ++p_.states_done;
  p_.samples += RecordSamples(job_, record);
  if (RecordStatus(record) != StateStatus::kOk) ++p_.not_ok;
  writer_->Add(std::move(record));
  p_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (callback_) callback_(p_);
}

BatchProgress RunBatch(const BatchJob& job,
                       const std::string& out,
                       bool resume,
                       const BatchProgressCallback& progress) {
  BatchWriter writer(job, out, resume);
  BatchRecorder recorder(job, &writer, progress);
  const std::vector<long long> pending = writer.Pending();
  std::mutex mutex;      // the recorder (writer and callback): one state at a time
  bool stopped = false;  // the writer or the callback threw: states still running are dropped
  auto store = [&](data::StateRecord r) {
    const std::lock_guard<std::mutex> lock(mutex);
    if (stopped) return;
    try {
      recorder.Store(std::move(r));
    } catch (...) {
      stopped = true;
      throw;
    }
  };
  // Up to `threads` states side by side, each sampled on up to `threads` threads (nested TBB
  // arenas): a state's problem, sets and features are built on one thread, so one state at a
  // time leaves the other threads idle for short states. A record does not depend on what runs
  // beside it, and the file is assembled in state order: the same file at any thread count.
  sampling::ParallelFor(
      static_cast<long long>(pending.size()), job.options.run.sampler.threads,
      [&](long long k) { store(RunState(job, pending[static_cast<size_t>(k)])); });
  writer.Finish();
  return recorder.progress();
}

}  // namespace impactset::batch
