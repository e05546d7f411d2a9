#pragma once
// The directed design (Design::kDirected, docs/model.md §6.2, docs/convergence.md): spends
// Algorithm-1 samples where the sampled post-impact set is still growing.
//
// A sample is Algorithm 1 run on a p-sequence P in the cube [0,1]^(m N) (step s uses the caps
// h P[s m ... s m + m - 1]) with the choices (Selection::kRandom's covering vectors and orders)
// of stream (seed, 2 key + 1). Other designs use key = i, the sample's own index. Here P and key
// are chosen by looking at earlier samples:
//
//   pilot:  samples 0 ... K0 - 1 (K0 = ceil(pilot_fraction K)) are the mixed design's first K0
//           samples bit for bit (Design::kMixed: even ones iid, odd ones ordered p-sequences,
//           whose P is recorded as they run), so the search starts from the ends of the set the
//           ordered samples reach;
//   rounds: then rounds of consecutive samples. For each fixed direction u_j of the contact
//           coordinates y = J_c v+ (SupportDirections(c, extra_directions)) the search keeps the
//           E = elites terminated samples with the largest u_j . y and their P. A direction is
//           active in a round when its best value h_j rose in the previous round by more than
//           kDirectedMoveTolerance times the set's largest axis width (all directions are active
//           in the first round, and again whenever none moved). Each round also draws
//           round_directions fresh random unit directions (from (seed, round)), whose elites are
//           the best of an archive of the samples that were ever an elite (the last
//           kDirectedArchive of them): they push the boundary between the fixed directions out.
//           Each active direction gets proposals_per_direction proposals, alternately
//             - cross-entropy: P_k ~ N(mean_k, sd_k) clamped to [0,1], mean and standard
//               deviation (at least kDirectedMinSpread) of coordinate k over the elites;
//             - pattern search: an elite's P with 1-3 coordinates set to 0, 1, a fresh uniform or
//               moved by a N(0, kDirectedMinSpread^2) step (clamped);
//           and boundary_fraction of the round are fresh ordered p-sequences of their own
//           index (OrderedPSource), which keep exploring other orders of the contacts.
//   keys:   pilot and fresh ordered samples use their own index. A pattern proposal runs with the
//   key
//           of the elite it copies, a cross-entropy proposal with the best elite's: where a step
//           has several solutions, the proposal then makes the choices that made the elite
//           extreme, and the search moves the outcome through P instead of re-drawing which
//           solution each step keeps (on the compass gait, where 39 % of samples have a
//           non-unique step, this halves the solves to reach the hull; docs/convergence.md).
//
// Every P lies in the cube and every key names a valid choice stream, so every sample is a genuine
// Algorithm-1 outcome and the sampled set stays an inner approximation of the post-impact set.
// The samples are not iid (nor identically distributed): statements about their distribution
// (Lemma 1) do not apply; docs/coverage.md.
//
// Determinism: the proposals and keys of a round depend only on (seed, sample index) and the
// search state, which is updated in sample order after the round, so a run is bit-identical at
// any thread count.
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include <impactset/common/eigen_types.hpp>

