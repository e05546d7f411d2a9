#include <impactset/compare/internal/seghete_murphey.hpp>

#include <cstdio>

namespace impactset::compare::internal {
namespace {

laws::PropagativeEnumerationOptions Enumeration(const CompareOptions& o, double e) {
  laws::PropagativeEnumerationOptions options;
  options.e = e;
  options.max_sequences = o.seghete_murphey_max_sequences;
  return options;
}

SegheteMurpheySetting Propagative(const impact::ImpactProblem& p,
                                  const CompareOptions& o,
                                  double e,
                                  std::string label) {
  SegheteMurpheySetting s;
  s.label = std::move(label);
  s.law = SegheteMurpheyLaw::kPropagative;
  s.e = e;
  s.enumeration = laws::EnumeratePropagative(p, p.v_minus(), Enumeration(o, e));
  return s;
}

SegheteMurpheySetting Plastic(const impact::ImpactProblem& p,
                              laws::PlasticMode mode,
                              std::string label) {
  SegheteMurpheySetting s;
  s.label = std::move(label);
  s.law = SegheteMurpheyLaw::kPlastic;
  s.mode = mode;
  s.plastic = laws::ResolvePlastic(p, p.v_minus(), mode);
  return s;
}

// [S-J] eq. (17): R v_e + (1 - R) v_p per elastic outcome (alpha = R), with the cone plastic
// outcome as v_p.
SegheteMurpheySetting Blend(const impact::ImpactProblem& p, const CompareOptions& o) {
  SegheteMurpheySetting s;
  const double R = o.seghete_murphey_blend_ratio;
  char label[48];
  std::snprintf(label, sizeof label, "blend R=%g", R);
  s.label = label;
  s.law = SegheteMurpheyLaw::kBlend;
  s.blend_ratio = R;
  s.enumeration = laws::EnumeratePropagative(p, p.v_minus(), Enumeration(o, 1.0));
  s.plastic = laws::ResolvePlastic(p, p.v_minus());
  if (s.plastic.status != laws::PlasticStatus::kSolved) return s;
  const double ke = p.KineticEnergy(p.v_minus());
  for (size_t i = 0; i < s.enumeration.outcomes.size(); ++i) {
    BlendedOutcome b;
    b.v_plus = laws::BlendOutcome(s.enumeration.outcomes[i].v_plus, s.plastic.v_plus, R);
    b.contact_velocity = p.ContactJacobian() * b.v_plus;
    b.energy_ratio = ke > 0 ? p.KineticEnergy(b.v_plus) / ke : 1.0;
    b.elastic = static_cast<int>(i);
    s.blended.push_back(std::move(b));
  }
  return s;
}

}  // namespace

SegheteMurpheyComparison RunSegheteMurphey(const impact::ImpactProblem& p,
                                           const CompareOptions& o) {
  SegheteMurpheyComparison c;
  c.options = Enumeration(o, 1.0);
  c.settings.push_back(Propagative(p, o, 1.0, "elastic e=1"));
  c.settings.push_back(Propagative(p, o, 0.0, "plastic e=0 propagative"));
  c.settings.push_back(Plastic(p, laws::PlasticMode::kCone, "plastic e=0 cone"));
  c.settings.push_back(
      Plastic(p, laws::PlasticMode::kEquality, "plastic e=0 equality (paper-literal)"));
  c.settings.push_back(Blend(p, o));
  return c;
}

}  // namespace impactset::compare::internal
