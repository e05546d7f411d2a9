// Resumable output of a batch: part files while it runs, one file when it is done.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_writer.hpp>
#include <impactset/common/error_policy.hpp>
#include <impactset/data/output_path.hpp>
#include <impactset/engine/dataset_conversion.hpp>
#include <impactset/engine/option_table.hpp>
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

// "key=value" lines of a job text (AddAttributes); the design's names as one "parameters" key.
std::vector<std::pair<std::string, std::string>> JobEntries(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> entries;
  std::string line, parameters;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "parameter") {
      parameters += (parameters.empty() ? "" : ",") + value;
    } else {
      entries.emplace_back(key, value);
    }
  }
  entries.emplace_back("parameter", parameters);
  return entries;
}

// A job text's key in the product's words: an option's flag, what a checksum stands for.
std::string KeyWords(const std::string& key) {
  const size_t colon = key.find(':');
  if (colon == std::string::npos) {
    if (key == "points_checksum") return "the states' parameter values (points_checksum)";
    if (key == "source_checksum") return "the source's contents (source_checksum)";
    if (key == "parameter") return "the varied parameters";
    return key;
  }
  const std::string group = key.substr(0, colon), name = key.substr(colon + 1);
  if (group == "/options") {
    for (const engine::OptionField& f : engine::RunOptionFields()) {
      if (f.name == name) return std::string(f.flag.empty() ? f.name : f.flag);
    }
    return "--" + name;
  }
  return (group == "/" ? "" : group) + "/" + name;
}

// The first setting in which two job texts differ: "KEY = A in WHERE, B in this command".
std::string JobDifference(const std::string& stored,
                          const std::string& ours,
                          const std::string& where) {
  const auto a = JobEntries(stored), b = JobEntries(ours);
  auto value = [](const auto& entries, const std::string& key) -> std::optional<std::string> {
    for (const auto& [k, v] : entries) {
      if (k == key) return v;
    }
    return std::nullopt;
  };
  auto words = [](const std::optional<std::string>& v) {
    return v ? (v->empty() ? std::string("(empty)") : *v) : std::string("(absent)");
  };
  for (const auto* entries : {&b, &a}) {
    for (const auto& [key, v] : *entries) {
      const auto there = value(a, key), here = value(b, key);
      if (there != here) {
        return KeyWords(key) + " = " + words(there) + " in " + where + ", " + words(here) +
               " in this command";
      }
    }
  }
  return "the job texts differ";
}

}  // namespace

bool FinishedBefore(const BatchJob& job, const std::string& out, bool resume) {
  std::error_code ec;  // a path that cannot exist is BatchWriter's to refuse
  if (!resume || fs::exists(out + ".parts", ec) || !fs::exists(out, ec)) return false;
  const std::string stored = data::ReadRootStringAttribute(out, "job");
  if (stored.empty()) {
    throw std::invalid_argument(out +
                                ": --resume, but this file is not a batch file (no job "
                                "attribute); remove it or choose another --out");
  }
  if (stored != JobText(job)) {
    throw std::invalid_argument(out + ": --resume, but the file holds another batch: " +
                                JobDifference(stored, JobText(job), "the file") +
                                "; resume only with the same command line, or remove it to start "
                                "over");
  }
  return true;
}

BatchWriter::BatchWriter(const BatchJob& job, std::string out, bool resume)
    : job_(job), out_(std::move(out)), done_(static_cast<size_t>(job.Count()), 0) {
  data::PrepareOutputPath(out_);  // the policy of every output: the directories above it
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
    const std::string stored = data::ReadRootStringAttribute(path.string(), "job");
    if (stored != text) {
      throw std::invalid_argument(
          path.string() +
          ": written by another batch: " + JobDifference(stored, text, "the parts") +
          "; resume only with the same command line, or remove " + dir.string() + " to start over");
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
  // The file is streamed from the parts (a few in memory at a time): where each state is.
  std::vector<std::string> paths;
  std::vector<data::PartRow> rows(static_cast<size_t>(job_.Count()));
  for (const auto& [number, path] : Parts(PartsDirectory())) {
    const std::vector<std::int64_t> index = data::ReadBatchIndex(path.string());
    for (size_t row = 0; row < index.size(); ++row) {
      const std::int64_t i = index[row];
      if (i < 0 || i >= job_.Count() || rows[static_cast<size_t>(i)].part >= 0) {
        throw std::invalid_argument(path.string() + ": state " + std::to_string(i) +
                                    " out of range or stored twice");
      }
      rows[static_cast<size_t>(i)] = {static_cast<std::int32_t>(paths.size()),
                                      static_cast<std::int32_t>(row)};
    }
    paths.push_back(path.string());
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].part < 0)
      throw std::logic_error("batch: state " + std::to_string(i) + " not in the parts");
  }
  data::BatchFile header = job_.header;
  header.attributes.push_back({"/", "created", engine::UtcNow()});
  data::WriteBatchFileFromParts(out_, header, paths, rows);
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
  if (const StateStatus s = RecordStatus(record); s != StateStatus::kOk) {
    ++p_.not_ok;
    if (first_not_ok_index_ < 0 || record.index < first_not_ok_index_) {
      first_not_ok_index_ = record.index;
      p_.first_not_ok = "state " + std::to_string(record.index) + ": " + ToString(s) + ": " +
                        RecordMessage(record);
    }
  }
  writer_->Add(std::move(record));
  p_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (callback_) callback_(p_);
}

BatchProgress RunBatch(const BatchJob& job,
                       const std::string& out,
                       bool resume,
                       const BatchProgressCallback& progress) {
  if (FinishedBefore(job, out, resume)) {
    return {.states_done = job.Count(),
            .states_total = job.Count(),
            .resumed = job.Count(),
            .finished_before = true};
  }
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
