#pragma once
// Shards of one run joined into the run (docs/cluster.md): the exact union of disjoint sample
// ranges, checked to belong together.
#include <vector>

#include <impactset/engine/run.hpp>

namespace impactset::engine {

/// Joins the results of all shards of one run (any order) into the result a single run with the
/// same options produces. Nets are greedy in sample order, so they are rebuilt exactly from the
/// kept samples (post-impact nets) and kept trajectories (reachable nets); without them a net is
/// the union of the shard nets (NetConstruction::kUnionOfShardNets: within its epsilon of every
/// point, but not the single run's net). Coverage is recomputed.
/// @throws std::invalid_argument naming the first field in which two shards differ, a missing or
///         repeated shard, or a gap between shards.
RunResult Merge(std::vector<RunResult> shards);

}  // namespace impactset::engine
