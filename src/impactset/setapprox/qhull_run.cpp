#include <impactset/setapprox/internal/qhull_run.hpp>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// Qhull 2020.2's C++ container headers (Qhull.h, QhullFacet.h, ...) do not compile as C++20
// (constructors spelled QhullSet<T>(...), DR 2237), so we drive the reentrant C library through
// orgQhull::QhullQh, which compiles, owns qhT, and whose QH_TRY_ catches qh_errexit's longjmp.
#include <libqhullcpp/QhullError.h>
#include <libqhullcpp/QhullQh.h>

namespace impactset::setapprox::internal {

namespace {

/// A FILE* writing into memory (POSIX open_memstream). libqhullcpp's qh_fprintf appends every
/// message to QhullQh::qhull_message, but libqhull_r exports a qh_fprintf of its own that writes
/// to qh->ferr; which one a process binds depends on its link order (a library linking
/// libqhull_r before libqhullcpp flips it). Pointing ferr and fout here keeps Qhull off the
/// terminal either way.
class MemoryStream {
 public:
  MemoryStream() : file_(open_memstream(&buffer_, &size_)) {}
  ~MemoryStream() {
    if (file_) std::fclose(file_);
    std::free(buffer_);
  }
  MemoryStream(const MemoryStream&) = delete;
  MemoryStream& operator=(const MemoryStream&) = delete;
  FILE* file() const { return file_; }
  std::string Text() {
    if (!file_) return {};
    std::fflush(file_);
    return std::string(buffer_, size_);
  }

 private:
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  FILE* file_;
};

/// The libqhull_r calls, between setjmp and longjmp: plain C only (a longjmp skips destructors
/// and may clobber non-volatile locals, so nothing else lives in this frame). @return the
/// QH_TRY_ status, 0 on success.
[[gnu::noinline]] int QhullCalls(
    orgQhull::QhullQh* qh, double* coordinates, int n, int r, char* command) {
  using orgQhull::QhullError;  // named unqualified by QH_TRY_
  QH_TRY_(qh) {
    qh_initflags(qh, command);
    qh_init_B(qh, coordinates, n, r, False);
    qh_qhull(qh);
    qh_check_output(qh);
    qh_prepare_output(qh);
    qh_getarea(qh, qh->facet_list);
  }
  qh->NOerrexit = True;
  return QH_TRY_status;
}

void Append(std::string* all, const std::string& command, const std::string& text) {
  if (text.empty()) return;
  if (!all->empty() && all->back() != '\n') all->push_back('\n');
  *all += "[" + command + "] " + text;
}

void ReadResult(orgQhull::QhullQh* qh, int r, QhullOutput* out) {
  out->volume = qh->totvol;
  out->distance_roundoff = std::max(qh->DISTround, qh->max_outside);
  if (qh->JOGGLEmax < REALmax / 2) out->distance_roundoff += 2 * qh->JOGGLEmax * std::sqrt(r);
  out->vertex_ids.clear();
  for (vertexT* vertex = qh->vertex_list; vertex && vertex->next; vertex = vertex->next) {
    out->vertex_ids.push_back(static_cast<Index>(qh_pointid(qh, vertex->point)));
  }
  std::sort(out->vertex_ids.begin(), out->vertex_ids.end());
  Index f_count = 0;
  for (facetT* facet = qh->facet_list; facet && facet->next; facet = facet->next) ++f_count;
  out->facet_normals.resize(r, f_count);
  out->facet_offsets.resize(f_count);
  Index f = 0;
  for (facetT* facet = qh->facet_list; facet && facet->next; facet = facet->next, ++f) {
    for (int k = 0; k < r; ++k) out->facet_normals(k, f) = facet->normal[k];
    out->facet_offsets(f) = facet->offset;
  }
}

}  // namespace

QhullOutput RunQhull(const MatrixXd& y) {
  const int r = static_cast<int>(y.rows());
  const int n = static_cast<int>(y.cols());
  QhullOutput out;
  // In r <= 4, default options first: pre-merged facets (C-0 / Qx), so a cube has 6 facets.
  // Nearly coplanar ridges in dimension >= 4 (outcome sets are full of them) can end in a
  // "dupridge" topology error (QH6271), or in a "wide merge" precision error whose message
  // suggests 'Q12' (QH6347, QH6348: clustered points such as a directed design's); Qhull's
  // documented remedies are Q12 (allow the wide merge)
  // and, failing that, QJ (joggle the input: no merges at all). In r >= 5 merging itself is what
  // costs: on the 3-D cube's 6-D nets QJ is 8-9x faster with the same vertices and volume to 6
  // digits (bench_sets CubeHull, bench/README.md), so QJ goes first there when n exceeds
  // kJoggleFirstPoints (small inputs are fast either way and keep exact merged facets). Merged
  // facets bound
  // every point within qh max_outside; joggled ones within the joggle, and distance_roundoff
  // includes both.
  char plain[] = "qhull";
  char wide[] = "qhull Q12";
  char joggle[] = "qhull QJ";
  const bool joggle_first = r >= 5 && n > kJoggleFirstPoints;
  const std::vector<char*> commands = joggle_first ? std::vector<char*>{joggle, plain, wide}
                                                   : std::vector<char*>{plain, wide, joggle};
  for (char* command : commands) {
    MatrixXd coordinates = y;  // Qhull reads the n x r row-major array; keep the caller's intact
    MemoryStream stream;
    auto owner = std::make_unique<orgQhull::QhullQh>();
    orgQhull::QhullQh* qh = owner.get();
    if (stream.file()) qh->ferr = qh->fout = qh->qhmem.ferr = stream.file();
    const int status = QhullCalls(qh, coordinates.data(), n, r, command);
    try {
      qh->maybeThrowQhullMessage(status);
      Append(&out.messages, command, qh->qhullMessage() + stream.Text());
      qh->clearQhullMessage();
      out.command = command;
      ReadResult(qh, r, &out);
      return out;
    } catch (const orgQhull::QhullError& e) {
      const std::string what = e.what();
      Append(&out.messages, command, what + stream.Text());
      if (command != commands.back() && (joggle_first || what.find("QH6271") != std::string::npos ||
                                         what.find("'Q12'") != std::string::npos)) {
        continue;
      }
      throw std::runtime_error("Qhull failed on " + std::to_string(n) + " points in dimension " +
                               std::to_string(r) + " (affine-hull coordinates): " + out.messages);
    }
  }
  return out;  // not reached: the last attempt returns or throws
}

}  // namespace impactset::setapprox::internal
