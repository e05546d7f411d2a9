#pragma once
// Seghete & Murphey's propagative impact law (docs/seghete-murphey.md; [S-J] = Seghete & Murphey,
// "A propagative model of simultaneous impact", IEEE T-ASE 2014; [S-C] = their ICRA 2012 paper).
//
// Public API (stable; one header per part, all in namespace impactset::laws):
//   seghete_murphey_maps.hpp         Cometric (Gram matrix, g-unit normals, cosines s_ij),
//                                    ReflectionMatrix (Gamma, Gamma_e), ReflectOverContact,
//                                    ResolvePlastic (cone / equality), BlendAlpha, BlendOutcome
//   seghete_murphey_resolver.hpp     ResolvePropagative(problem, [v-], PropagativeOptions):
//                                    one ordering (policy: most/least violated, fixed, random,
//                                    user sequence) -> PropagativeResult {status, v_plus,
//                                    contact_velocity, sequence, step_multipliers, lambda, ...}
//   seghete_murphey_enumeration.hpp  EnumeratePropagative: every admissible ordering, distinct
//                                    outcomes (PropagativeOutcomeSet); IsMinimalSequence;
//                                    Tight/PaperReflectionBound
//   seghete_murphey_diagnostics.hpp  DiagnoseUniqueness (cosines, orthogonality, s = -cos(pi/k),
//                                    theorems, outcome count), MeasureUnpredictability (xi and
//                                    per-pair measures), OrderingDiscrepancy (xi_ab, e.g. the
//                                    billiard's xi(theta))
//
// Conventions: velocity form (v+ = Gamma v-), contact normals = rows of ImpactProblem::Jn,
// metric = M^-1; frictionless (D and mu ignored). Corrections to the papers are in
// docs/seghete-murphey.md: all contacts are candidates ([S-J] §III), cone plastic by default with
// the paper's equality projection as an option, blend alpha = R by default with the paper's
// sqrt(1 - R^2) as an option.
#include <impactset/laws/seghete_murphey_diagnostics.hpp>
#include <impactset/laws/seghete_murphey_enumeration.hpp>
#include <impactset/laws/seghete_murphey_maps.hpp>
#include <impactset/laws/seghete_murphey_resolver.hpp>
