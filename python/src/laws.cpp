// The other impact laws (laws/), for comparison with the Routh set: typed results with numpy
// arrays. Velocities default to the problem's v_minus.
#include <optional>

#include <pybind11/stl.h>

#include <impactset/common/error_policy.hpp>
#include <impactset/laws/aghili.hpp>
#include <impactset/laws/anitescu_potra.hpp>
#include <impactset/laws/jia_mason_erdmann.hpp>
#include <impactset/laws/seghete_murphey.hpp>
#include <impactset/laws/sequential.hpp>
#include <impactset/lcp/fallback.hpp>
#include "python/src/bindings.hpp"

namespace impactset::python {
namespace {

// The enum value whose ToString is `name`, else ValueError naming the field and the choices.
template <class E>
E Parse(const std::string& field, const std::string& name, std::initializer_list<E> values) {
  std::string known;
  for (E v : values) {
    if (name == laws::ToString(v)) return v;
    known += (known.empty() ? "" : ", ") + std::string(laws::ToString(v));
  }
  InvalidArgument(field, name, "must be one of " + known);
}

VectorXd VelocityOr(const Problem& p, const py::object& v) {
  return v.is_none() ? p.problem().v_minus() : VectorArg(v, "velocity");
}

template <class T>
std::string Str(T s) {
  return std::string(laws::ToString(s));
}

// Trajectories (v-, v_1, ..., v+) as rows.
py::array_t<double> Rows(const std::vector<VectorXd>& vs, Eigen::Index n) {
  MatrixXd m(n, static_cast<Eigen::Index>(vs.size()));
  for (size_t k = 0; k < vs.size(); ++k) m.col(static_cast<Eigen::Index>(k)) = vs[k];
  return ToPoints(m);
}

// A VectorXd member as a numpy array, with its docstring (`lambda`, a Python keyword, is bound
// as `lambda_`).
#define IMPACTSET_VECTOR(Class, field, doc) \
  def_property_readonly(                    \
      #field, [](const Class& x) { return ToArray(x.field); }, doc)

void BindAnitescuPotra(py::module_& m) {
  using laws::AnitescuPotraOutcome;
  py::class_<AnitescuPotraOutcome>(m, "AnitescuPotraOutcome", R"doc(
One solution of the Anitescu-Potra LCP: v_plus (n), lambda_n (m), lambda_d (m k), gamma (m),
contact_velocity (c); status is the LCP solve's ("solved" or why not: then the arrays are the
solver's last iterate, not an outcome).)doc")
      .IMPACTSET_VECTOR(AnitescuPotraOutcome, v_plus, "(n,) post-impact generalized velocity")
      .IMPACTSET_VECTOR(AnitescuPotraOutcome, lambda_n, "(m,) normal impulses")
      .IMPACTSET_VECTOR(AnitescuPotraOutcome, lambda_d,
                        "(m k,) friction-direction impulses, entries as the rows of problem.D")
      .IMPACTSET_VECTOR(AnitescuPotraOutcome, gamma, "(m,) slip speeds (empty when k = 0)")
      .IMPACTSET_VECTOR(AnitescuPotraOutcome, contact_velocity,
                        "(c,) contact_jacobian @ v_plus: normal, then tangential")
      .def_property_readonly(
          "status",
          [](const AnitescuPotraOutcome& o) { return std::string(lcp::ToString(o.info.status)); },
          "the LCP solve's status: \"solved\", else the arrays are the solver's last iterate");
  py::class_<laws::AnitescuPotraSet>(m, "AnitescuPotraSet", R"doc(
Every distinct Anitescu-Potra outcome by enumeration of complementary bases: status "solved",
"too_large" (LCP above max_size: no outcomes) or "no_solution".)doc")
      .def_property_readonly(
          "status",
          [](const laws::AnitescuPotraSet& s) { return std::string(lcp::ToString(s.status)); },
          "\"solved\" (an outcome at least), \"too_large\" (no outcomes) or \"no_solution\"")
      .def_readonly("outcomes", &laws::AnitescuPotraSet::outcomes,
                    "list of distinct AnitescuPotraOutcome (distinct v_plus), in enumeration order")
      .def_readonly("lcp_solutions", &laws::AnitescuPotraSet::lcp_solutions,
                    "distinct LCP solutions found before merging equal v_plus")
      .def_readonly("bases_tried", &laws::AnitescuPotraSet::bases_tried,
                    "complementary bases (index sets) the enumeration tried");
  m.def(
      "anitescu_potra",
      [](const Problem& p, py::object velocity, const std::string& lcp) {
        const auto solver = lcp::MakeSolver(lcp::ParseSolverKind(lcp));
        return laws::SolveAnitescuPotra(p.problem(), VelocityOr(p, velocity), solver.get());
      },
      py::arg("problem"), py::arg("velocity") = py::none(), py::arg("lcp") = "chain",
      "One solution of the Anitescu-Potra law at velocity (default v_minus), the solver's choice.");
  m.def(
      "anitescu_potra_all",
      [](const Problem& p, py::object velocity, double distinct_tolerance, int max_size) {
        laws::AnitescuPotraAllOptions o;
        o.distinct_tolerance = distinct_tolerance;
        o.enumeration.max_size = max_size;
        return laws::AllAnitescuPotraOutcomes(p.problem(), VelocityOr(p, velocity), o);
      },
      py::arg("problem"), py::arg("velocity") = py::none(), py::arg("distinct_tolerance") = 1e-7,
      py::arg("max_size") = 20, R"doc(
Every distinct solution of the Anitescu-Potra law (enumeration of complementary bases; LCP size
m (k + 2) at most max_size), merged when v_plus agrees to distinct_tolerance (relative).)doc");
}

void BindSequential(py::module_& m) {
  using laws::SequentialOutcome;
  py::class_<SequentialOutcome>(m, "SequentialOutcome", R"doc(
One sequence of single-contact impacts: ordering (contacts resolved cyclically), status
"terminated", "impact_cap" or "lcp_failure", v_plus, contact_velocity, single_impacts,
energy_ratio, and with keep_trajectory the velocities after every impact (rows, v- first).)doc")
      .def_readonly("ordering", &SequentialOutcome::ordering,
                    "contacts in the order resolved, cyclically: impact j hits ordering[j % m]")
      .def_property_readonly(
          "status", [](const SequentialOutcome& o) { return Str(o.status); },
          "\"terminated\" (v_plus is the outcome), \"impact_cap\" or \"lcp_failure\"")
      .IMPACTSET_VECTOR(SequentialOutcome, v_plus, "(n,) final generalized velocity")
      .IMPACTSET_VECTOR(SequentialOutcome, contact_velocity,
                        "(c,) contact_jacobian @ v_plus: normal, then tangential")
      .def_readonly("single_impacts", &SequentialOutcome::single_impacts,
                    "single-contact LCP solves (turns of contacts not colliding count too)")
      .def_readonly("worst_residual", &SequentialOutcome::worst_residual,
                    "largest LCP residual over the single-contact solves")
      .def_readonly("energy_ratio", &SequentialOutcome::energy_ratio,
                    "KE(v_plus) / KE(v-) (1 when KE(v-) = 0)")
      .def_property_readonly(
          "trajectory",
          [](const SequentialOutcome& o) { return Rows(o.trajectory, o.v_plus.size()); },
          "(T, n) v-, then the velocity after each accepted impact (keep_trajectory; else "
          "no rows)");
  m.def(
      "sequential",
      [](const Problem& p, std::optional<std::vector<int>> ordering, int max_impacts,
         double termination_tolerance, bool all_orderings, int max_permuted_contacts,
         bool keep_trajectory) {
        laws::SequentialOptions o;
        o.max_impacts = max_impacts;
        o.termination_tolerance = termination_tolerance;
        o.all_orderings = all_orderings;
        o.max_permuted_contacts = max_permuted_contacts;
        o.keep_trajectory = keep_trajectory;
        if (ordering) {
          return std::vector<SequentialOutcome>{
              laws::ResolveSequentially(p.problem(), *ordering, nullptr, o)};
        }
        return laws::SequentialOutcomes(p.problem(), nullptr, o);
      },
      py::arg("problem"), py::kw_only(), py::arg("ordering") = py::none(),
      py::arg("max_impacts") = 10, py::arg("termination_tolerance") = 2.220446e-6,
      py::arg("all_orderings") = true, py::arg("max_permuted_contacts") = 4,
      py::arg("keep_trajectory") = false, R"doc(
Sequential single-contact resolution (the authors' staged law): every ordering (the m cyclic
ones, then with all_orderings every permutation when m <= max_permuted_contacts), or just the
given ordering. Returns a list of SequentialOutcome.)doc");
}

void BindSegheteMurpheyTypes(py::module_& m) {
  using laws::PropagativeResult;
  py::class_<PropagativeResult>(m, "PropagativeResult", R"doc(
One Seghete-Murphey propagation: status "feasible", "reflection_cap" or "sequence_exhausted",
v_plus, contact_velocity, sequence (contacts reflected over), lambda_ (per contact),
reflections, residual, energy_ratio.)doc")
      .def_property_readonly(
          "status", [](const PropagativeResult& r) { return Str(r.status); },
          "\"feasible\" (v_plus is the outcome), \"reflection_cap\" or \"sequence_exhausted\"")
      .IMPACTSET_VECTOR(PropagativeResult, v_plus,
                        "(n,) velocity after the reflections (an outcome only when feasible)")
      .IMPACTSET_VECTOR(PropagativeResult, contact_velocity,
                        "(c,) contact_jacobian @ v_plus: normal, then tangential")
      .def_property_readonly(
          "lambda_", [](const PropagativeResult& x) { return ToArray(x.lambda); },
          "(m,) per-contact sum of the single impacts' multipliers: "
          "v_plus = v- + M^-1 Jn.T @ lambda_")
      .def_readonly("sequence", &PropagativeResult::sequence,
                    "the contacts reflected over, in order")
      .def_readonly("reflections", &PropagativeResult::reflections,
                    "single impacts applied: len(sequence)")
      .def_readonly("admissible", &PropagativeResult::admissible,
                    "every single impact was over a contact colliding at its turn, none after a "
                    "feasible velocity")
      .def_readonly("residual", &PropagativeResult::residual,
                    "approach left: max(0, -min_i (Jn v_plus)_i / sqrt(G_ii)) / sqrt(v-.T M v-), "
                    "G = Jn M^-1 Jn.T (0: no contact collides)")
      .def_readonly("energy_ratio", &PropagativeResult::energy_ratio,
                    "KE(v_plus) / KE(v-) (1 when KE(v-) = 0)");
  using laws::PropagativeOutcome;
  py::class_<PropagativeOutcome>(m, "PropagativeOutcome",
                                 "One distinct outcome of the propagative law and its orderings.")
      .IMPACTSET_VECTOR(PropagativeOutcome, v_plus,
                        "(n,) post-impact generalized velocity (of the first sequence found)")
      .IMPACTSET_VECTOR(PropagativeOutcome, contact_velocity,
                        "(c,) contact_jacobian @ v_plus: normal, then tangential")
      .def_property_readonly(
          "lambda_", [](const PropagativeOutcome& x) { return ToArray(x.lambda); },
          "(m,) per-contact multipliers of the first sequence found "
          "(as PropagativeResult.lambda_)")
      .def_readonly("sequences", &PropagativeOutcome::sequences,
                    "contact sequences giving this outcome, in search order (at most 64 kept)")
      .def_readonly("sequence_count", &PropagativeOutcome::sequence_count,
                    "all sequences giving this outcome")
      .def_readonly("min_reflections", &PropagativeOutcome::min_reflections,
                    "length of the shortest sequence giving this outcome")
      .def_readonly("max_reflections", &PropagativeOutcome::max_reflections,
                    "length of the longest sequence giving this outcome")
      .def_readonly("residual", &PropagativeOutcome::residual,
                    "feasibility residual of the first sequence (as PropagativeResult.residual)")
      .def_readonly("energy_ratio", &PropagativeOutcome::energy_ratio, "KE(v_plus) / KE(v-)");
  using laws::PropagativeOutcomeSet;
  py::class_<PropagativeOutcomeSet>(m, "PropagativeOutcomeSet", R"doc(
Every admissible ordering's outcome: status "complete", "reflection_cap" or "sequence_cap" (the
set may be incomplete), the distinct outcomes, and counts.)doc")
      .def_property_readonly(
          "status", [](const PropagativeOutcomeSet& s) { return Str(s.status); },
          "\"complete\", \"reflection_cap\" (some branch did not terminate) or \"sequence_cap\" "
          "(the set may be incomplete)")
      .def_readonly("outcomes", &PropagativeOutcomeSet::outcomes,
                    "list of distinct PropagativeOutcome, in search order (lower contacts first)")
      .def_readonly("feasible_sequences", &PropagativeOutcomeSet::feasible_sequences,
                    "terminated sequences kept, over all outcomes")
      .def_readonly("capped_sequences", &PropagativeOutcomeSet::capped_sequences,
                    "branches that hit max_reflections")
      .def_readonly("forced_choice", &PropagativeOutcomeSet::forced_choice,
                    "at most one contact collided at every node explored: a single ordering")
      .def_readonly("nodes", &PropagativeOutcomeSet::nodes,
                    "single impacts applied over the whole search tree");
  using laws::PlasticResult;
  py::class_<PlasticResult>(m, "PlasticResult", R"doc(
The simultaneous plastic law: mode "cone" (the frictionless impact LCP) or "equality" (the
paper's equality projection, may be adhesive); status "solved" or "lcp_failure".)doc")
      .def_property_readonly(
          "mode", [](const PlasticResult& r) { return Str(r.mode); },
          "\"cone\" (frictionless impact LCP) or \"equality\" (the paper's projection)")
      .def_property_readonly(
          "status", [](const PlasticResult& r) { return Str(r.status); },
          "\"solved\" (v_plus is the outcome) or \"lcp_failure\" (cone only)")
      .IMPACTSET_VECTOR(PlasticResult, v_plus, "(n,) post-impact generalized velocity")
      .def_property_readonly(
          "lambda_", [](const PlasticResult& x) { return ToArray(x.lambda); },
          "(m,) normal impulses: v_plus = v- + M^-1 Jn.T @ lambda_ (may be < 0 in equality mode)")
      .IMPACTSET_VECTOR(PlasticResult, contact_velocity,
                        "(c,) contact_jacobian @ v_plus: normal, then tangential")
      .def_readonly("adhesive", &PlasticResult::adhesive,
                    "some lambda_ < 0 (possible in mode \"equality\" only)")
      .def_readonly("residual", &PlasticResult::residual,
                    "cone: the LCP residual; equality: max |(Jn v_plus)_i| over the constrained "
                    "contacts / max(1, |Jn v-|_inf)")
      .def_readonly("energy_ratio", &PlasticResult::energy_ratio,
                    "KE(v_plus) / KE(v-) (1 when KE(v-) = 0)");
}

void BindSegheteMurpheyFunctions(py::module_& m) {
  m.def(
      "propagative",
      [](const Problem& p, py::object velocity, const std::string& policy, double e,
         std::vector<int> fixed_order, std::vector<int> user_sequence, std::uint64_t seed,
         int first_contact, int max_reflections) {
        using P = laws::OrderingPolicy;
        laws::PropagativeOptions o;
        o.policy = Parse(
            "policy", policy,
            {P::kMostViolated, P::kLeastViolated, P::kFixedOrder, P::kRandom, P::kUserSequence});
        o.e = e;
        o.fixed_order = std::move(fixed_order);
        o.user_sequence = std::move(user_sequence);
        o.seed = seed;
        o.first_contact = first_contact;
        o.max_reflections = max_reflections;
        return laws::ResolvePropagative(p.problem(), VelocityOr(p, velocity), o);
      },
      py::arg("problem"), py::arg("velocity") = py::none(), py::kw_only(),
      py::arg("policy") = "most_violated", py::arg("e") = 1.0,
      py::arg("fixed_order") = std::vector<int>{}, py::arg("user_sequence") = std::vector<int>{},
      py::arg("seed") = 1, py::arg("first_contact") = -1, py::arg("max_reflections") = 1000,
      R"doc(
Seghete & Murphey's propagative law (frictionless): single impacts over one colliding contact at
a time, chosen by policy ("most_violated", "least_violated", "fixed_order", "random",
"user_sequence"), with per-impact energetic restitution e in [0, 1].)doc");
  m.def(
      "propagative_outcomes",
      [](const Problem& p, py::object velocity, double e, long long max_sequences,
         int max_reflections, bool minimal_only) {
        laws::PropagativeEnumerationOptions o;
        o.e = e;
        o.max_sequences = max_sequences;
        o.max_reflections = max_reflections;
        o.minimal_only = minimal_only;
        return laws::EnumeratePropagative(p.problem(), VelocityOr(p, velocity), o);
      },
      py::arg("problem"), py::arg("velocity") = py::none(), py::kw_only(), py::arg("e") = 1.0,
      py::arg("max_sequences") = 100000, py::arg("max_reflections") = 1000,
      py::arg("minimal_only") = false,
      "Every admissible ordering of the propagative law and its distinct outcomes.");
  m.def(
      "plastic",
      [](const Problem& p, py::object velocity, const std::string& mode) {
        const laws::PlasticMode mm =
            Parse("mode", mode, {laws::PlasticMode::kCone, laws::PlasticMode::kEquality});
        return laws::ResolvePlastic(p.problem(), VelocityOr(p, velocity), mm);
      },
      py::arg("problem"), py::arg("velocity") = py::none(), py::arg("mode") = "cone",
      "The simultaneous plastic law of Seghete & Murphey (frictionless).");
}

void BindAghiliAndJme(py::module_& m) {
  using laws::AghiliResult;
  py::class_<AghiliResult>(m, "AghiliResult", R"doc(
Aghili's projection-operator law (frictionless, closed form): status "solved", "projected_law"
or "ill_conditioned"; v_plus, contact_velocity, impulse (may be adhesive: `adhesive` lists
those contacts), energy_ratio, energy_gain, rank.)doc")
      .def_property_readonly(
          "status", [](const AghiliResult& r) { return std::string(laws::ToString(r.status)); },
          "\"solved\", \"projected_law\" (least-squares law, rank-deficient A) or "
          "\"ill_conditioned\" (v_plus not to be trusted)")
      .IMPACTSET_VECTOR(AghiliResult, v_plus, "(n,) post-impact generalized velocity")
      .IMPACTSET_VECTOR(AghiliResult, contact_velocity,
                        "(m,) A @ v_plus, A = Jn with the rows of contacts separating at v- zeroed")
      .IMPACTSET_VECTOR(
          AghiliResult, impulse,
          "(m,) contact impulses, the minimum-norm split of generalized_impulse (< 0: adhesive)")
      .IMPACTSET_VECTOR(AghiliResult, generalized_impulse,
                        "(n,) A.T @ impulse: v_plus = v- + M^-1 generalized_impulse")
      .def_readonly("energy_ratio", &AghiliResult::energy_ratio,
                    "KE(v_plus) / KE(v-) (1 when KE(v-) = 0)")
      .def_readonly("energy_gain", &AghiliResult::energy_gain,
                    "KE(v_plus) - KE(v-) above the energy tolerance (1e-9 relative): energy gained")
      .def_readonly("adhesive", &AghiliResult::adhesive,
                    "indices of the contacts whose impulse is negative beyond tolerance")
      .def_readonly(
          "residual", &AghiliResult::residual,
          "misfit of the restitution law: |A v_plus + A pinv(A) E A v-|_inf / max(1, |A v-|_inf)")
      .def_readonly("rank", &AghiliResult::rank,
                    "rank of A (the active rows of Jn) under rank_tolerance");
  m.def(
      "aghili",
      [](const Problem& p, double e, py::object per_contact, py::object matrix,
         double rank_tolerance) {
        laws::AghiliRestitution r;
        r.e = e;
        if (!per_contact.is_none()) r.per_contact = VectorArg(per_contact, "per_contact");
        if (!matrix.is_none()) r.matrix = MatrixArg(matrix, "matrix");
        laws::AghiliOptions o;
        o.rank_tolerance = rank_tolerance;
        return laws::AghiliImpact(p.problem(), r, o);
      },
      py::arg("problem"), py::kw_only(), py::arg("e") = 0.0, py::arg("per_contact") = py::none(),
      py::arg("matrix") = py::none(), py::arg("rank_tolerance") = 1e-10, R"doc(
Aghili's law with global restitution e, per-contact coefficients (m,) or a full matrix
(m, m).)doc");

  using laws::JmeResult;
  py::class_<JmeResult>(m, "JiaMasonErdmannResult", R"doc(
Jia, Mason & Erdmann's state-transition multiple-impact model (frictionless): status
"terminated", "state_limit" or "step_limit"; impulse (m), normal_velocity (m), v_plus,
contact_velocity, states (active sets in order), stiffness (final), steps; with record_trace
trace_impulse and trace_energy (one row per RK4 step).)doc")
      .def_property_readonly(
          "status", [](const JmeResult& r) { return Str(r.status); },
          "\"terminated\" (no active contact left), \"state_limit\" or \"step_limit\" (the "
          "state at that point)")
      .IMPACTSET_VECTOR(JmeResult, impulse, "(m,) normal impulses (>= 0)")
      .IMPACTSET_VECTOR(JmeResult, normal_velocity,
                        "(m,) post-impact normal velocities Jn @ v_plus")
      .IMPACTSET_VECTOR(JmeResult, v_plus,
                        "(n,) post-impact generalized velocity v- + M^-1 Jn.T @ impulse")
      .IMPACTSET_VECTOR(JmeResult, contact_velocity,
                        "(c,) contact_jacobian @ v_plus: normal, then tangential")
      .IMPACTSET_VECTOR(JmeResult, stiffness,
                        "(m,) final spring stiffnesses (initial / e_i^2 per end of compression)")
      .def_readonly("states", &JmeResult::states,
                    "active sets (lists of contacts) in order; [] appended when the collision ends")
      .def_readonly("steps", &JmeResult::steps, "RK4 steps")
      .def_readonly("energy_lost", &JmeResult::energy_lost,
                    "energy dissipated at ends of compression and locks")
      .def_readonly(
          "residual", &JmeResult::residual,
          "energy audit |dKE + energy_lost + strain energy left| (0 up to integration error)")
      .def_property_readonly(
          "trace_impulse", [](const JmeResult& r) { return ToPoints(r.trace_impulse); },
          "(T, m) normal impulses after each RK4 step (record_trace; else empty)")
      .def_property_readonly(
          "trace_energy", [](const JmeResult& r) { return ToPoints(r.trace_energy); },
          "(T, m) each contact's strain energy after each RK4 step (record_trace; else empty)");
  m.def(
      "jia_mason_erdmann",
      [](const Problem& p, py::object stiffness, py::object restitution, double default_restitution,
         double step_fraction, bool record_trace) {
        laws::JmeOptions o;
        if (!stiffness.is_none()) o.stiffness = VectorArg(stiffness, "stiffness");
        if (!restitution.is_none()) o.restitution = VectorArg(restitution, "restitution");
        o.default_restitution = default_restitution;
        o.step_fraction = step_fraction;
        o.record_trace = record_trace;
        py::gil_scoped_release release;
        return laws::SolveJiaMasonErdmann(p.problem(), o);
      },
      py::arg("problem"), py::kw_only(), py::arg("stiffness") = py::none(),
      py::arg("restitution") = py::none(), py::arg("default_restitution") = 0.0,
      py::arg("step_fraction") = 0.01, py::arg("record_trace") = false, R"doc(
Jia, Mason & Erdmann's model with per-contact stiffness (m,) (only ratios matter; default all 1)
and energetic restitution (m,) (default default_restitution; 0 = plastic).)doc");
}

}  // namespace

void BindLaws(py::module_& m) {
  BindAnitescuPotra(m);
  BindSequential(m);
  BindSegheteMurpheyTypes(m);
  BindSegheteMurpheyFunctions(m);
  BindAghiliAndJme(m);
}

}  // namespace impactset::python
