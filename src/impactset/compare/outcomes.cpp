#include <impactset/compare/outcomes.hpp>

#include <cstdio>

namespace impactset::compare {
namespace {

// KE(v) / KE(v-), 1 when KE(v-) = 0 (the laws' own convention).
double EnergyRatio(const impact::ImpactProblem& p, const VectorXd& v) {
  const double ke = p.KineticEnergy(p.v_minus());
  return ke > 0 ? p.KineticEnergy(v) / ke : 1.0;
}

std::string Ordering(const std::vector<int>& ordering) {
  std::string text = "order";
  for (int c : ordering) {
    text += ' ';
    text += std::to_string(c);
  }
  return text;
}

void AddSegheteMurphey(const SegheteMurpheyComparison& c, std::vector<Outcome>* out) {
  const Law law = Law::kSegheteMurphey;
  for (const SegheteMurpheySetting& s : c.settings) {
    switch (s.law) {
      case SegheteMurpheyLaw::kPropagative:
        for (const laws::PropagativeOutcome& o : s.enumeration.outcomes) {
          out->push_back(
              {law, s.label, "feasible", true, o.v_plus, o.contact_velocity, o.energy_ratio});
        }
        break;
      case SegheteMurpheyLaw::kPlastic:
        out->push_back({law, s.label, std::string(laws::ToString(s.plastic.status)),
                        s.plastic.status == laws::PlasticStatus::kSolved, s.plastic.v_plus,
                        s.plastic.contact_velocity, s.plastic.energy_ratio});
        break;
      case SegheteMurpheyLaw::kBlend:
        for (const BlendedOutcome& b : s.blended) {
          out->push_back(
              {law, s.label, "feasible", true, b.v_plus, b.contact_velocity, b.energy_ratio});
        }
        break;
    }
  }
}

void AddPointLaws(const impact::ImpactProblem& p,
                  const CompareResult& r,
                  std::vector<Outcome>* out) {
  if (r.compliant) {
    for (const CompliantRun& run : r.compliant->runs) {
      const simulators::CompliantResult& x = run.result;
      out->push_back({Law::kCompliant, run.label, std::string(simulators::ToString(x.status)),
                      x.terminated(), x.v_plus, x.contact_velocity, x.energy_ratio});
    }
  }
  if (r.aghili) {
    for (const AghiliRun& run : r.aghili->runs) {
      char setting[32];
      std::snprintf(setting, sizeof setting, "e=%g", run.e);
      const laws::AghiliResult& x = run.result;
      out->push_back({Law::kAghili, setting, laws::ToString(x.status),
                      x.status != laws::AghiliStatus::kIllConditioned, x.v_plus,
                      run.contact_velocity, x.energy_ratio});
    }
  }
  if (r.seghete_murphey) AddSegheteMurphey(*r.seghete_murphey, out);
  if (r.jia_mason_erdmann) {
    for (const JiaMasonErdmannRun& run : r.jia_mason_erdmann->runs) {
      const laws::JmeResult& x = run.result;
      out->push_back({Law::kJiaMasonErdmann, run.label, std::string(laws::ToString(x.status)),
                      x.terminated(), x.v_plus, x.contact_velocity, EnergyRatio(p, x.v_plus)});
    }
  }
}

}  // namespace

std::vector<Outcome> Outcomes(const impact::ImpactProblem& problem, const CompareResult& result) {
  std::vector<Outcome> out;
  if (result.anitescu_potra) {
    for (const laws::AnitescuPotraOutcome& o : result.anitescu_potra->outcomes) {
      out.push_back({Law::kAnitescuPotra, "", std::string(lcp::ToString(o.info.status)),
                     o.info.ok(), o.v_plus, o.contact_velocity, EnergyRatio(problem, o.v_plus)});
    }
  }
  if (result.sequential) {
    for (const laws::SequentialOutcome& o : *result.sequential) {
      out.push_back({Law::kSequential, Ordering(o.ordering), std::string(laws::ToString(o.status)),
                     o.status == laws::SequenceStatus::kTerminated, o.v_plus, o.contact_velocity,
                     o.energy_ratio});
    }
  }
  AddPointLaws(problem, result, &out);
  return out;
}

}  // namespace impactset::compare
