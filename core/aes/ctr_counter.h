// SP 800-38A counter bookkeeping shared by the hardware engines: splits a CTR request into runs within which
// the low 64 bits of the 128-bit big-endian counter do not wrap, so each run can count with plain 64-bit lane
// adds.
//
// Everything here has internal linkage (static): this header is compiled into translation units built for
// different instruction sets (AES-NI, VAES/AVX2), and an external inline function would let the linker keep
// one ISA's copy for all callers, which could execute AVX2 code on a CPU that only has AES-NI.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcrypt::aes::detail {

static inline std::uint64_t load_be64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

static inline void store_be64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

// Calls run(offset, bytes, hi, lo) for consecutive byte ranges of a len-byte CTR request, where (hi, lo) is
// the counter of the range's first block and no range crosses a wrap of lo. Leaves counter at the next unused
// value (a partial final block consumes a whole counter value).
template <class Run>
static void for_each_ctr_run(std::size_t len, std::uint8_t* counter, Run&& run) {
  std::uint64_t hi = load_be64(counter);
  std::uint64_t lo = load_be64(counter + 8);
  std::size_t offset = 0;
  while (offset < len) {
    const std::uint64_t blocks_left = (len - offset + 15) / 16;
    const std::uint64_t until_wrap =
        lo == 0 ? UINT64_MAX : 0 - lo;  // lo == 0: 2^64 blocks, more than any len
    const std::uint64_t blocks = blocks_left < until_wrap ? blocks_left : until_wrap;
    const std::size_t bytes =
        blocks * 16 < len - offset ? static_cast<std::size_t>(blocks * 16) : len - offset;
    run(offset, bytes, hi, lo);
    offset += bytes;
    lo += blocks;
    if (lo == 0) ++hi;
  }
  store_be64(counter, hi);
  store_be64(counter + 8, lo);
}

}  // namespace pcrypt::aes::detail
