#pragma once
// IMPACTSET_AVX2_CLONES before a function whose loops vectorise: GCC compiles it twice (AVX2 and
// the baseline) and picks one when the program loads. Neither copy may use FMA (the avx2 target
// alone has none, and the project builds with -ffp-contract=off), and the vectorised loops are
// element-wise or keep each sum's order, so both copies round every operation alike: results are
// bit for bit the same on every x86-64 machine.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define IMPACTSET_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define IMPACTSET_AVX2_CLONES
#endif
