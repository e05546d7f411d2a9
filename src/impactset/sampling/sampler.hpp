#pragma once
// Algorithm 2's sampling (docs/model.md §5-§6): many Algorithm-1 samples fanned out over threads.
// Sample i depends only on (seed, i): results are bit-identical at any thread count and for any
// split into shards.
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <impactset/common/enum_names.hpp>
#include <impactset/impact/algorithm1.hpp>
#include <impactset/lcp/fallback.hpp>
#include <impactset/sampling/directed_design.hpp>
#include <impactset/sampling/summary.hpp>

namespace impactset::sampling {

/// Where the p-vectors come from.
enum class Design {
  kIid,    ///< iid uniform, stream (seed, 2 i) per sample
  kSobol,  ///< Sobol points with the authors' skip/leap and a digital shift drawn from the seed
  kSobolPlain,  ///< the same points unshifted (the authors' design, docs/examples.md §1.7)
  /// a mixed pilot, then p-sequences proposed from earlier samples where the set still grows
  /// (sampling/directed_design.hpp). Not iid; whole runs only (shard_count = 1).
  kDirected,
  /// the default: the even samples iid (the iid design's, bit for bit), the odd ones ordered
  /// p-sequences that favour one approaching contact at a time in a random priority order
  /// (OrderedPSource, sampling/streams.hpp): they reach the set's extremes, which iid caps
  /// rarely do (docs/coverage.md). Not iid as a whole; shards like iid.
  kMixed
};

IMPACTSET_ENUM_NAMES(Design,
                     "design",
                     {E::kIid, "iid"},
                     {E::kSobol, "sobol"},
                     {E::kSobolPlain, "sobol-plain"},
                     {E::kDirected, "directed"},
                     {E::kMixed, "mixed"})

inline const char* ToString(Design d) { return EnumName(d).data(); }
inline Design ParseDesign(std::string_view name) { return ParseEnum<Design>(name); }

/// With threads = 0, runs (shards) of fewer samples than this run inline: starting a TBB arena
/// costs about a millisecond, more than a hundred samples of a small problem take on one thread,
/// and a caller that samples per state (a learning pipeline) pays it on every call. The samples
/// are the same either way.
inline constexpr long long kAutoInlineSamples = 128;

/// Options of RunSampler. Validated at entry (Validate), before any thread starts.
struct SamplerOptions {
  impact::Algorithm1Options algorithm;  ///< h, N, termination tolerance, selection
  long long samples = 16384;            ///< K of the whole run (all shards together). >= 1.
  std::uint64_t seed = 1;
  /// Worker threads: 0 = every hardware thread (inline below kAutoInlineSamples samples); 1 = run
  /// inline in the caller (the debuggable reference run). >= 0.
  int threads = 0;
  /// kMixed: its iid half keeps the iid design's samples, its ordered half reaches the set's
  /// extremes (docs/coverage.md, "Designs and extent").
  Design design = Design::kMixed;
  DirectedOptions directed;  ///< the directed design's settings (used only by Design::kDirected)
  lcp::SolverKind solver = lcp::SolverKind::kChain;  ///< the step LCPs' solver
  bool keep_samples = false;       ///< keep per-sample arrays (memory grows with K)
  bool keep_trajectories = false;  ///< keep every intermediate velocity (the reachable set)
  /// Also keep (and stream) every sample's p-sequence P and choice key (SampleArrays::
  /// p_sequences, choice_keys): with the seed, RunSampleWithPSequence(key, P) reproduces the
  /// sample.
  bool keep_p_sequences = false;
  int shard_index = 0;  ///< this run computes shard shard_index of shard_count
  int shard_count = 1;  ///< >= 1; shard i has samples [i K / n, (i + 1) K / n)
  void Validate() const;
};

/// Per-sample arrays of consecutive samples, in sample order: what a run keeps
/// (SamplerResult::records) and what it streams (SampleBlock::samples).
struct SampleArrays {
  MatrixXd v_plus;            ///< n x count
  MatrixXd contact_velocity;  ///< contact coordinates x count (ImpactProblem::ContactJacobian)
  std::vector<impact::SampleStatus> status;
  std::vector<std::int32_t> lcp_solves;
  std::vector<double> energy_ratio;      ///< KE(v+) / KE(v-)
  std::vector<std::uint8_t> non_unique;  ///< 1: a step was detected as non-unique
  /// With trajectories: every velocity of every sample (v-, ..., v+), n x total, and sample k's
  /// columns are [trajectory_offsets[k], trajectory_offsets[k + 1]) (count + 1 offsets).
  /// Empty (0 columns, no offsets) without.
  MatrixXd trajectories;
  std::vector<std::int64_t> trajectory_offsets;
  /// With SamplerOptions::keep_p_sequences: (m N) x count, column k the whole p-sequence of
  /// sample k (step s used entries [s m, s m + m); the steps after termination were not used).
  /// Empty (0 x 0) without. Not stored in datasets.
  MatrixXd p_sequences;
  /// With p_sequences: the sample whose choice stream (seed, 2 key + 1) sample k ran with, its
  /// own index except for the directed design's proposals, which take the stream of the elite
  /// they start from (docs/model.md §6.2). Empty without.
  std::vector<std::int64_t> choice_keys;

