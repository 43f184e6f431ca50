//===- Philox.cpp - Philox4x32-10 ------------------------------------------===//

#include "Stax/Interpreter/Philox.h"
#include <cmath>

using namespace mlir;

using namespace mlir::stax::philox;

namespace {
/// One round: two 32x32->64 multiplications, the high halves xor-ed with the
/// other counter words and the key.
inline Block round(const Block &c, const Key &k) {
  uint64_t p0 = static_cast<uint64_t>(kMultiplier0) * c[0];
  uint64_t p1 = static_cast<uint64_t>(kMultiplier1) * c[2];
  auto hi = [](uint64_t p) { return static_cast<uint32_t>(p >> 32); };
  auto lo = [](uint64_t p) { return static_cast<uint32_t>(p); };
  return {hi(p1) ^ c[1] ^ k[0], lo(p1), hi(p0) ^ c[3] ^ k[1], lo(p0)};
}
} // namespace

Block stax::philox::philox4x32(Block ctr, Key key, unsigned rounds) {
  for (unsigned r = 0; r < rounds; ++r) {
    if (r > 0) {
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    ctr = round(ctr, key);
  }
  return ctr;
}

std::pair<double, double> stax::philox::boxMuller(double u1, double u2) {
  constexpr double kTwoPi = 6.283185307179586; // 2*pi rounded to f64
  double r = std::sqrt(-2.0 * std::log(u1));
  double t = kTwoPi * u2;
  return {r * std::cos(t), r * std::sin(t)};
}