namespace impactset::sampling {

/// A direction counts as moved when its support value rose by more than this times the largest
/// axis width of the sampled set: far below any resolution a set study asks for (1e-2 ... 1e-4),
/// far above roundoff of the samples (1e-12).
inline constexpr double kDirectedMoveTolerance = 1e-6;
/// Floor of the cross-entropy spread per p coordinate, and the pattern-search step: keeps the
/// search from collapsing onto one P while the set still moves.
inline constexpr double kDirectedMinSpread = 0.03;
/// Samples the archive of former elites keeps (the most recent ones): enough for the elites of
/// a few hundred directions, small next to any run.
inline constexpr int kDirectedArchive = 4096;

/// Options of the directed design (SamplerOptions::directed; ignored by the other designs).
struct DirectedOptions {
  /// Fraction of the samples spent on the pilot, in (0, 1]. 1 = the mixed design.
  double pilot_fraction = 0.125;
  /// Random directions beyond the 2 c axis directions (SupportDirections). >= 0. The default
  /// equals the sets' support polytopes' (sets::kSetSupportExtraDirections).
  int extra_directions = 64;
  /// E: samples kept per direction for its proposals. >= 1. 4 met the compass gait's hull goal
  /// with about half the solves of 8 over ten seeds; RAMone unchanged, the cube no better
  /// (docs/convergence.md, "Choice keys").
  int elites = 4;
  /// Proposals per active direction and round. >= 1.
  int proposals_per_direction = 2;
  /// Fresh random directions per round, searched from the archive's best samples. >= 0. The
  /// hull of a curved set has a continuum of extreme points: fixed directions alone leave the
  /// boundary between them to the pilot (docs/convergence.md).
  int round_directions = 128;
  /// Share of each round spent on fresh ordered p-sequences, in [0, 1).
  double boundary_fraction = 0.2;
  /// @throws std::invalid_argument naming the field, its value and the rule.
  void Validate() const;
};

/// The search state of one directed run: which samples a round holds and each sample's P.
/// Proposal() is const and may run on many threads at once; Observe() and EndRound() are called
/// by one thread, in sample order.
class DirectedSearch {
 public:
  /// @param[in] contacts m, max_steps N, coordinates c (the rows of J_c), samples K (>= 1).
  /// @throws std::invalid_argument for bad options or sizes.
  DirectedSearch(const DirectedOptions& options,
                 int contacts,
                 int max_steps,
                 int coordinates,
                 std::uint64_t seed,
                 long long samples);
  /// With a pilot of exactly `pilot` samples (1 <= pilot <= samples) in place of
  /// options.pilot_fraction: a polish (PolishExtremes) whose pilot is a finished run's samples.
  DirectedSearch(const DirectedOptions& options,
                 int contacts,
                 int max_steps,
                 int coordinates,
                 std::uint64_t seed,
                 long long samples,
                 long long pilot);

  /// The next round's samples [begin, end), empty (begin == end == K) when the run is done. The
  /// first round is the pilot. Call EndRound() after observing every sample of a round.
  std::pair<long long, long long> NextRound();
  /// Writes sample `index`'s P (m N entries in [0,1]) for the current round; not for an
  /// Ordered() sample, which the caller runs from OrderedPSource(seed, index) instead.
  /// `key` receives the sample whose choice stream (seed, 2 key + 1) the proposal runs with.
  void Proposal(long long index, Eigen::Ref<VectorXd> p, long long* key) const;
  /// Whether sample `index` of the current round is an ordered p-sequence (OrderedPSource of
  /// (seed, index)), chosen from the state: the caller runs it and offers the P it used.
  bool Ordered(long long index) const;
  /// Offers sample `index` of the current round: its contact coordinates y (c), whether it
  /// terminated, its P and the key it ran with. Calls must come in sample order.
  void Observe(
      long long index, const VectorXd& y, bool terminated, const VectorXd& p, long long key);
  /// Closes the round: decides which directions are active in the next one.
  void EndRound();

  int dimension() const { return m_ * n_steps_; }  ///< m N
  const MatrixXd& directions() const { return directions_; }
  /// h_j: the largest u_j . y over the terminated samples seen (-inf before any).
  VectorXd best_values() const;
  long long rounds() const { return rounds_; }

 private:
  struct Elite {
    double value;
    long long index;
    long long key;  // choice stream
    VectorXd p;
    VectorXd y;
  };
  enum class Kind { kPilot, kBoundary, kCrossEntropy, kPattern };
  struct Slot {
    Kind kind;
    int direction;  // -1 for pilot and boundary draws
  };
  Slot SlotOf(long long index) const;
  const std::vector<Elite>& ElitesOf(int direction) const;
  void DrawRoundDirections();
  static bool Offer(std::vector<Elite>* list, size_t size, const Elite& e);
  long long CrossEntropy(const std::vector<Elite>& elites,
                         std::uint64_t index,
                         Eigen::Ref<VectorXd> p) const;
  long long Pattern(const std::vector<Elite>& elites,
                    std::uint64_t index,
                    Eigen::Ref<VectorXd> p) const;
  double Spread() const;

  DirectedOptions options_;
  int m_, n_steps_;
  std::uint64_t seed_;
  long long samples_, pilot_;
  MatrixXd directions_;
  std::vector<std::vector<Elite>> elites_;  // per direction, best first
  std::vector<double> round_start_;         // h_j when the current round began
  std::vector<int> active_;                 // directions of the current round (>= J: round's)
  MatrixXd round_directions_;               // c x R, this round's random directions
  std::vector<std::vector<Elite>> round_elites_;
  std::deque<Elite> archive_;     // former elites, oldest first, at most kDirectedArchive
  MatrixXd archived_y_, values_;  // DrawRoundDirections' workspaces: archive_'s y, their values
  long long begin_ = 0, end_ = 0, boundary_ = 0;
  long long rounds_ = 0;
};

}  // namespace impactset::sampling
