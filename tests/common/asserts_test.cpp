// The libraries these tests link must have their internal invariants armed (IMPACTSET_ASSERT,
// common/error_policy.hpp): a test binary defines IMPACTSET_ENABLE_ASSERTS for its own code only,
// so without these checks a library built with the asserts compiled out would pass unnoticed.
#include <impactset/common/error_policy.hpp>

#include <gtest/gtest.h>

#include <impactset/impact/algorithm1.hpp>
#include <impactset/impact/p_source.hpp>
#include <impactset/lcp/lemke.hpp>

namespace impactset {
namespace {

TEST(Asserts, ArmedInTheLinkedLibrary) {
  EXPECT_TRUE(internal::AssertsArmedInLibrary())
      << "impactset_common was built with IMPACTSET_ASSERT compiled out: configure with "
         "-DIMPACTSET_ENABLE_ASSERTS=ON";
}

// A PSource breaking its contract (every p in [0, 1]) reaches Algorithm 1's invariant check in
// impact/algorithm1.cpp: with the library's asserts armed the process aborts naming it.
class OutOfRangeP final : public impact::PSource {
 public:
  void Next(int /*step*/, Eigen::Ref<VectorXd> p) override { p.setConstant(2.0); }
};

TEST(AssertsDeathTest, BrokenInvariantInsideALibraryAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  MatrixXd M = MatrixXd::Identity(2, 2);
  MatrixXd Jn(1, 2), Jf(1, 2);
  Jn << 0, 1;
  Jf << 1, 0;
  const VectorXd v = (VectorXd(2) << 0.0, -1.0).finished();  // falling onto the floor
  const auto problem = impact::ImpactProblem::Planar(M, Jn, Jf, VectorXd::Constant(1, 0.5), v);
  impact::Algorithm1Options options;
  options.selection = impact::Selection::kFirst;
  lcp::LemkeSolver solver;
  impact::RouthSampler sampler(problem, options, &solver);
  OutOfRangeP bad;
  EXPECT_DEATH(sampler.Run(bad), "impactset internal invariant violated: p_.minCoeff");
}

}  // namespace
}  // namespace impactset