  long long count() const { return static_cast<long long>(status.size()); }
  /// Sizes the arrays for `count` samples of a problem with n velocities and c contact
  /// coordinates (trajectories cleared), with p-sequences of p_dimension entries (0 = none).
  void Resize(int n, int c, long long count, int p_dimension = 0);
  /// Appends `other`'s samples (and trajectories, offsets shifted) after this one's.
  void Append(const SampleArrays& other);
};

struct SamplerResult {
  long long first_sample = 0;  ///< global index of this shard's first sample
  long long count = 0;         ///< samples in this shard
  SampleSummary summary;
  /// Empty unless keep_samples or keep_trajectories; trajectories only with keep_trajectories.
  SampleArrays records;
  int threads_used = 1;
  double seconds = 0;
};

/// Called from the calling thread only, with the number of samples done so far: about every
/// 1/8 s while worker threads run (threads > 1), after every 4096 samples or streamed block when
/// the run is inline (threads = 1), and once at the end.
///
/// Cancellation: the callback may throw (conventionally Cancelled) to stop the run. Workers stop
/// between ranges of samples and between streamed blocks, every thread of the run is joined, no
/// further block reaches the sink, and RunSampler rethrows the callback's exception: no result
/// is returned. To cancel from another thread, set a flag there and throw from the callback.
using ProgressCallback = std::function<void(long long done, long long total)>;

/// What a progress callback conventionally throws to cancel a run (any exception cancels).
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("sampling cancelled") {}
};

/// What a BlockPrepare computed from a block for its sink. The sink's own type derives from it
/// (e.g. sets::SetBuilder's); the sampler only carries it from the worker to the sink.
struct PreparedBlock {
  virtual ~PreparedBlock() = default;
};

/// Consecutive samples [first, first + samples.count()), handed to a BlockSink.
struct SampleBlock {
  long long first = 0;   ///< global index of the block's first sample
  SampleArrays samples;  ///< trajectories only when StreamOptions::trajectories
  /// What StreamOptions::prepare computed from this block for the sink (empty without prepare).
  std::shared_ptr<const PreparedBlock> prepared;
};

/// Receives blocks one at a time, in increasing sample order, never concurrently: whatever it
/// builds from them (an ε-net, which depends on the insertion order) is the same at any thread
/// count. Blocks are computed in parallel while the sink works on an earlier one.
using BlockSink = std::function<void(const SampleBlock&)>;

/// For a BlockSink whose work on a block splits into independent parts (sets::SetBuilder: one
/// ε-net per set): calls body(i) for every i in [0, count) on the threads of the sampler run
/// that called the sink, those idle between blocks joining in. In a run of one thread, and when
/// not called from a sink, inline in increasing i. The calls may run concurrently and in any
/// order, so body must write only to what index i owns; the sink's result is then the same at
/// any thread count. An exception thrown by body is rethrown after the loop stops.
void ParallelForInSink(long long count, const std::function<void(long long)>& body);

