// <immintrin.h> for the AVX-512 translation units (VAES with 512-bit registers).
// GCC 12 reports its own AVX-512 intrinsics' deliberately undefined registers (_mm512_undefined_epi32) as
// uninitialized once they are inlined here (GCC bug 105593, fixed in GCC 13); the false positive is confined
// to the header's lines.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
