//===- Philox.h - Philox4x32-10 counter-based random numbers ----*- C++ -*-===//
//
// The reference implementation of the random stream of the tp random ops
// (TpRandomOps.td): Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel
// random numbers: as easy as 1, 2, 3", SC 2011; the `philox4x32` of
// Random123 with 10 rounds) and the bit-exact conversions of its words to
// uniform numbers. A code generator reproduces the interpreter by following
// these functions.
//
//===----------------------------------------------------------------------===//
#ifndef STAX_INTERPRETER_PHILOX_H
#define STAX_INTERPRETER_PHILOX_H

#include <array>
#include <cstdint>
#include <utility>

namespace mlir::stax::philox {

using Block = std::array<uint32_t, 4>;
using Key = std::array<uint32_t, 2>;

inline constexpr uint32_t kMultiplier0 = 0xD2511F53u;
inline constexpr uint32_t kMultiplier1 = 0xCD9E8D57u;
inline constexpr uint32_t kWeyl0 = 0x9E3779B9u; // golden ratio
inline constexpr uint32_t kWeyl1 = 0xBB67AE85u; // sqrt(3) - 1

/// Philox4x32 with `rounds` rounds (10 is the standard, crush-resistant
/// choice) of counter `ctr` under `key`.
Block philox4x32(Block ctr, Key key, unsigned rounds = 10);

/// The key of a seed: (lo32(seed), hi32(seed)).
inline Key keyFromSeed(uint64_t seed) {
  return {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
}
/// The counter of block index b: (lo32(b), hi32(b), 0, 0).
inline Block counterFromIndex(uint64_t b) {
  return {static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32), 0u, 0u};
}

/// The word stream of one random op: word j is output word j % 4 of
/// philox4x32(counterFromIndex(offset + counter + j / 4), keyFromSeed(seed))
/// (index arithmetic mod 2^64). Caches the last block.
class Stream {
public:
  Stream(uint64_t seed, uint64_t offset, uint64_t counter)
      : key(keyFromSeed(seed)), base(offset + counter) {}

  uint32_t word(uint64_t j) {
    uint64_t b = j / 4;
    if (!valid || b != cachedIndex) {
      cached = philox4x32(counterFromIndex(base + b), key);
      cachedIndex = b;
      valid = true;
    }
    return cached[j % 4];
  }
  /// Double word j: word 2j | word 2j+1 << 32.
  uint64_t dword(uint64_t j) {
    uint64_t lo = word(2 * j);
    return lo | static_cast<uint64_t>(word(2 * j + 1)) << 32;
  }

private:
  Key key;
  uint64_t base;
  bool valid = false;
  uint64_t cachedIndex = 0;
  Block cached{};
};

/// (w >> (32 - bits)) * 2^-bits: uniform in [0, 1) on a grid of 2^-bits,
/// exactly representable in a float type with `bits` mantissa bits
/// (1 <= bits <= 32).
inline double uniformFromWord(uint32_t w, unsigned bits) {
  return static_cast<double>(w >> (32 - bits)) /
         static_cast<double>(uint64_t(1) << bits);
}
/// (d >> 11) * 2^-53: uniform in [0, 1), exact in f64.
inline double uniformFromDword(uint64_t d) {
  return static_cast<double>(d >> 11) * 0x1.0p-53;
}

/// Box-Muller in f64: (r cos t, r sin t) with r = sqrt(-2 log u1),
/// t = 2 pi u2, for u1 in (0, 1] and u2 in [0, 1).
std::pair<double, double> boxMuller(double u1, double u2);

} // namespace mlir::stax::philox

#endif // STAX_INTERPRETER_PHILOX_H