/// Runs on the worker thread that computed a block, before the block goes to the sink: blocks
/// are prepared concurrently with each other and with the sink, so whatever it reads must be safe
/// to read then, and the sink's result must not depend on when that was (e.g. tests against a
/// snapshot of an ε-net that the sink completes in order). Stores its work in `prepared`.
using BlockPrepare = std::function<void(SampleBlock&)>;

/// Streaming of samples to a sink in bounded memory (Algorithm 2's set builders).
struct StreamOptions {
  BlockSink sink;  ///< empty = no streaming
  /// Optional: the sink's parallel part (BlockPrepare), run on every block before the sink.
  BlockPrepare prepare;
  bool trajectories = false;  ///< also stream every intermediate velocity
  /// Samples per block. Memory in flight is about 2 x threads blocks; the block boundaries are
  /// fixed multiples of block_size from the shard's first sample. >= 1.
  long long block_size = 4096;
};

/// Runs this shard's samples of Algorithm 1 on the problem.
/// @throws std::invalid_argument for bad options (before any work starts).
/// @throws whatever `progress` throws, after the run has stopped (see ProgressCallback).
SamplerResult RunSampler(const impact::ImpactProblem& problem,
                         const SamplerOptions& options,
                         const ProgressCallback& progress = {},
                         const StreamOptions& stream = {});

/// Algorithm 1 under these options with the choices of stream (seed, 2 choice_key + 1) and the
/// p-vectors of `p_sequence` (m N entries; step s uses [s m, s m + m)) instead of a design's.
/// With a kept sample's SampleArrays::choice_keys[k] and p_sequences.col(k) it replays sample k
/// (for iid and Sobol the key is the sample's index). Used to check and replay samples.
/// @throws std::invalid_argument for bad options, choice_key < 0, a wrong size or an entry
///         outside [0, 1].
impact::SampleResult RunSampleWithPSequence(const impact::ImpactProblem& problem,
                                            const SamplerOptions& options,
                                            long long choice_key,
                                            const VectorXd& p_sequence);

/// What PolishExtremes found: its own samples and how far they moved the search's support values.
struct PolishResult {
  /// The polish's samples, in order (sample k draws its proposal from the streams of index
  /// first + k, which no sample of the run uses); their p-sequences and keys only with
  /// run.keep_p_sequences.
  SampleArrays samples;
  /// The search's directions (DirectedSearch::directions(), in the output's coordinates) and
  /// their support values h_j over the starts, then over the starts and the polish.
  MatrixXd directions;
  VectorXd start_values;
  VectorXd values;
  long long rounds = 0;
};

/// A directed search (DirectedSearch with run.directed's elites, proposals and directions, but no
/// random round directions and no fresh ordered draws: a local search) in the coordinates y =
/// output v+
/// (d x n) started from samples of a run
/// of the iid, Sobol or mixed design: each start is rerun from (seed, index) with the p-sequence
/// its design gave it, offered to the search as its pilot, then `budget` proposals follow in
/// rounds, proposal k from the streams of index first + k (first >= run.samples). Deterministic:
/// a function of the run's options, the output, the starts (in any order; duplicates ignored),
/// first and the budget, at any thread count. Every polish sample is an outcome of the law (a
/// p-sequence in the cube, a valid choice stream).
/// @throws std::invalid_argument for bad options, the directed design (its samples are not a
///         function of (seed, index)), an output without n columns, no start, a start outside
///         [0, run.samples), first < run.samples or budget < 1.
PolishResult PolishExtremes(const impact::ImpactProblem& problem,
                            const SamplerOptions& run,
                            const MatrixXd& output,
                            std::vector<long long> starts,
                            long long first,
                            long long budget);

/// The columns k of `points` (one per sample) whose status[k] is SampleStatus::kTerminated: the
/// post-impact set among kept records. Step-capped and failed samples are not post-impact
/// outcomes. @throws std::invalid_argument if the sizes differ.
MatrixXd TerminatedColumns(const MatrixXd& points, const std::vector<impact::SampleStatus>& status);

}  // namespace impactset::sampling
