#pragma once
// IMPACTSET_SIMD_CLONES before a function whose loops vectorise: GCC compiles it three times
// (x86-64-v4, AVX2 and the baseline) and picks one when the program loads. The x86-64-v4 copy
// keeps four-double vectors but may use AVX-512's 32 vector registers and mask instructions (the
// AVX2 copy of the Lemke path reads constants back from the stack): about 10 % faster on 25 x 25
// step LCPs.
// No copy fuses a multiply and an add (the project builds with -ffp-contract=off), and the
// vectorised loops are element-wise or keep each sum's order, so every copy rounds every
// operation alike: results are bit for bit the same on every x86-64 machine.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define IMPACTSET_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define IMPACTSET_SIMD_CLONES
#endif

#include <cstring>

namespace impactset::simd {

/// Four doubles in one AVX2 register (GCC's vector extension; the baseline copy uses two SSE2
/// registers). Element-wise operations round exactly as the scalar ones.
typedef double Double4 __attribute__((vector_size(32)));
typedef long long Long4 __attribute__((vector_size(32)));

/// Forces inlining into the caller, so that loops of an IMPACTSET_SIMD_CLONES caller are compiled
/// for its target.
#define IMPACTSET_ALWAYS_INLINE __attribute__((always_inline)) inline

/// Unaligned load and store of four doubles.
static IMPACTSET_ALWAYS_INLINE Double4 Load4(const double* p) {
  Double4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
static IMPACTSET_ALWAYS_INLINE void Store4(double* p, const Double4& v) {
  std::memcpy(p, &v, sizeof v);
}

/// std::abs of each entry: clears the sign bit (so -0 gives +0, as std::abs does).
static IMPACTSET_ALWAYS_INLINE Double4 Abs4(const Double4& v) {
  constexpr long long kMagnitude = 0x7fffffffffffffffLL;
  const Long4 mask = {kMagnitude, kMagnitude, kMagnitude, kMagnitude};
  return reinterpret_cast<Double4>(reinterpret_cast<Long4>(v) & mask);
}

}  // namespace impactset::simd
