// Fuzz target: the files `impactset batch --resume` reads back. A part file in OUT.parts/ is read
// by the engine's BatchWriter (job attribute, state indices, columns) and directly by
// data::ReadBatchStates; the input is also decoded as a state record shipped between ranks
// (data::DecodeState). The job is fixed: compass-touchdown, angle over 4 grid points, as written
// by tests/fuzz/make_seeds.sh.
//
// Two kinds of input. One starting with HDF5's signature is the part file itself (raw bytes:
// mostly broken checksums and B-trees, the "cannot read" path). Any other input is a program
// that rewrites a valid part (the job's 4 states, as BatchWriter writes them): the columns'
// paths, types, widths and layouts, the states' indices and values, the attributes; the result
// is a well-formed HDF5 file whose shapes and names disagree with what the reader declares,
// which is what the reader's own checks are for.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <variant>

#include <impactset/batch/batch.hpp>
#include <impactset/batch/batch_writer.hpp>
#include <impactset/data/batch_file.hpp>
#include "fuzz/fuzz_util.hpp"

namespace {

namespace engine = impactset::engine;
namespace sets = impactset::sets;
namespace batch = impactset::batch;
namespace data = impactset::data;

struct Base {
  batch::BatchJob job;
  data::BatchFile part;  ///< the header and every state of the job: a valid part file
};

const Base& TheBase() {
  static const Base base = [] {
    const batch::StateSource source =
        batch::SystemSource{.system = "compass-touchdown", .fixed = {}};
    batch::StateDesign design;
    design.ranges.push_back(batch::ParseParameterRange("angle=2.3:2.9:4"));
    engine::BatchOptions options;
    options.run.sampler.samples = 16;
    options.run.sampler.threads = 1;
    options.run.set_options.holdout = 0;
    options.run.set_options.reachable = false;
    options.keep = 4;
    options.extra_directions = 2;
    Base b{batch::MakeBatchJob(source, design, options), {}};
    b.part = b.job.header;
    for (long long i = 0; i < b.job.Count(); ++i)
      b.part.states.push_back(batch::RunState(b.job, i));
    return b;
  }();
  return base;
}

// Reads the input in order: every call consumes bytes, so two calls are never operands of one
// expression (their order would be the compiler's, and a clang finding would replay differently
// under g++).
class Bytes {
 public:
  Bytes(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  bool empty() const { return at_ >= n_; }
  int Next() { return at_ < n_ ? d_[at_++] : 0; }
  std::size_t Pick(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(Next()) % n; }
  std::int64_t Integer() {
    static const std::int64_t special[] = {0, 1, -1, 2, 3, 4, 1LL << 31, -(1LL << 62), 1LL << 40};
    const int k = Next();
    return k < 9 ? special[k] : k - 128;
  }
  double Value() {
    const int k = Next();
    if (k == 0) return std::numeric_limits<double>::quiet_NaN();
    if (k == 1) return std::numeric_limits<double>::infinity();
    return (k - 128) / 8.0;
  }

 private:
  const std::uint8_t* d_;
  std::size_t n_, at_ = 0;
};

// Resizes cell k of every state to what column c's layout holds, so that the writer accepts it.
void Reshape(const data::ColumnSpec& c, std::size_t k, Bytes& in, data::BatchFile* f) {
  for (data::StateRecord& r : f->states) {
    if (k >= r.cells.size()) continue;
    data::Cell& cell = r.cells[k];
    const auto width = static_cast<std::size_t>(std::max<std::int64_t>(c.width, 1));
    const std::size_t n = c.ragged ? width * in.Pick(4) : width;
    if (c.type == data::ColumnType::kFloat64) {
      cell.values.resize(n, in.Value());
      cell.integers.clear();
    } else if (c.type != data::ColumnType::kString) {
      cell.integers.resize(n, in.Integer());
      cell.values.clear();
    }
  }
}

void MutateColumn(Bytes& in, data::BatchFile* f) {
  if (f->columns.empty()) return;
  const std::size_t k = in.Pick(f->columns.size());
  data::ColumnSpec& c = f->columns[k];
  switch (in.Pick(6)) {
    case 0: {  // another column's name: two datasets, one missing
      const std::size_t other = in.Pick(f->columns.size());
      c.path = f->columns[other].path + (in.Next() % 2 ? "" : "x");
      break;
    }
    case 1:
      c.type = static_cast<data::ColumnType>(in.Pick(4));
      break;
    case 2:
      c.width = std::max<std::int64_t>(1, in.Pick(7));
      break;
    case 3:
      c.scalar = !c.scalar;
      break;
    case 4:
      c.ragged = !c.ragged;
      break;
    default:
      f->columns.erase(f->columns.begin() + static_cast<std::ptrdiff_t>(k));
      for (data::StateRecord& r : f->states) {
        if (k < r.cells.size()) r.cells.erase(r.cells.begin() + static_cast<std::ptrdiff_t>(k));
      }
      return;
  }
  Reshape(c, k, in, f);
}

void MutateStates(Bytes& in, data::BatchFile* f) {
  auto& s = f->states;
  switch (in.Pick(5)) {
    case 0:
      if (!s.empty()) s[in.Pick(s.size())].index = in.Integer();
      break;
    case 1:
      if (!s.empty()) s.push_back(s[in.Pick(s.size())]);  // a state stored twice
      break;
    case 2:
      if (!s.empty()) s.erase(s.begin() + static_cast<std::ptrdiff_t>(in.Pick(s.size())));
      break;
    case 3:
      if (!s.empty() && !f->columns.empty()) {
        const std::size_t k = in.Pick(f->columns.size());
        Reshape(f->columns[k], k, in, f);
      }
      break;
    default:
      if (!s.empty()) {
        for (data::Cell& c : s[in.Pick(s.size())].cells) {
          if (c.text.empty()) continue;
          const std::size_t length = in.Pick(40);
          c.text = std::string(length, static_cast<char>(in.Next()));
        }
      }
      break;
  }
}

void MutateAttributes(Bytes& in, data::BatchFile* f) {
  auto& a = f->attributes;
  if (a.empty()) return;
  data::Attribute& x = a[in.Pick(a.size())];
  switch (in.Pick(4)) {
    case 0:
      x.value = in.Value();
      break;
    case 1:
      x.value = in.Integer();
      break;
    case 2:
      if (auto* text = std::get_if<std::string>(&x.value)) {
        if (!text->empty()) (*text)[in.Pick(text->size())] = static_cast<char>(in.Next());
      }
      break;
    default:
      a.erase(a.begin() + static_cast<std::ptrdiff_t>(in.Pick(a.size())));
      break;
  }
}

data::BatchFile Rewritten(const std::uint8_t* bytes, std::size_t size) {
  data::BatchFile f = TheBase().part;
  Bytes in(bytes, size);
  while (!in.empty()) {
    switch (in.Pick(3)) {
      case 0:
        MutateColumn(in, &f);
        break;
      case 1:
        MutateStates(in, &f);
        break;
      default:
        MutateAttributes(in, &f);
        break;
    }
  }
  return f;
}

// What the reader promises when it returns: one cell per declared column, of the declared size.
void CheckRead(const std::vector<data::StateRecord>& states) {
  data::ValidateStates(TheBase().job.columns, states);  // throws: escapes (not caught) below
}

}  // namespace

// The job and its states, before libFuzzer starts timing inputs (-timeout).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  TheBase();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  using impactset::fuzz::AllowDocumentedErrors;
  const batch::BatchJob& job = TheBase().job;
  const bool raw = size >= 4 && std::memcmp(bytes, "\x89HDF", 4) == 0;
  const impactset::fuzz::ScratchFile file(raw ? bytes : nullptr, raw ? size : 0,
                                          "out.h5.parts/part-000000.h5");
  const std::string out = file.path().substr(0, file.path().size() - 21);  // drops the .parts/...
  if (!raw) {
    bool written = false;
    AllowDocumentedErrors([&] {
      data::WriteBatchFile(file.path(), Rewritten(bytes, size));
      written = true;
    });
    if (!written) return 0;  // the writer refused the rewrite: nothing for the reader
  }
  AllowDocumentedErrors([&] {
    const batch::BatchWriter writer(job, out, /*resume=*/true);
    writer.Pending();
  });
  std::vector<data::StateRecord> states;
  AllowDocumentedErrors([&] { states = data::ReadBatchStates(file.path(), job.columns); });
  try {
    CheckRead(states);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "batch_parts: the reader returned states that break its columns: %s\n",
                 e.what());
    std::abort();
  }
  AllowDocumentedErrors([&] { data::DecodeState(impactset::fuzz::Text(bytes, size)); });
  return 0;
}
